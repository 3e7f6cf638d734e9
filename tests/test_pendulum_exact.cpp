// Tests of the exact pendulum solution (math §1.3): ODE residual, energy, periods, an independent
// high-accuracy Runge-Kutta integration, the closed form of math §1.3, edge cases and bad input.
#include "pendulum_exact.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <boost/numeric/odeint.hpp>
#include <gtest/gtest.h>

namespace geomint {

// Readable failures of EXPECT_EQ on the motion ("rotation" rather than "4-byte object <02-00 ...>");
// found by argument-dependent lookup, hence in geomint, and static so it stays in this test.
static void PrintTo(PendulumMotion motion, std::ostream* os) {
    switch (motion) {
        case PendulumMotion::libration:
            *os << "libration";
            return;
        case PendulumMotion::separatrix:
            *os << "separatrix";
            return;
        case PendulumMotion::rotation:
            *os << "rotation";
            return;
    }
    *os << "PendulumMotion(" << static_cast<int>(motion) << ")";
}

}  // namespace geomint

namespace {

using geomint::pendulum_exact;
using geomint::pendulum_modulus;
using geomint::pendulum_motion;
using geomint::pendulum_period;
using geomint::PendulumMotion;
using geomint::PendulumPhasePoint;

constexpr double pi = std::numbers::pi;

struct Case {
    double m, w, q0, p0;
};

std::string describe(const Case& c) {
    return "m=" + std::to_string(c.m) + " w=" + std::to_string(c.w) + " q0=" + std::to_string(c.q0) +
           " p0=" + std::to_string(c.p0);
}

// Libration (k < 1): q0 = 1.5 and 3.0 among others, p0 of both signs, q0 outside (-pi, pi].
const std::vector<Case> libration_cases = {
    {1.0, 1.0, 1.5, 0.0},  {1.0, 1.0, 1.5, 0.7}, {1.0, 1.0, 1.5, -0.7}, {2.0, 3.0, 3.0, 0.0},  {2.0, 3.0, 3.0, -0.05},
    {0.5, 2.0, -1.5, 0.3}, {1.0, 1.0, 7.0, 0.2}, {1.0, 1.0, -3.0, 0.1}, {1.5, 0.7, 0.2, -0.1},
};
// Rotation (|p0| > 2 m w guarantees k > 1), both directions, q0 outside (-pi, pi].
const std::vector<Case> rotation_cases = {
    {1.0, 1.0, 0.3, 2.5},   {1.0, 1.0, 0.3, -2.5}, {2.0, 1.5, 7.0, 6.5},
    {1.0, 2.0, -3.0, -4.2}, {1.0, 1.0, 3.1, 2.1},  {0.5, 1.0, -9.5, 3.0},
};
// Separatrix (k = 1 up to rounding): p0 = +-2 m w cos(q0/2).
const std::vector<Case> separatrix_cases = {
    {1.0, 1.0, 0.0, 2.0},
    {1.0, 1.0, 0.0, -2.0},
    {1.0, 2.0, 2.0, 4.0 * std::cos(1.0)},
    {2.0, 0.5, -2.0, -2.0 * std::cos(-1.0)},
    {1.0, 1.0, 8.0, -2.0 * std::cos(4.0 - 2.0 * pi)},
};

std::vector<Case> all_cases() {
    std::vector<Case> all = libration_cases;
    all.insert(all.end(), rotation_cases.begin(), rotation_cases.end());
    all.insert(all.end(), separatrix_cases.begin(), separatrix_cases.end());
    return all;
}

double energy(const Case& c, double q, double p) { return p * p / (2.0 * c.m) + c.m * c.w * c.w * (1.0 - std::cos(q)); }

PendulumPhasePoint exact(const Case& c, double t) { return pendulum_exact(c.m, c.w, c.q0, c.p0, t); }

// Independent reference: Runge-Kutta-Fehlberg 7(8), absolute and relative tolerance 1e-14.
PendulumPhasePoint integrate_numerically(const Case& c, double t_end) {
    using State = std::array<double, 2>;
    namespace odeint = boost::numeric::odeint;
    State x{c.q0, c.p0};
    auto rhs = [&c](const State& s, State& ds, double) {
        ds[0] = s[1] / c.m;
        ds[1] = -c.m * c.w * c.w * std::sin(s[0]);
    };
    odeint::integrate_adaptive(odeint::make_controlled(1e-14, 1e-14, odeint::runge_kutta_fehlberg78<State>()), rhs, x,
                               0.0, t_end, 1e-3);
    return {x[0], x[1]};
}

TEST(PendulumExact, Classification) {
    for (const Case& c : libration_cases)
        EXPECT_EQ(pendulum_motion(c.m, c.w, c.q0, c.p0), PendulumMotion::libration) << describe(c);
    for (const Case& c : rotation_cases)
        EXPECT_EQ(pendulum_motion(c.m, c.w, c.q0, c.p0), PendulumMotion::rotation) << describe(c);
    for (const Case& c : separatrix_cases)
        EXPECT_EQ(pendulum_motion(c.m, c.w, c.q0, c.p0), PendulumMotion::separatrix) << describe(c);
    EXPECT_EQ(pendulum_motion(1.0, 1.0, pi, 0.0), PendulumMotion::separatrix);
    EXPECT_EQ(pendulum_motion(1.0, 1.0, 0.0, 2.0 * (1.0 + 1e-13)), PendulumMotion::separatrix);
    EXPECT_EQ(pendulum_motion(1.0, 1.0, 0.0, 2.0 * (1.0 + 1e-10)), PendulumMotion::rotation);
    EXPECT_EQ(pendulum_motion(1.0, 1.0, 0.0, 2.0 * (1.0 - 1e-10)), PendulumMotion::libration);
}

TEST(PendulumExact, ModulusFromEnergy) {
    for (const Case& c : all_cases()) {
        const double k = pendulum_modulus(c.m, c.w, c.q0, c.p0);
        EXPECT_NEAR(k * k, energy(c, c.q0, c.p0) / (2.0 * c.m * c.w * c.w), 1e-14) << describe(c);
    }
    EXPECT_EQ(pendulum_modulus(1.0, 1.0, 0.0, 0.0), 0.0);
    EXPECT_NEAR(pendulum_modulus(3.0, 2.0, 1.0, 0.0), std::sin(0.5), 1e-16);
}

TEST(PendulumExact, StartsExactlyAtInitialState) {
    for (const Case& c : all_cases()) {
        const PendulumPhasePoint z = exact(c, 0.0);
        EXPECT_EQ(z.q, c.q0) << describe(c);
        EXPECT_EQ(z.p, c.p0) << describe(c);
        // And the formulas themselves reproduce it just off t = 0 (within the motion over 1e-14).
        const PendulumPhasePoint z_near = exact(c, 1e-14);
        EXPECT_NEAR(z_near.q, c.q0, 1e-12) << describe(c);
        EXPECT_NEAR(z_near.p, c.p0, 1e-12) << describe(c);
    }
}

// (1) p = m dq/dt and dp/dt = -m w^2 sin q, by central differences (error ~1e-10), at t of both signs.
TEST(PendulumExact, SatisfiesTheOde) {
    const double times[] = {-6.3, -1.1, 0.0, 0.3, 1.7, 4.2, 9.1, 23.5};
    for (const Case& c : all_cases()) {
        for (const double t : times) {
            const double h = 1e-4 / c.w;
            const PendulumPhasePoint z = exact(c, t);
            const PendulumPhasePoint zp = exact(c, t + h);
            const PendulumPhasePoint zm = exact(c, t - h);
            const double dq_dt = (zp.q - zm.q) / (2.0 * h);
            const double dp_dt = (zp.p - zm.p) / (2.0 * h);
            const double force = -c.m * c.w * c.w * std::sin(z.q);
            const double p_scale = 2.0 * c.m * c.w * (1.0 + std::abs(z.p) / (c.m * c.w));
            EXPECT_NEAR(c.m * dq_dt, z.p, 1e-6 * p_scale) << describe(c) << " t=" << t;
            EXPECT_NEAR(dp_dt, force, 1e-6 * c.m * c.w * c.w) << describe(c) << " t=" << t;
            ASSERT_TRUE(std::isfinite(z.q) && std::isfinite(z.p)) << describe(c) << " t=" << t;
        }
    }
}

// q is continuous in t (never wrapped): no jump larger than the motion over a small step.
TEST(PendulumExact, QIsContinuousAndUnwrapped) {
    for (const Case& c : all_cases()) {
        const double dt = 0.01 / c.w;
        PendulumPhasePoint previous = exact(c, -30.0 / c.w);
        for (double t = -30.0 / c.w + dt; t <= 30.0 / c.w; t += dt) {
            const PendulumPhasePoint z = exact(c, t);
            // |q'| <= |p|/m <= 2 w k, so a step moves q by at most about 2 k w dt.
            const double k = pendulum_modulus(c.m, c.w, c.q0, c.p0);
            ASSERT_LE(std::abs(z.q - previous.q), 2.0 * k * c.w * dt * 1.01 + 1e-12) << describe(c) << " t=" << t;
            previous = z;
        }
    }
    // A rotation advances without bound: about (30 / period) turns in 30 time units.
    const Case c{1.0, 1.0, 0.3, 2.5};
    const double period = pendulum_period(c.m, c.w, c.q0, c.p0);
    const double turns = (exact(c, 30.0).q - c.q0) / (2.0 * pi);
    EXPECT_NEAR(turns, 30.0 / period, 1.0);
    EXPECT_GT(turns, 5.0);
}

// (2) Energy conservation.
TEST(PendulumExact, ConservesEnergy) {
    for (const Case& c : all_cases()) {
        const double e0 = energy(c, c.q0, c.p0);
        const double scale = std::max(e0, c.m * c.w * c.w);
        for (double t = -20.0; t <= 20.0; t += 0.37) {
            const PendulumPhasePoint z = exact(c, t);
            EXPECT_NEAR(energy(c, z.q, z.p), e0, 1e-12 * scale) << describe(c) << " t=" << t;
        }
    }
}

// (3) Periods: libration returns to the initial state after 4K(k)/w, and passes through (-q0, -p0)
// at half period (up to the 2 pi offset of q0); rotation advances q by 2 pi s per 2K(1/k)/(k w).
TEST(PendulumExact, LibrationPeriod) {
    for (const Case& c : libration_cases) {
        const double e = energy(c, c.q0, c.p0);
        const double k = std::sqrt(e / (2.0 * c.m * c.w * c.w));
        const double period = pendulum_period(c.m, c.w, c.q0, c.p0);
        EXPECT_NEAR(period, 4.0 * boost::math::ellint_1(k) / c.w, 1e-12 * period) << describe(c);
        const double offset = c.q0 - std::remainder(c.q0, 2.0 * pi);
        for (const int n : {1, 2, -1, 50}) {
            const PendulumPhasePoint z = exact(c, n * period);
            EXPECT_NEAR(z.q, c.q0, 1e-10 * std::abs(n)) << describe(c) << " n=" << n;
            EXPECT_NEAR(z.p, c.p0, 1e-10 * std::abs(n) * (1.0 + std::abs(c.p0))) << describe(c) << " n=" << n;
        }
        const PendulumPhasePoint half = exact(c, period / 2.0);
        EXPECT_NEAR(half.q - offset, -(c.q0 - offset), 1e-10) << describe(c);
        EXPECT_NEAR(half.p, -c.p0, 1e-10) << describe(c);
    }
}

TEST(PendulumExact, RotationPeriod) {
    for (const Case& c : rotation_cases) {
        const double e = energy(c, c.q0, c.p0);
        const double k = std::sqrt(e / (2.0 * c.m * c.w * c.w));
        const double period = pendulum_period(c.m, c.w, c.q0, c.p0);
        EXPECT_NEAR(period, 2.0 * boost::math::ellint_1(1.0 / k) / (k * c.w), 1e-12 * period) << describe(c);
        const double s = c.p0 > 0.0 ? 1.0 : -1.0;
        for (const int n : {1, 3, -2}) {
            const PendulumPhasePoint z = exact(c, n * period);
            EXPECT_NEAR(z.q, c.q0 + 2.0 * pi * s * n, 1e-10 * std::abs(n)) << describe(c) << " n=" << n;
            EXPECT_NEAR(z.p, c.p0, 1e-10 * std::abs(n) * std::abs(c.p0)) << describe(c) << " n=" << n;
        }
    }
}

TEST(PendulumExact, SeparatrixPeriodIsInfinite) {
    for (const Case& c : separatrix_cases)
        EXPECT_EQ(pendulum_period(c.m, c.w, c.q0, c.p0), std::numeric_limits<double>::infinity());
    EXPECT_EQ(pendulum_period(1.0, 1.0, pi, 0.0), std::numeric_limits<double>::infinity());
    // Small oscillations: 2 pi / w.
    EXPECT_NEAR(pendulum_period(1.0, 3.0, 1e-9, 0.0), 2.0 * pi / 3.0, 1e-15);
    EXPECT_NEAR(pendulum_period(1.0, 3.0, 0.0, 0.0), 2.0 * pi / 3.0, 1e-15);
}

// (4) Agreement with an independent numerical integration at t = 10. On the separatrix an error
// grows like e^{w t}, so there the comparison is at w t = 10.
TEST(PendulumExact, AgreesWithHighAccuracyIntegration) {
    for (const Case& c : all_cases()) {
        const bool on_separatrix = pendulum_motion(c.m, c.w, c.q0, c.p0) == PendulumMotion::separatrix;
        const double t = on_separatrix ? std::min(10.0, 10.0 / c.w) : 10.0;
        const PendulumPhasePoint ref = integrate_numerically(c, t);
        const PendulumPhasePoint z = exact(c, t);
        EXPECT_NEAR(z.q, ref.q, 1e-9 * std::max(1.0, std::abs(ref.q))) << describe(c);
        EXPECT_NEAR(z.p, ref.p, 1e-9 * std::max(1.0, std::abs(ref.p))) << describe(c);
    }
}

// (5) math §1.3: for q0 in (0, pi) and p0 = 0, q(t) = 2 asin(k sn(K(k) - w t, k)), k = sin(q0/2).
TEST(PendulumExact, SpecClosedFormFromRest) {
    for (const double q0 : {0.05, 0.8, 1.5, 2.5, 3.0, 3.14}) {
        for (const double w : {1.0, 2.5}) {
            const double m = 1.7;
            const double k = std::sin(q0 / 2.0);
            const double big_k = boost::math::ellint_1(k);
            for (double t = -5.0; t <= 15.0; t += 0.53) {
                double cn = 0.0;
                double dn = 0.0;
                const double sn = boost::math::jacobi_elliptic(k, big_k - w * t, &cn, &dn);
                const PendulumPhasePoint z = pendulum_exact(m, w, q0, 0.0, t);
                EXPECT_NEAR(z.q, 2.0 * std::asin(k * sn), 1e-10) << "q0=" << q0 << " w=" << w << " t=" << t;
                // p = m q' = -2 m k w cn(K - w t, k)
                EXPECT_NEAR(z.p, -2.0 * m * k * w * cn, 1e-10) << "q0=" << q0 << " w=" << w << " t=" << t;
            }
        }
    }
}

// Flowing t1 then t2 equals flowing t1 + t2: checks the branch chosen for u0 at every state.
TEST(PendulumExact, GroupProperty) {
    const std::vector<Case> cases = [] {
        std::vector<Case> v = libration_cases;
        v.insert(v.end(), rotation_cases.begin(), rotation_cases.end());
        return v;
    }();
    for (const Case& c : cases) {
        for (const double t1 : {0.4, 1.9, -2.7, 5.3}) {
            const PendulumPhasePoint z1 = exact(c, t1);
            for (const double t2 : {0.6, -3.1, 4.4}) {
                const PendulumPhasePoint z2 = pendulum_exact(c.m, c.w, z1.q, z1.p, t2);
                const PendulumPhasePoint z12 = exact(c, t1 + t2);
                EXPECT_NEAR(z2.q, z12.q, 1e-10 * std::max(1.0, std::abs(z12.q)))
                    << describe(c) << " t1=" << t1 << " t2=" << t2;
                EXPECT_NEAR(z2.p, z12.p, 1e-10 * std::max(1.0, std::abs(z12.p)))
                    << describe(c) << " t1=" << t1 << " t2=" << t2;
            }
        }
    }
}

// (q, p) -> (-q, -p) maps solutions to solutions; q0 -> q0 + 2 pi n shifts q by 2 pi n.
TEST(PendulumExact, Symmetries) {
    for (const Case& c : all_cases()) {
        // w |t| <= 9: near the separatrix, a change of k by one ulp grows like e^{w t}.
        for (const double wt : {0.7, -2.3, 8.8}) {
            const double t = wt / c.w;
            const PendulumPhasePoint z = exact(c, t);
            const PendulumPhasePoint mirrored = pendulum_exact(c.m, c.w, -c.q0, -c.p0, t);
            EXPECT_NEAR(mirrored.q, -z.q, 1e-10 * std::max(1.0, std::abs(z.q))) << describe(c) << " t=" << t;
            EXPECT_NEAR(mirrored.p, -z.p, 1e-10 * std::max(1.0, std::abs(z.p))) << describe(c) << " t=" << t;
            const PendulumPhasePoint shifted = pendulum_exact(c.m, c.w, c.q0 + 4.0 * pi, c.p0, t);
            EXPECT_NEAR(shifted.q, z.q + 4.0 * pi, 1e-10 * std::max(1.0, std::abs(z.q))) << describe(c) << " t=" << t;
            EXPECT_NEAR(shifted.p, z.p, 1e-10 * std::max(1.0, std::abs(z.p))) << describe(c) << " t=" << t;
        }
    }
}

TEST(PendulumExact, RestAndUnstableEquilibrium) {
    for (const double t : {-3.0, 0.5, 100.0}) {
        const PendulumPhasePoint rest = pendulum_exact(1.0, 2.0, 0.0, 0.0, t);
        EXPECT_EQ(rest.q, 0.0);
        EXPECT_EQ(rest.p, 0.0);
        // 6 pi in double is not exactly a multiple of 2 pi: an oscillation of amplitude ~1e-15.
        const PendulumPhasePoint rest_shifted = pendulum_exact(1.0, 2.0, 6.0 * pi, 0.0, t);
        EXPECT_NEAR(rest_shifted.q, 6.0 * pi, 1e-14);
        EXPECT_NEAR(rest_shifted.p, 0.0, 1e-14);
        const PendulumPhasePoint top = pendulum_exact(1.0, 2.0, pi, 0.0, t);
        EXPECT_EQ(top.q, pi);
        EXPECT_EQ(top.p, 0.0);
        const PendulumPhasePoint bottom_top = pendulum_exact(1.0, 2.0, -pi, 0.0, t);
        EXPECT_EQ(bottom_top.q, -pi);
        EXPECT_EQ(bottom_top.p, 0.0);
    }
}

// Separatrix: the closed form q = 4 atan(exp(w (t - t0))) - pi, approaching the top as t -> +inf.
TEST(PendulumExact, SeparatrixClosedForm) {
    const double m = 1.3;
    const double w = 2.0;
    // From the bottom with p0 = 2 m w: t0 = 0.
    for (double t = -8.0; t <= 8.0; t += 0.25) {
        const PendulumPhasePoint z = pendulum_exact(m, w, 0.0, 2.0 * m * w, t);
        EXPECT_NEAR(z.q, 4.0 * std::atan(std::exp(w * t)) - pi, 1e-13) << "t=" << t;
        EXPECT_NEAR(z.p, 2.0 * m * w / std::cosh(w * t), 1e-12) << "t=" << t;
    }
    EXPECT_NEAR(pendulum_exact(m, w, 0.0, 2.0 * m * w, 40.0).q, pi, 1e-12);
    EXPECT_NEAR(pendulum_exact(m, w, 0.0, -2.0 * m * w, 40.0).q, -pi, 1e-12);
    EXPECT_NEAR(pendulum_exact(m, w, 0.0, 2.0 * m * w, -40.0).q, -pi, 1e-12);
}

// Near k = 1 (inside and just outside the separatrix band) and near k = 0: finite, energy kept.
TEST(PendulumExact, BoundaryModuliStayFinite) {
    const double m = 1.0;
    const double w = 1.0;
    for (const double dk : {0.0, 1e-15, -1e-15, 1e-13, -1e-13, 1e-11, -1e-11, 1e-8, -1e-8}) {
        for (const double q0 : {0.0, 2.0, -2.5}) {
            const double p0 = 2.0 * m * w * (1.0 + dk) * std::cos(q0 / 2.0);
            const Case c{m, w, q0, p0};
            const double e0 = energy(c, q0, p0);
            for (double t = -30.0; t <= 30.0; t += 0.7) {
                const PendulumPhasePoint z = exact(c, t);
                ASSERT_TRUE(std::isfinite(z.q) && std::isfinite(z.p)) << describe(c) << " dk=" << dk << " t=" << t;
                EXPECT_NEAR(energy(c, z.q, z.p), e0, 1e-10) << describe(c) << " dk=" << dk << " t=" << t;
            }
            // Agrees with the numerical integration before the top is reached (sensitivity e^{w t}).
            const PendulumPhasePoint ref = integrate_numerically(c, 5.0);
            const PendulumPhasePoint z = exact(c, 5.0);
            EXPECT_NEAR(z.q, ref.q, 1e-9) << describe(c) << " dk=" << dk;
            EXPECT_NEAR(z.p, ref.p, 1e-9) << describe(c) << " dk=" << dk;
        }
    }
    // Turning points next to the top, inside the band: no NaN, bounded (pi - 1e-9 and 3 pi: k rounds to 1).
    for (const double q0 : {pi - 1e-9, pi - 1e-6, -pi + 1e-7, 3.0 * pi}) {
        for (const double t : {-5.0, 1e-3, 2.0, 40.0}) {
            const PendulumPhasePoint z = pendulum_exact(m, w, q0, 0.0, t);
            ASSERT_TRUE(std::isfinite(z.q) && std::isfinite(z.p)) << "q0=" << q0 << " t=" << t;
            const double offset = q0 - std::remainder(q0, 2.0 * pi);
            EXPECT_LE(std::abs(z.q - offset), pi) << "q0=" << q0 << " t=" << t;
        }
    }
    // Where k < 1 still holds in double, the bottom is reached at t = K(k)/w with p = -+2 m w k.
    for (const double q0 : {pi - 1e-6, -pi + 1e-7}) {
        const double k = std::sin(std::abs(q0) / 2.0);
        ASSERT_LT(k, 1.0);
        const PendulumPhasePoint z = pendulum_exact(m, w, q0, 0.0, boost::math::ellint_1(k) / w);
        EXPECT_NEAR(z.q, 0.0, 1e-6) << "q0=" << q0;
        EXPECT_NEAR(z.p, q0 > 0.0 ? -2.0 * m * w * k : 2.0 * m * w * k, 1e-6) << "q0=" << q0;
    }
    // Turning point where k rounds to 1: the bottom is still reached at K(k)/w = ln(4/k')/w + O(k'^2).
    for (const double d0 : {1e-9, 4e-9}) {
        for (const double q0 : {-pi + d0, 3.0 * pi - d0}) {
            ASSERT_EQ(pendulum_modulus(m, 2.0, q0, 0.0), 1.0) << "q0=" << q0;
            const double t_bottom = std::log(4.0 / std::sin(d0 / 2.0)) / 2.0;
            for (const double t : {t_bottom, -t_bottom}) {
                const PendulumPhasePoint z = pendulum_exact(m, 2.0, q0, 0.0, t);
                const bool left_side = q0 < 0.0;
                // q0 in double holds d0 only to ~4e-16 absolute, so t_bottom is known to ~4e-7 / w.
                EXPECT_NEAR(z.q, left_side ? 0.0 : 2.0 * pi, 2e-6) << "q0=" << q0 << " t=" << t;
                EXPECT_NEAR(z.p, (left_side == (t > 0.0) ? 4.0 : -4.0) * m, 1e-9) << "q0=" << q0 << " t=" << t;
            }
        }
    }
    // At the top with a tiny momentum (separatrix band): leaves the top in the direction of p0.
    const PendulumPhasePoint up = pendulum_exact(m, w, pi, 1e-7, 10.0);
    const PendulumPhasePoint down = pendulum_exact(m, w, pi, -1e-7, 10.0);
    EXPECT_GT(up.q, pi);
    EXPECT_GT(up.p, 0.0);
    EXPECT_LT(down.q, pi);
    EXPECT_LT(down.p, 0.0);
    // Tiny amplitude: harmonic q0 cos(w t).
    for (double t = -3.0; t <= 10.0; t += 0.9) {
        const PendulumPhasePoint z = pendulum_exact(2.0, 3.0, 1e-8, 0.0, t);
        EXPECT_NEAR(z.q, 1e-8 * std::cos(3.0 * t), 1e-20) << "t=" << t;
        const PendulumPhasePoint tiny = pendulum_exact(2.0, 3.0, 1e-300, 1e-300, t);
        ASSERT_TRUE(std::isfinite(tiny.q) && std::isfinite(tiny.p)) << "t=" << t;
    }
    // Very fast rotation: q ~ q0 + p0 t / m.
    const PendulumPhasePoint fast = pendulum_exact(1.0, 1.0, 0.0, 1e6, 1e-3);
    EXPECT_NEAR(fast.q, 1e3, 1e-6);
}

// (6) Bad input throws std::invalid_argument.
TEST(PendulumExact, RejectsBadInput) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<Case> bad = {
        {0.0, 1.0, 1.0, 0.0}, {-1.0, 1.0, 1.0, 0.0}, {nan, 1.0, 1.0, 0.0}, {inf, 1.0, 1.0, 0.0},
        {1.0, 0.0, 1.0, 0.0}, {1.0, -2.0, 1.0, 0.0}, {1.0, nan, 1.0, 0.0}, {1.0, inf, 1.0, 0.0},
        {1.0, 1.0, nan, 0.0}, {1.0, 1.0, inf, 0.0},  {1.0, 1.0, 1.0, nan}, {1.0, 1.0, 1.0, -inf},
    };
    for (const Case& c : bad) {
        EXPECT_THROW(pendulum_modulus(c.m, c.w, c.q0, c.p0), std::invalid_argument) << describe(c);
        EXPECT_THROW(pendulum_motion(c.m, c.w, c.q0, c.p0), std::invalid_argument) << describe(c);
        EXPECT_THROW(pendulum_period(c.m, c.w, c.q0, c.p0), std::invalid_argument) << describe(c);
        EXPECT_THROW(pendulum_exact(c.m, c.w, c.q0, c.p0, 1.0), std::invalid_argument) << describe(c);
    }
    EXPECT_THROW(pendulum_exact(1.0, 1.0, 1.0, 0.0, nan), std::invalid_argument);
    EXPECT_THROW(pendulum_exact(1.0, 1.0, 1.0, 0.0, inf), std::invalid_argument);
}

}  // namespace
