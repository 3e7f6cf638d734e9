// Phase-portrait planes: the 2-D coordinates of a state that a portrait rasterizes. Host+device.
// Pendulum: (q wrapped to (-pi, pi], p). Sphere (a top, or one spin of a chain): Lambert azimuthal
// equal-area projection of each hemisphere, side by side. Chain: (s_i^z, s_{i+1}^z).
// Every function returns plain doubles; a state with no defined point (NaN, infinity, a zero
// spin) gives NaN coordinates, which PixelMapper drops (docs/portraits.md).
#pragma once

#include <cmath>

#include "geomint/platform.hpp"

namespace geomint::portrait {

struct PlanePoint {
    double x, y;
};

// The period of the wrap: 2 pi rounded to double, and exactly half of it. Using the rounded value
// is what makes the wrap exact (below); it differs from the true 2 pi by 2.4e-16, so the k-th
// turn lands k * 2.4e-16 away from the mathematically wrapped angle: below any pixel for |q| < 1e12.
inline constexpr double kTwoPi = 6.283185307179586476925286766559;
inline constexpr double kPi = kTwoPi / 2;  // exact halving: 3.141592653589793...
inline constexpr double kSqrt2 = 1.4142135623730950488016887242097;

// q wrapped into (-pi, pi]: q - k * kTwoPi for the integer k that lands there, computed exactly.
// fmod is exact in IEEE arithmetic (for any finite q, however large), and the one correction step
// subtracts kTwoPi from a value in (pi, 2 pi) or adds it to one in (-2 pi, -pi]: both operands
// within a factor 2 of each other, so the difference is exact (Sterbenz). Hence q = pi gives pi,
// q = -pi gives pi, and host and device agree bit for bit. NaN and +-infinity give NaN.
GEOMINT_HD inline double wrap_angle(double q) {
    using std::fmod;
    double r = fmod(q, kTwoPi);  // in (-2 pi, 2 pi), sign of q
    if (r > kPi) {
        r -= kTwoPi;
    } else if (r <= -kPi) {
        r += kTwoPi;
    }
    return r;
}

// The pendulum's plane: (q wrapped to (-pi, pi], p).
GEOMINT_HD inline PlanePoint pendulum_plane(double q, double p) { return {wrap_angle(q), p}; }

// Clamps v into [-limit, limit]; NaN passes through (every comparison with NaN is false).
GEOMINT_HD inline double clamp_keep_nan(double v, double limit) {
    return v > limit ? limit : (v < -limit ? -limit : v);
}

// The sphere's plane: Lambert azimuthal equal-area projection, the northern hemisphere (z >= 0)
// seen from above in the disc of radius sqrt 2 centred at (-sqrt 2, 0), the southern one seen
// from below (x mirrored, as seen from outside the sphere) in the disc centred at (+sqrt 2, 0).
// The discs touch at the image of (1, 0, 0). Why this projection: it is equal-area (a uniform
// density on the sphere is a uniform density in the discs, so the image's brightness is the
// density on the sphere without a distortion factor), closed-form (one sqrt and one division per
// point, no Newton solve as Mollweide needs, which matters in a GPU inner loop), and each
// hemisphere's disc has small angular distortion near its pole. Extent: kSpherePlaneExtent.
// The vector is normalised first (spins drift from unit length by the integrator's round-off),
// with explicit fma so that host and device compute the same bits whatever the compiler
// contracts; the offsets from the disc centres are clamped to [-sqrt 2, sqrt 2] so that round-off
// never pushes a point of the equator out of the extent. (0, 0, 0), NaN or infinity: NaN.
GEOMINT_HD inline PlanePoint sphere_plane(double sx, double sy, double sz) {
    using std::fma;
    using std::sqrt;
    const double norm = sqrt(fma(sx, sx, fma(sy, sy, sz * sz)));
    if (!(norm > 0.0) || !(norm < HUGE_VAL)) return {NAN, NAN};
    const double x = sx / norm, y = sy / norm, z = sz / norm;
    if (z >= 0.0) {
        const double k = sqrt(2.0 / (1.0 + z));
        return {-kSqrt2 + clamp_keep_nan(k * x, kSqrt2), clamp_keep_nan(k * y, kSqrt2)};
    }
    const double k = sqrt(2.0 / (1.0 - z));
    return {kSqrt2 - clamp_keep_nan(k * x, kSqrt2), clamp_keep_nan(k * y, kSqrt2)};
}

struct SpherePoint {
    double x, y, z;
};

// The inverse of sphere_plane on its two discs (for axes, graticules and tests): the left half
// (X <= 0) is the northern hemisphere, the right half the southern one. With (a, b) the offset
// from the disc's centre (x un-mirrored on the right) and r^2 = a^2 + b^2 <= 2: |z| = 1 - r^2/2,
// (x, y) = (a, b) sqrt(1 - r^2/4).
GEOMINT_HD inline SpherePoint sphere_from_plane(PlanePoint p) {
    using std::sqrt;
    const bool north = p.x <= 0.0;
    const double a = north ? p.x + kSqrt2 : kSqrt2 - p.x, b = p.y;
    const double r2 = a * a + b * b;
    const double f = sqrt(1.0 - r2 / 4.0);
    const double z = 1.0 - r2 / 2.0;
    return {a * f, b * f, north ? z : -z};
}

// A chain's plane: (s_i^z, s_{i+1}^z) of neighbouring spins, each clamped into [-1, 1] so that a
// spin whose length drifted by round-off past 1 still lands on the edge of the square.
GEOMINT_HD inline PlanePoint z_pair_plane(double sz_i, double sz_next) {
    return {clamp_keep_nan(sz_i, 1.0), clamp_keep_nan(sz_next, 1.0)};
}

}  // namespace geomint::portrait
