// Exact solution of the nonlinear pendulum q'' + w^2 sin q = 0 (math §1.3), host-side reference
// for the 1-DOF integrators: Jacobi elliptic functions from Boost.Math.
#pragma once

namespace geomint {

enum class PendulumMotion { libration, separatrix, rotation };

struct PendulumPhasePoint {
    double q;
    double p;
};

// k^2 = E / (2 m w^2), math §1.3. Throws std::invalid_argument for mass<=0, omega<=0 or non-finite input.
double pendulum_modulus(double mass, double omega, double q0, double p0);

// separatrix when |k-1| <= 1e-12
PendulumMotion pendulum_motion(double mass, double omega, double q0, double p0);

// Period of the motion: libration 4K(k)/w; rotation period of q mod 2pi: 2K(1/k)/(k w); separatrix: +infinity.
double pendulum_period(double mass, double omega, double q0, double p0);

// Exact state at time t from (q0, p0) at t = 0. q is NOT wrapped: it is continuous in t, starts at q0 exactly
// (any real q0, e.g. 7.0 or -3.0, not only (-pi, pi]) and grows without bound for a rotation.
// The separatrix formula is used only where k rounds to exactly 1; elsewhere in the band |k-1| <= 1e-12
// the (finite-period) elliptic solution is returned, as it is exact for the data. Near k = 1 the
// rounding of k in double limits the accuracy of the timing to about 1e-16 / |1 - k|.
PendulumPhasePoint pendulum_exact(double mass, double omega, double q0, double p0, double t);

}  // namespace geomint
