// The Gonzalez midpoint's Newton with lambda's dependence on v (DrgStage::coupling in
// schemes/drg.hpp, MidpointGradient::lambda_gradient, and the rank-one step of local_newton.hpp):
// d lambda/dv and dR/dlambda against central differences of prepare() and of the residual, for the
// top and both chains (d = 1, 2, 3, 16); the rank-one Newton step against a dense solve of the
// same matrix; and what it is for: quadratic convergence, within one iteration a step of the
// implicit midpoint rule's Newton, where the simplified Newton in lambda took up to twice as many.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "geomint/spin/explicit_guess.hpp"
#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/schemes/midpoint_baselines.hpp"
#include "geomint/spin/systems.hpp"
#include "spin_test_support.hpp"
#include "geomint/spin/team.hpp"

namespace {

namespace gs = geomint::spin;
using geomint::NewtonOptions;
using geomint::SolveStatus;

template <class System>
using MpStage = gs::DrgStage<gs::Centre::symmetric, gs::MidpointGradient<double>, System, double>;

gs::AnisotropicChain<double> anisotropic() { return {0.8, gs::Vec3<double>{0.3, -0.2, 0.45}, -0.6}; }

// A start u and an iterate v near the step's solution but off it, and off the sphere by 1e-4 (as
// early iterates are), so that every term of lambda (its radial one included) is exercised.
struct Point {
    std::vector<double> u, x;
};
Point random_point(int d, std::uint64_t seed, double spread) {
    Point p{std::vector<double>(3 * static_cast<std::size_t>(d)), std::vector<double>(3 * static_cast<std::size_t>(d))};
    gs::fill_random_spins(gs::StridedSpins<double>{p.u.data(), 1, d}, seed, 0);
    gs::fill_random_spins(gs::StridedSpins<double>{p.x.data(), 1, d}, seed + 1, 0);
    const gs::StridedSpins<double> u{p.u.data(), 1, d}, v{p.x.data(), 1, d};
    for (int i = 0; i < d; ++i) {
        const gs::Vec3<double> w = u.get(i) + spread * v.get(i);
        v.set(i, ((1.0 + 1e-4 * (i % 3 - 1)) / gs::norm(w)) * w);
    }
    return p;
}

double largest(const std::vector<double>& v) {
    double m = 0;
    for (double e : v) m = std::fmax(m, std::fabs(e));
    return m;
}

// lambda at x, as the solver sees it (prepare on a copy of the stage).
template <class System>
double lambda_at(MpStage<System> stage, std::vector<double> x) {
    stage.prepare(gs::StridedReals<double>{x.data(), 1});
    return stage.gradient.lambda;
}

template <class System>
void check_derivatives(const System& system, int d, std::uint64_t seed) {
    SCOPED_TRACE(std::string(System::name) + ", d = " + std::to_string(d));
    const Point p = random_point(d, seed, 0.1);
    const std::size_t n = p.x.size();
    std::vector<double> x = p.x, a(n), b(n);
    MpStage<System> stage{system, gs::StridedSpins<double>{const_cast<double*>(p.u.data()), 1, d}, 0.05, {}};
    stage.prepare(gs::StridedReals<double>{x.data(), 1});
    ASSERT_NE(stage.gradient.lambda, 0.0);
    ASSERT_TRUE(stage.coupling(gs::StridedReals<double>{x.data(), 1}, gs::StridedReals<double>{a.data(), 1},
                               gs::StridedReals<double>{b.data(), 1}));
    // d lambda/dv: central differences of prepare's lambda, step 1e-6 (truncation ~1e-12; lambda's
    // own rounding, ~1e-15 relative, gives ~1e-9 over the step). Observed: within 1e-8 of scale;
    // a's differences below within 1.3e-11 (the rows' rounding over the step).
    std::vector<double> fd(n);
    for (std::size_t k = 0; k < n; ++k) {
        std::vector<double> plus = x, minus = x;
        plus[k] += 1e-6;
        minus[k] -= 1e-6;
        fd[k] = (lambda_at(stage, plus) - lambda_at(stage, minus)) / 2e-6;
    }
    const double scale = std::fmax(1.0, largest(fd));
    for (std::size_t k = 0; k < n; ++k) EXPECT_NEAR(b[k], fd[k], 1e-6 * scale) << "d lambda / dx_" << k;
    // dR/dlambda: central differences of the residual rows in lambda.
    const auto rows = [&](double lambda) {
        MpStage<System> s = stage;
        s.gradient.lambda = lambda;
        std::vector<double> r(n);
        for (int i = 0; i < d; ++i) {
            const int il = i == 0 ? d - 1 : i - 1, ir = i == d - 1 ? 0 : i + 1;
            s.residual(i, &x[3 * il], &x[3 * i], &x[3 * ir], &r[3 * i]);
        }
        return r;
    };
    const double lambda = stage.gradient.lambda, delta = 1e-6 * std::fmax(1.0, std::fabs(lambda));
    const std::vector<double> rp = rows(lambda + delta), rm = rows(lambda - delta);
    for (std::size_t k = 0; k < n; ++k)
        EXPECT_NEAR(a[k], (rp[k] - rm[k]) / (2 * delta), 1e-9) << "dR_" << k << "/d lambda";
}

TEST(MpNewton, LambdaGradientAndCouplingColumnMatchDifferences) {
    check_derivatives(gs::SpinningTop<double>{}, 1, 11);
    for (int d : {2, 3, 16}) {
        check_derivatives(gs::HeisenbergChain<double>{}, d, 20 + d);
        check_derivatives(anisotropic(), d, 40 + d);
    }
}

// The first iterate of a step is v = u, where lambda is held at 0: no rank-one term.
TEST(MpNewton, NoTermWhereLambdaIsHeld) {
    const Point p = random_point(16, 5, 0.1);
    const gs::HeisenbergChain<double> system;
    std::vector<double> x = p.u, a(x.size()), b(x.size(), 7.0);
    MpStage<gs::HeisenbergChain<double>> stage{
        system, gs::StridedSpins<double>{const_cast<double*>(p.u.data()), 1, 16}, 0.05, {}};
    stage.prepare(gs::StridedReals<double>{x.data(), 1});
    EXPECT_EQ(stage.gradient.lambda, 0.0);
    EXPECT_FALSE(stage.coupling(gs::StridedReals<double>{x.data(), 1}, gs::StridedReals<double>{a.data(), 1},
                                gs::StridedReals<double>{b.data(), 1}));
    EXPECT_EQ(b[0], 7.0);
}

// Gaussian elimination with partial pivoting of a dense n x n system (row-major), the reference.
std::vector<double> dense_solve(std::vector<double> m, std::vector<double> r) {
    const std::size_t n = r.size();
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t pivot = k;
        for (std::size_t i = k + 1; i < n; ++i)
            if (std::fabs(m[i * n + k]) > std::fabs(m[pivot * n + k])) pivot = i;
        for (std::size_t j = 0; j < n; ++j) std::swap(m[k * n + j], m[pivot * n + j]);
        std::swap(r[k], r[pivot]);
        for (std::size_t i = k + 1; i < n; ++i) {
            const double f = m[i * n + k] / m[k * n + k];
            for (std::size_t j = k; j < n; ++j) m[i * n + j] -= f * m[k * n + j];
            r[i] -= f * r[k];
        }
    }
    std::vector<double> x(n);
    for (std::size_t k = n; k-- > 0;) {
        double s = r[k];
        for (std::size_t j = k + 1; j < n; ++j) s -= m[k * n + j] * x[j];
        x[k] = s / m[k * n + k];
    }
    return x;
}

