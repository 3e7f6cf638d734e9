// Runs one trajectory of a one-degree-of-freedom system for N steps: the per-trajectory
// body that the CPU loop and the CUDA kernel share. Tracks the energy error and Newton work.
#pragma once

#include <cmath>

#include "geomint/pendulum/increment_step.hpp"
#include "geomint/pendulum/potentials.hpp"
#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/step_observer.hpp"

namespace geomint {

template <class Real>
struct TrajectoryResult {
    Real q;
    Real p;
    Real max_energy_error;        // max over the steps taken of |H - H0|
    long long newton_iterations;  // summed over all steps
    long long steps_completed;
    SolveStatus status;  // the first failure ends the trajectory; (q, p) is then the last good state
};

// `scheme` follows the increment interface of increment_step.hpp (math §1.6). `observer`
// (step_observer.hpp) sees the initial state and the state after each completed step.
template <class Scheme, class Potential, class Real, class Observer>
GEOMINT_HD TrajectoryResult<Real> integrate_trajectory(const Scheme& scheme, const Potential& potential, Real q0,
                                                       Real p0, Real h, long long steps,
                                                       const NewtonOptions<Real>& options, Observer&& observer) {
    using std::abs;
    using std::isfinite;
    TrajectoryResult<Real> result{q0, p0, Real(0), 0, 0, SolveStatus::ok};
    const Real energy0 = hamiltonian(potential, q0, p0);
    if (!isfinite(energy0)) {
        result.status = SolveStatus::non_finite;
        return result;
    }
    observer(0LL, q0, p0);
    // The scheme gives each step's increments; they are summed with compensation (math §1.6), so
    // the bits of dq and dp that q + dq and p + dp round away are added back on later steps.
    CompensatedSum<Real> q_sum{q0}, p_sum{p0};
    for (long long n = 0; n < steps; ++n) {
        Real dq{}, dp{};
        const SolveStatus status =
            scheme.increment(potential, h, q_sum.value, p_sum.value, dq, dp, options, result.newton_iterations);
        if (status == SolveStatus::ok) {
            q_sum.add(dq);
            p_sum.add(dp);
        }
        const Real q = q_sum.value, p = p_sum.value;
        const Real energy_error = abs(hamiltonian(potential, q, p) - energy0);
        if (status == SolveStatus::ok && !(isfinite(q) && isfinite(p) && isfinite(energy_error))) {
            result.status = SolveStatus::non_finite;
        } else {
            result.status = status;
        }
        if (result.status != SolveStatus::ok) break;
        result.q = q;
        result.p = p;
        if (energy_error > result.max_energy_error) result.max_energy_error = energy_error;
        ++result.steps_completed;
        observer(result.steps_completed, q, p);
    }
    return result;
}

template <class Scheme, class Potential, class Real>
GEOMINT_HD TrajectoryResult<Real> integrate_trajectory(const Scheme& scheme, const Potential& potential, Real q0,
                                                       Real p0, Real h, long long steps,
                                                       const NewtonOptions<Real>& options) {
    return integrate_trajectory(scheme, potential, q0, p0, h, steps, options, NoStepObserver{});
}

}  // namespace geomint
