// Newton's method for "local" implicit steps on a periodic chain: block i of the residual depends
// only on unknown blocks i-1, i, i+1, so the Jacobian is block cyclic tridiagonal (math §3).
#pragma once

#include <cmath>
#include <concepts>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/spin/block_cyclic_tridiagonal.hpp"
#include "geomint/spin/dual.hpp"
#include "geomint/spin/mat3.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/vec3.hpp"

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
//       // Optional (B = 3): the residual block and its exact Jacobian blocks d/d left, self,
//       // right, by formulas in plain Real (math §3). Used instead of dual numbers when present
//       // and linearise_into below is not (the in-tree problems provide linearise_into only;
//       // collect_linearise below gives this form from it).
//       GEOMINT_HD Vec3<Real> linearise(int i, const Real* left, const Real* self, const Real* right,
//                                       NeighbourJacobian<Real>& jacobian) const;
//       // Optional (any B; used when the B = 3 form above is absent): the same in blocks of B,
//       // out = residual block i and jacobian.m[0], m[1], m[2] = d out / d left, self, right.
//       GEOMINT_HD void linearise(int i, const Real* left, const Real* self, const Real* right,
//                                 Real* out, NeighbourBlocks<B, Real>& jacobian) const;
//       // Optional (any B), the same writing each Jacobian entry through sink(block, r, c, value)
//       // into the solver's workspace instead of a NeighbourBlocks (JacobianRowSink below). The
//       // solvers prefer it to both forms above: a block written as soon as it is formed need not
//       // be held (a GPU thread's registers; emit_block in mat3.hpp):
//       template <class Sink>
//       GEOMINT_HD void linearise_into(int i, const Real* left, const Real* self, const Real* right,
//                                      Real* out, const Sink& sink) const;
//       // Optional: false when linearise gives only an approximate Jacobian (a quasi-Newton,
//       // converging linearly); Newton then stops by the stricter rule of NewtonStopRule below.
//       static constexpr bool exact_jacobian = false;
//       // Optional: called with the current iterate before each Jacobian is built, to refresh
//       // global scalars that the residual reads as constants (a simplified Newton in them,
//       // e.g. H(v) - H(u) of the Gonzalez midpoint DRG, math §3, unless coupling() below).
//       GEOMINT_HD void prepare(StridedReals<Real> x);
//       // Optional, with exact_conservation: the same in WiderResidual<Real> (Acc), called before
//       // the host's last residual instead (local_simplified_newton_solve; team_newton_solve,
//       // on every worker's copy, with no team to share the sum).
//       template <class Acc>
//       GEOMINT_HD void prepare_wide(StridedReals<Real> x);
//       // Optional, with prepare: such a scalar's part of the Jacobian, the rank-one term a b^T
//       // (a = d residual / d scalar, b = d scalar / dx, B d reals each), after prepare(x);
//       // false when there is none at this iterate. local_newton_solve then takes Newton's step
//       // for the whole Jacobian (Sherman-Morrison), and needs rank_one_workspace_reals more.
//       GEOMINT_HD bool coupling(StridedReals<Real> x, StridedReals<Real> a, StridedReals<Real> b) const;
//       // Optional, with prepare: true when prepare() refreshes such a scalar. Without coupling()
//       // Newton then converges linearly, and stops by the rule of an approximate Jacobian.
//       static constexpr bool global_scalar = true;
//       // Optional: true when the solution carries an exact conservation law (a DRG stage's
//       // energy); the simplified Newton then leaves no systematic error (see there), and on the
//       // host it and the team Newton (team_newton.hpp) evaluate the residual of their last step
//       // in WiderResidual<Real>: residual() must then accept that T too (a template in T, as
//       // above, with Real parameters, does).
//       static constexpr bool exact_conservation = true;
//       // Optional (host): every residual row, rows in order, into emit(i, row) (B values of T,
//       // Real or WiderResidual<Real>), equal to residual()'s rows, where one sweep shares work
//       // between neighbouring rows (DrgStage: AVF's paths, the Gonzalez midpoint's centres).
//       // The host's simplified Newton takes its residuals without a Jacobian this way.
//       template <class T, class Emit>
//       void residual_sweep(StridedReals<Real> x, const Emit& emit) const;
//   };
//
// Without linearise the Jacobian is built by forward-mode AD (ad_linearise below), which is also
// the oracle the analytic Jacobians are tested against.
// Unknowns: x[B i + k]; x holds the initial guess on entry and the solution on success.

// Block row i of the Newton Jacobian for blocks of size B, as an analytic linearise (any B)
// writes it: m[0] = d/d left, m[1] = d/d own, m[2] = d/d right unknowns, each row-major.
template <int B, class Real>
struct NeighbourBlocks {
    Real m[3][B][B];
};

template <class Real>
struct NewtonOutcome {
    SolveStatus status;
    int iterations;  // linear solves performed
};

template <int B, class Real>
GEOMINT_HD constexpr std::size_t local_newton_workspace_reals(int d) {
    return BlockCyclicTridiagonal<B, Real>::workspace_reals(d);
}

// What a problem that finishes its residual rows from its prepare() (PreparesResidualRows below)
// keeps a block: 9 values in the wider type of the last residual, at most twice a Real each.
inline constexpr std::size_t kept_row_reals = 18;

