// CPU backend for pendulum ensembles: an OpenMP loop over the shared per-trajectory body.
#include <omp.h>

#include <stdexcept>

#include "pendulum_batch.hpp"

namespace geomint {

template <class Real>
void run_pendulum_batch_cpu(const PendulumModel& model, const PendulumStepSettings<Real>& step,
                            PendulumBatch<Real>& batch, int threads, const ProgressCallback& progress,
                            const SaveRecorder<Real>* saves, const CpuPortraitRecording* portrait) {
    const auto n = static_cast<long long>(batch.size());
    const int thread_count = threads > 0 ? threads : omp_get_max_threads();
    if (portrait != nullptr && (saves != nullptr || portrait->threads < thread_count))
        throw std::invalid_argument("a pendulum batch records saves or a portrait with a histogram per thread");
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
    const PendulumBatchView<Real> view = batch.view();
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

template void run_pendulum_batch_cpu<double>(const PendulumModel&, const PendulumStepSettings<double>&,
                                             PendulumBatch<double>&, int, const ProgressCallback&,
                                             const SaveRecorder<double>*, const CpuPortraitRecording*);
template void run_pendulum_batch_cpu<float>(const PendulumModel&, const PendulumStepSettings<float>&,
                                            PendulumBatch<float>&, int, const ProgressCallback&,
                                            const SaveRecorder<float>*, const CpuPortraitRecording*);

}  // namespace geomint
