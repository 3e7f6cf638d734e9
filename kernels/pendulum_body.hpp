// The per-trajectory body of a pendulum ensemble over structure-of-arrays storage:
// one functor, called for index i by the CPU OpenMP loop and by the CUDA kernel alike.
#pragma once

#include <cstddef>
#include <cstdint>

#include "geomint/pendulum/integrate_trajectory.hpp"
#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"

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
    Real* energy_error;
    long long* newton_iterations;
    long long* steps_completed;
    std::uint8_t* status;  // SolveStatus values
};

// Settings shared by every trajectory of a run.
template <class Real>
struct PendulumStepSettings {
    Real h;
    long long steps;
    Real beta;  // extra potential parameter (Duffing); ignored by the pendulum
    NewtonOptions<Real> newton;
};

template <class Scheme, class Potential, class Real>
struct PendulumTrajectoryBody {
    Scheme scheme;
    PendulumBatchView<Real> view;
    PendulumStepSettings<Real> settings;

    GEOMINT_HD void operator()(std::size_t i) const {
        const Potential potential = Potential::from(view.mass[i], view.omega[i], settings.beta);
        const TrajectoryResult<Real> r = integrate_trajectory(scheme, potential, view.q0[i], view.p0[i], settings.h,
                                                              settings.steps, settings.newton);
        view.q[i] = r.q;
        view.p[i] = r.p;
        view.energy_error[i] = r.max_energy_error;
        view.newton_iterations[i] = r.newton_iterations;
        view.steps_completed[i] = r.steps_completed;
        view.status[i] = static_cast<std::uint8_t>(r.status);
    }
};

}  // namespace geomint