// What local_newton_solve and local_simplified_newton_solve need after
// local_newton_workspace_reals for a problem with coupling(): its vectors a and b, then
// kept_row_reals a block for the rows of a problem that finishes them from its prepare().
template <int B>
GEOMINT_HD constexpr std::size_t rank_one_workspace_reals(int d) {
    return (2 * static_cast<std::size_t>(B) + kept_row_reals) * static_cast<std::size_t>(d);
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

template <class P, class Real>
concept HasLinearise = requires(const P& p, const Real* x, NeighbourJacobian<Real>& j) {
    { p.linearise(0, x, x, x, j) } -> std::same_as<Vec3<Real>>;
};

template <class P, class Real>
concept HasBlockLinearise = requires(const P& p, const Real* x, Real* out, NeighbourBlocks<P::block_size, Real>& j) {
    p.linearise(0, x, x, x, out, j);
};

template <class P, class Real>
concept HasRankOneTerm = requires(const P& p, StridedReals<Real> x) {
    { p.coupling(x, x, x) } -> std::same_as<bool>;
};

// Problems whose linearise is only an approximate Jacobian (static constexpr bool exact_jacobian
// = false, e.g. DrgStage's midpoint-Hessian quasi-Newton) converge linearly.
template <class P>
concept ApproximateJacobian = requires {
    requires !P::exact_jacobian;
};

// Problems whose solution carries an exact conservation law (static constexpr bool
// exact_conservation = true, the DRG stages' energy), which a systematic error left by the solve
// would drift over long runs (local_simplified_newton_solve).
template <class P>
concept ExactConservation = requires {
    requires P::exact_conservation;
};

// Problems whose residual reads a global scalar that prepare() refreshes from each iterate (static
// constexpr bool global_scalar = true: the Gonzalez midpoint's lambda) and that give no rank-one
// term for it (no coupling(): the GPU's dual-number Jacobian). The scalar then lags one iterate
// behind x, and Newton converges linearly, as with an approximate Jacobian: the exact stopping rule
// ended the GPU's mp solves early in a way that leaned the energy of chains by -4e-17 a step,
// emulated on the host (bench/RESULTS.md, "Long chains' DRG solves end on the correctly rounded
// root"), one more step removed it.
template <class P>
concept HasGlobalScalar = requires {
    requires P::global_scalar;
};
template <class P, class Real>
concept LaggedScalar = HasGlobalScalar<P> && !HasRankOneTerm<P, Real>;

// The type in which the host's simplified Newton evaluates the residual of the last step of a solve
// with exact_conservation (local_simplified_newton_solve says why): double for float, and for
// double x86's long double, whose 64-bit significand is hardware arithmetic. Elsewhere (a long
// double that is double, or a software quadruple as on 64-bit ARM) and on the device, Real
// itself: no wider residual.
template <class Real>
struct WiderResidual {
    using type = Real;
};
#if !defined(__CUDA_ARCH__)
template <>
struct WiderResidual<float> {
    using type = double;
};
template <>
struct WiderResidual<double> {
    using type = std::conditional_t<std::numeric_limits<long double>::digits == 64, long double, double>;
};
#endif
template <class Real>
inline constexpr bool has_wider_residual = !std::is_same_v<typename WiderResidual<Real>::type, Real>;
template <class P, class Real>
concept HasWidePrepare = requires(P& p, StridedReals<Real> x) {
    p.template prepare_wide<typename WiderResidual<Real>::type>(x);
};

// Problems that evaluate every residual row in one sweep, rows in order into emit(i, row), in T,
// sharing work between neighbouring rows (DrgStage::residual_sweep: AVF, Gonzalez mp), host only.
// The host's simplified Newton takes its residuals without a Jacobian this way.
#if defined(__CUDA_ARCH__)
inline constexpr bool device_code = true;
#else
inline constexpr bool device_code = false;
#endif
struct IgnoreRow {
    template <class T>
    void operator()(int, const T*) const {}
};
template <class P, class T, class Real>
concept HasResidualSweep = requires(const P& p, StridedReals<Real> x) {
    p.template residual_sweep<T>(x, IgnoreRow{});
};
template <class P, class Real>
concept SweepsResidualRows =
    !device_code && HasResidualSweep<P, Real, Real> && HasResidualSweep<P, typename WiderResidual<Real>::type, Real>;

// Problems with a global scalar whose prepare() keeps what the residual rows read, so that an
// iteration without a Jacobian refreshes the scalar and forms its rows in one call
// (DrgStage::prepared_residual_sweep: the Gonzalez midpoint), into the workspace after the
// rank-one term's a and b (rank_one_workspace_reals), host only.
template <class P, class T, class Real>
concept HasPreparedResidualSweep = requires(P& p, StridedReals<Real> x) {
    p.template prepared_residual_sweep<T>(x, x, IgnoreRow{});
};
template <class P, class Real>
concept PreparesResidualRows = SweepsResidualRows<P, Real> && HasRankOneTerm<P, Real> &&
    HasPreparedResidualSweep<P, Real, Real> && HasPreparedResidualSweep<P, typename WiderResidual<Real>::type, Real>;

// The error bound that lets a solve stop one iteration early (math §3, "When a solve stops"). A
// step that contracted the one before by theta = step / previous < 1 leaves, as long as the
// iteration keeps contracting by theta, an error of at most theta/(1 - theta) step = step^2 /
// (previous - step) (a geometric series; Newton's quadratic convergence only makes theta
// smaller). When that is below tolerance/64 (eps/8 at the default tolerance of 8 eps, under the
// rounding of a unit spin's components), the next iteration could only move x by round-off, so
// it is skipped: 3 iterations instead of 4 for most DRG steps of the top at h = 0.05, with the
// same energy errors (bench/RESULTS.md, "Newton stops when the error left is below round-off").
// A step that did not contract (previous - step <= 0) never passes.
template <class Real>
GEOMINT_HD bool error_left_below_round_off(Real step, Real previous, Real tolerance) {
    return step * step <= (previous - step) * (tolerance / Real(64));
}

// Newton's stopping rule, one call per step of max |dx| = step (iteration it, from 1).
// Exact Jacobian: converged when step <= tolerance, or on round-off stagnation (within 64
// tolerances and no longer halving, which for a quadratically convergent iteration happens only
// when the residual is at round-off level).
// Approximate Jacobian: linear convergence with a contraction theta leaves an error up to
// theta/(1 - theta) times the last step, more than the step when theta > 1/2. So a small step
// ends the solve only when it halved the one before (theta <= 1/2) or follows another step within
// the tolerance; and stagnation (within 64 tolerances, no longer halving) only right after a
// step that did halve, i.e. when the iteration was contracting well until round-off stopped it.
// Both: also converged from the second step on when error_left_below_round_off (above).
// finish (an approximate Jacobian for a problem with exact_conservation, the GPU's quasi-Newton DRG
// stages): the step after the one that meets the rule ends the solve, so that the error left is
// theta^2 |dx|, not a systematic theta |dx| (local_simplified_newton_solve says why; without it
// the top's energy drifted to 1.5e-13 after 10^6 sia steps at h = 0.05, bench/RESULTS.md).
template <bool exact, class Real, bool finish = false>
struct NewtonStopRule {
    Real tolerance;
    Real previous = std::numeric_limits<Real>::infinity();
    bool previous_halved = false;  // the first step halves nothing
    bool finishing = false;        // finish: the rule was met, the next step ends the solve

    GEOMINT_HD bool converged(Real step, int it) {
        if (finishing) return true;
        const bool halved = step <= Real(0.5) * previous;  // true for the first step (previous = inf)
        const bool stagnant = it > 1 && step <= Real(64) * tolerance && !halved;
        bool done = it > 1 && error_left_below_round_off(step, previous, tolerance);
        if constexpr (exact) {
            done = done || step <= tolerance || stagnant;
        } else {
            done = done || (step <= tolerance && (halved || previous <= tolerance)) || (stagnant && previous_halved);
        }
        previous = step;
        previous_halved = it > 1 && halved;
        if (finish && done) {
            finishing = true;
            return false;
        }
        return done;
    }
};

// The stopping rule of a Newton with the problem's Jacobian (local_newton_solve, team_newton_solve):
// the approximate one when the Jacobian is approximate or the problem's scalar lags.
template <class Problem, class Real>
inline constexpr bool converges_linearly = ApproximateJacobian<Problem> || LaggedScalar<Problem, Real>;
template <class Problem, class Real>
using NewtonStopRuleFor = NewtonStopRule<!converges_linearly<Problem, Real>, Real,
                                         converges_linearly<Problem, Real> && ExactConservation<Problem>>;

// Writes Jacobian entries of block row i straight into the solver's workspace: block 0, 1, 2 =
// d/d left, own, right, entry (r, c). For problems whose blocks are too large for a thread's
// registers or stack (collocation's 3 s x 3 s on the GPU), which then write each entry once, and
// for those that hand on each 3 x 3 block as soon as it is formed (the midpoint rules, the DRG
// stages).
template <int B, class Real>
struct JacobianRowSink {
    const BlockCyclicTridiagonal<B, Real>& system;
    int i;
    GEOMINT_HD void operator()(int block, int r, int c, Real value) const {
        (block == 0 ? system.lower(i, r, c) : (block == 1 ? system.diag(i, r, c) : system.upper(i, r, c))) = value;
    }
};

template <class P, class Real>
concept HasLineariseInto = requires(const P& p, const Real* x, Real* out,
                                    const JacobianRowSink<P::block_size, Real>& sink) {
    p.linearise_into(0, x, x, x, out, sink);
};

// Row i's Jacobian sink, for a sweep that builds every row (linearise_sweep below).
template <int B, class Real>
struct RowSinks {
    const BlockCyclicTridiagonal<B, Real>& system;
    JacobianRowSink<B, Real> operator()(int i) const { return JacobianRowSink<B, Real>{system, i}; }
};

// Problems that build every Newton row, residual and Jacobian blocks, in one sweep, sharing work
// between neighbouring rows (DrgStage::linearise_sweep: AVF, Gonzalez mp), host only. The host's
// simplified Newton builds its fresh Jacobians this way.
template <class P, class Real>
concept HasLineariseSweep = requires(const P& p, StridedReals<Real> x, const RowSinks<P::block_size, Real>& sinks) {
    p.linearise_sweep(x, sinks, IgnoreRow{});
};
template <class P, class Real>
concept SweepsJacobianRows = !device_code && HasLineariseSweep<P, Real>;

template <class P, class Real>
concept HasCollectableLinearise = requires(const P& p, const Real* x, Real* out,
                                           const NeighbourJacobianSink<Real>& sink) {
    p.linearise_into(0, x, x, x, out, sink);
};

template <int N>
struct PassIndex {
    static constexpr int value = N;
};

}  // namespace detail

