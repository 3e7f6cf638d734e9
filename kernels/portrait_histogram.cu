// CUDA density histogram of a phase portrait: 64-bit counters in device memory for the whole run,
// atomicAdd from any kernel (portrait_histogram.cuh); record_points bins host-supplied points.
#include "cuda_buffers.cuh"
#include "for_each_index.cuh"
#include "portrait_cuda.hpp"
#include "portrait_histogram.cuh"

namespace geomint {

struct PortraitCudaHistogram::Device {
    portrait::PixelGrid grid;
    DeviceArray<portrait::HistogramCount> counts, energy_sums;  // energy_sums empty without energy

    Device(const portrait::PixelGrid& g, bool with_energy, std::size_t pixels)
        : grid(g), counts(pixels), energy_sums(with_energy ? pixels : 0) {
        // Zero bytes are zero counters.
        zero_device(counts);
        zero_device(energy_sums);
    }
};

namespace {

// One thread per point: the recorder a per-trajectory body will use (the CPU's PixelMapper, then
// atomic adds).
struct RecordPointBody {
    portrait::AtomicRecorder record;
    const double* x;
    const double* y;
    const std::uint32_t* energy_codes;

    __device__ void operator()(std::size_t k) const {
        record(portrait::PlanePoint{x[k], y[k]}, energy_codes != nullptr ? energy_codes[k] : 0u);
    }
};

}  // namespace

PortraitCudaHistogram::PortraitCudaHistogram(const portrait::PixelGrid& grid, bool with_energy)
    : device_(std::make_unique<Device>(grid, with_energy,
                                       static_cast<std::size_t>(grid.width) * static_cast<std::size_t>(grid.height))) {}

PortraitCudaHistogram::~PortraitCudaHistogram() = default;

portrait::HistogramView PortraitCudaHistogram::device_view() {
    Device& d = *device_;
    return {d.counts.data(), d.energy_sums.size() > 0 ? d.energy_sums.data() : nullptr,
            static_cast<long long>(d.counts.size())};
}

void PortraitCudaHistogram::record_points(const double* x, const double* y, const std::uint32_t* energy_codes,
                                          std::size_t n) {
    if (n == 0) return;
    const DeviceArray<double> dx(n), dy(n);
    const DeviceArray<std::uint32_t> dcodes(energy_codes != nullptr ? n : 0);
    copy_to_device(dx.data(), x, n);
    copy_to_device(dy.data(), y, n);
    if (energy_codes != nullptr) copy_to_device(dcodes.data(), energy_codes, n);
    const RecordPointBody body{{portrait::PixelMapper(device_->grid), device_view()},
                               dx.data(),
                               dy.data(),
                               energy_codes != nullptr ? dcodes.data() : nullptr};
    launch_for_each_index(body, n);  // synchronized: the arrays may be freed after it
}

void PortraitCudaHistogram::download(portrait::HistogramCount* counts, portrait::HistogramCount* energy_sums) const {
    const Device& d = *device_;
    copy_to_host(counts, d.counts.data(), d.counts.size());
    if (energy_sums != nullptr) copy_to_host(energy_sums, d.energy_sums.data(), d.energy_sums.size());
}

}  // namespace geomint
