// The host's density histogram of a phase portrait: per-pixel visit counts and, for energy
// colouring, per-pixel sums of initial-energy codes, over a validated pixel grid. Histograms of
// the same grid add (per-thread parts, the device's download, or several runs' saved counts).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "geomint/portrait/histogram_view.hpp"
#include "geomint/portrait/pixel_grid.hpp"

namespace geomint {

// The largest width or height accepted: 16384 keeps one histogram with energy sums at 4 GiB at
// most, and is far inside libpng's limits. Throws std::invalid_argument naming the problem when a
// dimension is outside [1, 16384] or the extent is not finite with xmin < xmax and ymin < ymax.
inline constexpr int kMaxPortraitDimension = 16384;
void validate_pixel_grid(const portrait::PixelGrid& grid);

class DensityHistogram {
public:
    // Zero counts (and energy sums when with_energy) for a grid that validate_pixel_grid accepts.
    DensityHistogram(const portrait::PixelGrid& grid, bool with_energy);

    const portrait::PixelGrid& grid() const { return grid_; }
    bool with_energy() const { return with_energy_; }
    std::size_t pixels() const { return counts_.size(); }

    // Row-major, row 0 the top of the image (portrait::PixelMapper's index).
    std::span<const portrait::HistogramCount> counts() const { return counts_; }
    std::span<portrait::HistogramCount> counts() { return counts_; }
    // Empty without energy.
    std::span<const portrait::HistogramCount> energy_sums() const { return energy_sums_; }
    std::span<portrait::HistogramCount> energy_sums() { return energy_sums_; }

    // The histogram as a recorder sees it (plain adds: one thread at a time).
    portrait::HistogramView view();

    // Adds another histogram of the same grid and mode (std::invalid_argument otherwise).
    // Integer sums: the result does not depend on the order of additions.
    void add(const DensityHistogram& other);

    portrait::HistogramCount max_count() const;
    portrait::HistogramCount total_count() const;

private:
    portrait::PixelGrid grid_;
    bool with_energy_;
    std::vector<portrait::HistogramCount> counts_, energy_sums_;
};

bool operator==(const portrait::PixelGrid& a, const portrait::PixelGrid& b);

}  // namespace geomint
