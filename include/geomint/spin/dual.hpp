// Forward-mode dual numbers Dual<Real, N>: a value and N partial derivatives, used to build the
// exact Jacobian blocks of the local Newton solves (math §3). Host+device, no heap.
// Only the operations the spin layer uses are defined; add others as needed. A missing one cannot
// silently lose derivatives: Dual has no conversion to Real, so such code either fails to compile
// or promotes the real operand through Dual(real).
#pragma once

#include <cmath>

#include "geomint/platform.hpp"

namespace geomint::spin {

template <class Real, int N>
struct Dual {
    Real v;     // value
    Real d[N];  // partial derivatives with respect to the N seeded unknowns

    // Implicit from a real: a constant (zero derivatives), so formulas mix both freely.
    GEOMINT_HD constexpr Dual(Real value = Real(0)) : v(value), d{} {
        for (int k = 0; k < N; ++k) d[k] = Real(0);
    }
    // The k-th unknown itself: derivative 1 along k.
    GEOMINT_HD static Dual variable(Real value, int k) {
        Dual r(value);
        r.d[k] = Real(1);
        return r;
    }
    GEOMINT_HD Dual& operator+=(const Dual& b) {
        v += b.v;
        for (int k = 0; k < N; ++k) d[k] += b.d[k];
        return *this;
    }

    friend GEOMINT_HD Dual operator+(const Dual& a, const Dual& b) {
        Dual r(a.v + b.v);
        for (int k = 0; k < N; ++k) r.d[k] = a.d[k] + b.d[k];
        return r;
    }
    friend GEOMINT_HD Dual operator-(const Dual& a, const Dual& b) {
        Dual r(a.v - b.v);
        for (int k = 0; k < N; ++k) r.d[k] = a.d[k] - b.d[k];
        return r;
    }
    friend GEOMINT_HD Dual operator-(const Dual& a) {
        Dual r(-a.v);
        for (int k = 0; k < N; ++k) r.d[k] = -a.d[k];
        return r;
    }
    friend GEOMINT_HD Dual operator*(const Dual& a, const Dual& b) {
        Dual r(a.v * b.v);
        for (int k = 0; k < N; ++k) r.d[k] = a.d[k] * b.v + a.v * b.d[k];
        return r;
    }
    friend GEOMINT_HD Dual operator/(const Dual& a, const Dual& b) {
        const Real inv = Real(1) / b.v;
        const Real q = a.v * inv;
        Dual r(q);
        for (int k = 0; k < N; ++k) r.d[k] = (a.d[k] - q * b.d[k]) * inv;
        return r;
    }
    // Mixed with a plain real (the real is not deduced, so int and float literals convert).
    friend GEOMINT_HD Dual operator+(const Dual& a, const Real& b) { return a + Dual(b); }
    friend GEOMINT_HD Dual operator+(const Real& a, const Dual& b) { return Dual(a) + b; }
    friend GEOMINT_HD Dual operator-(const Dual& a, const Real& b) { return a - Dual(b); }
    friend GEOMINT_HD Dual operator*(const Dual& a, const Real& b) {
        Dual r(a.v * b);
        for (int k = 0; k < N; ++k) r.d[k] = a.d[k] * b;
        return r;
    }
    friend GEOMINT_HD Dual operator*(const Real& a, const Dual& b) { return b * a; }
    friend GEOMINT_HD Dual operator/(const Dual& a, const Real& b) { return a * (Real(1) / b); }
    friend GEOMINT_HD Dual operator/(const Real& a, const Dual& b) { return Dual(a) / b; }

    friend GEOMINT_HD Dual sqrt(const Dual& a) {
        using std::sqrt;
        const Real s = sqrt(a.v);
        Dual r(s);
        const Real half_inv = Real(0.5) / s;
        for (int k = 0; k < N; ++k) r.d[k] = a.d[k] * half_inv;
        return r;
    }
};

// The real type under a scalar: Real for Real, Real for Dual<Real, N>.
template <class T>
struct RealOf {
    using type = T;
};
template <class Real, int N>
struct RealOf<Dual<Real, N>> {
    using type = Real;
};
template <class T>
using real_of_t = typename RealOf<T>::type;

}  // namespace geomint::spin
