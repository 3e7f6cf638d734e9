// Team-parallel solve of the block cyclic tridiagonal system of block_cyclic_tridiagonal.hpp by
// the partition method (math §3.2): contiguous parts are eliminated in parallel down to their two
// end rows, one worker solves the small cyclic system of the 2 P end rows, the parts' interiors
// are then back-substituted in parallel. Host+device code over any team (team.hpp).
#pragma once

#include <cmath>
#include <cstddef>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/spin/block_cyclic_tridiagonal.hpp"
#include "geomint/spin/spin_view.hpp"

namespace geomint::spin {

// Number of parts for d block rows: a function of d alone, so that the result of a chain does not
// depend on how many workers its team has (the project's determinism rule). Parts have at least
// partition_min_rows rows (short parts make the sequential reduced system, 2 rows a part, a large
// share of the work) and there are at most partition_max_parts of them (the reduced system is
// solved by one worker; 256 parts keep it at 512 rows and give a 256-thread GPU block one part per
// thread). 1 means "not partitioned": the sequential solver is used.
inline constexpr int partition_min_rows = 16;
inline constexpr int partition_max_parts = 256;

GEOMINT_HD constexpr int partition_parts(int d) {
    const int p = d / partition_min_rows;
    return p < 2 ? 1 : (p > partition_max_parts ? partition_max_parts : p);
}

// First row of part k when d rows are cut into `parts`: part k is rows partition_first_row(k) ..
// partition_first_row(k + 1) - 1 (the solver's parts, and team_reduce's).
GEOMINT_HD constexpr int partition_first_row(int k, int d, int parts) {
    return static_cast<int>(static_cast<long long>(k) * d / parts);
}

template <int B, class Real>
struct PartitionedBlockCyclic {
    using Rows = BlockCyclicTridiagonal<B, Real>;

    // Scratch for `parts` parts: the reduced system (2 parts block rows), each part's status and a
    // broadcast slot.
    GEOMINT_HD static constexpr std::size_t scratch_reals(int parts) {
        return Rows::workspace_reals(2 * parts) + static_cast<std::size_t>(parts) + 1;
    }

    Rows system;  // filled by the caller (A, D, C, r of every row); holds the solution afterwards
    int parts;    // 1 .. d / 2; 1: solved by the sequential solver on worker 0
    StridedReals<Real> scratch;

    // First row of part k (part k is rows first_row(k) .. first_row(k + 1) - 1, at least 2 rows).
    GEOMINT_HD int first_row(int k) const { return partition_first_row(k, system.d, parts); }

    // Solves in place, called by every worker of the team; returns the same status on every worker
    // (ok, singular_jacobian or non_finite, as the sequential solver reports them).
    template <class Team>
    GEOMINT_HD SolveStatus solve(const Team& team) const {
        const Rows reduced{scratch, 2 * parts};
        StridedReals<Real> status = scratch.at(Rows::workspace_reals(2 * parts));
        Real& broadcast = status[static_cast<std::size_t>(parts)];
        if (parts < 2) {
            team.barrier();  // the rows were written by every worker
            if (team.rank() == 0) broadcast = static_cast<Real>(static_cast<int>(system.solve()));
            team.barrier();
            return static_cast<SolveStatus>(static_cast<int>(broadcast));
        }
        team.barrier();
        team_for(team, parts, [&](int k) { status[k] = code(eliminate_part(k, reduced)); });
        team.barrier();
        if (team.rank() == 0) {
            SolveStatus st = first_failure(status);
            if (st == SolveStatus::ok) st = reduced.solve();
            broadcast = code(st);
        }
        team.barrier();
        const SolveStatus st = static_cast<SolveStatus>(static_cast<int>(broadcast));
        if (st != SolveStatus::ok) return st;
        team_for(team, parts, [&](int k) { status[k] = code(back_substitute(k, reduced)); });
        team.barrier();
        return first_failure(status);
    }

