// CUDA backend for pendulum ensembles: two slots of device and pinned host arrays (kept for the
// run), each chunk copied and computed on its slot's stream, one thread per trajectory running the
// same body as the CPU backend (kernels/pendulum_body.hpp).
#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

#include "copy_outcome.hpp"
#include "cuda_backend.hpp"
#include "cuda_buffers.cuh"
#include "cuda_stream_slot.cuh"
#include "for_each_index.cuh"

namespace geomint {

namespace {

// One slot: a chunk's inputs, outputs and saves on both sides, and the stream they move on.
template <class Real>
struct PendulumSlot {
    Mirrored<Real> q0, p0, mass, omega, q, p;
    MirroredOutcome<Real> outcome;
    Mirrored<Real> saves;  // with --save-every: [save][trajectory][q, p]
    StreamSlot lane;       // declared last, destroyed first: waits before the arrays are freed

    PendulumSlot(std::size_t capacity, std::size_t save_reals)
        : q0(capacity),
          p0(capacity),
          mass(capacity),
          omega(capacity),
          q(capacity),
          p(capacity),
          outcome(capacity),
          saves(save_reals) {}

    PendulumBatchView<Real> device_view() const {
        return {q0.device.data(), p0.device.data(), mass.device.data(),   omega.device.data(),
                q.device.data(),  p.device.data(),  outcome.device_view()};
    }
    PendulumBatchView<Real> host_view() const {
        return {q0.host.data(), p0.host.data(), mass.host.data(),   omega.host.data(),
                q.host.data(),  p.host.data(),  outcome.host_view()};
    }
};

}  // namespace

template <class Real>
struct PendulumCudaRunner<Real>::Device {
    PendulumModel model;
    PendulumStepSettings<Real> step;
    std::size_t capacity;
    long long save_every;
    std::array<std::unique_ptr<PendulumSlot<Real>>, kSlots> slots;

    Device(const PendulumModel& m, const PendulumStepSettings<Real>& s, std::size_t n, long long every)
        : model(m), step(s), capacity(n), save_every(every) {
        const std::size_t save_reals =
            every > 0 ? static_cast<std::size_t>(save_count(s.steps, every)) * n * 2 : std::size_t{0};
        for (auto& slot : slots) slot = std::make_unique<PendulumSlot<Real>>(n, save_reals);
    }
    ~Device() {
        for (auto& slot : slots)
            if (slot) slot->lane.synchronize_quietly();
    }
    PendulumSlot<Real>& at(int slot) const {
        if (slot < 0 || slot >= kSlots) throw std::invalid_argument("no such CUDA runner slot");
        return *slots[static_cast<std::size_t>(slot)];
    }
};

template <class Real>
PendulumCudaRunner<Real>::PendulumCudaRunner(const PendulumModel& model, const PendulumStepSettings<Real>& step,
                                             std::size_t capacity, long long save_every)
    : device_(std::make_unique<Device>(model, step, capacity, save_every)) {}

template <class Real>
PendulumCudaRunner<Real>::~PendulumCudaRunner() = default;

template <class Real>
PendulumBatchView<Real> PendulumCudaRunner<Real>::slot_view(int slot) const {
    return device_->at(slot).host_view();
}

template <class Real>
PendulumInputArrays<Real> PendulumCudaRunner<Real>::slot_inputs(int slot) const {
    const PendulumSlot<Real>& s = device_->at(slot);
    return {s.q0.host.data(), s.p0.host.data(), s.mass.host.data(), s.omega.host.data()};
}

template <class Real>
const Real* PendulumCudaRunner<Real>::slot_saves(int slot) const {
    return device_->save_every > 0 ? device_->at(slot).saves.host.data() : nullptr;
}

template <class Real>
void PendulumCudaRunner<Real>::enqueue(int slot, std::size_t n) {
    Device& d = *device_;
    PendulumSlot<Real>& s = d.at(slot);
    if (n > d.capacity) throw std::invalid_argument("chunk larger than the CUDA runner's capacity");
    if (s.lane.pending()) throw std::logic_error("CUDA runner slot enqueued twice without a wait");
    if (n == 0) return;
    const cudaStream_t stream = s.lane.stream();
    s.q0.upload_async(n, stream);
    s.p0.upload_async(n, stream);
    s.mass.upload_async(n, stream);
    s.omega.upload_async(n, stream);
    const PendulumBatchView<Real> view = s.device_view();
    const long long saves = d.save_every > 0 ? save_count(d.step.steps, d.save_every) : 0;
    const std::size_t save_reals = static_cast<std::size_t>(saves) * n * 2;
    // NaN until written: a trajectory that fails before a save leaves NaN there, as on the CPU.
    if (saves > 0) enqueue_fill(s.saves.device.data(), save_reals, std::numeric_limits<Real>::quiet_NaN(), stream);
    s.lane.record_kernel_start();
    with_pendulum_types<Real>(d.model, [&](auto scheme, auto potential) {
        using Scheme = decltype(scheme);
        using Potential = decltype(potential);
        if (saves == 0) {
            using Body = PendulumTrajectoryBody<Scheme, Potential, Real>;
            enqueue_for_each_index(Body{scheme, potential, view, d.step}, n, stream);
        } else {
            using Body = PendulumTrajectoryBody<Scheme, Potential, Real, SaveRecorder<Real>>;
            const SaveRecorder<Real> recorder{s.saves.device.data(), n, 2, d.save_every, d.step.steps};
            enqueue_for_each_index(Body{scheme, potential, view, d.step, recorder}, n, stream);
        }
    });
    s.lane.record_kernel_stop();
    s.saves.download_async(save_reals, stream);
    s.q.download_async(n, stream);
    s.p.download_async(n, stream);
    s.outcome.download_async(n, stream);
}

template <class Real>
float PendulumCudaRunner<Real>::wait(int slot) {
    return device_->at(slot).lane.wait();
}

template <class Real>
float PendulumCudaRunner<Real>::run(const PendulumBatchView<Real>& host, std::size_t n, Real* saves) {
    if (n == 0) return 0.0f;
    Device& d = *device_;
    if (n > d.capacity) throw std::invalid_argument("chunk larger than the CUDA runner's capacity");
    if (saves != nullptr && d.save_every <= 0)
        throw std::invalid_argument("saved states asked of a CUDA runner built without save_every");
    const PendulumInputArrays<Real> inputs = slot_inputs(0);
    std::copy_n(host.q0, n, inputs.q0);
    std::copy_n(host.p0, n, inputs.p0);
    std::copy_n(host.mass, n, inputs.mass);
    std::copy_n(host.omega, n, inputs.omega);
    const PendulumBatchView<Real> pinned = slot_view(0);
    enqueue(0, n);
    const float milliseconds = wait(0);
    std::copy_n(pinned.q, n, host.q);
    std::copy_n(pinned.p, n, host.p);
    copy_outcome(pinned.outcome, host.outcome, n);
    if (saves != nullptr)
        std::copy_n(slot_saves(0), static_cast<std::size_t>(save_count(d.step.steps, d.save_every)) * n * 2, saves);
    return milliseconds;
}

template class PendulumCudaRunner<double>;
template class PendulumCudaRunner<float>;

}  // namespace geomint
