// Numerical properties of the Newmark and Simpson steps (math §1.1, §1.2): observed order against
// the exact solution (math §1.3), symplecticity (also of the explicit schemes, §1.4, §1.5),
// bounded energy error, failure reporting.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "geomint/pendulum/blanes_moan_rkn4.hpp"
#include "geomint/pendulum/integrate_trajectory.hpp"
#include "geomint/pendulum/newmark.hpp"
#include "geomint/pendulum/simpson.hpp"
#include "geomint/pendulum/stormer_verlet.hpp"
#include "pendulum_order_cases.hpp"
#include "pendulum_exact.hpp"
#include "test_support_print.hpp"

namespace {

using geomint::Newmark;
using geomint::NewtonOptions;
using geomint::PendulumPotential;
using geomint::Simpson;
using geomint::SolveStatus;

using geomint_test::final_error;
using geomint_test::kMotions;
using geomint_test::kTwoPi;
using geomint_test::Motion;
using geomint_test::observed_order;

TEST(PendulumOrder, NewmarkIsSecondOrder) {
    for (const Motion& m : kMotions) {
        SCOPED_TRACE(m.label);
        EXPECT_NEAR(observed_order<Newmark>(m, 2.0, {400, 800, 1600, 3200}), 2.0, 0.15);
    }
}

TEST(PendulumOrder, SimpsonIsFourthOrder) {
    for (const Motion& m : kMotions) {
        SCOPED_TRACE(m.label);
        EXPECT_NEAR(observed_order<Simpson>(m, 2.0, {100, 200, 400, 800}), 4.0, 0.15);
    }
}

TEST(PendulumOrder, SimpsonMatchesSpecErrors) {
    // math §1.2: w = 2 pi, q0 = pi/2, five periods, N = 50 .. 400 gives 1.3e-3, 8.6e-5, 5.1e-6, 3.2e-7.
    const PendulumPotential<double> pendulum{1.0, kTwoPi};
    const double q0 = kTwoPi / 4, t_end = 5.0;
    const double expected[] = {1.3e-3, 8.6e-5, 5.1e-6, 3.2e-7};
    int i = 0;
    for (long long n : {50, 100, 200, 400}) {
        const auto r =
            geomint::integrate_trajectory(Simpson{}, pendulum, q0, 0.0, t_end / double(n), n, NewtonOptions<double>{});
        const auto exact = geomint::pendulum_exact(1.0, kTwoPi, q0, 0.0, t_end);
        const double error = std::abs(r.q - exact.q);
        EXPECT_GT(error, expected[i] / 4);
        EXPECT_LT(error, expected[i] * 4);
        ++i;
    }
}

// det of the step map's Jacobian by Richardson-extrapolated central differences
// (truncation O(delta^4), round-off ~1e-11: well inside the 1e-9 asked for).
template <class Scheme>
double step_jacobian_determinant(double q, double p, double h) {
    const PendulumPotential<double> pendulum{1.3, 2.0};
    const auto step = [&](double q0, double p0) {
        long long iterations = 0;
        double qq = q0, pp = p0;
        EXPECT_EQ(Scheme{}.step(pendulum, h, qq, pp, NewtonOptions<double>{}, iterations), SolveStatus::ok);
        return std::array<double, 2>{qq, pp};
    };
    // Column j of the Jacobian: derivative of the step along coordinate j.
    const auto column = [&](int j) {
        const auto central = [&](double delta) {
            const double dq = j == 0 ? delta : 0, dp = j == 1 ? delta : 0;
            const auto plus = step(q + dq, p + dp), minus = step(q - dq, p - dp);
            return std::array<double, 2>{(plus[0] - minus[0]) / (2 * delta), (plus[1] - minus[1]) / (2 * delta)};
        };
        const auto coarse = central(1e-3), fine = central(5e-4);
        return std::array<double, 2>{(4 * fine[0] - coarse[0]) / 3, (4 * fine[1] - coarse[1]) / 3};
    };
    const auto d_dq = column(0), d_dp = column(1);
    return d_dq[0] * d_dp[1] - d_dp[0] * d_dq[1];
}

TEST(PendulumSymplecticity, StepMapPreservesArea) {
    for (double h : {0.05, 0.3}) {
        for (auto [q, p] : {std::pair{0.4, 0.1}, std::pair{2.8, -1.0}, std::pair{-1.0, 3.5}}) {
            EXPECT_NEAR(step_jacobian_determinant<Newmark>(q, p, h), 1.0, 1e-9) << "h=" << h << " q=" << q;
            EXPECT_NEAR(step_jacobian_determinant<Simpson>(q, p, h), 1.0, 1e-9) << "h=" << h << " q=" << q;
            // The explicit schemes of math §1.4, §1.5 through the same check.
            EXPECT_NEAR(step_jacobian_determinant<geomint::StormerVerlet>(q, p, h), 1.0, 1e-9) << "h=" << h;
            EXPECT_NEAR(step_jacobian_determinant<geomint::BlanesMoanRkn4>(q, p, h), 1.0, 1e-9) << "h=" << h;
        }
    }
}

// Energy error over 10^5 steps: its maximum over the last tenth is no larger than over the first.
template <class Scheme>
void expect_bounded_energy(double h, double bound) {
    const PendulumPotential<double> pendulum{1.0, kTwoPi};
    const long long steps = 100000, tenth = steps / 10;
    double q = 2.0, p = 0.5;
    const double energy0 = geomint::hamiltonian(pendulum, q, p);
    double first = 0, last = 0;
    long long iterations = 0;
    for (long long n = 0; n < steps; ++n) {
        ASSERT_EQ(Scheme{}.step(pendulum, h, q, p, NewtonOptions<double>{}, iterations), SolveStatus::ok);
        const double error = std::abs(geomint::hamiltonian(pendulum, q, p) - energy0);
        if (n < tenth) first = std::max(first, error);
        if (n >= steps - tenth) last = std::max(last, error);
    }
    EXPECT_LT(first, bound);
    EXPECT_GT(first, 0.0);
    EXPECT_LE(last, first * 1.05) << "energy error grows: drift";
    EXPECT_GE(last, first * 0.5);  // same oscillation, not a decay artefact
}

TEST(PendulumEnergy, NewmarkNoDriftOver1e5Steps) { expect_bounded_energy<Newmark>(0.01, 5e-2); }
TEST(PendulumEnergy, SimpsonNoDriftOver1e5Steps) { expect_bounded_energy<Simpson>(0.01, 1e-5); }

TEST(PendulumNewton, ConvergesInFewIterations) {
    const PendulumPotential<double> pendulum{1.0, kTwoPi};
    const auto r = geomint::integrate_trajectory(Newmark{}, pendulum, 1.5, 0.0, 0.01, 1000, NewtonOptions<double>{});
    ASSERT_EQ(r.status, SolveStatus::ok);
    EXPECT_LE(r.newton_iterations, 5 * 1000);  // math §1.1: 3 to 5 iterations a step
    EXPECT_GE(r.newton_iterations, 2 * 1000);
}

TEST(PendulumNewton, IterationLimitIsReported) {
    const PendulumPotential<double> pendulum{1.0, kTwoPi};
    NewtonOptions<double> options;
    options.max_iterations = 1;
    const auto r = geomint::integrate_trajectory(Simpson{}, pendulum, 1.5, 0.0, 0.01, 100, options);
    EXPECT_EQ(r.status, SolveStatus::newton_max_iterations);
    EXPECT_EQ(r.steps_completed, 0);
    EXPECT_EQ(r.q, 1.5);  // the last good state
}

TEST(PendulumNewton, OverflowingStepIsNonFinite) {
    const PendulumPotential<double> pendulum{1.0, kTwoPi};
    const auto r = geomint::integrate_trajectory(Newmark{}, pendulum, 1.5, 0.0, 1e200, 10, NewtonOptions<double>{});
    EXPECT_EQ(r.status, SolveStatus::non_finite);
    EXPECT_TRUE(std::isfinite(r.q));
}

TEST(PendulumFloat, SinglePrecisionRunsAndConverges) {
    const PendulumPotential<float> pendulum{1.0f, float(kTwoPi)};
    const auto coarse =
        geomint::integrate_trajectory(Newmark{}, pendulum, 1.0f, 0.0f, 0.02f, 50, NewtonOptions<float>{});
    const auto fine =
        geomint::integrate_trajectory(Newmark{}, pendulum, 1.0f, 0.0f, 0.01f, 100, NewtonOptions<float>{});
    ASSERT_EQ(coarse.status, SolveStatus::ok);
    ASSERT_EQ(fine.status, SolveStatus::ok);
    const auto exact = geomint::pendulum_exact(1.0, kTwoPi, 1.0, 0.0, 1.0);
    const double e_coarse = std::abs(coarse.q - exact.q), e_fine = std::abs(fine.q - exact.q);
    EXPECT_NEAR(std::log2(e_coarse / e_fine), 2.0, 0.3);
}

TEST(DuffingPotential, HarmonicLimitMatchesCosine) {
    // beta = 0: q(t) = q0 cos(w t); Simpson at h = 0.01 is accurate to ~1e-9.
    const geomint::DuffingPotential<double> harmonic{2.0, 3.0, 0.0};
    const auto r = geomint::integrate_trajectory(Simpson{}, harmonic, 0.7, 0.0, 0.01, 300, NewtonOptions<double>{});
    ASSERT_EQ(r.status, SolveStatus::ok);
    EXPECT_NEAR(r.q, 0.7 * std::cos(3.0 * 3.0), 1e-8);
    EXPECT_NEAR(r.p, -2.0 * 0.7 * 3.0 * std::sin(3.0 * 3.0), 1e-7);
}

TEST(DuffingPotential, HardeningSpringKeepsEnergy) {
    const geomint::DuffingPotential<double> duffing{1.0, 1.0, 5.0};
    const auto r = geomint::integrate_trajectory(Newmark{}, duffing, 1.0, 0.0, 0.001, 20000, NewtonOptions<double>{});
    ASSERT_EQ(r.status, SolveStatus::ok);
    EXPECT_LT(r.max_energy_error, 1e-5);
}

}  // namespace
