// The one nonlinear equation inside both implicit pendulum steps (math §1.1, §1.2 in scalar form),
// written for the node's displacement y = x - q_j from the step's start (math §1.6):
//   y + a V'(q_j + y) = rhs,
// with a = h^2/(4m) for Newmark and a = h^2/(24m) for Simpson. Shared so that the two schemes
// solve it by literally the same operations (their results are compared bitwise across
// backends and thread counts).
#pragma once

#include "geomint/platform.hpp"
#include "geomint/scalar_newton.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

// Solves y + a V'(base + y) = rhs for y by newton_scalar, starting from the explicit guess y = rhs
// (exact when V' vanishes, and within O(a) of the root otherwise). The unknown is the displacement
// y, of size O(h), rather than the node base + y: Newton then resolves y to its own relative
// precision, and the step's increments built from it carry no rounding of the size of q (math
// §1.6). On failure y is the last Newton iterate; `iterations` is incremented once per correction.
template <class Real, class Potential>
GEOMINT_HD SolveStatus solve_node_displacement(const Potential& potential, Real a, Real base, Real rhs, Real& y,
                                               const NewtonOptions<Real>& options, long long& iterations) {
    y = rhs;
    const auto residual = [&](Real z, Real& value, Real& derivative) {
        const Real x = base + z;
        value = z + a * potential.slope(x) - rhs;
        derivative = Real(1) + a * potential.curvature(x);
    };
    return newton_scalar(residual, y, options, iterations);
}

}  // namespace geomint
