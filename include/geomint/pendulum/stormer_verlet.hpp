// Störmer–Verlet (velocity Verlet) step for L = m/2 q'^2 - V(q), math §1.4: the explicit
// order-2 variational scheme that users compare the implicit ones against.
#pragma once

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

struct StormerVerlet {
    static constexpr const char* name = "verlet";
    static constexpr const char* preserves = "symplectic form (energy bounded, no drift)";
    static constexpr const char* summary = "Stormer-Verlet, explicit (kick-drift-kick), no Newton solve";
    static constexpr int order = 2;
    // No implicit equation to solve: 0 tells the CLI there is no root-uniqueness bound to warn about.
    static constexpr double implicit_coefficient = 0;

    // Half kick, drift, half kick (math §1.4):
    //   p_{1/2} = p_j - h/2 V'(q_j),  q_{j+1} = q_j + h/m p_{1/2},  p_{j+1} = p_{1/2} - h/2 V'(q_{j+1}).
    // Explicit, so it always returns ok and adds no Newton iterations; a NaN or an infinity it
    // produces is caught by integrate_trajectory's finiteness check and ends the trajectory with
    // non_finite, exactly as for the implicit schemes.
    template <class Real, class Potential>
    GEOMINT_HD SolveStatus step(const Potential& potential, Real h, Real& q, Real& p, const NewtonOptions<Real>&,
                                long long&) const {
        const Real half = h / Real(2);
        const Real p_half = p - half * potential.slope(q);
        q = q + h / potential.mass * p_half;
        p = p_half - half * potential.slope(q);
        return SolveStatus::ok;
    }
};

}  // namespace geomint
