// The order tests of every pendulum scheme (tests/test_pendulum_schemes.cpp for the implicit ones,
// tests/test_pendulum_explicit_schemes.cpp for the explicit ones): the motions, the error at T
// against the exact solution (math §1.3) and the observed order over several step counts.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "geomint/pendulum/integrate_trajectory.hpp"
#include "order_fit.hpp"
#include "pendulum_exact.hpp"

namespace geomint_test {

constexpr double kTwoPi = 6.283185307179586;

struct Motion {
    const char* label;
    double q0, p0;
};

// q0 near pi/2, a large libration close to the separatrix, and a rotation (k = 1.25).
inline const Motion kMotions[] = {
    {"libration", 1.5, 0.0}, {"large_libration", 3.0, 0.0}, {"rotation", 0.0, 2.5 * kTwoPi}};

// Error at T in the phase-space norm |dq| + |dp| / (m w), for m = 1, w = 2 pi.
template <class Scheme>
double final_error(const Motion& motion, double t_end, long long steps) {
    const geomint::PendulumPotential<double> pendulum{1.0, kTwoPi};
    const auto r = geomint::integrate_trajectory(Scheme{}, pendulum, motion.q0, motion.p0, t_end / double(steps), steps,
                                                 geomint::NewtonOptions<double>{});
    EXPECT_EQ(r.status, geomint::SolveStatus::ok);
    const auto exact = geomint::pendulum_exact(1.0, kTwoPi, motion.q0, motion.p0, t_end);
    return std::abs(r.q - exact.q) + std::abs(r.p - exact.p) / kTwoPi;
}

// Observed order over the step counts, from the error at T.
template <class Scheme>
double observed_order(const Motion& motion, double t_end, const std::vector<long long>& steps) {
    std::vector<double> h, error;
    for (long long n : steps) {
        h.push_back(t_end / double(n));
        error.push_back(final_error<Scheme>(motion, t_end, n));
    }
    return observed_order(h, error);
}

}  // namespace geomint_test
