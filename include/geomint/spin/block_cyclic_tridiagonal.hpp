// Solver for block cyclic tridiagonal systems with B x B blocks (the Newton Jacobian of a local
// scheme on a periodic chain, math §3): O(d B^3) work, O(d B^2) memory in a strided workspace.
#pragma once

#include <cmath>
#include <cstddef>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/spin/spin_view.hpp"

// On the GPU the solver is a call, not inlined into every scheme's kernel: inlined, its loops over
// the workspace and the caller's Jacobian code compete for the same registers (issue 10: the
// implicit midpoint kernels went from 250-255 registers to 114-118, without local memory).
// Making the Jacobian code a call too was measured worse (its blocks then pass through the stack).
#if defined(__CUDACC__)
#define GEOMINT_SPIN_NOINLINE __noinline__
#else
#define GEOMINT_SPIN_NOINLINE
#endif

namespace geomint::spin {

// Block row i (indices mod d):  A_i x_{i-1} + D_i x_i + C_i x_{i+1} = r_i.
// For d = 1 the three blocks act on the same unknown, for d = 2 A_i and C_i on the same
// neighbour: they are simply added, so a caller fills A, D, C the same way for every d.
//
// Method: block Gaussian elimination without fill-in beyond one extra block column (the
// unknown x_{d-1}, which the corner A_0 couples to row 0) and one extra block row (the last row,
// which the corner C_{d-1} couples to x_0). Each eliminated row is normalised by its pivot block,
//   x_i + C'_i x_{i+1} + F'_i x_{d-1} = r'_i,
// so back substitution needs no stored factorisation. Pivot blocks are factorised with partial
// pivoting within the block (rows are exchanged inside a block row only, never between block
// rows, so a zero pivot block is reported even when the whole matrix is not singular).
// Workspace per block row: A, D, C, F (B x B each) and r (B), overwritten; r holds x at the end.
template <int B, class Real>
struct BlockCyclicTridiagonal {
    static constexpr std::size_t matrix_reals = static_cast<std::size_t>(B) * B;
    static constexpr std::size_t row_reals = 4 * matrix_reals + B;

    StridedReals<Real> work;
    int d;
    // Optional instrumentation: when set, incremented once per row exchange that partial pivoting
    // performs, so tests can show that pivoting really happens. Null (the default) in the
    // integrators; `{work, d}` leaves it null.
    int* row_swaps = nullptr;

    GEOMINT_HD static constexpr std::size_t workspace_reals(int d) { return row_reals * static_cast<std::size_t>(d); }

    GEOMINT_HD Real& lower(int i, int r, int c) const { return work[row_reals * i + r * B + c]; }
    GEOMINT_HD Real& diag(int i, int r, int c) const { return work[row_reals * i + matrix_reals + r * B + c]; }
    GEOMINT_HD Real& upper(int i, int r, int c) const { return work[row_reals * i + 2 * matrix_reals + r * B + c]; }
    GEOMINT_HD Real& rhs(int i, int r) const { return work[row_reals * i + 4 * matrix_reals + r]; }
    // After solve(): the solution block i (stored where the right-hand side was).
    GEOMINT_HD Real& solution(int i, int r) const { return rhs(i, r); }

