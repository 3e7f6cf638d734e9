// One-degree-of-freedom potentials V(q) with V' and V'' (math §1): what the Newmark and Simpson
// steps need. Host+device; one small struct per potential. The potential concept:
//   static constexpr const char* name, summary;     // --potential NAME, one line for --help
//   static constexpr auto parameters;               // run-wide parameters (parameter_spec.hpp)
//   static Potential from_parameters(const Real*);  // reads them in declaration order
//   static double lowest_curvature(omega, params);  // inf over q of V''(q)/m (-inf: unbounded),
//                                                   // for the step bound of a unique root
//   static constexpr bool periodic;                 // V is periodic in q (q is an angle)
//   Real mass, omega;                               // per trajectory, set by the body
//   Real value(q), slope(q), curvature(q);          // V, V', V''
#pragma once

#include <cmath>
#include <limits>

#include "geomint/elementary_functions.hpp"
#include "geomint/parameter_spec.hpp"
#include "geomint/platform.hpp"

namespace geomint {

// Nonlinear pendulum, V(q) = m w^2 (1 - cos q), so q'' + w^2 sin q = 0 (math §1).
template <class Real>
struct PendulumPotential {
    static constexpr const char* name = "pendulum";
    static constexpr const char* summary = "m w^2 (1 - cos q)";
    static constexpr auto parameters = parameter_list();
    Real mass = Real(1);
    Real omega = Real(1);

    static constexpr bool periodic = true;

    GEOMINT_HD static PendulumPotential from_parameters(const Real*) { return {}; }
    static double lowest_curvature(double omega, const double*) { return -omega * omega; }
    GEOMINT_HD Real value(Real q) const { return mass * omega * omega * (Real(1) - cos_of(q)); }
    GEOMINT_HD Real slope(Real q) const { return mass * omega * omega * sin_of(q); }
    GEOMINT_HD Real curvature(Real q) const { return mass * omega * omega * cos_of(q); }
};

// Duffing oscillator, V(q) = m (w^2 q^2 / 2 + beta q^4 / 4): a hardening
// (beta > 0) or softening spring; beta = 0 is the harmonic oscillator.
template <class Real>
struct DuffingPotential {
    static constexpr const char* name = "duffing";
    static constexpr const char* summary = "m (w^2 q^2/2 + beta q^4/4)";
    static constexpr auto parameters =
        parameter_list(ParameterSpec{"beta", 1, "1", "quartic coefficient of the Duffing potential"});
    Real mass = Real(1);
    Real omega = Real(1);
    Real beta = Real(1);

    static constexpr bool periodic = false;

    // V''/m = w^2 + 3 beta q^2: bounded below by w^2 for beta >= 0, unbounded for beta < 0.
    static double lowest_curvature(double omega, const double* values) {
        return values[0] >= 0 ? omega * omega : -std::numeric_limits<double>::infinity();
    }
    GEOMINT_HD static DuffingPotential from_parameters(const Real* values) {
        DuffingPotential potential;
        potential.beta = values[0];
        return potential;
    }
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
