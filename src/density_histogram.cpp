// The host's density histogram: grid validation, storage, addition and summaries.
#include "density_histogram.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace geomint {

void validate_pixel_grid(const portrait::PixelGrid& grid) {
    if (grid.width < 1 || grid.width > kMaxPortraitDimension || grid.height < 1 ||
        grid.height > kMaxPortraitDimension) {
        throw std::invalid_argument("portrait size " + std::to_string(grid.width) + "x" + std::to_string(grid.height) +
                                    ": width and height must be in [1, " + std::to_string(kMaxPortraitDimension) + "]");
    }
    const auto& e = grid.extent;
    for (const double v : {e.xmin, e.xmax, e.ymin, e.ymax}) {
        if (!std::isfinite(v)) throw std::invalid_argument("portrait extent: every bound must be finite");
    }
    if (!(e.xmin < e.xmax) || !(e.ymin < e.ymax)) {
        throw std::invalid_argument("portrait extent: needs xmin < xmax and ymin < ymax");
    }
    // The bin width must be a finite positive number (xmax - xmin overflows for +-1e308).
    if (!std::isfinite(e.xmax - e.xmin) || !std::isfinite(e.ymax - e.ymin)) {
        throw std::invalid_argument("portrait extent: the width and height of the extent must be finite");
    }
}

bool operator==(const portrait::PixelGrid& a, const portrait::PixelGrid& b) {
    return a.width == b.width && a.height == b.height && a.extent.xmin == b.extent.xmin &&
           a.extent.xmax == b.extent.xmax && a.extent.ymin == b.extent.ymin && a.extent.ymax == b.extent.ymax;
}

namespace {
std::size_t checked_pixels(const portrait::PixelGrid& grid) {
    validate_pixel_grid(grid);
    return static_cast<std::size_t>(grid.width) * static_cast<std::size_t>(grid.height);
}
}  // namespace

DensityHistogram::DensityHistogram(const portrait::PixelGrid& grid, bool with_energy)
    : grid_(grid),
      with_energy_(with_energy),
      counts_(checked_pixels(grid), 0),
      energy_sums_(with_energy ? counts_.size() : 0, 0) {}

portrait::HistogramView DensityHistogram::view() {
    return {counts_.data(), with_energy_ ? energy_sums_.data() : nullptr, static_cast<long long>(counts_.size())};
}

void DensityHistogram::add(const DensityHistogram& other) {
    if (!(other.grid_ == grid_) || other.with_energy_ != with_energy_) {
        throw std::invalid_argument("density histograms of different grids or colourings cannot be added");
    }
    for (std::size_t k = 0; k < counts_.size(); ++k) counts_[k] += other.counts_[k];
    for (std::size_t k = 0; k < energy_sums_.size(); ++k) energy_sums_[k] += other.energy_sums_[k];
}

portrait::HistogramCount DensityHistogram::max_count() const {
    return counts_.empty() ? 0 : *std::max_element(counts_.begin(), counts_.end());
}

portrait::HistogramCount DensityHistogram::total_count() const {
    return std::accumulate(counts_.begin(), counts_.end(), portrait::HistogramCount{0});
}

}  // namespace geomint