    // Solves in place; ok, singular_jacobian (a pivot block with an exactly zero pivot column) or
    // non_finite (a non-finite pivot or solution).
    GEOMINT_HD GEOMINT_SPIN_NOINLINE SolveStatus solve() const {
        if (d == 1) {
            for (int r = 0; r < B; ++r)
                for (int c = 0; c < B; ++c) diag(0, r, c) += lower(0, r, c) + upper(0, r, c);
            return normalise_row(0, false, false);
        }
        const int last = d - 1;
        // Row 0's fill column starts as the corner A_0 (on x_{d-1}).
        for (int r = 0; r < B; ++r)
            for (int c = 0; c < B; ++c) fill(0, r, c) = lower(0, r, c);
        // Last row: G (kept in F_{last}, unused otherwise) is its coefficient on the next unknown
        // to eliminate, starting with the corner C_{last} on x_0 (plus A_{last} when d = 2).
        for (int r = 0; r < B; ++r)
            for (int c = 0; c < B; ++c) fill(last, r, c) = upper(last, r, c) + (d == 2 ? lower(last, r, c) : Real(0));

        for (int i = 0; i < last; ++i) {
            if (i > 0) {
                // Row i -= A_i (normalised row i-1).
                for (int r = 0; r < B; ++r) {
                    for (int c = 0; c < B; ++c) {
                        Real sd = Real(0), sf = Real(0);
                        for (int k = 0; k < B; ++k) {
                            sd += lower(i, r, k) * upper(i - 1, k, c);
                            sf += lower(i, r, k) * fill(i - 1, k, c);
                        }
                        diag(i, r, c) -= sd;
                        fill(i, r, c) = -sf;
                    }
                    Real sr = Real(0);
                    for (int k = 0; k < B; ++k) sr += lower(i, r, k) * rhs(i - 1, k);
                    rhs(i, r) -= sr;
                }
            }
            // Row d-2's C acts on x_{d-1}: fold it into the fill column.
            const bool fold = (i == last - 1);
            if (fold) {
                for (int r = 0; r < B; ++r)
                    for (int c = 0; c < B; ++c) {
                        fill(i, r, c) += upper(i, r, c);
                        upper(i, r, c) = Real(0);
                    }
            }
            const SolveStatus st = normalise_row(i, !fold, true);
            if (st != SolveStatus::ok) return st;
            // Last row -= G (normalised row i); its new coefficient on x_{i+1} becomes
            // (A_{last} if i+1 == d-2, else 0) - G C'_i.
            const bool next_is_left = (i + 1 == last - 1);
            for (int r = 0; r < B; ++r) {
                Real g[B];
                for (int k = 0; k < B; ++k) g[k] = fill(last, r, k);
                for (int c = 0; c < B; ++c) {
                    Real sd = Real(0), sc = Real(0);
                    for (int k = 0; k < B; ++k) {
                        sd += g[k] * fill(i, k, c);
                        sc += g[k] * upper(i, k, c);
                    }
                    diag(last, r, c) -= sd;
                    fill(last, r, c) = (next_is_left ? lower(last, r, c) : Real(0)) - sc;
                }
                Real sr = Real(0);
                for (int k = 0; k < B; ++k) sr += g[k] * rhs(i, k);
                rhs(last, r) -= sr;
            }
        }
        // The last row is now D_{last} x_{d-1} = r_{last}; then back substitution.
        const SolveStatus st = normalise_row(last, false, false);
        if (st != SolveStatus::ok) return st;
        for (int i = last - 1; i >= 0; --i) {
            for (int r = 0; r < B; ++r) {
                Real s = rhs(i, r);
                for (int k = 0; k < B; ++k) {
                    s -= fill(i, r, k) * rhs(last, k);
                    if (i + 1 < last) s -= upper(i, r, k) * rhs(i + 1, k);
                }
                rhs(i, r) = s;
            }
        }
        for (int i = 0; i < d; ++i)
            for (int r = 0; r < B; ++r)
                if (!std::isfinite(rhs(i, r))) return SolveStatus::non_finite;
        return SolveStatus::ok;
    }

    // Factorise once, solve for many right-hand sides (the simplified Newton of local_newton.hpp,
    // math §3.1). factorise() performs solve()'s elimination on the blocks alone and leaves in the
    // workspace what a later right-hand side needs: A_i and the normalised C'_i, F'_i as solve()
    // leaves them, D_i^{-1} explicitly in place of D_i (its pivots need no storage then; applying
    // it costs the same B^2 products as the two triangular solves), and the corners A_{d-1},
    // C_{d-1} untouched. The last row's multipliers G_i are not kept: they obey
    // G_0 = C_{d-1}, G_{i+1} = [i+1 == d-2] A_{d-1} - G_i C'_i, so their sum against the
    // normalised right-hand sides, sum_i G_i r'_i = A_{d-1} r'_{d-2} + C_{d-1} w_0 with
    // w_{d-2} = r'_{d-2}, w_i = r'_i - C'_i w_{i+1}, is taken backwards by substitute() in the same
    // B^2 products per row. The workspace is the same as solve()'s; solve() itself is unchanged.
    // Same statuses as solve().
    GEOMINT_HD SolveStatus factorise() const {
        if (d == 1) {
            for (int r = 0; r < B; ++r)
                for (int c = 0; c < B; ++c) diag(0, r, c) += lower(0, r, c) + upper(0, r, c);
            return invert_pivot(0, false, false);
        }
        const int last = d - 1;
        for (int r = 0; r < B; ++r)
            for (int c = 0; c < B; ++c) fill(0, r, c) = lower(0, r, c);
        // G starts in F_{last} (solve() uses it the same way); C_{last} and A_{last} stay in place.
        for (int r = 0; r < B; ++r)
            for (int c = 0; c < B; ++c) fill(last, r, c) = upper(last, r, c) + (d == 2 ? lower(last, r, c) : Real(0));
        for (int i = 0; i < last; ++i) {
            if (i > 0) {
                for (int r = 0; r < B; ++r)
                    for (int c = 0; c < B; ++c) {
                        Real sd = Real(0), sf = Real(0);
                        for (int k = 0; k < B; ++k) {
                            sd += lower(i, r, k) * upper(i - 1, k, c);
                            sf += lower(i, r, k) * fill(i - 1, k, c);
                        }
                        diag(i, r, c) -= sd;
                        fill(i, r, c) = -sf;
                    }
            }
            const bool fold = (i == last - 1);
            if (fold) {
                for (int r = 0; r < B; ++r)
                    for (int c = 0; c < B; ++c) {
                        fill(i, r, c) += upper(i, r, c);
                        upper(i, r, c) = Real(0);
                    }
            }
            const SolveStatus st = invert_pivot(i, !fold, true);
            if (st != SolveStatus::ok) return st;
            const bool next_is_left = (i + 1 == last - 1);
            for (int r = 0; r < B; ++r) {
                Real g[B];
                for (int k = 0; k < B; ++k) g[k] = fill(last, r, k);
                for (int c = 0; c < B; ++c) {
                    Real sd = Real(0), sc = Real(0);
                    for (int k = 0; k < B; ++k) {
                        sd += g[k] * fill(i, k, c);
                        sc += g[k] * upper(i, k, c);
                    }
                    diag(last, r, c) -= sd;
                    fill(last, r, c) = (next_is_left ? lower(last, r, c) : Real(0)) - sc;
                }
            }
        }
        return invert_pivot(last, false, false);
    }

