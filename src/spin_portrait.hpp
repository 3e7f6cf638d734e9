// The drivers of spin phase portraits: the ensemble's chains (--s0, --wave, --random, --init)
// chunk by chunk, the shared per-chain body with a recorder into per-thread histograms merged at
// the end (CPU) or into one device histogram by atomic adds (CUDA). No trajectory is stored; the
// counts depend on neither the chunk size nor the thread count.
#pragma once

#include "ensemble_pipeline.hpp"
#include "geomint/portrait/trajectory_recorders.hpp"
#include "portrait_run.hpp"
#include "spin_ensemble.hpp"

namespace geomint {

// Chain `chain`'s initial energy, from its spins rounded to the run's precision, in double: the
// same value before the run (the energy range) and in it (the chain's energy code).
double spin_initial_energy(const SpinJob& job, Precision precision, std::uint64_t chain);

// The range [emin, emax] of the ensemble's initial energies.
EnergyScale scan_spin_energies(const SpinJob& job, Precision precision);

// Runs the whole ensemble (config.threads, config.chunk_size, config.precision) on the CPU, or on
// the GPU with config.backend cuda in double, and returns the histogram of the chosen plane's points.
PortraitResult compute_spin_portrait(const SpinJob& job, const RunConfig& config, const PortraitSettings& settings,
                                     const portrait::SpinPlaneChoice& plane, const ProgressCallback& progress = {});

}  // namespace geomint
