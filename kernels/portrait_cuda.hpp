// Host API of the device density histogram of a phase portrait: allocated once per run, filled by
// kernels through device_view() with atomic_add (portrait_histogram.cuh), downloaded at the end.
// Implemented in portrait_histogram.cu with CUDA and portrait_histogram_unavailable.cpp without;
// callers never need a CUDA header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "geomint/portrait/histogram_view.hpp"
#include "geomint/portrait/pixel_grid.hpp"

namespace geomint {

class PortraitCudaHistogram {
public:
    // Zeroed device counters for grid.width * grid.height pixels (and energy sums when asked).
    // Every CUDA error becomes a std::runtime_error.
    PortraitCudaHistogram(const portrait::PixelGrid& grid, bool with_energy);
    ~PortraitCudaHistogram();
    PortraitCudaHistogram(const PortraitCudaHistogram&) = delete;
    PortraitCudaHistogram& operator=(const PortraitCudaHistogram&) = delete;

    // Device pointers, for a kernel that records with portrait::atomic_add.
    portrait::HistogramView device_view();
    // Bins the n plane points (x[k], y[k]) (host arrays) on the device, one thread per point, each
    // visit carrying energy_codes[k] (host array; may be null when energy is not recorded).
    void record_points(const double* x, const double* y, const std::uint32_t* energy_codes, std::size_t n);
    // Copies the counters to host arrays of pixels entries each (energy_sums may be null).
    void download(portrait::HistogramCount* counts, portrait::HistogramCount* energy_sums) const;

private:
    struct Device;
    std::unique_ptr<Device> device_;
};

}  // namespace geomint