    // Solves in place with the factors of factorise(), for the right-hand side written into rhs();
    // the workspace's factors are kept. ok or non_finite (a non-finite solution).
    GEOMINT_HD SolveStatus substitute() const {
        const int last = d - 1;
        for (int i = 0; i <= last; ++i) {
            if (i == last && d > 1) {
                // r_last -= sum_i G_i r'_i, backwards as above (for d = 2 it is (A + C) r'_0).
                Real w[B], t[B];
                for (int k = 0; k < B; ++k) w[k] = rhs(last - 1, k);
                for (int j = last - 2; j >= 0; --j) {
                    for (int r = 0; r < B; ++r) {
                        Real s = rhs(j, r);
                        for (int k = 0; k < B; ++k) s -= upper(j, r, k) * w[k];
                        t[r] = s;
                    }
                    for (int k = 0; k < B; ++k) w[k] = t[k];
                }
                for (int r = 0; r < B; ++r) {
                    Real s = Real(0);
                    for (int k = 0; k < B; ++k) s += lower(last, r, k) * rhs(last - 1, k) + upper(last, r, k) * w[k];
                    rhs(last, r) -= s;
                }
            } else if (i > 0) {
                for (int r = 0; r < B; ++r) {
                    Real sr = Real(0);
                    for (int k = 0; k < B; ++k) sr += lower(i, r, k) * rhs(i - 1, k);
                    rhs(i, r) -= sr;
                }
            }
            Real v[B];
            for (int k = 0; k < B; ++k) v[k] = rhs(i, k);
            for (int r = 0; r < B; ++r) {
                Real s = Real(0);
                for (int k = 0; k < B; ++k) s += diag(i, r, k) * v[k];
                rhs(i, r) = s;
            }
        }
        for (int i = last - 1; i >= 0; --i) {
            for (int r = 0; r < B; ++r) {
                Real s = rhs(i, r);
                for (int k = 0; k < B; ++k) {
                    s -= fill(i, r, k) * rhs(last, k);
                    if (i + 1 < last) s -= upper(i, r, k) * rhs(i + 1, k);
                }
                rhs(i, r) = s;
            }
        }
        for (int i = 0; i < d; ++i)
            for (int r = 0; r < B; ++r)
                if (!std::isfinite(rhs(i, r))) return SolveStatus::non_finite;
        return SolveStatus::ok;
    }

    // The fill column F_i, and normalise_row below, are also used by the partitioned solver
    // (partitioned_block_cyclic.hpp), which eliminates each part's rows the same way.
    GEOMINT_HD Real& fill(int i, int r, int c) const { return work[row_reals * i + 3 * matrix_reals + r * B + c]; }