// A problem's streamed row (linearise_into) collected into a NeighbourJacobian, with the residual
// block returned: the B = 3 form of linearise above, for a problem that provides only the
// streamed one (the midpoint rules, the DRG stages). The oracle tests compare it with dual numbers
// (tests/spin/test_analytic_jacobians.cpp); the solvers take the streamed form itself.
template <class Problem, class Real>
requires detail::HasCollectableLinearise<Problem, Real> GEOMINT_HD Vec3<Real> collect_linearise(
    const Problem& problem, int i, const Real* left, const Real* self, const Real* right,
    NeighbourJacobian<Real>& jacobian) {
    Real out[3];
    problem.linearise_into(i, left, self, right, out, NeighbourJacobianSink<Real>{jacobian});
    return Vec3<Real>{out[0], out[1], out[2]};
}

// Columns of the Jacobian that one pass of ad_linearise carries as derivatives. On the host all B
// of a block at once (fewest residual evaluations). On the GPU one: the four Dual<Real, B> arrays
// of a pass are 4 B (B + 1) reals, which for the collocation blocks (B = 6, 9, 12) do not fit in a
// thread's registers beside the residual's own temporaries; with one column per pass they are 8 B
// reals (issue 10: coll4 on the chain went from 255 registers and 208 B of spill stores to 232
// registers without spills, measured with its tables still on the stack).
#if defined(__CUDA_ARCH__)
template <int B>
inline constexpr int ad_columns_per_pass = 1;
#else
template <int B>
inline constexpr int ad_columns_per_pass = B;
#endif

