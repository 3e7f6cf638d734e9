// Newton's method for a local problem (local_newton.hpp) run by a team of workers (team.hpp): the
// residual and Jacobian blocks of the spins and the update are split over the workers, the linear
// solve is the partitioned one (partitioned_block_cyclic.hpp). newton_solve() picks it for a
// parallel team and a sequential solver for SequentialTeam.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/partitioned_block_cyclic.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/team.hpp"
#include "geomint/spin/team_reduce.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

// Shared scratch a team of `workers` needs for a problem of d blocks of size B: team_reduce's
// partial results (the step's sums: the energy, the Gonzalez midpoint's H(v) - H(u)), then the
// partitioned solver's, then one flag and one step size per worker.
template <int B, class Real>
GEOMINT_HD constexpr std::size_t team_newton_scratch_reals(int d, int workers) {
    return team_reduce_reals(d) + PartitionedBlockCyclic<B, Real>::scratch_reals(partition_parts(d)) +
           2 * static_cast<std::size_t>(workers);
}

namespace detail {

// Row i of the Newton system (A_i, D_i, C_i and the residual r_i) at the iterate x, as
// local_newton_solve builds it (detail::residual_row); false when the residual is not finite.
// wide: the residual in WiderResidual<Real> instead (wide_residual_row; host only).
template <class Problem, class Real>
GEOMINT_HD bool newton_row(const Problem& problem, StridedReals<Real> x,
                           const BlockCyclicTridiagonal<Problem::block_size, Real>& system, int i,
                           [[maybe_unused]] bool wide) {
    constexpr int B = Problem::block_size;
    Real out[B];
    residual_row<true>(problem, system, x, system.d, i, out);
    if constexpr (has_wider_residual<Real>) {
        if (wide) wide_residual_row(problem, x, system.d, i, out);
    }
    return store_residual_row(system, i, static_cast<const Real*>(out));
}

// Whether Newton's next step is expected to end the solve: the step predicted from the last two
// under quadratic convergence, s_{k+1} ~ s_k^3 / s_{k-1}^2, is within the tolerance or leaves an
// error below round-off (error_left_below_round_off). team_newton_solve takes that step's residual
// in the wider type, so that the solve most often ends on the correctly rounded root without an
// extra step: from an error e, Newton's step leaves O(e^2), far below an ulp. A wrong guess costs a
// wide residual, not the result.
template <class Real>
GEOMINT_HD bool next_step_ends_solve(Real step, Real previous, Real tolerance) {
    const Real ratio = step / previous;
    const Real next = step * ratio * ratio;
    return next <= tolerance || error_left_below_round_off(next, step, tolerance);
}

}  // namespace detail

