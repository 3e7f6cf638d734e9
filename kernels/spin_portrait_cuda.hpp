// Host API of the CUDA spin portrait: one thread per chain runs the shared per-chain body with a
// SpinPortraitRecorder over an AtomicRecorder into a device histogram (the portrait sink's). Implemented in
// spin_portrait_cuda.cu with CUDA and spin_portrait_cuda_unavailable.cpp without; callers never
// need a CUDA header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "geomint/portrait/histogram_view.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/record_schedule.hpp"
#include "geomint/portrait/trajectory_recorders.hpp"
#include "spin_body.hpp"
#include "spin_dispatch.hpp"

namespace geomint {

template <class Real>
class SpinPortraitCudaRunner {
public:
    // Device state and workspace for `capacity` chains of `spins` spins, kept for the run; the
    // bodies record into `histogram` (device memory of `grid`, owned by the caller; energy codes
    // are uploaded when it has energy sums). Every CUDA error becomes a std::runtime_error.
    SpinPortraitCudaRunner(const SpinModel& model, const SpinStepSettings<Real>& step, int spins, std::size_t capacity,
                           const portrait::PixelGrid& grid, portrait::HistogramView histogram,
                           portrait::RecordSchedule schedule, portrait::SpinPlaneChoice plane);
    ~SpinPortraitCudaRunner();
    SpinPortraitCudaRunner(const SpinPortraitCudaRunner&) = delete;
    SpinPortraitCudaRunner& operator=(const SpinPortraitCudaRunner&) = delete;

    // Uploads the initial spins of n chains (host memory, component c of spin i of chain t at
    // state[(3 i + c) n + t]) and their energy codes (null without energy), runs them into the
    // device histogram and copies each chain's status (SolveStatus) to `status` (n entries).
    void run(const Real* state, const std::uint32_t* energy_codes, std::size_t n, std::uint8_t* status);

private:
    struct Device;
    std::unique_ptr<Device> device_;
};

}  // namespace geomint