// Residual block i and its Jacobian blocks by forward-mode AD: sink(block, r, c, value) receives
// d out_r / d x_c of the left (block 0), own (1) and right (2) unknowns, out[] the residual.
// Chains take passes of Dual<Real, W> (W = ad_columns_per_pass) for each seeded neighbour block
// and each group of W columns (the seeded block is chosen at compile time and the seeds are set
// by comparisons, never by a run-time array index, so they stay in registers on a GPU). A single
// block (`single`, d = 1) is seeded in all three alike: that gives the sum A + D + C the solver
// uses, which is then passed as the own block, with zero neighbour blocks. Each derivative is
// computed by the same operations whatever W is, so the Jacobian does not depend on W.
// Columns (0: ad_columns_per_pass) may be given, so the host tests can check that one column per
// pass gives the same Jacobian as the GPU.
template <int Columns = 0, class Problem, class Real, class Sink>
GEOMINT_HD void ad_linearise(const Problem& problem, int i, bool single, const Real* xl, const Real* xs, const Real* xr,
                             Real* out, Sink&& sink) {
    constexpr int B = Problem::block_size;
    constexpr int W = Columns > 0 ? Columns : ad_columns_per_pass<B>;
    static_assert(B % W == 0, "the passes cover the block's columns in whole groups");
    using D = Dual<Real, W>;
    D left[B], self[B], right[B], res[B];
    for (int k = 0; k < B; ++k) {
        left[k] = D(xl[k]);
        self[k] = D(xs[k]);
        right[k] = D(xr[k]);
    }
    const auto pass = [&](auto which, int first) {
        constexpr int p = decltype(which)::value;  // 0 left, 1 own, 2 right, 3 all three
        for (int k = 0; k < B; ++k)
            for (int j = 0; j < W; ++j) {
                const Real seed = k == first + j ? Real(1) : Real(0);
                if constexpr (p == 0 || p == 3) left[k].d[j] = seed;
                if constexpr (p == 1 || p == 3) self[k].d[j] = seed;
                if constexpr (p == 2 || p == 3) right[k].d[j] = seed;
            }
        problem.residual(i, static_cast<const D*>(left), static_cast<const D*>(self), static_cast<const D*>(right),
                         res);
        for (int k = 0; k < B; ++k)
            for (int j = 0; j < W; ++j) left[k].d[j] = self[k].d[j] = right[k].d[j] = Real(0);
        for (int r = 0; r < B; ++r)
            for (int j = 0; j < W; ++j) sink(p == 3 ? 1 : p, r, first + j, res[r].d[j]);
    };
    for (int first = 0; first < B; first += W) {
        if (single) {
            pass(detail::PassIndex<3>{}, first);
        } else {
            pass(detail::PassIndex<0>{}, first);
            pass(detail::PassIndex<1>{}, first);
            pass(detail::PassIndex<2>{}, first);
        }
    }
    if (single)
        for (int r = 0; r < B; ++r)
            for (int c = 0; c < B; ++c) {
                sink(0, r, c, Real(0));
                sink(2, r, c, Real(0));
            }
    for (int r = 0; r < B; ++r) out[r] = res[r].v;
}

