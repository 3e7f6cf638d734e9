// Newton's method for "local" implicit steps on a periodic chain: block i of the residual depends
// only on unknown blocks i-1, i, i+1, so the Jacobian is block cyclic tridiagonal (math §3).
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/spin/block_cyclic_tridiagonal.hpp"
#include "geomint/spin/dual.hpp"
#include "geomint/spin/spin_view.hpp"

namespace geomint::spin {

// The "local problem" concept, generic in the block size B (3 for the DRG schemes, 3 s for an
// s-stage collocation method, one block per spin):
//
//   struct MyProblem {
//       static constexpr int block_size = B;
//       GEOMINT_HD int blocks() const;                       // d, the number of spins
//       // out = residual block i, from unknown blocks i-1, i, i+1 (periodic; for d = 1 all three
//       // are block 0, for d = 2 left and right are the same block). T is Real or
//       // Dual<Real, B>; each pointer points at B values.
//       template <class T>
//       GEOMINT_HD void residual(int i, const T* left, const T* self, const T* right, T* out) const;
//       // Optional: called with the current iterate before each Jacobian is built, to refresh
//       // global scalars that the residual reads as constants (a simplified Newton in them,
//       // e.g. H(v) - H(u) of the Gonzalez midpoint DRG, math §3).
//       GEOMINT_HD void prepare(StridedReals<Real> x);
//   };
//
// The Jacobian is exact: each block row is differentiated by forward-mode AD, seeding Dual<Real, B>
// on one neighbour block at a time (three passes), which gives A_i, D_i, C_i directly.
// Unknowns: x[B i + k]; x holds the initial guess on entry and the solution on success.

template <class Real>
struct NewtonOutcome {
    SolveStatus status;
    int iterations;  // linear solves performed
};

template <int B, class Real>
GEOMINT_HD constexpr std::size_t local_newton_workspace_reals(int d) {
    return BlockCyclicTridiagonal<B, Real>::workspace_reals(d);
}

// Tolerance on max |dx| actually used: NewtonOptions::tolerance, or 8 ulps of 1 when it is 0
// (the unknowns are of unit size: spin components, or tangent vectors times h).
template <class Real>
GEOMINT_HD Real newton_tolerance(const NewtonOptions<Real>& options) {
    return options.tolerance > Real(0) ? options.tolerance : Real(8) * std::numeric_limits<Real>::epsilon();
}

namespace detail {

template <class P, class Real>
concept HasPrepare = requires(P& p, StridedReals<Real> x) {
    p.prepare(x);
};

}  // namespace detail

// Runs Newton to convergence: max |dx| <= tolerance, or round-off stagnation (max |dx| within
// 64 tolerances and no longer halving, which happens when the residual is at round-off level).
// Fails with newton_max_iterations, non_finite or singular_jacobian; x then holds the last
// iterate (callers keep their state elsewhere).
template <class Problem, class Real>
GEOMINT_HD NewtonOutcome<Real> local_newton_solve(Problem& problem, StridedReals<Real> x, StridedReals<Real> work,
                                                  const NewtonOptions<Real>& options) {
    constexpr int B = Problem::block_size;
    using D = Dual<Real, B>;
    const int d = problem.blocks();
    const BlockCyclicTridiagonal<B, Real> system{work, d};
    const Real tol = newton_tolerance(options);
    Real previous = std::numeric_limits<Real>::infinity();

    for (int it = 1; it <= options.max_iterations; ++it) {
        if constexpr (detail::HasPrepare<Problem, Real>) problem.prepare(x);
        for (int i = 0; i < d; ++i) {
            const int il = i == 0 ? d - 1 : i - 1;
            const int ir = i == d - 1 ? 0 : i + 1;
            D left[B], self[B], right[B], out[B];
            for (int k = 0; k < B; ++k) {
                left[k] = D(x[B * il + k]);
                self[k] = D(x[B * i + k]);
                right[k] = D(x[B * ir + k]);
            }
            // Pass 0 seeds the left block, 1 the own block, 2 the right block.
            for (int pass = 0; pass < 3; ++pass) {
                D* seeded = pass == 0 ? left : (pass == 1 ? self : right);
                for (int k = 0; k < B; ++k) seeded[k].d[k] = Real(1);
                problem.residual(i, static_cast<const D*>(left), static_cast<const D*>(self),
                                 static_cast<const D*>(right), out);
                for (int k = 0; k < B; ++k) seeded[k].d[k] = Real(0);
                for (int r = 0; r < B; ++r)
                    for (int c = 0; c < B; ++c) {
                        Real& entry = pass == 0 ? system.lower(i, r, c)
                                                : (pass == 1 ? system.diag(i, r, c) : system.upper(i, r, c));
                        entry = out[r].d[c];
                    }
            }
            for (int r = 0; r < B; ++r) {
                if (!std::isfinite(out[r].v)) return {SolveStatus::non_finite, it};
                system.rhs(i, r) = out[r].v;
            }
        }
        const SolveStatus st = system.solve();
        if (st != SolveStatus::ok) return {st, it};
        Real step = Real(0);
        for (int i = 0; i < d; ++i)
            for (int k = 0; k < B; ++k) {
                const Real dx = system.solution(i, k);
                x[B * i + k] -= dx;
                step = std::fmax(step, std::fabs(dx));
            }
        if (!std::isfinite(step)) return {SolveStatus::non_finite, it};
        if (step <= tol) return {SolveStatus::ok, it};
        if (it > 1 && step <= Real(64) * tol && step > Real(0.5) * previous) return {SolveStatus::ok, it};
        previous = step;
    }
    return {SolveStatus::newton_max_iterations, options.max_iterations};
}

}  // namespace geomint::spin