// local_newton_solve by a parallel team: every worker calls it with the same arguments (its own
// copy of `problem`; x and work shared) and gets the same outcome. The convergence test is the
// sequential one on the same max |dx|; only the linear solve's rounding differs (the partitioned
// elimination order), so results agree with local_newton_solve to round-off, not bit for bit. They
// do not depend on the team's size: the partition is a function of d alone, and each row and each
// update is computed by the same operations whichever worker does it.
// The work is split by the solver's parts, not by rows: a worker builds a part's rows and
// eliminates the part in one go, and back-substitutes it and updates its unknowns in one go, so an
// iteration has three barriers (parts eliminated; reduced system solved by worker 0; x updated).
// problem.prepare(x, team) (when present) is called by every worker on its own copy: it reads the
// whole iterate (the Gonzalez midpoint's H(v) - H(u)) and splits that O(d) sum over the team
// (team_reduce), which leaves every copy with the same value.
// Below 2 parts (d < 2 partition_min_rows) worker 0 does everything, the others wait.
// On the host, a problem with exact_conservation (the DRG stages) ends its solve on a step whose
// residual, and the prepare() before it, are in WiderResidual<Real> (long double for double on
// x86): Newton's last step x - J^{-1} R(x), with R rounded in Real, lands an ulp off the Real
// nearest the root in about a fifth of the components, to the same side step after step, and the
// energy of a long run leans (local_simplified_newton_solve, the thread-per-chain path, says
// more). The step predicted to be the last (detail::next_step_ends_solve) is taken wide; when the
// rule is met after a step that was not, one wide step more ends the solve. prepare_wide() is
// called by every worker on its own copy, the whole O(d) sum each, and no team_reduce, whose order
// would otherwise have to be reproduced in the wider type. Costs and leans measured in
// bench/RESULTS.md, "Long chains' DRG solves end on the correctly rounded root". On the device
// WiderResidual is Real and nothing changes.
template <class Problem, class Real, class Team>
GEOMINT_HD NewtonOutcome<Real> team_newton_solve(Problem& problem, StridedReals<Real> x, StridedReals<Real> work,
                                                 const NewtonOptions<Real>& options, const Team& team) {
    constexpr int B = Problem::block_size;
    using Solver = PartitionedBlockCyclic<B, Real>;
    const int d = problem.blocks();
    const int parts = partition_parts(d);
    const StridedReals<Real> scratch = team.shared().at(team_reduce_reals(d));  // after team_reduce's
    const Solver solver{{work, d}, parts, scratch};
    const typename Solver::Rows reduced = solver.reduced_system();
    const StridedReals<Real> status = solver.part_status();
    Real& broadcast = status[static_cast<std::size_t>(parts)];
    const StridedReals<Real> bad = scratch.at(Solver::scratch_reals(parts));
    const StridedReals<Real> largest = bad.at(static_cast<std::size_t>(team.size()));
    // Every worker keeps the same rule state: they all see the same steps.
    detail::NewtonStopRuleFor<Problem, Real> stop{newton_tolerance(options)};
    constexpr bool wide_finish = detail::ExactConservation<Problem> && detail::has_wider_residual<Real>;
    // Only for quadratic convergence: a linear iteration's last step leaves theta times its size, up
    // to the rule's bound of eps/8, enough to misround; it ends with one wide step more. A team never
    // takes a scalar's rank-one term (coupling()), so such a problem converges linearly here.
    constexpr bool predict = !(detail::converges_linearly<Problem, Real> || detail::HasGlobalScalar<Problem>);
    bool wide = false;       // wide_finish: this iteration's residual is in WiderResidual<Real>
    bool finishing = false;  // wide_finish: the rule was met; this wide step ends the solve
    [[maybe_unused]] Real previous = std::numeric_limits<Real>::infinity();
    // Rows of part k (all rows when not partitioned).
    const auto first = [&](int k) { return parts < 2 ? 0 : solver.first_row(k); };
    const auto last = [&](int k) { return parts < 2 ? d - 1 : solver.first_row(k + 1) - 1; };

    team.barrier();  // the guess is complete
    for (int it = 1; it <= options.max_iterations; ++it) {
        if constexpr (wide_finish && detail::HasWidePrepare<Problem, Real>) {
            if (wide)
                problem.template prepare_wide<typename detail::WiderResidual<Real>::type>(x);
            else
                problem.prepare(x, team);
        } else if constexpr (detail::HasPrepare<Problem, Real>) {
            problem.prepare(x, team);
        }
        team_for(team, parts, [&](int k) {
            bool finite = true;
            for (int i = first(k); i <= last(k); ++i)
                finite = detail::newton_row(problem, x, solver.system, i, wide) && finite;
            SolveStatus st = finite ? SolveStatus::ok : SolveStatus::non_finite;
            if (st == SolveStatus::ok && parts >= 2) st = solver.eliminate_part(k, reduced);
            status[k] = Solver::code(st);
        });
        team.barrier();
        if (team.rank() == 0) {
            SolveStatus st = solver.first_failure(status);
            if (st == SolveStatus::ok) st = parts < 2 ? solver.system.solve() : reduced.solve();
            broadcast = Solver::code(st);
        }
        team.barrier();
        const auto st = static_cast<SolveStatus>(static_cast<int>(broadcast));
        if (st != SolveStatus::ok) return {st, it};
        Real mine = Real(0);
        bool finite = true;
        team_for(team, parts, [&](int k) {
            if (parts >= 2) finite = solver.back_substitute(k, reduced) == SolveStatus::ok && finite;
            for (int i = first(k); i <= last(k); ++i)
                for (int c = 0; c < B; ++c) {
                    const Real dx = solver.system.solution(i, c);
                    x[B * i + c] -= dx;
                    mine = detail::largest_step(mine, dx);
                }
        });
        bad[team.rank()] = finite ? Real(0) : Real(1);
        largest[team.rank()] = mine;
        team.barrier();
        Real step = Real(0);
        for (int w = 0; w < team.size(); ++w) {
            if (bad[w] != Real(0)) return {SolveStatus::non_finite, it};
            step = detail::largest_step(step, largest[w]);
        }
        if (!std::isfinite(step)) return {SolveStatus::non_finite, it};
        if (finishing) return {SolveStatus::ok, it};
        const bool done = stop.converged(step, it);
        if constexpr (wide_finish) {
            if (done && wide) return {SolveStatus::ok, it};
            // A rule with its own finish (an approximate Jacobian) has its last step be the wide one.
            finishing = done || stop.finishing;
            wide = finishing || (predict && it > 1 && detail::next_step_ends_solve(step, previous, stop.tolerance));
            previous = step;
        } else if (done) {
            return {SolveStatus::ok, it};
        }
    }
    // Converged on the last iteration allowed, before the step that would have finished it.
    if (stop.finishing || finishing) return {SolveStatus::ok, options.max_iterations};
    return {SolveStatus::newton_max_iterations, options.max_iterations};
}

// The schemes' entry point: for SequentialTeam (the thread-per-chain path) the simplified Newton on
// the host (jacobian_refresh, local_newton.hpp) and Newton on the GPU; the team solver otherwise.
// A quasi-Newton (an approximate Jacobian, converging linearly already) keeps its Jacobian per
// iteration.
template <class Problem, class Real, class Team>
GEOMINT_HD NewtonOutcome<Real> newton_solve(Problem& problem, StridedReals<Real> x, StridedReals<Real> work,
                                            const NewtonOptions<Real>& options, const Team& team) {
    if constexpr (Team::sequential) {
        if constexpr (jacobian_refresh >= 0 && !detail::ApproximateJacobian<Problem>)
            return local_simplified_newton_solve(problem, x, work, options, Real(jacobian_refresh));
        return local_newton_solve(problem, x, work, options);
    } else {
        return team_newton_solve(problem, x, work, options, team);
    }
}

}  // namespace geomint::spin
