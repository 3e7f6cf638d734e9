// Simpson variational step (quadratic interpolation, Simpson quadrature), math §1.2, as
// increments (§1.6). Order 4 at the nodes; the 3-stage Lobatto IIIA-IIIB pair in disguise.
#pragma once

#include "geomint/pendulum/implicit_node_solve.hpp"
#include "geomint/pendulum/increment_step.hpp"
#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

struct Simpson : IncrementStep<Simpson> {
    static constexpr const char* name = "simpson";
    static constexpr const char* preserves = "symplectic form (energy bounded, no drift)";
    static constexpr const char* summary = "Simpson variational integrator (quadratic interpolation)";
    static constexpr int order = 4;
    // The implicit equation is x + c h^2/m V'(x) = rhs: one root for every rhs while
    // 1 + c h^2 V''/m > 0 everywhere (math §1.2); the CLI warns past that step.
    static constexpr double implicit_coefficient = 1.0 / 24;

    // math §1.2 with q_r eliminated, in increments (§1.6): the internal node q_m = q_j + y, with
    //   y + h^2/(24m) V'(q_j + y) = h/(2m) p_j - h^2/(12m) V'(q_j),
    // then dq = q_{j+1} - q_j = 2y - h^2/(4m) V'(q_m) and the momentum in quadrature form
    //   dp = p_{j+1} - p_j = -h/6 (V'(q_j) + 4 V'(q_m) + V'(q_{j+1})),
    // the difference of the two end-momentum equations; it never divides a difference by h.
    template <class Real, class Potential>
    GEOMINT_HD SolveStatus increment(const Potential& potential, Real h, Real q, Real p, Real& dq, Real& dp,
                                     const NewtonOptions<Real>& options, long long& iterations) const {
        const Real m = potential.mass;
        const Real a = h * h / (Real(24) * m);
        const Real slope_j = potential.slope(q);
        const Real rhs = h / (Real(2) * m) * p - h * h / (Real(12) * m) * slope_j;
        Real y;
        const SolveStatus status = solve_node_displacement(potential, a, q, rhs, y, options, iterations);
        if (status != SolveStatus::ok) return status;
        const Real slope_m = potential.slope(q + y);
        dq = Real(2) * y - h * h / (Real(4) * m) * slope_m;
        dp = -h / Real(6) * (slope_j + Real(4) * slope_m + potential.slope(q + dq));
        return SolveStatus::ok;
    }
};

}  // namespace geomint
