// Host API of the CUDA pendulum portrait: one thread per trajectory runs the shared body with an
// AtomicRecorder into a device histogram (the portrait sink's PortraitCudaHistogram). Implemented in
// pendulum_portrait_cuda.cu with CUDA and pendulum_portrait_cuda_unavailable.cpp without; callers never need a CUDA
// header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "geomint/portrait/histogram_view.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/record_schedule.hpp"
#include "pendulum_body.hpp"
#include "pendulum_dispatch.hpp"

namespace geomint {

template <class Real>
class PendulumPortraitCudaRunner {
public:
    // Device arrays for `capacity` trajectories, kept for the run; the bodies record into
    // `histogram` (device memory of `grid`, owned by the caller; energy codes are uploaded when it
    // has energy sums). `wrap`: x = q wrapped to (-pi, pi]. Every CUDA error becomes a
    // std::runtime_error.
    PendulumPortraitCudaRunner(const PendulumModel& model, const PendulumStepSettings<Real>& step, std::size_t capacity,
                               const portrait::PixelGrid& grid, portrait::HistogramView histogram,
                               portrait::RecordSchedule schedule, bool wrap);
    ~PendulumPortraitCudaRunner();
    PendulumPortraitCudaRunner(const PendulumPortraitCudaRunner&) = delete;
    PendulumPortraitCudaRunner& operator=(const PendulumPortraitCudaRunner&) = delete;

    // Uploads the inputs of the n trajectories `host` points at (q0, p0, mass, omega; host memory)
    // and their energy codes (null without energy), runs them into the device histogram and
    // copies the outcomes (host.outcome) back; host.q and host.p are not written.
    void run(const PendulumBatchView<Real>& host, const std::uint32_t* energy_codes, std::size_t n);

private:
    struct Device;
    std::unique_ptr<Device> device_;
};

}  // namespace geomint
