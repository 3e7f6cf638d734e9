// CUDA density histogram of a phase portrait: 64-bit counters in device memory for the whole run,
// atomicAdd from any kernel (portrait_histogram.cuh); record_points bins host-supplied points.
#include "device_arrays.cuh"
#include "for_each_index.cuh"
#include "portrait_cuda.hpp"
#include "portrait_histogram.cuh"

namespace geomint {

struct PortraitCudaHistogram::Device {
    portrait::PixelGrid grid;
    thrust::device_vector<portrait::HistogramCount> counts, energy_sums;

    Device(const portrait::PixelGrid& g, bool with_energy, std::size_t pixels)
        : grid(g), counts(pixels, 0), energy_sums(with_energy ? pixels : 0, 0) {}
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
    return {device_pointer(d.counts), d.energy_sums.empty() ? nullptr : device_pointer(d.energy_sums),
            static_cast<long long>(d.counts.size())};
}

void PortraitCudaHistogram::record_points(const double* x, const double* y, const std::uint32_t* energy_codes,
                                          std::size_t n) {
    if (n == 0) return;
    thrust::device_vector<double> dx(n), dy(n);
    thrust::device_vector<std::uint32_t> dcodes(energy_codes != nullptr ? n : 0);
    upload(x, n, dx);
    upload(y, n, dy);
    if (energy_codes != nullptr) upload(energy_codes, n, dcodes);
    const RecordPointBody body{{portrait::PixelMapper(device_->grid), device_view()},
                               device_pointer(dx),
                               device_pointer(dy),
                               energy_codes != nullptr ? device_pointer(dcodes) : nullptr};
    launch_for_each_index(body, n);
}

void PortraitCudaHistogram::download(portrait::HistogramCount* counts, portrait::HistogramCount* energy_sums) const {
    const Device& d = *device_;
    geomint::download(d.counts, d.counts.size(), counts);
    if (energy_sums != nullptr && !d.energy_sums.empty())
        geomint::download(d.energy_sums, d.energy_sums.size(), energy_sums);
}

}  // namespace geomint
