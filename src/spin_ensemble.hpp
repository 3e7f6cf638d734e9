// A spin ensemble for the run pipeline: initial spins from --s0, --wave, --random or --init as
// source, the CPU or CUDA backend (recording a phase portrait as it runs, when asked), and the
// distance to the exact spin wave as derived column.
#pragma once

#include <memory>

#include "ensemble_pipeline.hpp"
#include "portrait_run.hpp"
#include "spin_dispatch.hpp"
#include "spin_initial_conditions.hpp"

namespace geomint {

// What `geomint spin` asks for, parsed.
struct SpinJob {
    SpinModel model;
    SpinInitialConditions initial;
    bool exact = false;  // add `error`, the distance to the exact spin wave at T
};

// The ensemble at the run's precision. With `portrait`, its bodies record every state the
// portrait's schedule picks into the target's histograms (on the device when it has a device
// view, with the CUDA portrait kernels; on the CPU otherwise); the histograms it points to must
// outlive the ensemble.
std::unique_ptr<Ensemble> make_spin_ensemble(const SpinJob& job, const RunConfig& config,
                                             const PortraitTarget* portrait = nullptr);

}  // namespace geomint