namespace detail {

// The unknown blocks i-1, i, i+1 of x (periodic; for d = 1 all three are block 0), as T: the
// inputs of block row i (residual_block, residual_row).
template <int B, class Real, class T>
GEOMINT_HD void gather_row(StridedReals<Real> x, int d, int i, T* xl, T* xs, T* xr) {
    const int il = i == 0 ? d - 1 : i - 1;
    const int ir = i == d - 1 ? 0 : i + 1;
    for (int k = 0; k < B; ++k) {
        xl[k] = x[B * il + k];
        xs[k] = x[B * i + k];
        xr[k] = x[B * ir + k];
    }
}

// Residual block i at x, evaluated in T (Real, or WiderResidual<Real> for the last residual of a
// host solve): every residual without a Jacobian reads its row through here.
template <class T, class Problem, class Real>
GEOMINT_HD void residual_block(const Problem& problem, StridedReals<Real> x, int d, int i, T* out) {
    constexpr int B = Problem::block_size;
    T xl[B], xs[B], xr[B];
    gather_row<B>(x, d, i, xl, xs, xr);
    problem.residual(i, static_cast<const T*>(xl), static_cast<const T*>(xs), static_cast<const T*>(xr), out);
}

// max(step, |dx|), and NaN once a NaN is met (std::fmax drops it; the callers' isfinite checks
// see it). A comparison: std::fmax was a libm call on the host, 3.4% of the implicit midpoint
// rule's chain time (perf); on sm_90, 36 kernels 2-14 registers fewer, 9 1-4 more (ptxas).
template <class Real>
GEOMINT_HD Real largest_step(Real step, Real dx) {
    const Real size = std::fabs(dx);
    return size <= step || step != step ? step : size;
}

// Residual block i, in T, into row i of the system's right-hand side, rounded to Real; false
// when a value is not finite (Newton then stops: non_finite).
template <int B, class Real, class T>
GEOMINT_HD bool store_residual_row(const BlockCyclicTridiagonal<B, Real>& system, int i, const T* row) {
    for (int r = 0; r < B; ++r) {
        const Real value = static_cast<Real>(row[r]);
        if (!std::isfinite(value)) return false;
        system.rhs(i, r) = value;
    }
    return true;
}

// Every residual row of a problem with a sweep (HasResidualSweep) into the system's right-hand
// side, in T (Real or WiderResidual<Real>), rounded to Real; false when a value is not finite.
template <class T, class Problem, class Real>
bool residual_sweep_into(const Problem& problem, const BlockCyclicTridiagonal<Problem::block_size, Real>& system,
                         StridedReals<Real> x) {
    bool finite = true;
    problem.template residual_sweep<T>(
        x, [&](int i, const T* row) { finite = finite && store_residual_row(system, i, row); });
    return finite;
}

// The same for a problem that refreshes its global scalar with the rows (PreparesResidualRows),
// its prepare() keeping what the rows read in `kept`.
template <class T, class Problem, class Real>
bool prepared_residual_sweep_into(Problem& problem, const BlockCyclicTridiagonal<Problem::block_size, Real>& system,
                                  StridedReals<Real> x, StridedReals<Real> kept) {
    bool finite = true;
    problem.template prepared_residual_sweep<T>(
        x, kept, [&](int i, const T* row) { finite = finite && store_residual_row(system, i, row); });
    return finite;
}

// Every block row of a problem with a linearise sweep (HasLineariseSweep): the residual into
// the system's right-hand side and the Jacobian blocks into its workspace, as residual_row<true>
// puts them row by row; false when a residual value is not finite.
template <class Problem, class Real>
bool linearise_sweep_into(const Problem& problem, const BlockCyclicTridiagonal<Problem::block_size, Real>& system,
                          StridedReals<Real> x) {
    bool finite = true;
    problem.linearise_sweep(x, RowSinks<Problem::block_size, Real>{system},
                            [&](int i, const Real* row) { finite = finite && store_residual_row(system, i, row); });
    return finite;
}

// Residual block i at x in WiderResidual<Real> (the iterate as it is, widened), rounded to Real
// at the end.
template <class Problem, class Real>
GEOMINT_HD void wide_residual_row(const Problem& problem, StridedReals<Real> x, int d, int i, Real* out) {
    using Wide = typename detail::WiderResidual<Real>::type;
    Wide wide[Problem::block_size];
    residual_block<Wide>(problem, x, d, i, wide);
    for (int k = 0; k < Problem::block_size; ++k) out[k] = static_cast<Real>(wide[k]);
}

// Block row i of the Newton system at x (every driver: local_newton_solve, the simplified Newton
// and the team Newton of team_newton.hpp): the residual into out[] and, when `jacobian`, the three
// Jacobian blocks into the solver's workspace (analytic B = 3 blocks, analytic B x B blocks, or
// dual numbers, as the problem provides); without it only the residual, in plain Real.
template <bool jacobian, class Problem, class Real>
GEOMINT_HD void residual_row(const Problem& problem, const BlockCyclicTridiagonal<Problem::block_size, Real>& system,
                             StridedReals<Real> x, int d, int i, Real* out) {
    constexpr int B = Problem::block_size;
    if constexpr (!jacobian) {
        residual_block<Real>(problem, x, d, i, out);
    } else {
        Real xl[B], xs[B], xr[B];
        gather_row<B>(x, d, i, xl, xs, xr);
        if constexpr (HasLineariseInto<Problem, Real>) {
            problem.linearise_into(i, xl, xs, xr, out, JacobianRowSink<B, Real>{system, i});
        } else if constexpr (B == 3 && HasLinearise<Problem, Real>) {
            NeighbourJacobian<Real> jac;
            const Vec3<Real> r = problem.linearise(i, xl, xs, xr, jac);
            for (int a = 0; a < 3; ++a) {
                out[a] = r[a];
                for (int c = 0; c < 3; ++c) {
                    system.lower(i, a, c) = jac.left.m[a][c];
                    system.diag(i, a, c) = jac.self.m[a][c];
                    system.upper(i, a, c) = jac.right.m[a][c];
                }
            }
        } else if constexpr (HasBlockLinearise<Problem, Real>) {
            NeighbourBlocks<B, Real> jac;
            problem.linearise(i, xl, xs, xr, out, jac);
            for (int r = 0; r < B; ++r)
                for (int c = 0; c < B; ++c) {
                    system.lower(i, r, c) = jac.m[0][r][c];
                    system.diag(i, r, c) = jac.m[1][r][c];
                    system.upper(i, r, c) = jac.m[2][r][c];
                }
        } else {
            ad_linearise(problem, i, d == 1, xl, xs, xr, out, [&](int block, int r, int c, Real value) {
                (block == 0 ? system.lower(i, r, c) : (block == 1 ? system.diag(i, r, c) : system.upper(i, r, c))) =
                    value;
            });
        }
    }
}

// A problem's rank-one term a b^T (coupling above) when the system has d <= 3 blocks: every block
// pair (i, j) lies in the cyclic band, so a b^T joins the blocks (the solver adds blocks that act
// on the same unknown, for d = 1 and 2) and one plain solve takes Newton's step.
template <int B, class Real>
GEOMINT_HD void add_rank_one_to_blocks(const BlockCyclicTridiagonal<B, Real>& system, StridedReals<Real> a,
                                       StridedReals<Real> b) {
    for (int i = 0; i < system.d; ++i)
        for (int j = 0; j < system.d; ++j)
            for (int r = 0; r < B; ++r)
                for (int c = 0; c < B; ++c) {
                    const Real term = a[B * i + r] * b[B * j + c];
                    if (j == i)
                        system.diag(i, r, c) += term;
                    else if (j == (i == 0 ? system.d - 1 : i - 1))
                        system.lower(i, r, c) += term;
                    else
                        system.upper(i, r, c) += term;
                }
}

// With J factorised and rhs() holding y = J^{-1} r: z = J^{-1} a into a's slot (rhs() keeps y),
// and the Sherman-Morrison denominator 1 + b.z, which is 0 when J + a b^T is singular.
template <int B, class Real>
GEOMINT_HD SolveStatus rank_one_column(const BlockCyclicTridiagonal<B, Real>& system, StridedReals<Real> a,
                                       StridedReals<Real> b, Real& denominator) {
    const int n = B * system.d;
    for (int k = 0; k < n; ++k) {  // a <- y, rhs <- a
        Real& r = system.rhs(k / B, k % B);
        const Real y = r;
        r = a[k];
        a[k] = y;
    }
    const SolveStatus st = system.substitute();
    if (st != SolveStatus::ok) return st;
    Real bz = Real(0);
    for (int k = 0; k < n; ++k) {  // a <- z, rhs <- y
        Real& r = system.rhs(k / B, k % B);
        const Real z = r;
        bz += b[k] * z;
        r = a[k];
        a[k] = z;
    }
    denominator = Real(1) + bz;
    return denominator == Real(0) ? SolveStatus::singular_jacobian : SolveStatus::ok;
}

// (J + a b^T)^{-1} r = y - z (b.y)/(1 + b.z) in rhs(), from y = J^{-1} r there and z in a's slot.
template <int B, class Real>
GEOMINT_HD void apply_rank_one(const BlockCyclicTridiagonal<B, Real>& system, StridedReals<Real> z,
                               StridedReals<Real> b, Real denominator) {
    const int n = B * system.d;
    Real by = Real(0);
    for (int k = 0; k < n; ++k) by += b[k] * system.solution(k / B, k % B);
    const Real scale = by / denominator;
    for (int k = 0; k < n; ++k) system.rhs(k / B, k % B) -= scale * z[k];
}

// Newton's step with the rows of `system` built at x (the residual in rhs()): J^{-1} r, or, when the
// problem adds a rank-one term a b^T (coupling above), (J + a b^T)^{-1} r by Sherman-Morrison with
// one factorisation of J: y = J^{-1} r, z = J^{-1} a, dx = y - z (b.y)/(1 + b.z) (for d <= 3 the
// term joins the blocks instead). The step is left in system.solution(). `work`: the solver's
// workspace, then rank_one_workspace_reals<B>(d) reals (a, then b) when the problem has coupling().
template <class Problem, int B, class Real>
GEOMINT_HD SolveStatus newton_step(const Problem& problem, const BlockCyclicTridiagonal<B, Real>& system,
                                   StridedReals<Real> x, StridedReals<Real> work) {
    if constexpr (HasRankOneTerm<Problem, Real>) {
        const StridedReals<Real> a = work.at(BlockCyclicTridiagonal<B, Real>::workspace_reals(system.d));
        const StridedReals<Real> b = a.at(static_cast<std::size_t>(B * system.d));
        if (!problem.coupling(x, a, b)) return system.solve();
        if (system.d <= 3) {
            add_rank_one_to_blocks(system, a, b);
            return system.solve();
        }
        SolveStatus st = system.factorise();
        if (st == SolveStatus::ok) st = system.substitute();
        Real denominator = Real(1);
        if (st == SolveStatus::ok) st = rank_one_column(system, a, b, denominator);
        if (st != SolveStatus::ok) return st;
        apply_rank_one(system, a, b, denominator);
        return SolveStatus::ok;
    } else {
        return system.solve();
    }
}

}  // namespace detail

