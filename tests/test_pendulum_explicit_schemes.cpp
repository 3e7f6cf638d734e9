// The explicit variational schemes, Störmer–Verlet and Blanes–Moan SRKN_6^b (math §1.4, §1.5):
// observed orders against the exact pendulum (math §1.3), the coefficients' consistency, energy
// without drift over 10^5 steps, no Newton work, and non-finite states reported, never continued.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "geomint/pendulum/blanes_moan_rkn4.hpp"
#include "geomint/pendulum/integrate_trajectory.hpp"
#include "geomint/pendulum/registry.hpp"
#include "geomint/pendulum/stormer_verlet.hpp"
#include "pendulum_order_cases.hpp"
#include "pendulum_exact.hpp"
#include "registry_lookup.hpp"

namespace {

using geomint::BlanesMoanRkn4;
using geomint::NewtonOptions;
using geomint::PendulumPotential;
using geomint::SolveStatus;
using geomint::StormerVerlet;

using geomint_test::final_error;
using geomint_test::kMotions;
using geomint_test::kTwoPi;
using geomint_test::Motion;
using geomint_test::observed_order;

TEST(ExplicitOrder, VerletIsSecondOrder) {
    for (const Motion& m : kMotions) {
        SCOPED_TRACE(m.label);
        EXPECT_NEAR(observed_order<StormerVerlet>(m, 2.0, {400, 800, 1600, 3200}), 2.0, 0.2);
    }
}

// From N = 100 (h = 0.02, w h = 0.13) up: the optimized error constant makes the h^4 term so small
// that at N = 50 the h^6 term still shows (fitted order 3.6 to 3.8 over 50..400); the errors at
// N = 800 (1e-12 to 1e-10) are still well above the round-off of 800 steps.
TEST(ExplicitOrder, BlanesMoanIsFourthOrder) {
    for (const Motion& m : kMotions) {
        SCOPED_TRACE(m.label);
        EXPECT_NEAR(observed_order<BlanesMoanRkn4>(m, 2.0, {100, 200, 400, 800}), 4.0, 0.2);
    }
}

// The registry's declared orders are what the fits above measured.
TEST(ExplicitOrder, DeclaredOrdersAndRegistryEntries) {
    EXPECT_EQ(StormerVerlet::order, 2);
    EXPECT_EQ(BlanesMoanRkn4::order, 4);
    const auto names = geomint::registry_names(geomint::PendulumSchemes{});
    EXPECT_NE(std::find(names.begin(), names.end(), "verlet"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "rkn4"), names.end());
}

// Consistency of the quoted coefficients (math §1.5): the six drifts and the seven kicks each sum
// to one step. The fourth-order conditions proper are checked by the fitted order above.
TEST(BlanesMoanCoefficients, DriftsAndKicksEachSumToOne) {
    using C = geomint::BlanesMoanRkn4Coefficients;
    EXPECT_NEAR(2 * (C::a1 + C::a2 + C::a3), 1.0, 1e-15);
    EXPECT_NEAR(2 * (C::b1 + C::b2 + C::b3) + C::b4, 1.0, 1e-15);
    EXPECT_NEAR(C::a3, -0.350171622895351, 1e-15);  // the values printed in [BM02], Table 3
    EXPECT_NEAR(C::b4, 0.1195241940131508, 1e-15);
}

// Symmetric methods are time-reversible: a step of -h undoes a step of h.
template <class Scheme>
void expect_reversible(double q, double p, double h) {
    const PendulumPotential<double> pendulum{1.3, 2.0};
    long long iterations = 0;
    double qq = q, pp = p;
    ASSERT_EQ(Scheme{}.step(pendulum, h, qq, pp, NewtonOptions<double>{}, iterations), SolveStatus::ok);
    ASSERT_EQ(Scheme{}.step(pendulum, -h, qq, pp, NewtonOptions<double>{}, iterations), SolveStatus::ok);
    EXPECT_NEAR(qq, q, 1e-14);
    EXPECT_NEAR(pp, p, 1e-14);
    EXPECT_EQ(iterations, 0);
}

TEST(ExplicitSchemes, SymmetricStepsAreReversible) {
    for (double h : {0.05, 0.3}) {
        expect_reversible<StormerVerlet>(2.8, -1.0, h);
        expect_reversible<BlanesMoanRkn4>(2.8, -1.0, h);
    }
}

// Largest |H - H0| in the first and in the second half of 10^5 steps.
struct EnergyHalves {
    double first, second;
};

template <class Scheme>
EnergyHalves energy_halves(double h) {
    const PendulumPotential<double> pendulum{1.0, kTwoPi};
    const long long steps = 100000;
    double q = 2.0, p = 0.5;
    const double energy0 = geomint::hamiltonian(pendulum, q, p);
    EnergyHalves halves{0, 0};
    long long iterations = 0;
    for (long long n = 0; n < steps; ++n) {
        EXPECT_EQ(Scheme{}.step(pendulum, h, q, p, NewtonOptions<double>{}, iterations), SolveStatus::ok);
        const double error = std::abs(geomint::hamiltonian(pendulum, q, p) - energy0);
        double& half = n < steps / 2 ? halves.first : halves.second;
        half = std::max(half, error);
    }
    EXPECT_EQ(iterations, 0);  // explicit: no Newton work
    std::printf("%s h=%g: max |H - H0| first half %.6g, second half %.6g (ratio %.6f)\n", Scheme::name, h, halves.first,
                halves.second, halves.second / halves.first);
    return halves;
}

// A symplectic scheme's energy error oscillates in a band: over 10^5 steps (1000 periods of the
// linearized motion) the maximum over the second half is within 5% of the first half's. An
// explicit non-symplectic scheme of the same order (e.g. classical RK4) grows linearly instead.
template <class Scheme>
void expect_no_drift(double h, double bound) {
    const EnergyHalves e = energy_halves<Scheme>(h);
    EXPECT_GT(e.first, 0.0);
    EXPECT_LT(e.first, bound);
    EXPECT_LE(e.second, e.first * 1.05) << "energy error grows: drift";
    EXPECT_GE(e.second, e.first * 0.5);  // the same oscillation, not a decay artefact
}

TEST(ExplicitEnergy, VerletNoDriftOver1e5Steps) { expect_no_drift<StormerVerlet>(0.01, 5e-2); }
TEST(ExplicitEnergy, BlanesMoanNoDriftOver1e5Steps) { expect_no_drift<BlanesMoanRkn4>(0.01, 1e-7); }

TEST(ExplicitSchemes, NoNewtonIterationsAndStatusOk) {
    const PendulumPotential<double> pendulum{1.0, kTwoPi};
    for (const auto& r :
         {geomint::integrate_trajectory(StormerVerlet{}, pendulum, 1.5, 0.0, 0.01, 1000, NewtonOptions<double>{}),
          geomint::integrate_trajectory(BlanesMoanRkn4{}, pendulum, 1.5, 0.0, 0.01, 1000, NewtonOptions<double>{})}) {
        EXPECT_EQ(r.status, SolveStatus::ok);
        EXPECT_EQ(r.newton_iterations, 0);
        EXPECT_EQ(r.steps_completed, 1000);
    }
}

// A step that overflows ends the trajectory with non_finite and keeps the last good state; it is
// never continued with an infinite or NaN state.
template <class Scheme>
void expect_overflow_reported() {
    const PendulumPotential<double> pendulum{1.0, kTwoPi};
    const auto r = geomint::integrate_trajectory(Scheme{}, pendulum, 1.5, 0.0, 1e200, 10, NewtonOptions<double>{});
    EXPECT_EQ(r.status, SolveStatus::non_finite);
    EXPECT_EQ(r.steps_completed, 0);
    EXPECT_EQ(r.q, 1.5);
    EXPECT_EQ(r.p, 0.0);
    // A trajectory that becomes non-finite after some good steps: a Duffing spring with beta < 0
    // released past its barrier runs away to infinity in finite time.
    const geomint::DuffingPotential<double> softening{1.0, 1.0, -1.0};
    const auto away =
        geomint::integrate_trajectory(Scheme{}, softening, 2.0, 0.0, 0.01, 100000, NewtonOptions<double>{});
    EXPECT_EQ(away.status, SolveStatus::non_finite);
    EXPECT_GT(away.steps_completed, 0);
    EXPECT_LT(away.steps_completed, 100000);
    EXPECT_TRUE(std::isfinite(away.q) && std::isfinite(away.p));
}

TEST(ExplicitSchemes, NonFiniteIsReportedPerTrajectory) {
    expect_overflow_reported<StormerVerlet>();
    expect_overflow_reported<BlanesMoanRkn4>();
}

TEST(ExplicitSchemes, HarmonicLimitMatchesCosine) {
    // beta = 0: q(t) = q0 cos(w t); the order-4 scheme at h = 0.01 is accurate to ~1e-8.
    const geomint::DuffingPotential<double> harmonic{2.0, 3.0, 0.0};
    const auto r =
        geomint::integrate_trajectory(BlanesMoanRkn4{}, harmonic, 0.7, 0.0, 0.01, 300, NewtonOptions<double>{});
    ASSERT_EQ(r.status, SolveStatus::ok);
    EXPECT_NEAR(r.q, 0.7 * std::cos(3.0 * 3.0), 1e-8);
    EXPECT_NEAR(r.p, -2.0 * 0.7 * 3.0 * std::sin(3.0 * 3.0), 1e-7);
}

TEST(ExplicitSchemes, SinglePrecisionConverges) {
    const PendulumPotential<float> pendulum{1.0f, float(kTwoPi)};
    const auto coarse =
        geomint::integrate_trajectory(StormerVerlet{}, pendulum, 1.0f, 0.0f, 0.02f, 50, NewtonOptions<float>{});
    const auto fine =
        geomint::integrate_trajectory(StormerVerlet{}, pendulum, 1.0f, 0.0f, 0.01f, 100, NewtonOptions<float>{});
    ASSERT_EQ(coarse.status, SolveStatus::ok);
    ASSERT_EQ(fine.status, SolveStatus::ok);
    const auto exact = geomint::pendulum_exact(1.0, kTwoPi, 1.0, 0.0, 1.0);
    EXPECT_NEAR(std::log2(std::abs(coarse.q - exact.q) / std::abs(fine.q - exact.q)), 2.0, 0.3);
    const auto rkn =
        geomint::integrate_trajectory(BlanesMoanRkn4{}, pendulum, 1.0f, 0.0f, 0.01f, 100, NewtonOptions<float>{});
    ASSERT_EQ(rkn.status, SolveStatus::ok);
    EXPECT_NEAR(rkn.q, exact.q, 1e-4);
}

}  // namespace
