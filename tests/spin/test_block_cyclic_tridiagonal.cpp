// Checks the block cyclic tridiagonal solver against a dense solve, and the local Newton driver
// (AD Jacobian, convergence, failure statuses) on small problems with known answers (math §3).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "geomint/spin/block_cyclic_tridiagonal.hpp"
#include "geomint/spin/dual.hpp"
#include "geomint/spin/local_newton.hpp"
#include "block_system_oracle.hpp"
#include "spin_test_support.hpp"

namespace {

using geomint::SolveStatus;
using geomint::spin::BlockCyclicTridiagonal;
using geomint::spin::StridedReals;

using geomint_test::dense_solve;
using geomint_test::expected_row_swaps;
using geomint_test::fill_pivoting_system;
using geomint_test::Lcg;

// Fills a pivoting system (block_system_oracle.hpp), solves it with the block solver through a strided workspace, and
// compares with the dense solve of the assembled matrix and the expected number of row exchanges.
template <int B>
void check_against_dense(int d, std::size_t stride, std::uint64_t seed) {
    Lcg rng{seed};
    const int n = B * d;
    std::vector<double> dense(static_cast<std::size_t>(n) * n, 0.0), rhs(n);
    std::vector<double> storage(BlockCyclicTridiagonal<B, double>::workspace_reals(d) * stride, -7.0);
    int row_swaps = 0;
    const BlockCyclicTridiagonal<B, double> sys{StridedReals<double>{storage.data(), stride}, d, &row_swaps};
    fill_pivoting_system<B>(sys, d, rng, dense, &rhs);
    ASSERT_EQ(sys.solve(), SolveStatus::ok) << "B = " << B << " d = " << d;
    const std::vector<double> x = dense_solve(dense, rhs, n);
    double err = 0, scale = 0;
    for (int i = 0; i < d; ++i)
        for (int r = 0; r < B; ++r) {
            err = std::fmax(err, std::fabs(sys.solution(i, r) - x[B * i + r]));
            scale = std::fmax(scale, std::fabs(x[B * i + r]));
        }
    EXPECT_LT(err, 1e-12 * (1 + scale)) << "B = " << B << " d = " << d << " stride = " << stride;
    // Pivoting really happened, once per exchange the data calls for (and never otherwise).
    EXPECT_GT(row_swaps, 0) << "B = " << B << " d = " << d;
    EXPECT_EQ(row_swaps, expected_row_swaps(B, d)) << "B = " << B << " d = " << d;
}

TEST(BlockCyclicTridiagonal, MatchesDenseSolveB3) {
    for (int d : {1, 2, 3, 4, 5, 7, 8, 13}) check_against_dense<3>(d, 1, 100 + d);
}

TEST(BlockCyclicTridiagonal, MatchesDenseSolveB6) {
    for (int d : {1, 2, 3, 5, 6, 11}) check_against_dense<6>(d, 1, 200 + d);
}

TEST(BlockCyclicTridiagonal, MatchesDenseSolveStrided) {
    for (int d : {3, 7}) check_against_dense<3>(d, 5, 300 + d);
    check_against_dense<6>(4, 3, 400);
}

TEST(BlockCyclicTridiagonal, ReportsSingularAndNonFinite) {
    std::vector<double> storage(BlockCyclicTridiagonal<3, double>::workspace_reals(4), 0.0);
    const BlockCyclicTridiagonal<3, double> sys{StridedReals<double>{storage.data(), 1}, 4};
    EXPECT_EQ(sys.solve(), SolveStatus::singular_jacobian);  // all-zero matrix
    std::fill(storage.begin(), storage.end(), 0.0);
    for (int i = 0; i < 4; ++i)
        for (int r = 0; r < 3; ++r) sys.diag(i, r, r) = 1.0;
    sys.diag(2, 1, 1) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(sys.solve(), SolveStatus::non_finite);
}

// A local problem with a known root: out_i = self^3 + 0.3 (left - right)^2 - target_i with
// target built from a chosen root x*, so Newton must return x*. Block size 2.
struct CubicChain {
    static constexpr int block_size = 2;
    int d;
    const double* root;  // 2 d values
    int blocks() const { return d; }
    template <class T>
    T f(const T* l, const T* s, const T* r, int k) const {
        const T diff = l[k] - r[1 - k];
        return s[k] * s[k] * s[k] + T(0.3) * diff * diff + T(0.5) * s[1 - k];
    }
    template <class T>
    void residual(int i, const T* left, const T* self, const T* right, T* out) const {
        const int il = (i + d - 1) % d, ir = (i + 1) % d;
        for (int k = 0; k < 2; ++k) out[k] = f(left, self, right, k) - f(root + 2 * il, root + 2 * i, root + 2 * ir, k);
    }
};

TEST(LocalNewton, ConvergesToTheKnownRootWithExactJacobian) {
    for (int d : {1, 2, 3, 9}) {
        std::vector<double> root(2 * d), x(2 * d), work(geomint::spin::local_newton_workspace_reals<2, double>(d));
        for (int i = 0; i < 2 * d; ++i) {
            root[i] = 1.0 + 0.1 * std::sin(1.0 + i);
            x[i] = root[i] + 0.05 * std::cos(3.0 * i);
        }
        CubicChain p{d, root.data()};
        const auto out =
            geomint::spin::local_newton_solve(p, StridedReals<double>{x.data(), 1},
                                              StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{});
        ASSERT_EQ(out.status, SolveStatus::ok) << "d = " << d;
        EXPECT_LE(out.iterations, 7) << "quadratic convergence expected, d = " << d;
        for (int i = 0; i < 2 * d; ++i) EXPECT_NEAR(x[i], root[i], 1e-14) << "d = " << d;
    }
}

TEST(LocalNewton, ReportsTheIterationLimitAndNonFiniteValues) {
    const int d = 5;
    std::vector<double> root(2 * d, 1.0), x(2 * d, 1.3),
        work(geomint::spin::local_newton_workspace_reals<2, double>(d));
    CubicChain p{d, root.data()};
    geomint::NewtonOptions<double> one;
    one.max_iterations = 1;
    auto out = geomint::spin::local_newton_solve(p, StridedReals<double>{x.data(), 1},
                                                 StridedReals<double>{work.data(), 1}, one);
    EXPECT_EQ(out.status, SolveStatus::newton_max_iterations);
    EXPECT_EQ(out.iterations, 1);
    x.assign(2 * d, 1.3);
    x[3] = std::numeric_limits<double>::quiet_NaN();
    out = geomint::spin::local_newton_solve(p, StridedReals<double>{x.data(), 1}, StridedReals<double>{work.data(), 1},
                                            geomint::NewtonOptions<double>{});
    EXPECT_EQ(out.status, SolveStatus::non_finite);
}

}  // namespace
