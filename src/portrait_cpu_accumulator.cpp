// Per-thread density histograms: allocation and the merge.
#include "portrait_cpu_accumulator.hpp"

#include <omp.h>

#include <stdexcept>

namespace geomint {

PerThreadHistograms::PerThreadHistograms(const portrait::PixelGrid& grid, bool with_energy, int threads) {
    const int count = threads > 0 ? threads : omp_get_max_threads();
    parts_.reserve(static_cast<std::size_t>(count));
    for (int t = 0; t < count; ++t) parts_.emplace_back(grid, with_energy);
}

portrait::HistogramView PerThreadHistograms::view(int thread) {
    if (thread < 0 || thread >= threads()) throw std::out_of_range("no per-thread histogram for this thread");
    return parts_[static_cast<std::size_t>(thread)].view();
}

DensityHistogram PerThreadHistograms::merge() const {
    DensityHistogram total = parts_.front();
    for (std::size_t t = 1; t < parts_.size(); ++t) total.add(parts_[t]);
    return total;
}

}  // namespace geomint
