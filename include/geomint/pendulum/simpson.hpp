// Simpson variational step (quadratic interpolation, Simpson quadrature), math §1.2.
// Order 4 at the nodes; the 3-stage Lobatto IIIA-IIIB pair in disguise.
#pragma once

#include "geomint/pendulum/implicit_node_solve.hpp"
#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

struct Simpson {
    static constexpr const char* name = "simpson";
    static constexpr const char* preserves = "symplectic form (energy bounded, no drift)";
    static constexpr const char* summary = "Simpson variational integrator (quadratic interpolation)";
    static constexpr int order = 4;
    // The implicit equation is x + c h^2/m V'(x) = rhs: one root for every rhs while
    // 1 + c h^2 V''/m > 0 everywhere (math §1.2); the CLI warns past that step.
    static constexpr double implicit_coefficient = 1.0 / 24;

    // math §1.2 with q_r eliminated: the internal node q_m solves
    //   q_m + h^2/(24m) V'(q_m) = q_j + h/(2m) p_j - h^2/(12m) V'(q_j),
    // then q_{j+1} = 2 q_m - q_j - h^2/(4m) V'(q_m) and
    //   p_{j+1} = m/h (q_{j+1} - q_j) - h/6 (2 V'(q_m) + V'(q_{j+1})).
    template <class Real, class Potential>
    GEOMINT_HD SolveStatus step(const Potential& potential, Real h, Real& q, Real& p,
                                const NewtonOptions<Real>& options, long long& iterations) const {
        const Real m = potential.mass;
        const Real a = h * h / (Real(24) * m);
        const Real rhs = q + h / (Real(2) * m) * p - h * h / (Real(12) * m) * potential.slope(q);
        Real qm;
        const SolveStatus status = solve_implicit_node(potential, a, rhs, qm, options, iterations);
        if (status != SolveStatus::ok) return status;
        const Real slope_m = potential.slope(qm);
        const Real q_next = Real(2) * qm - q - h * h / (Real(4) * m) * slope_m;
        p = m / h * (q_next - q) - h / Real(6) * (Real(2) * slope_m + potential.slope(q_next));
        q = q_next;
        return SolveStatus::ok;
    }
};

}  // namespace geomint
