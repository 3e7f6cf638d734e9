// Newmark (midpoint variational) step for L = m/2 q'^2 - V(q), math §1.1, as increments (§1.6).
#pragma once

#include "geomint/pendulum/implicit_node_solve.hpp"
#include "geomint/pendulum/increment_step.hpp"
#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

struct Newmark : IncrementStep<Newmark> {
    static constexpr const char* name = "newmark";
    static constexpr const char* preserves = "symplectic form (energy bounded, no drift)";
    static constexpr const char* summary = "midpoint variational integrator";
    static constexpr int order = 2;
    // The implicit equation is x + c h^2/m V'(x) = rhs: one root for every rhs while
    // 1 + c h^2 V''/m > 0 everywhere (math §1.1); the CLI warns past that step.
    static constexpr double implicit_coefficient = 1.0 / 4;

    // Scalar form of math §1.1 in increments (§1.6): the midpoint x = q_j + y, with y solving
    //   y + h^2/(4m) V'(q_j + y) = h/(2m) p_j,
    // then dq = q_{j+1} - q_j = 2y and dp = p_{j+1} - p_j = -h V'(q_j + y).
    // One V'/V'' pair per Newton iteration, against two for the 2x2 form.
    template <class Real, class Potential>
    GEOMINT_HD SolveStatus increment(const Potential& potential, Real h, Real q, Real p, Real& dq, Real& dp,
                                     const NewtonOptions<Real>& options, long long& iterations) const {
        const Real a = h * h / (Real(4) * potential.mass);
        const Real rhs = h / (Real(2) * potential.mass) * p;
        Real y;  // guessed as rhs, the midpoint of a free flight
        const SolveStatus status = solve_node_displacement(potential, a, q, rhs, y, options, iterations);
        if (status != SolveStatus::ok) return status;
        dq = Real(2) * y;
        dp = -h * potential.slope(q + y);
        return SolveStatus::ok;
    }
};

}  // namespace geomint