    // The pieces of solve(), for callers that fuse them with their own per-part work (the team
    // Newton, team_newton.hpp, builds a part's rows just before eliminating it and updates its
    // unknowns just after back-substituting it, so that only three barriers remain per iteration).
    GEOMINT_HD Rows reduced_system() const { return Rows{scratch, 2 * parts}; }
    GEOMINT_HD StridedReals<Real> part_status() const { return scratch.at(Rows::workspace_reals(2 * parts)); }
    GEOMINT_HD static Real code(SolveStatus s) { return static_cast<Real>(static_cast<int>(s)); }

    GEOMINT_HD SolveStatus first_failure(StridedReals<Real> status) const {
        for (int k = 0; k < parts; ++k) {
            const auto s = static_cast<SolveStatus>(static_cast<int>(status[k]));
            if (s != SolveStatus::ok) return s;
        }
        return SolveStatus::ok;
    }

    // Part k, rows s .. e. Forward elimination of the interior rows s+1 .. e-1 with the left end
    // x_s as fill column (F), normalised like the sequential solver's rows:
    //   x_i + C'_i x_{i+1} + F'_i x_s = r'_i      (x_{i+1} is x_e for i = e-1),
    // then a backward sweep writes x_{s+1} = g - P x_s - Q x_e, which turns the end rows into
    // rows 2k (on x_{e_{k-1}}, x_s, x_e) and 2k+1 (on x_s, x_e, x_{s_{k+1}}) of the reduced
    // cyclic system.
    GEOMINT_HD SolveStatus eliminate_part(int k, const Rows& reduced) const {
        const Rows& a = system;
        const int s = first_row(k), e = first_row(k + 1) - 1;
        for (int i = s + 1; i < e; ++i) {
            if (i == s + 1) {
                for (int r = 0; r < B; ++r)
                    for (int c = 0; c < B; ++c) a.fill(i, r, c) = a.lower(i, r, c);
            } else {
                for (int r = 0; r < B; ++r) {
                    for (int c = 0; c < B; ++c) {
                        Real sd = Real(0), sf = Real(0);
                        for (int q = 0; q < B; ++q) {
                            sd += a.lower(i, r, q) * a.upper(i - 1, q, c);
                            sf += a.lower(i, r, q) * a.fill(i - 1, q, c);
                        }
                        a.diag(i, r, c) -= sd;
                        a.fill(i, r, c) = -sf;
                    }
                    Real sr = Real(0);
                    for (int q = 0; q < B; ++q) sr += a.lower(i, r, q) * a.rhs(i - 1, q);
                    a.rhs(i, r) -= sr;
                }
            }
            const SolveStatus st = a.normalise_row(i, true, true);
            if (st != SolveStatus::ok) return st;
        }
        const int row_s = 2 * k, row_e = 2 * k + 1;
        // End row e: x_{e-1} = r'_{e-1} - F'_{e-1} x_s - C'_{e-1} x_e.
        for (int r = 0; r < B; ++r) {
            for (int c = 0; c < B; ++c) {
                Real sl = Real(0), sd = Real(0);
                if (e - 1 > s)
                    for (int q = 0; q < B; ++q) {
                        sl += a.lower(e, r, q) * a.fill(e - 1, q, c);
                        sd += a.lower(e, r, q) * a.upper(e - 1, q, c);
                    }
                reduced.lower(row_e, r, c) = e - 1 > s ? -sl : a.lower(e, r, c);
                reduced.diag(row_e, r, c) = a.diag(e, r, c) - sd;
                reduced.upper(row_e, r, c) = a.upper(e, r, c);
            }
            Real sr = Real(0);
            if (e - 1 > s)
                for (int q = 0; q < B; ++q) sr += a.lower(e, r, q) * a.rhs(e - 1, q);
            reduced.rhs(row_e, r) = a.rhs(e, r) - sr;
        }
        // Backward sweep: g, P, Q of x_i = g - P x_s - Q x_e, from i = e-1 down to s+1. Column c
        // of the new P and Q reads only column c of the old ones, so they are replaced a column at
        // a time: only one new column is alive beside the old ones, where whole new matrices were
        // (the same operations in the same order, so the same results). It took 27 of the GPU's
        // 40 double block kernels 4-38 registers fewer, none more (ptxas, sm_90; bench/RESULTS.md,
        // "The block kernels' backward sweep a column at a time").
        Real g[B], p[B * B], q[B * B];
        for (int r = 0; r < B; ++r) {
            g[r] = Real(0);
            for (int c = 0; c < B; ++c) p[r * B + c] = q[r * B + c] = Real(0);
        }
        for (int i = e - 1; i > s; --i) {
            Real upper[B * B];  // C'_i, read once for g and every column
            for (int r = 0; r < B; ++r)
                for (int m = 0; m < B; ++m) upper[r * B + m] = a.upper(i, r, m);
            Real ng[B];
            for (int r = 0; r < B; ++r) {
                Real sg = a.rhs(i, r);
                for (int m = 0; m < B; ++m) sg -= upper[r * B + m] * g[m];
                ng[r] = sg;
            }
            for (int r = 0; r < B; ++r) g[r] = ng[r];
            for (int c = 0; c < B; ++c) {
                Real np[B], nq[B];
                for (int r = 0; r < B; ++r) {
                    Real sp = a.fill(i, r, c), sq = i == e - 1 ? upper[r * B + c] : Real(0);
                    for (int m = 0; m < B; ++m) {
                        sp -= upper[r * B + m] * p[m * B + c];
                        sq -= upper[r * B + m] * q[m * B + c];
                    }
                    np[r] = sp;
                    nq[r] = sq;
                }
                for (int r = 0; r < B; ++r) p[r * B + c] = np[r], q[r * B + c] = nq[r];
            }
        }
        // End row s: A_s x_{e_{k-1}} + D_s x_s + C_s x_{s+1} = r_s, with x_{s+1} substituted (it is
        // x_e itself when the part has no interior: then g, P, Q are 0 and C_s stays on x_e).
        const bool interior = e - 1 > s;
        for (int r = 0; r < B; ++r) {
            for (int c = 0; c < B; ++c) {
                Real sd = Real(0), su = Real(0);
                for (int m = 0; m < B; ++m) {
                    sd += a.upper(s, r, m) * p[m * B + c];
                    su += a.upper(s, r, m) * q[m * B + c];
                }
                reduced.lower(row_s, r, c) = a.lower(s, r, c);
                reduced.diag(row_s, r, c) = a.diag(s, r, c) - sd;
                reduced.upper(row_s, r, c) = interior ? -su : a.upper(s, r, c);
            }
            Real sr = Real(0);
            for (int m = 0; m < B; ++m) sr += a.upper(s, r, m) * g[m];
            reduced.rhs(row_s, r) = a.rhs(s, r) - sr;
        }
        return SolveStatus::ok;
    }

    // Part k's unknowns from its ends x_s, x_e (solutions 2k, 2k+1 of the reduced system).
    GEOMINT_HD SolveStatus back_substitute(int k, const Rows& reduced) const {
        const Rows& a = system;
        const int s = first_row(k), e = first_row(k + 1) - 1;
        for (int r = 0; r < B; ++r) {
            a.rhs(s, r) = reduced.solution(2 * k, r);
            a.rhs(e, r) = reduced.solution(2 * k + 1, r);
        }
        for (int i = e - 1; i > s; --i) {
            for (int r = 0; r < B; ++r) {
                Real x = a.rhs(i, r);
                for (int m = 0; m < B; ++m) x -= a.upper(i, r, m) * a.rhs(i + 1, m) + a.fill(i, r, m) * a.rhs(s, m);
                a.rhs(i, r) = x;
            }
        }
        for (int i = s; i <= e; ++i)
            for (int r = 0; r < B; ++r)
                if (!std::isfinite(a.rhs(i, r))) return SolveStatus::non_finite;
        return SolveStatus::ok;
    }
};

}  // namespace geomint::spin
