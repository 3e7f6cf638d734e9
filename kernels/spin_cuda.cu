// CUDA backend for spin ensembles: two slots of device and pinned host arrays (kept for the run),
// each with its own Newton workspace and stream, structure of arrays (neighbouring threads read
// neighbouring addresses), one thread per chain running the same body as the CPU backend
// (kernels/spin_body.hpp), or one thread block per chain for long chains (spin_chain_layout.hpp).
#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <utility>

#include "copy_outcome.hpp"
#include "cuda_backend.hpp"
#include "cuda_buffers.cuh"
#include "cuda_stream_slot.cuh"
#include "for_each_index.cuh"
#include "spin_cuda_launch.hpp"

#ifndef GEOMINT_SPIN_CUDA_UNITS
#error "compile with -DGEOMINT_SPIN_CUDA_UNITS=n (CMake does)"
#endif

namespace geomint {

static_assert(spin::SpinSystems::size <= GEOMINT_SPIN_CUDA_UNITS,
              "more spin systems than CUDA translation units: raise GEOMINT_SPIN_CUDA_UNITS in CMakeLists.txt");

namespace {

template <class Real, int... Index>
void enqueue_for_system(const SpinModel& model, const SpinStepSettings<Real>& step, const SpinBatchView<Real>& view,
                        const SaveRecorder<Real>* saves, const SpinBlockLaunch<Real>* block, cudaStream_t stream,
                        std::integer_sequence<int, Index...>) {
    const bool found =
        ((model.system == Index ? (enqueue_spin_system<Index, Real>(model, step, view, saves, block, stream), true)
                                : false) ||
         ...);
    if (!found) throw std::invalid_argument("spin system not registered");
}

// One slot: a chunk's spins, outcomes and saves on both sides, its own device workspace (two
// chunks may run at once), and the stream they move on.
template <class Real>
struct SpinSlot {
    Mirrored<Real> state, norm_error;
    MirroredOutcome<Real> outcome;
    DeviceArray<Real> workspace;
    DeviceArray<Real> team_scratch;  // one block per chain: each chain's team scratch
    Mirrored<Real> saves;            // with --save-every: [save][chain][3 d]
    StreamSlot lane;                 // declared last, destroyed first: waits before the arrays are freed

    SpinSlot(std::size_t state_reals, std::size_t capacity, std::size_t workspace_reals, std::size_t scratch_reals,
             std::size_t save_reals)
        : state(state_reals),
          norm_error(capacity),
          outcome(capacity),
          workspace(workspace_reals),
          team_scratch(scratch_reals),
          saves(save_reals) {}
};

}  // namespace

template <class Real>
struct SpinCudaRunner<Real>::Device {
    SpinModel model;
    SpinStepSettings<Real> step;
    int spins;
    std::size_t capacity;
    long long save_every;
    bool block_per_chain;  // spin_block_per_chain: asked of the launcher, which applies it where it can
    std::array<std::unique_ptr<SpinSlot<Real>>, kSlots> slots;

