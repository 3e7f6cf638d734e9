// 3 x 3 real matrices and the Jacobians of the sphere's geometry (math §2.1) that the analytic
// Newton Jacobians of the spin schemes are built from (math §3). Host+device, plain reals: these
// replace forward-mode dual numbers, so nothing here is templated on a dual type.
#pragma once

#include <cmath>

#include "geomint/platform.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

template <class Real>
struct Mat3 {
    Real m[3][3];  // row-major: m[r][c]

    GEOMINT_HD static Mat3 zero() {
        return Mat3{{{Real(0), Real(0), Real(0)}, {Real(0), Real(0), Real(0)}, {Real(0), Real(0), Real(0)}}};
    }
    GEOMINT_HD static Mat3 identity(Real s = Real(1)) {
        Mat3 a = zero();
        a.m[0][0] = a.m[1][1] = a.m[2][2] = s;
        return a;
    }
    GEOMINT_HD static Mat3 diagonal(const Vec3<Real>& v) {
        Mat3 a = zero();
        a.m[0][0] = v.x;
        a.m[1][1] = v.y;
        a.m[2][2] = v.z;
        return a;
    }
    // a b^T
    GEOMINT_HD static Mat3 outer(const Vec3<Real>& a, const Vec3<Real>& b) {
        Mat3 r;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) r.m[i][j] = a[i] * b[j];
        return r;
    }
    // [a]_x, so that [a]_x b = a x b.
    GEOMINT_HD static Mat3 cross_matrix(const Vec3<Real>& a) {
        return Mat3{{{Real(0), -a.z, a.y}, {a.z, Real(0), -a.x}, {-a.y, a.x, Real(0)}}};
    }
};

template <class Real>
GEOMINT_HD Mat3<Real> operator+(const Mat3<Real>& a, const Mat3<Real>& b) {
    Mat3<Real> r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] + b.m[i][j];
    return r;
}
template <class Real>
GEOMINT_HD Mat3<Real> operator-(const Mat3<Real>& a, const Mat3<Real>& b) {
    Mat3<Real> r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] - b.m[i][j];
    return r;
}
template <class Real>
GEOMINT_HD Mat3<Real>& operator+=(Mat3<Real>& a, const Mat3<Real>& b) {
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) a.m[i][j] += b.m[i][j];
    return a;
}
template <class Real>
GEOMINT_HD Mat3<Real> operator*(const Real& s, const Mat3<Real>& a) {
    Mat3<Real> r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r.m[i][j] = s * a.m[i][j];
    return r;
}
template <class Real>
GEOMINT_HD Mat3<Real> operator*(const Mat3<Real>& a, const Mat3<Real>& b) {
    Mat3<Real> r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
    return r;
}
template <class Real>
GEOMINT_HD Vec3<Real> operator*(const Mat3<Real>& a, const Vec3<Real>& v) {
    return {a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z, a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
            a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z};
}
// v^T a, as a vector.
template <class Real>
GEOMINT_HD Vec3<Real> row_times(const Vec3<Real>& v, const Mat3<Real>& a) {
    return {v.x * a.m[0][0] + v.y * a.m[1][0] + v.z * a.m[2][0], v.x * a.m[0][1] + v.y * a.m[1][1] + v.z * a.m[2][1],
            v.x * a.m[0][2] + v.y * a.m[1][2] + v.z * a.m[2][2]};
}

// The three Jacobian blocks of a map of a spin and its two periodic neighbours, f(l, s, r): with
// respect to l, s and r (a system's gradient, or a block row of a Newton Jacobian).
template <class Real>
struct NeighbourJacobian {
    Mat3<Real> left, self, right;
};

// Block `block` (0, 1, 2: d/d left, self, right) of a Newton Jacobian's row, entry by entry through
// sink(block, r, c, value): a problem's linearise_into (local_newton.hpp) hands each block on as
// soon as it is formed, so that a GPU thread does not hold all three at once.
template <class Sink, class Real>
GEOMINT_HD void emit_block(const Sink& sink, int block, const Mat3<Real>& a) {
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) sink(block, r, c, a.m[r][c]);
}

// The sink that collects those blocks into a NeighbourJacobian: a problem's linearise_into() in
// the oracle tests' form (collect_linearise, local_newton.hpp).
template <class Real>
struct NeighbourJacobianSink {
    NeighbourJacobian<Real>& jacobian;
    GEOMINT_HD void operator()(int block, int r, int c, Real value) const {
        (block == 0 ? jacobian.left : (block == 1 ? jacobian.self : jacobian.right)).m[r][c] = value;
    }
};

// The four Jacobian blocks of a system's site_discrete_gradient(l, a, b, r).
template <class Real>
struct SiteDiscreteGradientJacobian {
    Mat3<Real> left, start, end, right;  // d/dl, d/da, d/db, d/dr
};

