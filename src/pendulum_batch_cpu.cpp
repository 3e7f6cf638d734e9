// CPU backend for pendulum ensembles: an OpenMP loop over the shared per-trajectory body.
#include <omp.h>

#include "pendulum_batch.hpp"

namespace geomint {

template <class Real>
void run_pendulum_batch_cpu(const PendulumModel& model, const PendulumStepSettings<Real>& step,
                            PendulumBatch<Real>& batch, int threads, const ProgressCallback& progress,
                            const SaveRecorder<Real>* saves) {
    const auto n = static_cast<long long>(batch.size());
    const int thread_count = threads > 0 ? threads : omp_get_max_threads();
    // One loop for both bodies; the one without saves is compiled as before (NoRecorder).
    const auto run = [&](const auto& body) {
    // Dynamic schedule: failed trajectories stop early and would unbalance a static split.
#pragma omp parallel for schedule(dynamic, 64) num_threads(thread_count)
        for (long long i = 0; i < n; ++i) {
            body(static_cast<std::size_t>(i));
            if (progress) progress(1);
        }
    };
    with_pendulum_types<Real>(model, [&](auto scheme, auto potential) {
        using Scheme = decltype(scheme);
        using Potential = decltype(potential);
        if (saves == nullptr) {
            run(PendulumTrajectoryBody<Scheme, Potential, Real>{scheme, potential, batch.view(), step});
        } else {
            run(PendulumTrajectoryBody<Scheme, Potential, Real, SaveRecorder<Real>>{scheme, potential, batch.view(),
                                                                                    step, *saves});
        }
    });
}

template void run_pendulum_batch_cpu<double>(const PendulumModel&, const PendulumStepSettings<double>&,
                                             PendulumBatch<double>&, int, const ProgressCallback&,
                                             const SaveRecorder<double>*);
template void run_pendulum_batch_cpu<float>(const PendulumModel&, const PendulumStepSettings<float>&,
                                            PendulumBatch<float>&, int, const ProgressCallback&,
                                            const SaveRecorder<float>*);

}  // namespace geomint
