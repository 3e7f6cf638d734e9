// Pendulum phase portraits: the pendulum ensemble of the run pipeline (grid or --random rows,
// chunk by chunk) whose bodies record into the portrait sink's histograms, per CPU thread or on
// the device with atomic adds. No trajectory is stored; the counts depend on neither the chunk
// size nor the thread count.
#pragma once

#include "ensemble_pipeline.hpp"
#include "pendulum_ensemble.hpp"
#include "portrait_run.hpp"
#include "portrait_sink.hpp"

namespace geomint {

// Whether the model's potential is periodic (q an angle, wrapped into (-pi, pi] in the plane).
bool pendulum_potential_is_periodic(const PendulumModel& model);

// What a pass over the initial conditions finds before the run: the range of initial energies,
// and the largest |p| any trajectory can reach, sqrt(2 m (H0 - min V)), with min V sampled at 257
// points of [qmin, qmax] and at q0 (the default p range is built on it).
struct PendulumEnsembleBounds {
    double emin = 0, emax = 0, pmax = 0;
};
PendulumEnsembleBounds scan_pendulum_ensemble(const PendulumJob& job, Precision precision, double qmin, double qmax);

// Row `row`'s initial energy, from its inputs rounded to the run's precision, in double: the same
// value in the scan above and in the run, so its energy code is the one the scale was made for.
double pendulum_initial_energy(const PendulumJob& job, Precision precision, std::uint64_t row);

// The ensemble of a portrait, recording into `sink` (made with the run's settings and backend)
// with the plane and the rows' energy codes. `job` and `sink` must outlive it. `wrap`: x = q
// wrapped to (-pi, pi] (else x = q).
std::unique_ptr<Ensemble> make_pendulum_portrait_ensemble(const PendulumJob& job, const RunConfig& config,
                                                          PortraitSink& sink, bool wrap);

// Runs the whole ensemble through the pipeline on config.backend (CPU: config.threads; CUDA: one
// thread per trajectory) by chunks of config.chunk_size at config.precision into a portrait sink
// that writes nothing, and returns its histogram and statuses.
PortraitResult compute_pendulum_portrait(const PendulumJob& job, const RunConfig& config,
                                         const PortraitSettings& settings, bool wrap,
                                         const ProgressCallback& progress = {});

}  // namespace geomint