    // LU-factorises D_i in place (partial pivoting) and replaces C_i, F_i (when asked) and r_i by
    // D_i^{-1} times themselves.
    GEOMINT_HD SolveStatus normalise_row(int i, bool with_upper, bool with_fill) const {
        int piv[B];
        for (int k = 0; k < B; ++k) {
            int p = k;
            Real best = std::fabs(diag(i, k, k));
            for (int r = k + 1; r < B; ++r) {
                const Real a = std::fabs(diag(i, r, k));
                if (a > best) {
                    best = a;
                    p = r;
                }
            }
            if (!std::isfinite(best)) return SolveStatus::non_finite;
            if (best == Real(0)) return SolveStatus::singular_jacobian;
            piv[k] = p;
            if (p != k) {
                if (row_swaps) ++*row_swaps;
                for (int c = 0; c < B; ++c) {
                    const Real t = diag(i, k, c);
                    diag(i, k, c) = diag(i, p, c);
                    diag(i, p, c) = t;
                }
            }
            const Real inv = Real(1) / diag(i, k, k);
            for (int r = k + 1; r < B; ++r) {
                const Real l = diag(i, r, k) * inv;
                diag(i, r, k) = l;
                for (int c = k + 1; c < B; ++c) diag(i, r, c) -= l * diag(i, k, c);
            }
        }
        apply_inverse(i, piv, [&](int r) -> Real& { return rhs(i, r); });
        for (int c = 0; c < B; ++c) {
            if (with_upper) apply_inverse(i, piv, [&](int r) -> Real& { return upper(i, r, c); });
            if (with_fill) apply_inverse(i, piv, [&](int r) -> Real& { return fill(i, r, c); });
        }
        return SolveStatus::ok;
    }

private:
    // D_i <- its packed LU with partial pivoting within the block (piv: the row exchanged with
    // each row k); singular_jacobian for an exactly zero pivot column. The same operations as the
    // start of normalise_row, which keeps its own copy: called from there, the thread-per-chain
    // kernels took up to 8 more registers (ptxas, sm_90: spherical midpoint on the top 108 -> 116,
    // mp on the chain 230 -> 232, above its ceiling in tests/spin_kernel_ceilings.txt).
    GEOMINT_HD SolveStatus lu_factorise(int i, int (&piv)[B]) const {
        for (int k = 0; k < B; ++k) {
            int p = k;
            Real best = std::fabs(diag(i, k, k));
            for (int r = k + 1; r < B; ++r) {
                const Real a = std::fabs(diag(i, r, k));
                if (a > best) {
                    best = a;
                    p = r;
                }
            }
            if (!std::isfinite(best)) return SolveStatus::non_finite;
            if (best == Real(0)) return SolveStatus::singular_jacobian;
            piv[k] = p;
            if (p != k) {
                if (row_swaps) ++*row_swaps;
                for (int c = 0; c < B; ++c) {
                    const Real t = diag(i, k, c);
                    diag(i, k, c) = diag(i, p, c);
                    diag(i, p, c) = t;
                }
            }
            const Real inv = Real(1) / diag(i, k, k);
            for (int r = k + 1; r < B; ++r) {
                const Real l = diag(i, r, k) * inv;
                diag(i, r, k) = l;
                for (int c = k + 1; c < B; ++c) diag(i, r, c) -= l * diag(i, k, c);
            }
        }
        return SolveStatus::ok;
    }

    // factorise()'s normalise_row: C_i and F_i (when asked) replaced by D_i^{-1} times
    // themselves, then D_i by D_i^{-1} (solved column by column from the packed LU).
    GEOMINT_HD SolveStatus invert_pivot(int i, bool with_upper, bool with_fill) const {
        int piv[B];
        const SolveStatus st = lu_factorise(i, piv);
        if (st != SolveStatus::ok) return st;
        for (int c = 0; c < B; ++c) {
            if (with_upper) apply_inverse(i, piv, [&](int r) -> Real& { return upper(i, r, c); });
            if (with_fill) apply_inverse(i, piv, [&](int r) -> Real& { return fill(i, r, c); });
        }
        Real inverse[B][B];
        for (int c = 0; c < B; ++c) {
            for (int r = 0; r < B; ++r) inverse[r][c] = r == c ? Real(1) : Real(0);
            apply_inverse(i, piv, [&](int r) -> Real& { return inverse[r][c]; });
        }
        for (int r = 0; r < B; ++r)
            for (int c = 0; c < B; ++c) diag(i, r, c) = inverse[r][c];
        return SolveStatus::ok;
    }

    // x <- D_i^{-1} x for one column x, given by an accessor, using the packed LU of D_i.
    template <class Column>
    GEOMINT_HD void apply_inverse(int i, const int (&piv)[B], Column x) const {
        for (int k = 0; k < B; ++k) {
            if (piv[k] != k) {
                const Real t = x(k);
                x(k) = x(piv[k]);
                x(piv[k]) = t;
            }
        }
        for (int r = 1; r < B; ++r) {
            Real s = x(r);
            for (int k = 0; k < r; ++k) s -= diag(i, r, k) * x(k);
            x(r) = s;
        }
        for (int r = B - 1; r >= 0; --r) {
            Real s = x(r);
            for (int k = r + 1; k < B; ++k) s -= diag(i, r, k) * x(k);
            x(r) = s / diag(i, r, r);
        }
    }
};

}  // namespace geomint::spin
