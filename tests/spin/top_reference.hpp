// An independent reference solution of the perturbed spinning top (math §2, §2.5), for the order
// tests of the top: ds/dt = s x grad H(s) with
//   H = 1/2 s.Js + 1/3 sum_k J_k s_k^3,  grad H = J (s + s*s) componentwise,  J = I^-1,
// integrated by Boost.Odeint's Runge-Kutta-Fehlberg 7(8) (its 8th-order solution) with a fixed
// step in long double. Written from the equations with std::array, not with geomint::spin
// (no SpinningTop, no Vec3), so an error in the library's top cannot cancel against it; and no
// geomint scheme is its own reference.
#pragma once

#include <array>
#include <cmath>
#include <vector>

#include <boost/numeric/odeint.hpp>

namespace geomint_test {

// s(t) for t = interval, 2 interval, ..., samples interval, from s0 (3 values) at t = 0.
// Step: interval / ceil(interval * steps_per_unit). With the default 200 per unit time the
// result is converged to double precision: halving the step (which cuts an 8th-order error
// 256-fold) changes it by 1.9e-16 over t <= 24, and |s| and H stay within 2.2e-16 of their
// initial values (TopReference tests in test_collocation.cpp); long double keeps the round-off of
// the ~5000 steps below that.
inline std::vector<std::array<double, 3>> top_reference_path(const std::vector<double>& s0, double interval,
                                                             int samples, int steps_per_unit = 200) {
    using State = std::array<long double, 3>;
    namespace odeint = boost::numeric::odeint;
    const State j{1.0L, 0.5L, 0.25L};  // J = I^-1 for the default I = diag(1, 2, 4)
    const auto rhs = [&j](const State& s, State& ds, long double /*t: autonomous*/) {
        State g;
        for (int k = 0; k < 3; ++k) g[k] = j[k] * (s[k] + s[k] * s[k]);
        ds[0] = s[1] * g[2] - s[2] * g[1];
        ds[1] = s[2] * g[0] - s[0] * g[2];
        ds[2] = s[0] * g[1] - s[1] * g[0];
    };
    odeint::runge_kutta_fehlberg78<State, long double> stepper;
    const long long n = static_cast<long long>(std::ceil(interval * steps_per_unit));
    const long double h = static_cast<long double>(interval) / n;
    State s{s0[0], s0[1], s0[2]};
    std::vector<std::array<double, 3>> path;
    for (int k = 0; k < samples; ++k) {
        for (long long m = 0; m < n; ++m) stepper.do_step(rhs, s, 0.0L, h);
        path.push_back({static_cast<double>(s[0]), static_cast<double>(s[1]), static_cast<double>(s[2])});
    }
    return path;
}

// s(t) from s0 at t = 0.
inline std::array<double, 3> top_reference(const std::vector<double>& s0, double t, int steps_per_unit = 200) {
    return top_reference_path(s0, t, 1, steps_per_unit).back();
}

// |s - ref| for a single spin (3 values) against a reference spin.
inline double distance_to(const std::vector<double>& s, const std::array<double, 3>& ref) {
    return std::hypot(s[0] - ref[0], s[1] - ref[1], s[2] - ref[2]);
}

}  // namespace geomint_test