// newton_step's direction for J + a b^T (J folded for d <= 3, Sherman-Morrison above) against a
// dense solve of the same matrix, assembled from the same blocks and vectors.
template <class System>
void check_step(const System& system, int d) {
    SCOPED_TRACE(std::string(System::name) + ", d = " + std::to_string(d));
    const Point p = random_point(d, 70 + d, 0.1);
    const std::size_t n = p.x.size();
    std::vector<double> x = p.x, a(n), b(n),
                        work(gs::local_newton_workspace_reals<3, double>(d) + gs::rank_one_workspace_reals<3>(d));
    MpStage<System> stage{system, gs::StridedSpins<double>{const_cast<double*>(p.u.data()), 1, d}, 0.05, {}};
    const gs::StridedReals<double> xs{x.data(), 1};
    stage.prepare(xs);
    const gs::BlockCyclicTridiagonal<3, double> rows{{work.data(), 1}, d};
    std::vector<double> dense(n * n, 0.0), r(n);
    for (int i = 0; i < d; ++i) {
        double out[3];
        gs::detail::residual_row<true>(stage, rows, xs, d, i, out);
        const int il = i == 0 ? d - 1 : i - 1, ir = i == d - 1 ? 0 : i + 1;
        for (int q = 0; q < 3; ++q) {
            rows.rhs(i, q) = r[3 * i + q] = out[q];
            for (int c = 0; c < 3; ++c) {
                dense[(3 * i + q) * n + 3 * il + c] += rows.lower(i, q, c);
                dense[(3 * i + q) * n + 3 * i + c] += rows.diag(i, q, c);
                dense[(3 * i + q) * n + 3 * ir + c] += rows.upper(i, q, c);
            }
        }
    }
    ASSERT_TRUE(stage.coupling(xs, {a.data(), 1}, {b.data(), 1}));
    for (std::size_t k = 0; k < n; ++k)
        for (std::size_t j = 0; j < n; ++j) dense[k * n + j] += a[k] * b[j];
    const std::vector<double> expected = dense_solve(dense, r);
    ASSERT_EQ(gs::detail::newton_step(stage, rows, xs, gs::StridedReals<double>{work.data(), 1}), SolveStatus::ok);
    const double scale = largest(expected);
    for (int i = 0; i < d; ++i)
        for (int q = 0; q < 3; ++q) EXPECT_NEAR(rows.solution(i, q), expected[3 * i + q], 1e-12 * scale);
}

