// The step interface every pendulum scheme shares (math §1.6): a scheme computes the increments
// (dq, dp) of one step, and the trajectory loop adds them with compensated summation, so that a
// long run keeps the round-off of a random walk (Brouwer's law) instead of a drift.
#pragma once

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

// A running sum that keeps the low-order bits each addition loses (math §1.6, [HMR08]):
// the exact sum of everything added is `value + carry` up to the rounding of `increment + carry`,
// which is relative to the increment, not to the sum.
//
// The error of `value + y` is recovered by Knuth's TwoSum (six additions), exact for any
// magnitudes and signs: p passes through zero every half period, where the increment outgrows
// the sum and the cheaper Fast2Sum (which needs |value| >= |y|) would not be exact.
// This relies on IEEE additions done in the written order: the build has no -ffast-math
// (which would let the compiler simplify carry to 0), and tests/test_pendulum_roundoff.cpp checks
// that the carry is kept. FMA contraction (nvcc's default --fmad=true, GCC's -ffp-contract=fast)
// only fuses a multiplication with an addition: the six operations below have no multiplication,
// so they are never contracted. An increment that is itself a product may be fused into
// `increment + carry`, which only rounds that sum once instead of twice.
template <class Real>
struct CompensatedSum {
    Real value;
    Real carry = Real(0);

    GEOMINT_HD void add(Real increment) {
        const Real y = increment + carry;
        const Real sum = value + y;
        const Real y_rounded = sum - value;
        carry = (value - (sum - y_rounded)) + (y - y_rounded);
        value = sum;
    }
};

// What a pendulum scheme provides (math §1.6):
//   SolveStatus increment(potential, h, q, p, Real& dq, Real& dp, options, iterations) const;
// with (q_{j+1}, p_{j+1}) = (q_j + dq, p_j + dp) in exact arithmetic, and dq, dp each computed to
// the precision of their own size (never as the difference of two states). On a status other
// than ok, dq and dp are meaningless. IncrementStep<Scheme> then gives the in-place step (one
// plain addition, no carry) for callers that take single steps; integrate_trajectory sums the
// increments with CompensatedSum.
template <class Scheme>
struct IncrementStep {
    template <class Real, class Potential>
    GEOMINT_HD SolveStatus step(const Potential& potential, Real h, Real& q, Real& p,
                                const NewtonOptions<Real>& options, long long& iterations) const {
        Real dq{}, dp{};
        const SolveStatus status =
            static_cast<const Scheme&>(*this).increment(potential, h, q, p, dq, dp, options, iterations);
        if (status != SolveStatus::ok) return status;
        q = q + dq;
        p = p + dp;
        return status;
    }
};

}  // namespace geomint
