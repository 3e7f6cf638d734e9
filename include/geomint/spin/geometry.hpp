// Geometry of one sphere S^2 (math §2.1): the retraction phi_c, its inverse, their tangent maps,
// and an orthonormal tangent basis for Itoh-Abe (math §2.2). Host+device, T real or dual.
#pragma once

#include <cmath>

#include "geomint/platform.hpp"
#include "geomint/spin/dual.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

// phi_c(x) = (c + x)/|c + x|  (math §2.1).
template <class C, class X>
GEOMINT_HD auto retract(const Vec3<C>& c, const Vec3<X>& x) {
    const auto y = c + x;
    return y / norm(y);
}

// phi_c^{-1}(u) = u/(c.u) - c, defined for c.u > 0  (math §2.1).
template <class C, class U>
GEOMINT_HD auto inverse_retract(const Vec3<C>& c, const Vec3<U>& u) {
    return u / dot(c, u) - c;
}

// u.u - 1 for a spin u that is on the sphere up to rounding, to about eps^2 rather than eps: each
// square is split exactly by a fused multiply-add (x x = p + e), the three products are added
// with TwoSum (error-free), 1 is subtracted (exact: the sum lies in [1/2, 2]) and the low parts
// are added last. Rounded plainly, u.u is biased near 1 (the floating-point grid is twice as
// fine below 1 as above it), and that bias, fed back into every step, kept the spins a fraction
// of an ulp outside the sphere on average and drifted the energy (math §2.6). TwoSum needs its
// additions as written: never -ffast-math; a compiler that fuses a square into the first addition
// (nvcc's default contraction) leaves the sum within an ulp of TwoSum's and the result still far
// below an ulp of 1 (not measured on a GPU).
template <class Real>
GEOMINT_HD Real length_defect(const Vec3<Real>& u) {
    const Real px = u.x * u.x, py = u.y * u.y, pz = u.z * u.z;
    const Real low = (std::fma(u.x, u.x, -px) + std::fma(u.y, u.y, -py)) + std::fma(u.z, u.z, -pz);
    const Real s = px + py, ts = s - px, es = (px - (s - ts)) + (py - ts);
    const Real sum = s + pz, tsum = sum - s, esum = (s - (sum - tsum)) + (pz - tsum);
    return (sum - Real(1)) + ((es + esum) + low);
}

// phi_c(phi_c^{-1}(u) + x) - u, the step of a DRG stage from u (math §2.6), written as an
// increment whose rounding is relative to its own size. phi_c^{-1}(u) + c = u/(c.u), and phi_c
// ignores positive scale, so the point is (u + k)/n with k = (c.u) x, n = |u + k|, and
//   (u + k)/n - u = (k - u (2 u.k + k.k + (u.u - 1))/(1 + n)) / n,
// with 1 - n = (1 - n^2)/(1 + n) taken without cancellation. The u.u - 1 term (a few ulps, see
// length_defect) pulls a start spin that is off the sphere by rounding back onto it.
template <class C, class U, class X>
GEOMINT_HD auto retract_increment(const Vec3<C>& c, const Vec3<U>& u, const Vec3<X>& x) {
    const auto k = dot(c, u) * x;
    const auto n = norm(u + k);
    using R = real_of_t<decltype(n)>;
    const auto off = length_defect(u) + (R(2) * dot(u, k) + dot(k, k));
    return (k - u * (off / (R(1) + n))) / n;
}

// T_x phi_c applied to a:  (I - y y^T) a / |c + x|, y = phi_c(x). Symmetric, so it is also its
// own transpose (math §2.1).
template <class C, class X, class A>
GEOMINT_HD auto tangent_retract(const Vec3<C>& c, const Vec3<X>& x, const Vec3<A>& a) {
    const auto cx = c + x;
    const auto r = norm(cx);
    const auto y = cx / r;
    return (a - y * dot(y, a)) / r;
}

// The same from y = phi_c(x) and r = |c + x|, for a caller that has them (AVF's paths,
// BasicAvfGradient::Path): the last line of tangent_retract, which does not call it because the
// call, inlined, moved ptxas's register counts (the coll6 and coll8 top kernels, +24 and +20).
template <class Y, class R, class A>
GEOMINT_HD auto tangent_retract_at(const Vec3<Y>& y, R r, const Vec3<A>& a) {
    return (a - y * dot(y, a)) / r;
}

// T_u phi_c^{-1} applied to a:  (a - u (c.a)/(c.u)) / (c.u)  (math §2.1).
template <class C, class U, class A>
GEOMINT_HD auto tangent_inverse_retract(const Vec3<C>& c, const Vec3<U>& u, const Vec3<A>& a) {
    const auto cu = dot(c, u);
    return (a - u * (dot(c, a) / cu)) / cu;
}

// Its transpose: (a - c (u.a)/(c.u)) / (c.u).
template <class C, class U, class A>
GEOMINT_HD auto tangent_inverse_retract_transpose(const Vec3<C>& c, const Vec3<U>& u, const Vec3<A>& a) {
    const auto cu = dot(c, u);
    return (a - c * (dot(u, a) / cu)) / cu;
}

// Symmetric centre c(u, v) = (u + v)/|u + v|  (math §2.2).
template <class U, class V>
GEOMINT_HD auto symmetric_centre(const Vec3<U>& u, const Vec3<V>& v) {
    const auto m = u + v;
    return m / norm(m);
}

// Orthonormal basis E1, E2 of T_c S^2 for |c| = 1 (Duff et al. 2017, "Building an orthonormal
// basis, revisited"). It is smooth in c except where c_z changes sign, so the branch is chosen
// by `side` (the caller passes the step's start spin), fixed during one Newton solve: the
// Itoh-Abe walk then depends smoothly on the unknowns (math §2.2 asks for a smooth choice).
template <class T, class Real>
GEOMINT_HD void tangent_basis(const Vec3<T>& c, Real side, Vec3<T>& e1, Vec3<T>& e2) {
    const Real sign = side >= Real(0) ? Real(1) : Real(-1);
    const T a = Real(-1) / (sign + c.z);
    const T b = c.x * c.y * a;
    e1 = Vec3<T>{Real(1) + sign * c.x * c.x * a, sign * b, -sign * c.x};
    e2 = Vec3<T>{b, sign + c.y * c.y * a, -c.y};
}

}  // namespace geomint::spin
