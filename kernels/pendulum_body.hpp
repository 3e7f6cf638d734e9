// The per-trajectory body of a pendulum ensemble over structure-of-arrays storage:
// one functor, called for index i by the CPU OpenMP loop and by the CUDA kernel alike.
#pragma once

#include <cstddef>

#include "geomint/pendulum/integrate_trajectory.hpp"
#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/step_observer.hpp"
#include "outcome_view.hpp"

namespace geomint {

// Raw pointers into one chunk of the ensemble, host or device memory alike.
// Inputs are per trajectory so that any parameter sweep fits the same layout.
template <class Real>
struct PendulumBatchView {
    const Real* q0;
    const Real* p0;
    const Real* mass;
    const Real* omega;
    Real* q;
    Real* p;
    OutcomeView<Real> outcome;
};

// Settings shared by every trajectory of a run.
template <class Real>
struct PendulumStepSettings {
    Real h;
    long long steps;
    NewtonOptions<Real> newton;
};

// `potential` carries the run-wide parameters (from_parameters); the body sets each trajectory's
// mass and omega on a copy of it. `recorder.at(i)` observes trajectory i's states
// (geomint/step_observer.hpp); the default records nothing.
template <class Scheme, class Potential, class Real, class Recorder = NoRecorder>
struct PendulumTrajectoryBody {
    Scheme scheme;
    Potential potential;
    PendulumBatchView<Real> view;
    PendulumStepSettings<Real> settings;
    Recorder recorder{};

    GEOMINT_HD void operator()(std::size_t i) const {
        Potential trajectory_potential = potential;
        trajectory_potential.mass = view.mass[i];
        trajectory_potential.omega = view.omega[i];
        const TrajectoryResult<Real> r =
            integrate_trajectory(scheme, trajectory_potential, view.q0[i], view.p0[i], settings.h, settings.steps,
                                 settings.newton, recorder.at(i));
        view.q[i] = r.q;
        view.p[i] = r.p;
        view.outcome.set(i, r.max_energy_error, r.newton_iterations, r.steps_completed, r.status);
    }
};

}  // namespace geomint
