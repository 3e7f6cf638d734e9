// Three-vector of a real or dual scalar T: the one value type of the spin layer (math §2).
// Host+device; mixed operations (Vec3<Dual> with Vec3<Real> or Real) give the wider type.
#pragma once

#include <cmath>
#include <type_traits>

#include "geomint/platform.hpp"

namespace geomint::spin {

template <class T>
struct Vec3 {
    T x, y, z;

    GEOMINT_HD T& operator[](int k) { return k == 0 ? x : (k == 1 ? y : z); }
    GEOMINT_HD const T& operator[](int k) const { return k == 0 ? x : (k == 1 ? y : z); }
};

template <class T>
struct IsVec3 : std::false_type {};
template <class T>
struct IsVec3<Vec3<T>> : std::true_type {};

// Vec3<U> -> Vec3<T>, e.g. a known Real spin promoted to a dual number with zero derivative.
template <class T, class U>
GEOMINT_HD Vec3<T> vec3_cast(const Vec3<U>& a) {
    return Vec3<T>{T(a.x), T(a.y), T(a.z)};
}

template <class A, class B>
GEOMINT_HD auto operator+(const Vec3<A>& a, const Vec3<B>& b) -> Vec3<decltype(a.x + b.x)> {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class A, class B>
GEOMINT_HD auto operator-(const Vec3<A>& a, const Vec3<B>& b) -> Vec3<decltype(a.x - b.x)> {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class A>
GEOMINT_HD Vec3<A> operator-(const Vec3<A>& a) {
    return {-a.x, -a.y, -a.z};
}
template <class S, class A, class = std::enable_if_t<!IsVec3<S>::value>>
GEOMINT_HD auto operator*(const S& s, const Vec3<A>& a) -> Vec3<decltype(s * a.x)> {
    return {s * a.x, s * a.y, s * a.z};
}
template <class S, class A, class = std::enable_if_t<!IsVec3<S>::value>>
GEOMINT_HD auto operator*(const Vec3<A>& a, const S& s) -> Vec3<decltype(a.x * s)> {
    return {a.x * s, a.y * s, a.z * s};
}
template <class S, class A, class = std::enable_if_t<!IsVec3<S>::value>>
GEOMINT_HD auto operator/(const Vec3<A>& a, const S& s) -> Vec3<decltype(a.x / s)> {
    return {a.x / s, a.y / s, a.z / s};
}
template <class A, class B>
GEOMINT_HD Vec3<A>& operator+=(Vec3<A>& a, const Vec3<B>& b) {
    a.x += b.x;
    a.y += b.y;
    a.z += b.z;
    return a;
}
template <class A, class B>
GEOMINT_HD Vec3<A>& operator-=(Vec3<A>& a, const Vec3<B>& b) {
    a.x -= b.x;
    a.y -= b.y;
    a.z -= b.z;
    return a;
}

template <class A, class B>
GEOMINT_HD auto dot(const Vec3<A>& a, const Vec3<B>& b) -> decltype(a.x * b.x) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <class A, class B>
GEOMINT_HD auto cross(const Vec3<A>& a, const Vec3<B>& b) -> Vec3<decltype(a.x * b.x)> {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class A>
GEOMINT_HD A norm2(const Vec3<A>& a) {
    return dot(a, a);
}
template <class A>
GEOMINT_HD A norm(const Vec3<A>& a) {
    using std::sqrt;  // found by ADL for dual numbers
    return sqrt(dot(a, a));
}
// Componentwise product (the top's s*s, math §2).
template <class A, class B>
GEOMINT_HD auto hadamard(const Vec3<A>& a, const Vec3<B>& b) -> Vec3<decltype(a.x * b.x)> {
    return {a.x * b.x, a.y * b.y, a.z * b.z};
}

}  // namespace geomint::spin
