// Stand-in for the device density histogram in a build without nvcc: constructing one throws.
#include <stdexcept>

#include "portrait_cuda.hpp"

namespace geomint {

struct PortraitCudaHistogram::Device {};

PortraitCudaHistogram::PortraitCudaHistogram(const portrait::PixelGrid&, bool) {
    throw std::runtime_error("geomint was built without CUDA (no nvcc found when it was configured)");
}
PortraitCudaHistogram::~PortraitCudaHistogram() = default;
portrait::HistogramView PortraitCudaHistogram::device_view() { return {nullptr, nullptr, 0}; }
void PortraitCudaHistogram::record_points(const double*, const double*, const std::uint32_t*, std::size_t) {}
void PortraitCudaHistogram::download(portrait::HistogramCount*, portrait::HistogramCount*) const {}

}  // namespace geomint
