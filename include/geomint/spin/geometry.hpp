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

// T_x phi_c applied to a:  (I - y y^T) a / |c + x|, y = phi_c(x). Symmetric, so it is also its
// own transpose (math §2.1).
template <class C, class X, class A>
GEOMINT_HD auto tangent_retract(const Vec3<C>& c, const Vec3<X>& x, const Vec3<A>& a) {
    const auto cx = c + x;
    const auto r = norm(cx);
    const auto y = cx / r;
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
