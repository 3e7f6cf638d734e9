// Exact pendulum solution, math §1.3. Writing a = p/(2 m w) and b = sin(q/2), the energy
// E = p^2/(2m) + m w^2 (1 - cos q) = 2 m w^2 (a^2 + b^2), so k = hypot(a, b) without cancellation.
#include "pendulum_exact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>

namespace geomint {
namespace {

constexpr double pi = std::numbers::pi;
constexpr double separatrix_tolerance = 1e-12;

void check_inputs(double mass, double omega, double q0, double p0) {
    // The negated comparisons also reject NaN.
    if (!(mass > 0.0) || !std::isfinite(mass)) throw std::invalid_argument("pendulum: mass must be finite and > 0");
    if (!(omega > 0.0) || !std::isfinite(omega)) throw std::invalid_argument("pendulum: omega must be finite and > 0");
    if (!std::isfinite(q0) || !std::isfinite(p0)) throw std::invalid_argument("pendulum: q0 and p0 must be finite");
}

// q reduced to (-pi, pi]; the caller adds the removed multiple of 2 pi back.
double reduce_angle(double q) {
    double r = std::remainder(q, 2.0 * pi);  // in [-pi, pi]
    if (r <= -pi) r += 2.0 * pi;
    return r;
}

PendulumMotion classify(double k) {
    if (std::abs(k - 1.0) <= separatrix_tolerance) return PendulumMotion::separatrix;
    return k < 1.0 ? PendulumMotion::libration : PendulumMotion::rotation;
}

// sn and cn from Boost (sin and cos of its amplitude, accurate everywhere).
double jacobi_sn_cn(double k, double u, double& cn) {
    double dn = 0.0;
    return boost::math::jacobi_elliptic(k, u, &cn, &dn);
}

// Boost computes dn = cn / cos(phi_1 - phi_0), which loses many digits where cn ~ 0 (the turning
// points: 6e-6 error in q was seen 1e-14 after one). dn^2 = k'^2 + k^2 cn^2 has no cancellation.
double jacobi_dn(double k, double cn) { return std::hypot(std::sqrt((1.0 - k) * (1.0 + k)), k * cn); }

// Libration, k < 1: sin(q/2) = k sn(u, k), p = 2 m k w cn(u, k), u = u0 + w t (math §1.3).
// am(u0) = phi0 = atan2(b, a) has sin = b/k and cos = a/k, which picks the branch of u0 by the
// sign of p0 in one step; Boost's ellint_1 accepts any phi.
PendulumPhasePoint libration(double mass, double omega, double k, double q0r, double p0, double t) {
    if (k == 0.0) return {0.0, 0.0};  // at rest at the bottom
    const double a = p0 / (2.0 * mass * omega);
    const double b = std::sin(q0r / 2.0);
    const double u0 = boost::math::ellint_1(k, std::atan2(b, a));
    const double big_k = boost::math::ellint_1(k);
    // Reduce by the period 4K so that Boost's cn = cos(am) keeps full precision for large t.
    const double u = std::fmod(u0 + omega * t, 4.0 * big_k);
    double cn = 0.0;
    const double sn = jacobi_sn_cn(k, u, cn);
    // cos(q/2) = dn for |q| < pi; atan2 stays accurate near the top, where asin would not.
    return {2.0 * std::atan2(k * sn, jacobi_dn(k, cn)), 2.0 * mass * k * omega * cn};
}

// Rotation, k > 1: q/2 = s am(k w t + u0, 1/k), p = 2 s m k w dn(., 1/k), s = sign(p0) (math §1.3).
// Boost 1.74 has no jacobi_am: am(u) = atan2(sn r, cn r) + n pi with u = r + 2 K n, |r| <= K,
// which also keeps sn, cn, dn at a small argument where Boost is most accurate.
PendulumPhasePoint rotation(double mass, double omega, double k, double q0r, double p0, double t) {
    const double s = p0 > 0.0 ? 1.0 : -1.0;  // p0 != 0 whenever k > 1
    const double m = 1.0 / k;
    const double u = boost::math::ellint_1(m, s * q0r / 2.0) + k * omega * t;
    const double two_k = 2.0 * boost::math::ellint_1(m);
    const double n = std::round(u / two_k);
    double cn = 0.0;
    const double sn = jacobi_sn_cn(m, u - two_k * n, cn);
    const double am = std::atan2(sn, cn) + n * pi;
    return {2.0 * s * am, 2.0 * s * mass * k * omega * jacobi_dn(m, cn)};
}

// Separatrix, k = 1: q = 4 atan(exp(x)) - pi = 2 atan(sinh x) (Gudermannian), x = w t + x0, so
// p = m q' = 2 m w / cosh x; direction s = sign(p0). q0r is in [-pi, pi) when p0 > 0, so that a
// start at the top leaves it (x0 < 0) instead of arriving there.
PendulumPhasePoint separatrix(double mass, double omega, double q0r, double p0, double t) {
    if (p0 == 0.0) {
        if (q0r == pi) return {pi, 0.0};  // unstable equilibrium at the top
        // A turning point within ~1e-8 of the top, where k rounds to 1. The motion is even in t, so
        // use |t| (p is odd). The distance to the top grows as d0 cosh(w t) ~ (d0/2) e^{w t}, on the
        // separatrix as 4 e^x; x from q alone gives 4 e^x0 = d0, so shift it by ln 2 to get the
        // timing right. The price: q(0+) is off by d0/2 <= 1e-8.
        const double s = q0r > 0.0 ? -1.0 : 1.0;
        const double x = std::asinh(std::tan(s * q0r / 2.0)) - std::numbers::ln2 + omega * std::abs(t);
        const double sign_t = t < 0.0 ? -1.0 : 1.0;
        return {2.0 * s * std::atan(std::sinh(x)), sign_t * 2.0 * s * mass * omega / std::cosh(x)};
    }
    const double s = p0 > 0.0 ? 1.0 : -1.0;
    const double y = s * q0r / 2.0;  // in [-pi/2, pi/2]
    // x0 from q (asinh(tan y)) is well conditioned near the bottom; near the top q carries little
    // information, so there take the smaller of it and the x0 from p, cosh x0 = 2 m w / |p0|.
    double x0 = std::asinh(std::tan(y));
    if (std::abs(y) > pi / 4.0) {
        const double x_p = std::acosh(std::max(1.0, 2.0 * mass * omega / std::abs(p0)));
        x0 = std::copysign(std::min(std::abs(x0), x_p), y);
    }
    const double x = x0 + omega * t;
    return {2.0 * s * std::atan(std::sinh(x)), 2.0 * s * mass * omega / std::cosh(x)};
}

}  // namespace

double pendulum_modulus(double mass, double omega, double q0, double p0) {
    check_inputs(mass, omega, q0, p0);
    return std::hypot(p0 / (2.0 * mass * omega), std::sin(q0 / 2.0));
}

PendulumMotion pendulum_motion(double mass, double omega, double q0, double p0) {
    return classify(pendulum_modulus(mass, omega, q0, p0));
}

double pendulum_period(double mass, double omega, double q0, double p0) {
    const double k = pendulum_modulus(mass, omega, q0, p0);
    switch (classify(k)) {
        case PendulumMotion::libration:
            return 4.0 * boost::math::ellint_1(k) / omega;
        case PendulumMotion::rotation:
            return 2.0 * boost::math::ellint_1(1.0 / k) / (k * omega);
        case PendulumMotion::separatrix:
            break;
    }
    return std::numeric_limits<double>::infinity();
}

PendulumPhasePoint pendulum_exact(double mass, double omega, double q0, double p0, double t) {
    const double k = pendulum_modulus(mass, omega, q0, p0);
    if (!std::isfinite(t)) throw std::invalid_argument("pendulum: t must be finite");
    if (t == 0.0) return {q0, p0};
    double q0r = reduce_angle(q0);
    PendulumPhasePoint z{};
    // Not classify(): inside the separatrix band the elliptic formulas are still the exact solution
    // for the rounded k (Boost copes with any k != 1), whereas the k = 1 curve never passes the top.
    if (k < 1.0) {
        z = libration(mass, omega, k, q0r, p0, t);
    } else if (k > 1.0) {
        z = rotation(mass, omega, k, q0r, p0, t);
    } else {
        if (p0 > 0.0 && q0r == pi) q0r = -pi;
        z = separatrix(mass, omega, q0r, p0, t);
    }
    // Continuous, unwrapped q: the solution above starts at q0r, and q0 - q0r is a multiple of 2 pi.
    return {q0 + (z.q - q0r), z.p};
}

}  // namespace geomint
