// The one nonlinear equation inside both pendulum steps (math §1.1, §1.2 in scalar form):
//   x + a V'(x) = rhs,
// with a = h^2/(4m) for Newmark and a = h^2/(24m) for Simpson. Shared so that the two schemes
// solve it by literally the same operations (their results are compared bitwise across
// backends and thread counts).
#pragma once

#include "geomint/platform.hpp"
#include "geomint/scalar_newton.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

// Solves x + a V'(x) = rhs for x by newton_scalar, starting from the explicit guess x = rhs
// (exact when V' vanishes, and within O(a) of the root otherwise). On failure x is the last
// Newton iterate; `iterations` is incremented once per correction.
template <class Real, class Potential>
GEOMINT_HD SolveStatus solve_implicit_node(const Potential& potential, Real a, Real rhs, Real& x,
                                           const NewtonOptions<Real>& options, long long& iterations) {
    x = rhs;
    const auto residual = [&](Real y, Real& value, Real& derivative) {
        value = y + a * potential.slope(y) - rhs;
        derivative = Real(1) + a * potential.curvature(y);
    };
    return newton_scalar(residual, x, options, iterations);
}

}  // namespace geomint
