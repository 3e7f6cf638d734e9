// The per-chain driver (INTERFACE.md): runs `steps` steps of one scheme in place, tracking the
// energy drift and the unit-length error, and stops at the first failed step (math §3).
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/step_observer.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/spin/team.hpp"
#include "geomint/spin/team_reduce.hpp"

namespace geomint::spin {

// The scheme concept (every type under schemes/):
//   static constexpr const char* name;
//   GEOMINT_HD std::size_t workspace_reals(int d) const;   // O(d)
//   template <class System, class Real>
//   GEOMINT_HD NewtonOutcome<Real> step(const System&, Real h, StridedSpins<Real> state,
//                                       StridedReals<Real> work, const NewtonOptions<Real>&) const;
// step() advances `state` by one step of size h on success and leaves it untouched on failure;
// `iterations` counts the Newton iterations of all its stages. A scheme whose step() also takes a
// trailing team (team.hpp; the DRG schemes and the midpoint baselines) can run one chain on a
// parallel team: see TeamStep.

template <class Real>
struct ChainResult {
    Real max_energy_error;        // max over steps of |H - H0|
    Real max_norm_error;          // max over steps and spins of ||s_i| - 1|
    long long newton_iterations;  // summed over all steps (and stages)
    long long steps_completed;
    SolveStatus status;  // first failure ends the chain
};

template <class Scheme>
GEOMINT_HD std::size_t workspace_reals(const Scheme& scheme, int d) {
    return scheme.workspace_reals(d);
}

template <class Real>
GEOMINT_HD Real max_norm_error(StridedSpins<Real> s) {
    Real e = Real(0);
    for (int i = 0; i < s.d; ++i) e = std::fmax(e, std::fabs(norm(s.get(i)) - Real(1)));
    return e;
}

// H of a chain and its largest ||s_i| - 1|, as integrate_chain tracks them after every step. A
// parallel team shares the sites (team_reduce: the same bits whatever the team's size); the sum
// runs in site order within each part, as total_energy's does over the whole chain. The
// sequential team runs total_energy and max_norm_error themselves, so the thread-per-chain kernels
// stay as they were (ptxas sm_90: one fused loop for both moved their registers by -34 to +14;
// both loops in one call before the energy's check took coll6 on the top from 184 to 206).
template <class System, class Real, class Team>
GEOMINT_HD Real chain_energy(const System& system, StridedSpins<Real> s, const Team& team) {
    if constexpr (Team::sequential) {
        return total_energy(system, s);
    } else {
        Real h[1] = {Real(0)};
        team_reduce(
            team, s.d, h,
            [&](int i, Real(&acc)[1]) {
                acc[0] += system.energy_density(s.get(s.wrap(i - 1)), s.get(i), s.get(s.wrap(i + 1)));
            },
            AddParts{});
        return h[0];
    }
}

template <class Real, class Team>
GEOMINT_HD Real chain_norm_error(StridedSpins<Real> s, const Team& team) {
    if constexpr (Team::sequential) {
        return max_norm_error(s);
    } else {
        Real e[1] = {Real(0)};
        team_reduce(
            team, s.d, e,
            [&](int i, Real(&acc)[1]) { acc[0] = std::fmax(acc[0], std::fabs(norm(s.get(i)) - Real(1))); },
            [](Real(&into)[1], const Real(&part)[1]) { into[0] = std::fmax(into[0], part[0]); });
        return e[0];
    }
}

// Whether Scheme's step() takes a team (the team-parallel path applies to it).
template <class Scheme, class System, class Real>
concept TeamStep = requires(const Scheme& scheme, const System& system, Real h, StridedSpins<Real> state,
                            StridedReals<Real> work, const NewtonOptions<Real>& options) {
    scheme.step(system, h, state, work, options, SequentialTeam{});
};

// `observer` (geomint/step_observer.hpp) sees the initial state and the state after each
// completed step. With a parallel team every worker calls this with the same arguments and gets
// the same result; the workers share the energy and norm-error sums (chain_energy,
// chain_norm_error), and worker 0 alone calls the observer.
template <class Scheme, class System, class Real, class Observer, class Team = SequentialTeam>
GEOMINT_HD ChainResult<Real> integrate_chain(const Scheme& scheme, const System& system, Real h, long long steps,
                                             StridedSpins<Real> state, StridedReals<Real> workspace,
                                             const NewtonOptions<Real>& options, Observer&& observer,
                                             const Team& team = Team{}) {
    // The values kept across the steps are volatile for one thread per chain: they stay in memory
    // (a GPU thread's local memory) while a step runs instead of taking registers through it, and
    // the loop counts the steps completed (no counter of its own). ptxas sm_90, double: 80 of the
    // 93 thread-per-chain kernels above the limits took 2-24 registers fewer, 8 took 2-6 more, for
    // 24-32 B more stack and no spill; AVF's top kernels (136 -> 128) came within issue 10's 128.
    // The host: +0.4% instructions at most (the implicit midpoint rule's top). A parallel team keeps
    // them in registers: volatile there took 21 of its 40 listed kernels 4-56 registers higher.
    using KeptReal = std::conditional_t<Team::sequential, volatile Real, Real>;
    using KeptCount = std::conditional_t<Team::sequential, volatile long long, long long>;
    KeptReal max_energy_error = Real(0);
    KeptReal max_norm_error = Real(0);
    KeptCount newton_iterations = 0;
    KeptCount steps_completed = 0;
    SolveStatus status = SolveStatus::ok;
    const KeptReal h0 = chain_energy(system, state, team);
    if (team.rank() == 0) observer(0LL, static_cast<const StridedSpins<Real>&>(state));
    while (steps_completed < steps) {  // every pass completes a step or leaves: no counter of its own
        NewtonOutcome<Real> out{};
        if constexpr (Team::sequential) {
            out = scheme.step(system, h, state, workspace, options);
        } else {
            out = scheme.step(system, h, state, workspace, options, team);
        }
        newton_iterations = newton_iterations + out.iterations;
        if (out.status != SolveStatus::ok) {
            status = out.status;
            break;
        }
        const Real energy = chain_energy(system, state, team);
        if (!std::isfinite(energy)) {  // cannot happen after a converged step; reported, never hidden
            status = SolveStatus::non_finite;
            break;
        }
        max_energy_error = std::fmax(max_energy_error, std::fabs(energy - h0));
        max_norm_error = std::fmax(max_norm_error, chain_norm_error(state, team));
        steps_completed = steps_completed + 1;
        if (team.rank() == 0) observer(steps_completed, static_cast<const StridedSpins<Real>&>(state));
    }
    return ChainResult<Real>{max_energy_error, max_norm_error, newton_iterations, steps_completed, status};
}

template <class Scheme, class System, class Real>
GEOMINT_HD ChainResult<Real> integrate_chain(const Scheme& scheme, const System& system, Real h, long long steps,
                                             StridedSpins<Real> state, StridedReals<Real> workspace,
                                             const NewtonOptions<Real>& options) {
    return integrate_chain(scheme, system, h, steps, state, workspace, options, NoStepObserver{});
}

}  // namespace geomint::spin