    Device(const SpinModel& m, const SpinStepSettings<Real>& s, int d, std::size_t n, long long every,
           SpinChainLayout layout)
        : model(m),
          step(s),
          spins(d),
          capacity(n),
          save_every(every),
          block_per_chain(spin_block_per_chain(layout, d)) {
        const std::size_t dim = 3 * static_cast<std::size_t>(d);
        const std::size_t save_reals =
            every > 0 ? static_cast<std::size_t>(save_count(s.steps, every)) * n * dim : std::size_t{0};
        const std::size_t scratch_reals = block_per_chain ? spin_block_scratch_reals<Real>(d) * n : std::size_t{0};
        for (auto& slot : slots)
            slot =
                std::make_unique<SpinSlot<Real>>(dim * n, n, spin_workspace_reals(m, d) * n, scratch_reals, save_reals);
    }
    ~Device() {
        for (auto& slot : slots)
            if (slot) slot->lane.synchronize_quietly();
    }
    SpinSlot<Real>& at(int slot) const {
        if (slot < 0 || slot >= kSlots) throw std::invalid_argument("no such CUDA runner slot");
        return *slots[static_cast<std::size_t>(slot)];
    }
};

template <class Real>
SpinCudaRunner<Real>::SpinCudaRunner(const SpinModel& model, const SpinStepSettings<Real>& step, int spins,
                                     std::size_t capacity, long long save_every, SpinChainLayout layout)
    : device_(std::make_unique<Device>(model, step, spins, capacity, save_every, layout)) {}

template <class Real>
SpinCudaRunner<Real>::~SpinCudaRunner() = default;

template <class Real>
SpinBatchView<Real> SpinCudaRunner<Real>::slot_view(int slot, std::size_t n) const {
    const SpinSlot<Real>& s = device_->at(slot);
    return {s.state.host.data(), nullptr, n, device_->spins, s.norm_error.host.data(), s.outcome.host_view()};
}

template <class Real>
const Real* SpinCudaRunner<Real>::slot_saves(int slot) const {
    return device_->save_every > 0 ? device_->at(slot).saves.host.data() : nullptr;
}

template <class Real>
void SpinCudaRunner<Real>::enqueue(int slot, std::size_t n) {
    Device& d = *device_;
    SpinSlot<Real>& s = d.at(slot);
    if (n > d.capacity) throw std::invalid_argument("chunk larger than the CUDA runner's capacity");
    if (s.lane.pending()) throw std::logic_error("CUDA runner slot enqueued twice without a wait");
    if (n == 0) return;
    const cudaStream_t stream = s.lane.stream();
    const std::size_t dim = 3 * static_cast<std::size_t>(d.spins);
    s.state.upload_async(dim * n, stream);
    const SpinBatchView<Real> view{s.state.device.data(),      s.workspace.data(),     n, d.spins,
                                   s.norm_error.device.data(), s.outcome.device_view()};
    const long long saves = d.save_every > 0 ? save_count(d.step.steps, d.save_every) : 0;
    const std::size_t save_reals = static_cast<std::size_t>(saves) * n * dim;
    // NaN until written: a chain that fails before a save leaves NaN there, as on the CPU.
    if (saves > 0) enqueue_fill(s.saves.device.data(), save_reals, std::numeric_limits<Real>::quiet_NaN(), stream);
    const SaveRecorder<Real> recorder{s.saves.device.data(), n, static_cast<int>(dim), d.save_every, d.step.steps};
    const SpinBlockLaunch<Real> block{s.team_scratch.data(), spin_block_scratch_reals<Real>(d.spins),
                                      spin_block_threads(d.spins)};
    s.lane.record_kernel_start();
    enqueue_for_system<Real>(d.model, d.step, view, saves > 0 ? &recorder : nullptr,
                             d.block_per_chain ? &block : nullptr, stream,
                             std::make_integer_sequence<int, spin::SpinSystems::size>{});
    s.lane.record_kernel_stop();
    s.saves.download_async(save_reals, stream);
    s.state.download_async(dim * n, stream);
    s.norm_error.download_async(n, stream);
    s.outcome.download_async(n, stream);
}

template <class Real>
float SpinCudaRunner<Real>::wait(int slot) {
    return device_->at(slot).lane.wait();
}

template <class Real>
float SpinCudaRunner<Real>::run(const SpinBatchView<Real>& host, std::size_t n, Real* saves) {
    if (n == 0) return 0.0f;
    Device& d = *device_;
    if (n > d.capacity || host.spins != d.spins) throw std::invalid_argument("chunk does not fit the CUDA runner");
    if (saves != nullptr && d.save_every <= 0)
        throw std::invalid_argument("saved states asked of a CUDA runner built without save_every");
    const std::size_t state_reals = 3 * static_cast<std::size_t>(d.spins) * n;
    const SpinBatchView<Real> pinned = slot_view(0, n);
    std::copy_n(host.state, state_reals, pinned.state);
    enqueue(0, n);
    const float milliseconds = wait(0);
    std::copy_n(pinned.state, state_reals, host.state);
    std::copy_n(pinned.norm_error, n, host.norm_error);
    copy_outcome(pinned.outcome, host.outcome, n);
    if (saves != nullptr)
        std::copy_n(slot_saves(0), static_cast<std::size_t>(save_count(d.step.steps, d.save_every)) * n * 3 * d.spins,
                    saves);
    return milliseconds;
}

template class SpinCudaRunner<double>;
template class SpinCudaRunner<float>;

}  // namespace geomint
