// The CPU's density histogram of a phase portrait: one private histogram per OpenMP thread
// (plain adds, no atomics, no sharing), added at the end. Integer sums, so the merged counts and
// energy sums are bit-identical for any thread count and schedule.
#pragma once

#include <vector>

#include "density_histogram.hpp"

namespace geomint {

class PerThreadHistograms {
public:
    // `threads` private histograms of the grid (threads <= 0: omp_get_max_threads()). Memory:
    // threads * pixels * 8 bytes, twice that with energy.
    PerThreadHistograms(const portrait::PixelGrid& grid, bool with_energy, int threads);

    int threads() const { return static_cast<int>(parts_.size()); }
    // The histogram of thread `thread` (0 <= thread < threads()).
    portrait::HistogramView view(int thread);
    // The sum of all parts.
    DensityHistogram merge() const;

private:
    std::vector<DensityHistogram> parts_;
};

}  // namespace geomint
