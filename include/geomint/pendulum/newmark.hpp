// Newmark (midpoint variational) step for L = m/2 q'^2 - V(q), math §1.1.
#pragma once

#include "geomint/pendulum/implicit_node_solve.hpp"
#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

struct Newmark {
    static constexpr const char* name = "newmark";
    static constexpr const char* preserves = "symplectic form (energy bounded, no drift)";
    static constexpr const char* summary = "midpoint variational integrator";
    static constexpr int order = 2;
    // The implicit equation is x + c h^2/m V'(x) = rhs: one root for every rhs while
    // 1 + c h^2 V''/m > 0 everywhere (math §1.1); the CLI warns past that step.
    static constexpr double implicit_coefficient = 1.0 / 4;

    // Scalar form of math §1.1: x = (q_j + q_{j+1})/2 solves
    //   x + h^2/(4m) V'(x) = q_j + h/(2m) p_j,
    // then q_{j+1} = 2x - q_j and p_{j+1} = p_j - h V'(x).
    // One V'/V'' pair per Newton iteration, against two for the 2x2 form.
    template <class Real, class Potential>
    GEOMINT_HD SolveStatus step(const Potential& potential, Real h, Real& q, Real& p,
                                const NewtonOptions<Real>& options, long long& iterations) const {
        const Real a = h * h / (Real(4) * potential.mass);
        const Real rhs = q + h / (Real(2) * potential.mass) * p;
        Real x;  // guessed as rhs, the midpoint of a free flight
        const SolveStatus status = solve_implicit_node(potential, a, rhs, x, options, iterations);
        if (status != SolveStatus::ok) return status;
        p = p - h * potential.slope(x);
        q = Real(2) * x - q;
        return SolveStatus::ok;
    }
};

}  // namespace geomint
