// CPU backend for pendulum ensembles: an OpenMP loop over the shared per-trajectory body, or, in
// double precision where this CPU has them, over blocks of SIMD lanes (pendulum_lanes.hpp).
#include <omp.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "pendulum_batch.hpp"

namespace geomint {

namespace {

// The scalar body's recorders seen from the lanes: trajectory i's observer, called per state.
template <class Recorder>
class RecorderObserver final : public PendulumLaneObserver {
public:
    explicit RecorderObserver(Recorder recorder) : recorder_(recorder) {}
    void observe(std::size_t i, long long step, double q, double p) const override { recorder_.at(i)(step, q, p); }

private:
    Recorder recorder_;
};

// The lanes' loop: blocks of `width` trajectories, the last one partly filled.
void run_lanes(const PendulumLaneRunner& runner, PendulumLaneTask task, long long n, int thread_count,
               const ProgressCallback& progress, const SaveRecorder<double>* saves,
               const CpuPortraitRecording* portrait) {
    const long long width = runner.width;
    const long long blocks = (n + width - 1) / width;
#pragma omp parallel num_threads(thread_count)
    {
        // Each thread's observer: a portrait records into the thread's own histogram.
        std::optional<RecorderObserver<SaveRecorder<double>>> save_observer;
        std::optional<RecorderObserver<decltype(portrait->pendulum(0))>> portrait_observer;
        PendulumLaneTask own = task;
        if (saves != nullptr) own.observer = &save_observer.emplace(*saves);
        if (portrait != nullptr) own.observer = &portrait_observer.emplace(portrait->pendulum(omp_get_thread_num()));
            // Dynamic schedule: failed trajectories stop early and would unbalance a static split.
#pragma omp for schedule(dynamic, 8)
        for (long long b = 0; b < blocks; ++b) {
            const long long first = b * width;
            const int count = static_cast<int>(std::min(width, n - first));
            runner.run_block(own, static_cast<std::size_t>(first), count);
            if (progress) progress(static_cast<std::uint64_t>(count));
        }
    }
}

}  // namespace

template <class Real>
PendulumLaneRunner cpu_pendulum_lanes(const PendulumModel& model, CpuLanes lanes) {
    if constexpr (std::is_same_v<Real, double>) {
        if (lanes == CpuLanes::automatic) return pendulum_lanes_for(model);
        if (lanes == CpuLanes::scalar || pendulum_lanes_for(model).run_block == nullptr) return {};
        const std::string_view wanted = lanes == CpuLanes::avx2 ? "avx2" : "sse2";
        for (const PendulumLaneRunner& runner : pendulum_lanes_on_this_cpu())
            if (runner.instruction_set == wanted) return runner;
    }
    return {};
}

template <class Real>
void run_pendulum_batch_cpu(const PendulumModel& model, const PendulumStepSettings<Real>& step,
                            PendulumBatch<Real>& batch, int threads, const ProgressCallback& progress,
                            const SaveRecorder<Real>* saves, const CpuPortraitRecording* portrait, CpuLanes lanes) {
    const auto n = static_cast<long long>(batch.size());
    const int thread_count = threads > 0 ? threads : omp_get_max_threads();
    if (portrait != nullptr && (saves != nullptr || portrait->threads < thread_count))
        throw std::invalid_argument("a pendulum batch records saves or a portrait with a histogram per thread");
    const PendulumBatchView<Real> view = batch.view();
    if constexpr (std::is_same_v<Real, double>) {
        const PendulumLaneRunner runner = cpu_pendulum_lanes<Real>(model, lanes);
        if (runner.run_block != nullptr) {
            PendulumLaneTask task = pendulum_lane_task(model, step.h, step.steps, step.newton);
            task.q0 = view.q0;
            task.p0 = view.p0;
            task.mass = view.mass;
            task.omega = view.omega;
            task.q = view.q;
            task.p = view.p;
            task.energy_error = view.outcome.energy_error;
            task.newton_iterations = view.outcome.newton_iterations;
            task.steps_completed = view.outcome.steps_completed;
            task.status = view.outcome.status;
            task.observer = nullptr;
            run_lanes(runner, task, n, thread_count, progress, saves, portrait);
            return;
        }
    }
    // One loop for every recorder; `body_of(thread)` gives a thread's body (a portrait's bodies
    // record into their thread's own histogram). Without a recorder the body compiles as before.
    const auto run = [&](const auto& body_of) {
#pragma omp parallel num_threads(thread_count)
        {
            const auto body = body_of(omp_get_thread_num());
            // Dynamic schedule: failed trajectories stop early and would unbalance a static split.
#pragma omp for schedule(dynamic, 64)
            for (long long i = 0; i < n; ++i) {
                body(static_cast<std::size_t>(i));
                if (progress) progress(1);
            }
        }
    };
    with_pendulum_types<Real>(model, [&](auto scheme, auto potential) {
        using Scheme = decltype(scheme);
        using Potential = decltype(potential);
        if (portrait != nullptr) {
            using Recorder = decltype(portrait->pendulum(0));
            run([&](int thread) {
                return PendulumTrajectoryBody<Scheme, Potential, Real, Recorder>{scheme, potential, view, step,
                                                                                 portrait->pendulum(thread)};
            });
        } else if (saves != nullptr) {
            run([&](int) {
                return PendulumTrajectoryBody<Scheme, Potential, Real, SaveRecorder<Real>>{scheme, potential, view,
                                                                                           step, *saves};
            });
        } else {
            run([&](int) { return PendulumTrajectoryBody<Scheme, Potential, Real>{scheme, potential, view, step}; });
        }
    });
}

template PendulumLaneRunner cpu_pendulum_lanes<double>(const PendulumModel&, CpuLanes);
template PendulumLaneRunner cpu_pendulum_lanes<float>(const PendulumModel&, CpuLanes);
template void run_pendulum_batch_cpu<double>(const PendulumModel&, const PendulumStepSettings<double>&,
                                             PendulumBatch<double>&, int, const ProgressCallback&,
                                             const SaveRecorder<double>*, const CpuPortraitRecording*, CpuLanes);
template void run_pendulum_batch_cpu<float>(const PendulumModel&, const PendulumStepSettings<float>&,
                                            PendulumBatch<float>&, int, const ProgressCallback&,
                                            const SaveRecorder<float>*, const CpuPortraitRecording*, CpuLanes);

}  // namespace geomint
