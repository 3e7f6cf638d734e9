// One-degree-of-freedom potentials V(q) with V' and V'' (SPEC §1): what the
// Newmark and Simpson steps need. Host+device; one small struct per potential.
#pragma once

#include <cmath>

#include "geomint/platform.hpp"

namespace geomint {

// Nonlinear pendulum, V(q) = m w^2 (1 - cos q), so q'' + w^2 sin q = 0 (SPEC §1).
template <class Real>
struct PendulumPotential {
    Real mass;
    Real omega;
    // Uniform construction from one ensemble row; `beta` belongs to other potentials.
    GEOMINT_HD static PendulumPotential from(Real mass, Real omega, Real /*beta*/) { return {mass, omega}; }
    GEOMINT_HD Real value(Real q) const { return mass * omega * omega * (Real(1) - std::cos(q)); }
    GEOMINT_HD Real slope(Real q) const { return mass * omega * omega * std::sin(q); }
    GEOMINT_HD Real curvature(Real q) const { return mass * omega * omega * std::cos(q); }
};

// Duffing oscillator, V(q) = m (w^2 q^2 / 2 + beta q^4 / 4): a hardening
// (beta > 0) or softening spring; beta = 0 is the harmonic oscillator.
template <class Real>
struct DuffingPotential {
    Real mass;
    Real omega;
    Real beta;
    GEOMINT_HD static DuffingPotential from(Real mass, Real omega, Real beta) { return {mass, omega, beta}; }
    GEOMINT_HD Real value(Real q) const {
        const Real q2 = q * q;
        return mass * (omega * omega * q2 / Real(2) + beta * q2 * q2 / Real(4));
    }
    GEOMINT_HD Real slope(Real q) const { return mass * (omega * omega * q + beta * q * q * q); }
    GEOMINT_HD Real curvature(Real q) const { return mass * (omega * omega + Real(3) * beta * q * q); }
};

// H(p, q) = p^2 / (2m) + V(q).
template <class Real, class Potential>
GEOMINT_HD Real hamiltonian(const Potential& potential, Real q, Real p) {
    return p * p / (Real(2) * potential.mass) + potential.value(q);
}

}  // namespace geomint