// Runs Newton to convergence: max |dx| <= tolerance, or round-off stagnation (max |dx| within
// 64 tolerances and no longer halving, which happens when the residual is at round-off level).
// Fails with newton_max_iterations, non_finite or singular_jacobian; x then holds the last
// iterate (callers keep their state elsewhere). work: local_newton_workspace_reals<B>(d) reals,
// and rank_one_workspace_reals<B>(d) more for a problem with coupling().
template <class Problem, class Real>
GEOMINT_HD NewtonOutcome<Real> local_newton_solve(Problem& problem, StridedReals<Real> x, StridedReals<Real> work,
                                                  const NewtonOptions<Real>& options) {
    constexpr int B = Problem::block_size;
    const int d = problem.blocks();
    const BlockCyclicTridiagonal<B, Real> system{work, d};
    detail::NewtonStopRuleFor<Problem, Real> stop{newton_tolerance(options)};

    for (int it = 1; it <= options.max_iterations; ++it) {
        if constexpr (detail::HasPrepare<Problem, Real>) problem.prepare(x);
        for (int i = 0; i < d; ++i) {
            Real out[B];
            detail::residual_row<true>(problem, system, x, d, i, out);
            if (!detail::store_residual_row(system, i, out)) return {SolveStatus::non_finite, it};
        }
        const SolveStatus st = detail::newton_step(problem, system, x, work);
        if (st != SolveStatus::ok) return {st, it};
        Real step = Real(0);
        for (int i = 0; i < d; ++i)
            for (int k = 0; k < B; ++k) {
                const Real dx = system.solution(i, k);
                x[B * i + k] -= dx;
                step = detail::largest_step(step, dx);
            }
        if (!std::isfinite(step)) return {SolveStatus::non_finite, it};
        if (stop.converged(step, it)) return {SolveStatus::ok, it};
    }
    // Converged on the last iteration allowed, before the step that would have finished it.
    if (stop.finishing) return {SolveStatus::ok, options.max_iterations};
    return {SolveStatus::newton_max_iterations, options.max_iterations};
}

