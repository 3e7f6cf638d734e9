// Test data and a dense oracle for the block cyclic tridiagonal solver
// (include/geomint/spin/block_cyclic_tridiagonal.hpp), shared by its tests and those of the
// simplified Newton's factorise() + substitute().
#pragma once

#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

#include "geomint/spin/block_cyclic_tridiagonal.hpp"
#include "spin_test_support.hpp"

namespace geomint_test {

// Dense Gaussian elimination with partial pivoting: the oracle (n = B d, small).
inline std::vector<double> dense_solve(std::vector<double> a, std::vector<double> b, int n) {
    for (int k = 0; k < n; ++k) {
        int p = k;
        for (int r = k + 1; r < n; ++r)
            if (std::fabs(a[r * n + k]) > std::fabs(a[p * n + k])) p = r;
        for (int c = 0; c < n; ++c) std::swap(a[k * n + c], a[p * n + c]);
        std::swap(b[k], b[p]);
        for (int r = k + 1; r < n; ++r) {
            const double l = a[r * n + k] / a[k * n + k];
            for (int c = k; c < n; ++c) a[r * n + c] -= l * a[k * n + c];
            b[r] -= l * b[k];
        }
    }
    for (int r = n - 1; r >= 0; --r) {
        for (int c = r + 1; c < n; ++c) b[r] -= a[r * n + c] * b[c];
        b[r] /= a[r * n + r];
    }
    return b;
}

// Test data that needs pivoting, with a known number of row exchanges. Start from a strictly
// column diagonally dominant matrix S: random blocks in [-1, 1) plus 4B on the diagonal of D_i
// (a column's off-diagonal entries, from D_i, A_{i+1} and C_{i-1}, sum to less than 3B - 1, and
// for d = 1, 2 the coinciding blocks add up to no more). Then permute the rows of each block row
// i (A_i, D_i, C_i, r_i alike) by r -> (r + shift_i) mod B, shift_i = (i + 1) mod B: the system
// and its solution are unchanged, but D_i's leading entry is now an off-diagonal one of S (set to
// exactly zero), so elimination without pivoting would divide by ~0 or by 0.
// Column dominance survives Gaussian elimination, so every pivot block the solver factorises is
// shift_i's row permutation of a column dominant block, in which the largest entry of each column
// is on S's diagonal: partial pivoting restores S's row order with exactly B - gcd(shift_i, B)
// exchanges (a cyclic shift by s has gcd(s, B) cycles; each exchange puts one row in place, the
// last row of a cycle lands for free). Block rows with shift 0 need none, and get none.
inline int expected_row_swaps(int B, int d) {
    int swaps = 0;
    for (int i = 0; i < d; ++i) swaps += B - std::gcd((i + 1) % B, B);
    return swaps;
}

// Writes such a system into `sys` and the same matrix, assembled, into `dense` (n x n, zeroed,
// n = B d). With `rhs` (n values) it also draws the right-hand side, after each row's entries,
// into both.
template <int B>
void fill_pivoting_system(const geomint::spin::BlockCyclicTridiagonal<B, double>& sys, int d, Lcg& rng,
                          std::vector<double>& dense, std::vector<double>* rhs = nullptr) {
    const int n = B * d;
    for (int i = 0; i < d; ++i) {
        const int il = (i + d - 1) % d, ir = (i + 1) % d, shift = (i + 1) % B;
        for (int sr = 0; sr < B; ++sr) {         // row sr of S ...
            const int r = (sr + B - shift) % B;  // ... is stored as row r, so that sr = (r + shift) mod B
            for (int c = 0; c < B; ++c) {
                const double lo = rng.next(), up = rng.next();
                double di = rng.next() + (sr == c ? 4.0 * B : 0.0);
                if (r == 0 && c == 0 && shift != 0) di = 0.0;  // an exactly zero leading entry
                sys.lower(i, r, c) = lo;
                sys.diag(i, r, c) = di;
                sys.upper(i, r, c) = up;
                // For d = 1, 2 the blocks land on the same columns and add up.
                dense[(B * i + r) * n + B * il + c] += lo;
                dense[(B * i + r) * n + B * i + c] += di;
                dense[(B * i + r) * n + B * ir + c] += up;
            }
            if (rhs != nullptr) {
                (*rhs)[B * i + r] = rng.next();
                sys.rhs(i, r) = (*rhs)[B * i + r];
            }
        }
    }
}

}  // namespace geomint_test
