// Host storage for one chunk of a pendulum ensemble (structure of arrays) and the CPU backend
// that runs the shared per-trajectory body over it with OpenMP.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pendulum_body.hpp"
#include "pendulum_dispatch.hpp"
#include "pendulum_lanes.hpp"
#include "portrait_cpu_recording.hpp"
#include "run_reporting.hpp"
#include "save_recorder.hpp"

namespace geomint {

template <class Real>
struct PendulumBatch {
    std::vector<Real> q0, p0, mass, omega;  // inputs, one entry per trajectory
    std::vector<Real> q, p, energy_error;   // outputs
    std::vector<long long> newton_iterations, steps_completed;
    std::vector<std::uint8_t> status;

    std::size_t size() const { return q0.size(); }
    void resize(std::size_t n) {
        for (auto* v : {&q0, &p0, &mass, &omega, &q, &p, &energy_error}) v->resize(n);
        newton_iterations.resize(n);
        steps_completed.resize(n);
        status.resize(n);
    }
    PendulumBatchView<Real> view() {
        return {
            q0.data(),
            p0.data(),
            mass.data(),
            omega.data(),
            q.data(),
            p.data(),
            OutcomeView<Real>{energy_error.data(), newton_iterations.data(), steps_completed.data(), status.data()}};
    }
};

// Whether a double-precision run may use the SIMD lanes (pendulum_lanes.hpp): `automatic` runs
// them whenever this CPU has them and the scheme and potential have a lane form; `scalar` always
// runs the per-trajectory body the CUDA kernel runs: the same bits, slower (tests, benchmarks);
// `avx2` and `sse2` run those narrower lanes where this CPU has them, the scalar body otherwise
// (benchmarks: which width is fastest on a given CPU).
enum class CpuLanes { automatic, scalar, avx2, sse2 };

// Runs every trajectory of `batch` on `threads` CPU threads (0: OpenMP's default), calling
// `progress` (if set) as trajectories finish. Each trajectory is independent (a lane's result
// depends on its own inputs only), so the result is bitwise the same for any thread count. What the bodies record
// besides the final state, at most one of: `saves`, the states it asks for (kernels/save_recorder.hpp); `portrait`,
// every state its schedule picks, into the running thread's histogram (it must have a histogram for each of the
// `threads`). Every ensemble run and every portrait runs through this one loop.
template <class Real>
void run_pendulum_batch_cpu(const PendulumModel& model, const PendulumStepSettings<Real>& step,
                            PendulumBatch<Real>& batch, int threads, const ProgressCallback& progress = {},
                            const SaveRecorder<Real>* saves = nullptr, const CpuPortraitRecording* portrait = nullptr,
                            CpuLanes lanes = CpuLanes::automatic);

// The lanes a run of `model` in `Real` uses with `lanes` (none: the scalar body), for reports.
template <class Real>
PendulumLaneRunner cpu_pendulum_lanes(const PendulumModel& model, CpuLanes lanes);

}  // namespace geomint