// Which Newton the host runs for a spin step (issue 10 item 2, chosen by measurement; bench/
// RESULTS.md, "Collocation: a simplified Newton" and "A simplified Newton for every spin step"): the
// simplified Newton below, whose Jacobian is built and factorised at the first iterate and again
// only when a step with kept factors contracts by less than one half (the bound of
// local_simplified_newton_solve). Its later iterations cost a residual and a back substitution,
// where a Newton iteration costs the analytic blocks and a block factorisation per spin: less
// time a step for every spin scheme, for one or two more (cheaper) iterations (figures in
// RESULTS). On the GPU Newton (a negative value: local_newton_solve): no GPU has been lent to
// measure the simplified Newton there.
#if defined(__CUDA_ARCH__)
inline constexpr double jacobian_refresh = -1.0;
#else
inline constexpr double jacobian_refresh = 0.5;
#endif

// The simplified Newton of math §3.1: the Jacobian is built and factorised at the first iterate
// only, and again when a step with kept factors contracts too little; every other iteration
// evaluates the residual alone and back-substitutes (BlockCyclicTridiagonal::factorise and
// substitute). refresh_contraction: rebuild when |dx_k| / |dx_{k-1}| of a step with kept factors
// exceeds it (0: every iteration, i.e. Newton; infinity: never, the Jacobian of the first iterate
// for the whole solve). Convergence as strict as local_newton_solve's: with kept factors the
// iteration converges linearly, and with a contraction theta the remaining error after a step dx is
// at most theta/(1 - theta) |dx|, at most |dx| when theta <= 1/2. So a step with kept factors ends
// the solve only when max |dx| <= tolerance and it contracted by at least one half; the stagnation
// rule (within 64 tolerances, no longer halving) is applied to Newton steps only (a fresh Jacobian
// at that iterate), as local_newton_solve applies it, since "no longer halving" says round-off only
// for a quadratically convergent step, and a step with kept factors that does not halve asks for a
// fresh Jacobian when refresh_contraction >= 1/2 allows it. With refresh_contraction = infinity
// there is no fresh Jacobian to ask for, and the stagnation rule is applied to every step (weaker,
// measured as a variant only). Any step from the second on also ends the solve when
// detail::error_left_below_round_off, the same bound; for a problem with exact_conservation, when
// such a stop falls on a step with kept factors, one more step is taken first (below).
// NewtonOutcome::iterations counts linear solves as before;
// *jacobians, when given, is incremented once per Jacobian built and factorised.
template <class Problem, class Real>
GEOMINT_HD NewtonOutcome<Real> local_simplified_newton_solve(Problem& problem, StridedReals<Real> x,
                                                             StridedReals<Real> work,
                                                             const NewtonOptions<Real>& options,
                                                             Real refresh_contraction, int* jacobians = nullptr) {
    constexpr int B = Problem::block_size;
    const int d = problem.blocks();
    const BlockCyclicTridiagonal<B, Real> system{work, d};
    const Real tol = newton_tolerance(options);
    const bool never_refresh = !(refresh_contraction < std::numeric_limits<Real>::infinity());
    Real previous = std::numeric_limits<Real>::infinity();
    constexpr bool finish_kept_steps = detail::ExactConservation<Problem>;
    // The finishing step's residual in a wider type (WiderResidual; why: below, where the finish
    // is taken).
    constexpr bool wide_last_residual = finish_kept_steps && detail::has_wider_residual<Real>;
    bool fresh = true;       // build and factorise the Jacobian at this iterate
    bool finishing = false;  // a step with kept factors met the stopping rule: one more ends the solve
    // A problem's rank-one term (coupling above) is kept with the factors, as J is: for d > 3,
    // z = J^{-1} a in a's slot, b and the denominator 1 + b.z, applied to every later step
    // (Sherman-Morrison, newton_step); for d <= 3 it joins the blocks before they are factorised.
    bool rank_one = false;
    Real denominator = Real(1);
    // a and b after the solver's workspace (rank_one_workspace_reals), for a problem with coupling().
    const auto rank_one_vector = [&](int which) {
        return work.at(BlockCyclicTridiagonal<B, Real>::workspace_reals(d) + static_cast<std::size_t>(which * B * d));
    };

    // Whether a problem's prepare() keeps what its rows read (PreparesResidualRows), after a and
    // b: in contiguous reals only (every host caller's workspace), else prepare() and rows apart.
    bool prepared_rows = false;
    if constexpr (detail::PreparesResidualRows<Problem, Real>) prepared_rows = work.stride == 1;

    for (int it = 1; it <= options.max_iterations; ++it) {
        // The refresh of a global scalar from x; in an iteration without a Jacobian a problem that
        // prepares its rows refreshes it in the sweep below.
        if (fresh || !prepared_rows) {
            if constexpr (wide_last_residual && detail::HasWidePrepare<Problem, Real>) {
                if (finishing)
                    problem.template prepare_wide<typename detail::WiderResidual<Real>::type>(x);
                else
                    problem.prepare(x);
            } else if constexpr (detail::HasPrepare<Problem, Real>) {
                problem.prepare(x);
            }
        }
        bool swept = false;  // every row in one sweep (HasResidualSweep, HasLineariseSweep)
        if constexpr (detail::SweepsJacobianRows<Problem, Real>) {
            if (fresh) {
                if (!detail::linearise_sweep_into(problem, system, x)) return {SolveStatus::non_finite, it};
                swept = true;
            }
        }
        if constexpr (detail::PreparesResidualRows<Problem, Real>) {
            if (!fresh && prepared_rows) {
                using Wide = typename detail::WiderResidual<Real>::type;
                const bool finite =
                    wide_last_residual && finishing
                        ? detail::prepared_residual_sweep_into<Wide>(problem, system, x, rank_one_vector(2))
                        : detail::prepared_residual_sweep_into<Real>(problem, system, x, rank_one_vector(2));
                if (!finite) return {SolveStatus::non_finite, it};
                swept = true;
            }
        }
        if constexpr (detail::SweepsResidualRows<Problem, Real>) {
            if (!fresh && !swept) {
                const bool finite =
                    wide_last_residual && finishing
                        ? detail::residual_sweep_into<typename detail::WiderResidual<Real>::type>(problem, system, x)
                        : detail::residual_sweep_into<Real>(problem, system, x);
                if (!finite) return {SolveStatus::non_finite, it};
                swept = true;
            }
        }
        for (int i = 0; !swept && i < d; ++i) {
            Real out[B];
            if (fresh)
                detail::residual_row<true>(problem, system, x, d, i, out);
            else if (wide_last_residual && finishing)
                detail::wide_residual_row(problem, x, d, i, out);
            else
                detail::residual_row<false>(problem, system, x, d, i, out);
            if (!detail::store_residual_row(system, i, out)) return {SolveStatus::non_finite, it};
        }
        if (fresh) {
            rank_one = false;
            if constexpr (detail::HasRankOneTerm<Problem, Real>) {
                if (problem.coupling(x, rank_one_vector(0), rank_one_vector(1))) {
                    if (d <= 3)
                        detail::add_rank_one_to_blocks(system, rank_one_vector(0), rank_one_vector(1));
                    else
                        rank_one = true;
                }
            }
            // factorise() leaves the right-hand side in place (it transforms the blocks only).
            SolveStatus st = system.factorise();
            if (st == SolveStatus::ok) st = system.substitute();
            if (st == SolveStatus::ok && rank_one)
                st = detail::rank_one_column(system, rank_one_vector(0), rank_one_vector(1), denominator);
            if (st != SolveStatus::ok) return {st, it};
            if (jacobians) ++*jacobians;
        } else {
            const SolveStatus st = system.substitute();
            if (st != SolveStatus::ok) return {st, it};
        }
        if (rank_one) detail::apply_rank_one(system, rank_one_vector(0), rank_one_vector(1), denominator);
        Real step = Real(0);
        for (int i = 0; i < d; ++i)
            for (int k = 0; k < B; ++k) {
                const Real dx = system.solution(i, k);
                x[B * i + k] -= dx;
                step = detail::largest_step(step, dx);
            }
        if (!std::isfinite(step)) return {SolveStatus::non_finite, it};
        if (finishing) return {SolveStatus::ok, it};
        const bool halved = step <= Real(0.5) * previous;
        const bool done = (step <= tol && (fresh || halved || never_refresh)) ||
                          (it > 1 && detail::error_left_below_round_off(step, previous, tol)) ||
                          ((fresh || never_refresh) && it > 1 && step <= Real(64) * tol && !halved);
        if (done && (fresh || !finish_kept_steps)) return {SolveStatus::ok, it};
        // For a problem with exact_conservation, a step with kept factors that meets the rule is
        // followed by one more, which ends the solve. Newton's last step leaves an error of order
        // |dx|^2, far below the rule's bound; a kept Jacobian's leaves theta |dx|, up to the bound,
        // and it points the same way from step to step (the way the Jacobian at the guess is off
        // from the one at the solution), so over a long run it adds up where rounding averages
        // out. Without the extra step the top's DRG energy drifted linearly, to 1e-13 - 6e-13
        // after 10^6 steps at h = 0.05 (sia, comp2, compsia, comp4; bench/RESULTS.md, "A
        // simplified Newton for every spin step"); after it theta^2 |dx| is left.
        // On the host that last step's residual, and the prepare() before it, are evaluated in
        // WiderResidual<Real> (long double for double on x86) from the iterate as it is, and
        // rounded at the end. The iterate is then within an ulp or two of the root x*, and the
        // step computes x - dx with dx = M (R(x) + r), M the kept inverse and r the residual's
        // rounding, which in double is as large as the step itself. x - dx then landed an ulp
        // off the double nearest x* in about a fifth of the components, and not at random: the
        // energy of chains leaned by up to 5e-18 a step (compsia; sia, comp4 and mp at 3e-19 -
        // 6e-19), to 4.5e-12 after 10^6 steps (bench/RESULTS.md, "The energy lean of DRG steps on
        // chains, removed"). With r well below an ulp, x - dx rounds to the double nearest x*
        // in all but about 0.1% of them, ties of the long double's own rounding
        // (tests/spin/test_drg_last_residual.cpp), and no scheme leans. It costs one residual
        // (for mp also lambda's sums) in long double a stage, no Jacobian: 1.1-1.6x the time of a
        // step (RESULTS). A fresh Jacobian at the end did not help: its step rounds the same way.
        if (done) {
            finishing = true;
        } else {
            fresh = refresh_contraction <= Real(0) || (!fresh && step > refresh_contraction * previous);
        }
        previous = step;
    }
    // Converged on the last iteration allowed, before the step that would have finished it.
    if (finishing) return {SolveStatus::ok, options.max_iterations};
    return {SolveStatus::newton_max_iterations, options.max_iterations};
}

}  // namespace geomint::spin
