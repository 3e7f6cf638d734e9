// Host API of the CUDA backend: device detection and one runner per family that keeps its device
// arrays for the whole run. Implemented in kernels/*.cu when CUDA is compiled and by
// kernels/cuda_unavailable.cpp otherwise; callers never need a CUDA header.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "pendulum_body.hpp"
#include "pendulum_dispatch.hpp"
#include "save_recorder.hpp"
#include "spin_body.hpp"
#include "spin_dispatch.hpp"

namespace geomint {

struct CudaDeviceInfo {
    bool usable = false;
    std::string description;  // the device's name, or why none can be used
};

// Never throws: tells whether a CUDA device can run kernels now.
CudaDeviceInfo cuda_device_info();

// Runs chunks of a pendulum ensemble on the device: one thread per trajectory, the same body as
// the CPU backend. Device arrays for `capacity` trajectories are allocated once, here.
// Every CUDA error becomes a std::runtime_error.
template <class Real>
class PendulumCudaRunner {
public:
    PendulumCudaRunner(const PendulumModel& model, const PendulumStepSettings<Real>& step, std::size_t capacity);
    ~PendulumCudaRunner();
    PendulumCudaRunner(const PendulumCudaRunner&) = delete;
    PendulumCudaRunner& operator=(const PendulumCudaRunner&) = delete;

    // Copies the inputs of the n trajectories `host` points at (host memory) to the device, runs
    // them and copies the outputs back. Returns the kernel's time in milliseconds (CUDA events).
    // With `saves` (host memory for [save_count(steps, save_every)][n][2] reals), the states of
    // kernels/save_recorder.hpp are saved on the device and copied there too (NaN where a
    // trajectory failed before a save).
    float run(const PendulumBatchView<Real>& host, std::size_t n, Real* saves = nullptr, long long save_every = 0);

private:
    struct Device;
    std::unique_ptr<Device> device_;
};

// The same for spin ensembles: one thread per chain, state and Newton workspace in device memory
// in the structure-of-arrays layout of SpinBatchView (stride n for a chunk of n chains).
template <class Real>
class SpinCudaRunner {
public:
    SpinCudaRunner(const SpinModel& model, const SpinStepSettings<Real>& step, int spins, std::size_t capacity);
    ~SpinCudaRunner();
    SpinCudaRunner(const SpinCudaRunner&) = delete;
    SpinCudaRunner& operator=(const SpinCudaRunner&) = delete;

    // Advances the n chains of `host.state` (host memory, stride n) in place and fills the
    // outcome arrays; host.workspace is not used. Returns the kernel's time in milliseconds.
    // `saves` as for the pendulum, [save][chain][3 d].
    float run(const SpinBatchView<Real>& host, std::size_t n, Real* saves = nullptr, long long save_every = 0);

private:
    struct Device;
    std::unique_ptr<Device> device_;
};

}  // namespace geomint
