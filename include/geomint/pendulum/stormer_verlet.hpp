// Störmer–Verlet (velocity Verlet) step for L = m/2 q'^2 - V(q), math §1.4: the explicit
// order-2 variational scheme that users compare the implicit ones against. As increments (§1.6).
#pragma once

#include "geomint/pendulum/increment_step.hpp"
#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

struct StormerVerlet : IncrementStep<StormerVerlet> {
    static constexpr const char* name = "verlet";
    static constexpr const char* preserves = "symplectic form (energy bounded, no drift)";
    static constexpr const char* summary = "Stormer-Verlet, explicit (kick-drift-kick), no Newton solve";
    static constexpr int order = 2;
    // No implicit equation to solve: 0 tells the CLI there is no root-uniqueness bound to warn about.
    static constexpr double implicit_coefficient = 0;

    // Half kick, drift, half kick (math §1.4):
    //   p_{1/2} = p_j - h/2 V'(q_j),  q_{j+1} = q_j + h/m p_{1/2},  p_{j+1} = p_{1/2} - h/2 V'(q_{j+1}),
    // as increments (§1.6): dq = h/m p_{1/2}, dp = -h/2 (V'(q_j) + V'(q_j + dq)).
    // Explicit, so it always returns ok and adds no Newton iterations; a NaN or an infinity it
    // produces is caught by integrate_trajectory's finiteness check and ends the trajectory with
    // non_finite, exactly as for the implicit schemes.
    template <class Real, class Potential>
    GEOMINT_HD SolveStatus increment(const Potential& potential, Real h, Real q, Real p, Real& dq, Real& dp,
                                     const NewtonOptions<Real>&, long long&) const {
        const Real half = h / Real(2);
        const Real slope_j = potential.slope(q);
        dq = h / potential.mass * (p - half * slope_j);
        dp = -half * (slope_j + potential.slope(q + dq));
        return SolveStatus::ok;
    }
};

}  // namespace geomint