TEST(MpNewton, RankOneStepEqualsADenseSolve) {
    check_step(gs::SpinningTop<double>{}, 1);
    for (int d : {2, 3, 4, 16}) {
        check_step(gs::HeisenbergChain<double>{}, d);
        check_step(anisotropic(), d);
    }
}

// Mean Newton iterations (a Jacobian per iteration) of one solve from the schemes' explicit guess
// over random states, 32 tops or 8 chains (geomint_test::newton_iterations). The host's schemes
// run the simplified Newton, which keeps the rank-one term with its factors
// (tests/spin/test_step_simplified_newton.cpp); this is the Newton it approximates.
template <class System, class Make>
double newton_iterations(const System& system, int d, double h, const Make& make) {
    return geomint_test::newton_iterations(system, d, h, d == 1 ? 32 : 8, make);
}

// With lambda's dependence in the Jacobian, mp's Newton is Newton again: quadratic, and so about as
// many iterations per solve as the implicit midpoint rule's on the same spins. The simplified
// Newton in lambda (the same stage on AutomaticJacobians, whose dual-number rows have no coupling,
// as on the GPU) converges linearly and takes many more as h grows. Measured on these solves
// (h = 0.05; 0.2), with the stop of local_newton.hpp once the error left is below round-off and
// the explicit guess: mp 2.63 and 3.03 iterations on the top, 3.00 and 4.00 on chains of 16; the
// implicit midpoint rule 2.50, 2.97; 3.00, 4.00; the simplified Newton 3.25, 4.78; 4.88-5.00,
// 8.75 (whole runs of the schemes under Newton gave the same to 0.1). From the guess v = u, before the explicit guess,
// the implicit midpoint rule's second iterate was closer than mp's, and its third step's bound often ended the solve
// where mp took a fourth (3.00-3.24 against 4.00 on chains at h = 0.05). So: at most one more iteration than the
// implicit midpoint rule, and at least 0.6 fewer than the simplified one.
template <class System>
void check_iterations(const System& system, int d, double h) {
    SCOPED_TRACE(std::string(System::name) + ", d = " + std::to_string(d) + ", h = " + std::to_string(h));
    using Automatic = gs::AutomaticJacobians<System>;
    const Automatic automatic{system};
    const double mp = newton_iterations(system, d, h, [&](gs::StridedSpins<double> u) {
        return MpStage<System>{system, u, h, gs::MidpointGradient<double>{}};
    });
    const double im = newton_iterations(system, d, h, [&](gs::StridedSpins<double> u) {
        return gs::MidpointStep<gs::MidpointKind::embedded, System, double>{system, u, h};
    });
    const double simplified = newton_iterations(automatic, d, h, [&](gs::StridedSpins<double> u) {
        return MpStage<Automatic>{automatic, u, h, gs::MidpointGradient<double>{}};
    });
    EXPECT_LE(mp, im + 1.0);
    EXPECT_LE(mp, simplified - 0.6);
}

TEST(MpNewton, ConvergesInTheImplicitMidpointRulesIterations) {
    for (double h : {0.05, 0.2}) {
        check_iterations(gs::SpinningTop<double>{}, 1, h);
        check_iterations(gs::HeisenbergChain<double>{}, 16, h);
        check_iterations(anisotropic(), 16, h);
    }
}

}  // namespace
