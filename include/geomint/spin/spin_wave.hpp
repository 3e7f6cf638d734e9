// Exact spin-wave solution of the periodic Heisenberg chain (math §2), the reference for the
// chain's order tests. Host+device.
#pragma once

#include <cmath>

#include "geomint/platform.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

// s_j(t) = cos(phi) (a cos th_j + b sin th_j) + sin(phi) n,  th_j = j p - 2 (1 - cos p) sin(phi) t,
// p = 2 pi / d, n = a x b (math §2). Indexing: storage spin i = 0..d-1 is the paper's j = i + 1,
// so the states match the paper's; by periodicity (th_{j+d} = th_j + 2 pi) spin d-1's right
// neighbour is spin 0, as in HeisenbergChain.
template <class Real>
struct SpinWave {
    Vec3<Real> a, b, n;  // a, b orthonormal, n = a x b
    Real phi;            // latitude of the cone the spins precess on
    int d;               // number of spins

    GEOMINT_HD Real angle(int i, Real t) const {
        const Real p = Real(6.283185307179586477) / Real(d);
        return Real(i + 1) * p - Real(2) * (Real(1) - std::cos(p)) * std::sin(phi) * t;
    }

    GEOMINT_HD Vec3<Real> spin(int i, Real t) const {
        const Real th = angle(i, t);
        const Real ca = std::cos(phi) * std::cos(th), cb = std::cos(phi) * std::sin(th), cn = std::sin(phi);
        return Vec3<Real>{ca * a.x + cb * b.x + cn * n.x, ca * a.y + cb * b.y + cn * n.y,
                          ca * a.z + cb * b.z + cn * n.z};
    }

    // Writes the whole chain at time t.
    GEOMINT_HD void fill(StridedSpins<Real> state, Real t) const {
        for (int i = 0; i < state.d; ++i) state.set(i, spin(i, t));
    }
};

// The paper's wave: phi = pi/3, a = (1, 2, -1)/sqrt 6, b = (2, 1, 4)/sqrt 21 (a . b = 0).
template <class Real>
GEOMINT_HD SpinWave<Real> paper_spin_wave(int d) {
    const Real ra = Real(1) / std::sqrt(Real(6)), rb = Real(1) / std::sqrt(Real(21));
    const Vec3<Real> a{ra, Real(2) * ra, -ra};
    const Vec3<Real> b{Real(2) * rb, rb, Real(4) * rb};
    // n = a x b written out, so this file needs nothing from vec3.hpp beyond the three fields.
    const Vec3<Real> n{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return SpinWave<Real>{a, b, n, Real(1.0471975511965977462), d};
}

}  // namespace geomint::spin
