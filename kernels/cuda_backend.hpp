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
#include "spin_chain_layout.hpp"
#include "spin_dispatch.hpp"

namespace geomint {

struct CudaDeviceInfo {
    bool usable = false;
    std::string description;  // the device's name, or why none can be used
};

// Never throws: tells whether a CUDA device can run kernels now.
CudaDeviceInfo cuda_device_info();

// Where a slot's pendulum inputs are filled (pinned host memory).
template <class Real>
struct PendulumInputArrays {
    Real* q0;
    Real* p0;
    Real* mass;
    Real* omega;
};

// Runs chunks of a pendulum ensemble on the device: one thread per trajectory, the same body as
// the CPU backend. Double-buffered: two slots, each with its own stream, device arrays and pinned
// host arrays for `capacity` trajectories, all allocated once, here (with `save_every` > 0 also
// the saved states of kernels/save_recorder.hpp). While one slot's chunk is copied and computed,
// the caller fills the other slot or reads its results. Every CUDA error becomes a
// std::runtime_error; the destructor waits for both slots, so a run that fails or stops early
// leaves no kernel writing into freed memory.
template <class Real>
class PendulumCudaRunner {
public:
    static constexpr int kSlots = 2;

    PendulumCudaRunner(const PendulumModel& model, const PendulumStepSettings<Real>& step, std::size_t capacity,
                       long long save_every = 0);
    ~PendulumCudaRunner();
    PendulumCudaRunner(const PendulumCudaRunner&) = delete;
    PendulumCudaRunner& operator=(const PendulumCudaRunner&) = delete;

    // Synchronous: copies the inputs of the n trajectories `host` points at (any host memory)
    // through slot 0, runs them and copies the outputs back. Returns the kernel's time in
    // milliseconds (CUDA events). With `saves` (host memory for [save_count(steps, save_every)][n][2]
    // reals; needs save_every > 0 at construction) the saved states too (NaN where a trajectory
    // failed before a save).
    float run(const PendulumBatchView<Real>& host, std::size_t n, Real* saves = nullptr);

    // Asynchronous use, slot s = 0 or 1: fill a chunk's inputs into slot_inputs(s) (pinned host
    // arrays of capacity entries), enqueue(s, n), and after wait(s) read the outputs in
    // slot_view(s) (and slot_saves(s), [save][n][2]; null without saves). A slot must not be
    // touched between its enqueue and its wait. wait returns the kernel's time in milliseconds.
    PendulumInputArrays<Real> slot_inputs(int slot) const;
    PendulumBatchView<Real> slot_view(int slot) const;
    const Real* slot_saves(int slot) const;
    void enqueue(int slot, std::size_t n);
    float wait(int slot);

private:
    struct Device;
    std::unique_ptr<Device> device_;
};

// The same for spin ensembles: one thread per chain, or one thread block per chain where
// `layout` asks for it (kernels/spin_chain_layout.hpp: automatically for long chains), state and
// Newton workspace in device memory in the structure-of-arrays layout of SpinBatchView (stride n
// for a chunk of n chains), two slots.
template <class Real>
class SpinCudaRunner {
public:
    static constexpr int kSlots = 2;

    SpinCudaRunner(const SpinModel& model, const SpinStepSettings<Real>& step, int spins, std::size_t capacity,
                   long long save_every = 0, SpinChainLayout layout = SpinChainLayout::automatic);
    ~SpinCudaRunner();
    SpinCudaRunner(const SpinCudaRunner&) = delete;
    SpinCudaRunner& operator=(const SpinCudaRunner&) = delete;

    // Synchronous: advances the n chains of `host.state` (any host memory, stride n) in place
    // through slot 0 and fills the outcome arrays; host.workspace is not used. Returns the
    // kernel's time in milliseconds. `saves` as for the pendulum, [save][chain][3 d].
    float run(const SpinBatchView<Real>& host, std::size_t n, Real* saves = nullptr);

    // Asynchronous use, as for the pendulum: slot_view(s).state (pinned, stride n for a chunk of
    // n) takes the initial spins and holds the final ones after wait(s), with norm_error and
    // outcome; workspace is null (it lives on the device).
    SpinBatchView<Real> slot_view(int slot, std::size_t n) const;
    const Real* slot_saves(int slot) const;
    void enqueue(int slot, std::size_t n);
    float wait(int slot);

private:
    struct Device;
    std::unique_ptr<Device> device_;
};

}  // namespace geomint
