// Newton's method for one scalar unknown, host+device: the solve inside each
// pendulum step (math §1.1, §1.2 scalar forms). Reports failure instead of continuing (math §3).
#pragma once

#include <cmath>
#include <limits>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

// Tolerance actually used: the caller's, or a few machine epsilons of Real.
template <class Real>
GEOMINT_HD Real scalar_newton_tolerance(const NewtonOptions<Real>& options) {
    return options.tolerance > Real(0) ? options.tolerance : Real(4) * std::numeric_limits<Real>::epsilon();
}

// Solves f(x) = 0 starting from x. `f(x, value, derivative)` fills both. A derivative that
// changes sign between iterates ends the solve with root_not_unique.
// Converged when the Newton correction is below tolerance relative to 1 + |x|, or
// when it has stopped shrinking while already at round-off level (quadratic
// convergence makes the correction after a 1e-8 one tiny; if it is not, the
// residual is noise). `iterations` is incremented once per correction.
template <class Real, class Function>
GEOMINT_HD SolveStatus newton_scalar(const Function& f, Real& x, const NewtonOptions<Real>& options,
                                     long long& iterations) {
    using std::abs;
    using std::isfinite;
    using std::sqrt;
    const Real tolerance = scalar_newton_tolerance(options);
    const Real stagnation_level = sqrt(std::numeric_limits<Real>::epsilon());
    Real previous_correction = std::numeric_limits<Real>::infinity();
    Real first_derivative = Real(0);
    for (int k = 0; k < options.max_iterations; ++k) {
        Real value{}, derivative{};
        f(x, value, derivative);
        if (!isfinite(value) || !isfinite(derivative)) return SolveStatus::non_finite;
        // f is not monotone over the iterates, so the root found need not be the one the scheme
        // means (a too-large step: math §1.1); reported instead of returned as ok.
        if (k == 0) first_derivative = derivative;
        if ((first_derivative > Real(0) && derivative < Real(0)) ||
            (first_derivative < Real(0) && derivative > Real(0)))
            return SolveStatus::root_not_unique;
        if (value == Real(0)) return SolveStatus::ok;
        if (derivative == Real(0)) return SolveStatus::singular_jacobian;
        const Real correction = value / derivative;
        x -= correction;
        ++iterations;
        if (!isfinite(x)) return SolveStatus::non_finite;
        const Real size = abs(correction);
        const Real scale = Real(1) + abs(x);
        if (size <= tolerance * scale) return SolveStatus::ok;
        if (size >= previous_correction && size <= stagnation_level * scale) return SolveStatus::ok;
        previous_correction = size;
    }
    return SolveStatus::newton_max_iterations;
}

}  // namespace geomint
