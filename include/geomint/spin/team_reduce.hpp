// A reduction over the d sites of one chain (a sum, a maximum) by a team (team.hpp), so that the
// O(d) quantities of a step (the energy, the unit-length error, the Gonzalez midpoint's H(v) -
// H(u)) are computed once per team, each worker taking its share of the sites, instead of once by
// every worker. Host+device code.
#pragma once

#include <cstddef>

#include "geomint/platform.hpp"
#include "geomint/spin/partitioned_block_cyclic.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/team.hpp"

namespace geomint::spin {

// The most results one reduction carries (the Gonzalez midpoint's four sums).
inline constexpr int team_reduce_terms = 4;

// Reals of a team's shared scratch that team_reduce uses, at its start: team_reduce_terms per
// part, then the merged result (team_newton_scratch_reals counts them; the Newton's own scratch
// follows them).
GEOMINT_HD constexpr std::size_t team_reduce_reals(int d) {
    return static_cast<std::size_t>(team_reduce_terms) * static_cast<std::size_t>(partition_parts(d) + 1);
}

// result (holding the identity on entry: zeros for a sum) becomes the reduction of the d sites:
// site(i, acc) folds site i into acc[0 .. K), merge(into, part) folds a part's acc into `into`.
// With a parallel team every worker calls it with the same arguments and gets the same result,
// which does not depend on the team's size: the sites are cut into the parts of
// partition_parts(d) (a function of d alone, the partitioned solver's), a part is folded in site
// order by whichever worker has it, and worker 0 merges the parts in part order into a slot that
// every worker then reads. Two barriers: the parts are complete; the merged result is. The slot
// lies past every K's parts, so a worker already in the next reduction cannot overwrite it
// before the others have read it. (Every worker merging the parts itself made ptxas cap some
// block kernels at 128 registers with 232-276 B of spill stores.)
// SequentialTeam: one fold over the sites in order (the thread-per-chain kernels' loop).
template <int K, class Real, class Team, class Site, class Merge>
GEOMINT_HD void team_reduce(const Team& team, int d, Real (&result)[K], Site&& site, Merge&& merge) {
    static_assert(K >= 1 && K <= team_reduce_terms, "team_reduce_reals reserves team_reduce_terms reals a part");
    if constexpr (Team::sequential) {
        for (int i = 0; i < d; ++i) site(i, result);
    } else {
        const int parts = partition_parts(d);
        const StridedReals<Real> partial = team.shared();
        team_for(team, parts, [&](int k) {
            Real acc[K];
            for (int j = 0; j < K; ++j) acc[j] = result[j];
            for (int i = partition_first_row(k, d, parts); i < partition_first_row(k + 1, d, parts); ++i) site(i, acc);
            for (int j = 0; j < K; ++j) partial[static_cast<std::size_t>(K * k + j)] = acc[j];
        });
        team.barrier();
        const StridedReals<Real> merged = partial.at(static_cast<std::size_t>(team_reduce_terms * parts));
        if (team.rank() == 0) {
            for (int k = 0; k < parts; ++k) {
                Real part[K];
                for (int j = 0; j < K; ++j) part[j] = partial[static_cast<std::size_t>(K * k + j)];
                merge(result, part);
            }
            for (int j = 0; j < K; ++j) merged[static_cast<std::size_t>(j)] = result[j];
        }
        team.barrier();
        for (int j = 0; j < K; ++j) result[j] = merged[static_cast<std::size_t>(j)];
    }
}

// merge for sums.
struct AddParts {
    template <int K, class Real>
    GEOMINT_HD void operator()(Real (&into)[K], const Real (&part)[K]) const {
        for (int j = 0; j < K; ++j) into[j] += part[j];
    }
};

}  // namespace geomint::spin