// d(p/|p|)/dp = (I - y y^T)/|p|, y = p/|p|: the Jacobian of phi_c(x) in c + x and of the
// symmetric centre in u + v.
template <class Real>
GEOMINT_HD Mat3<Real> normalise_jacobian(const Vec3<Real>& p) {
    const Real r = norm(p);
    const Vec3<Real> y = p / r;
    const Real inv = Real(1) / r;
    return Mat3<Real>::identity(inv) - Mat3<Real>::outer(inv * y, y);
}

// phi_c^{-1}(u) = u/(c.u) - c: its Jacobians in u and in c.
template <class Real>
GEOMINT_HD Mat3<Real> inverse_retract_du(const Vec3<Real>& c, const Vec3<Real>& u) {
    const Real inv = Real(1) / dot(c, u);
    return Mat3<Real>::identity(inv) - Mat3<Real>::outer(inv * inv * u, c);
}
template <class Real>
GEOMINT_HD Mat3<Real> inverse_retract_dc(const Vec3<Real>& c, const Vec3<Real>& u) {
    const Real inv = Real(1) / dot(c, u);
    return Mat3<Real>::identity(Real(-1)) - Mat3<Real>::outer(inv * inv * u, u);
}

// T_u phi_c^{-1} as a matrix, M = (I - u c^T/(c.u))/(c.u) (tangent_inverse_retract), and its
// transpose (tangent_inverse_retract_transpose).
template <class Real>
GEOMINT_HD Mat3<Real> tangent_inverse_retract_matrix(const Vec3<Real>& c, const Vec3<Real>& u) {
    const Real inv = Real(1) / dot(c, u);
    return Mat3<Real>::identity(inv) - Mat3<Real>::outer(inv * inv * u, c);
}
template <class Real>
GEOMINT_HD Mat3<Real> tangent_inverse_retract_transpose_matrix(const Vec3<Real>& c, const Vec3<Real>& u) {
    const Real inv = Real(1) / dot(c, u);
    return Mat3<Real>::identity(inv) - Mat3<Real>::outer(inv * inv * c, u);
}

// tangent_inverse_retract(c, u, a) = a/(c.u) - u (c.a)/(c.u)^2 differentiated in u, a fixed:
// -[a c^T + (c.a) I]/(c.u)^2 + 2 (c.a) u c^T/(c.u)^3.
template <class Real>
GEOMINT_HD Mat3<Real> tangent_inverse_retract_du(const Vec3<Real>& c, const Vec3<Real>& u, const Vec3<Real>& a) {
    const Real inv = Real(1) / dot(c, u);
    const Real ca = dot(c, a) * inv;  // (c.a)/(c.u)
    return Real(-inv * inv) * (Mat3<Real>::outer(a, c) + Mat3<Real>::identity(dot(c, a))) +
           Mat3<Real>::outer((Real(2) * ca * inv * inv) * u, c);
}

// tangent_inverse_retract_transpose(c, u, a) = a/(c.u) - c (u.a)/(c.u)^2 differentiated in u, a
// fixed: -[a c^T + c a^T]/(c.u)^2 + 2 (u.a) c c^T/(c.u)^3.
template <class Real>
GEOMINT_HD Mat3<Real> tangent_inverse_retract_transpose_du(const Vec3<Real>& c, const Vec3<Real>& u,
                                                           const Vec3<Real>& a) {
    const Real inv = Real(1) / dot(c, u);
    const Real ua = dot(u, a) * inv;  // (u.a)/(c.u)
    return Real(-inv * inv) * (Mat3<Real>::outer(a, c) + Mat3<Real>::outer(c, a)) +
           Mat3<Real>::outer((Real(2) * ua * inv * inv) * c, c);
}

// f(p, a) = (a - y (y.a))/|p|, y = p/|p| (tangent_retract with p = c + x): its Jacobian in p,
// which is also that of tangent_retract(c, x, a) in x for fixed c and a (its Jacobian in a is
// normalise_jacobian(c + x)).
// df = -[(y.a) I + y a^T] N dp / |p| - f y^T dp / |p|, N = normalise_jacobian(p).
template <class Real>
GEOMINT_HD Mat3<Real> tangent_retract_dp(const Vec3<Real>& p, const Vec3<Real>& a) {
    const Real r = norm(p);
    const Real inv = Real(1) / r;
    const Vec3<Real> y = inv * p;
    const Real ya = dot(y, a);
    const Vec3<Real> f = inv * (a - ya * y);
    const Mat3<Real> n = Mat3<Real>::identity(inv) - Mat3<Real>::outer(inv * y, y);
    return Real(-inv) * ((Mat3<Real>::identity(ya) + Mat3<Real>::outer(y, a)) * n + Mat3<Real>::outer(f, y));
}

}  // namespace geomint::spin
