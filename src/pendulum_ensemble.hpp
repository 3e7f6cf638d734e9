// A pendulum ensemble for the run pipeline: the Cartesian parameter grid as source, the CPU or
// CUDA backend, and the optional exact solution as derived columns.
#pragma once

#include <memory>

#include "ensemble_pipeline.hpp"
#include "parameter_axis.hpp"
#include "pendulum_dispatch.hpp"

namespace geomint {

// What `geomint pendulum` asks for, parsed.
struct PendulumJob {
    PendulumModel model;
    ParameterGrid grid;  // axes in row order: mass, omega, q0, p0 (the last varies fastest)
    bool exact = false;  // add q_exact, p_exact (SPEC §1.3)
};

enum PendulumAxis : std::size_t { kMassAxis, kOmegaAxis, kQ0Axis, kP0Axis };

// The ensemble at the run's precision.
std::unique_ptr<Ensemble> make_pendulum_ensemble(const PendulumJob& job, const RunConfig& config);

}  // namespace geomint
