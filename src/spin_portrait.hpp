// Spin phase portraits: the spin ensemble of the run pipeline (--s0, --wave, --random, --init
// chains, chunk by chunk) whose bodies record into the portrait sink's histograms, per CPU thread
// or on the device with atomic adds. No trajectory is stored; the counts depend on neither the
// chunk size nor the thread count.
#pragma once

#include "ensemble_pipeline.hpp"
#include "geomint/portrait/trajectory_recorders.hpp"
#include "portrait_run.hpp"
#include "portrait_sink.hpp"
#include "spin_ensemble.hpp"

namespace geomint {

// Chain `chain`'s initial energy, from its spins rounded to the run's precision, in double: the
// same value before the run (the energy range) and in it (the chain's energy code).
double spin_initial_energy(const SpinJob& job, Precision precision, std::uint64_t chain);

// The range [emin, emax] of the ensemble's initial energies.
EnergyScale scan_spin_energies(const SpinJob& job, Precision precision);

// Whether the portrait sink's histogram lives on the device: config.backend cuda, in either
// precision.
bool spin_portrait_on_device(const RunConfig& config);

// The ensemble of a portrait, recording into `sink` (made with spin_portrait_on_device) the points
// of `plane` with the chains' energy codes. `job` and `sink` must outlive it.
std::unique_ptr<Ensemble> make_spin_portrait_ensemble(const SpinJob& job, const RunConfig& config, PortraitSink& sink,
                                                      const portrait::SpinPlaneChoice& plane);

// Runs the whole ensemble through the pipeline (config.threads, config.chunk_size,
// config.precision) into a portrait sink that writes nothing, and returns the histogram of the
// chosen plane's points and the statuses.
PortraitResult compute_spin_portrait(const SpinJob& job, const RunConfig& config, const PortraitSettings& settings,
                                     const portrait::SpinPlaneChoice& plane, const ProgressCallback& progress = {});

}  // namespace geomint
