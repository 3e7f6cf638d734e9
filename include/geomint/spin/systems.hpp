// Hamiltonians on (S^2)^d (math §2): the perturbed spinning top, the periodic Heisenberg chain and
// an anisotropic chain (the worked example of adding a system). Host+device, T real or dual.
#pragma once

#include <concepts>

#include "geomint/parameter_spec.hpp"
#include "geomint/platform.hpp"
#include "geomint/spin/mat3.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

// What a system provides. Its declaration, read by the registry (registry.hpp) and the CLI:
//   static constexpr const char* name, summary;   // --system NAME, one line for --help
//   static constexpr auto parameters;             // run-wide parameters (parameter_spec.hpp)
//   static System from_parameters(const Real*);   // reads them in declaration order
// Its energy and gradients (all templated on the scalar T, which may be a dual number; the
// schemes only ever need a spin and its two periodic neighbours, which keeps every Newton
// Jacobian block cyclic tridiagonal, math §3):
//   static constexpr bool is_chain;   // false: d = 1 and `left`/`right` are ignored
//   T energy_density(left, s, right)  // H = sum_i energy_density(s_{i-1}, s_i, s_{i+1})
//   T site_energy(left, s, right)     // every term of H that contains s_i: H changes by exactly
//                                     // its change when only s_i moves (Itoh-Abe, math §2.2)
//   Vec3<T> gradient(left, s, right)  // Euclidean dH/ds_i
//   Vec3<T> site_discrete_gradient(left, a, b, right)  // exact: site_energy(left, b, right) -
//                                     // site_energy(left, a, right) = result . (b - a); a
//                                     // polynomial H factors exactly, which spares Itoh-Abe the
//                                     // cancellation of a divided difference (math §2.2)
// Chains also provide, for the local midpoint DRG "mmp" (math §2.2):
//   Vec3<T> midpoint_drg(ul, vl, u, v, ur, vr)  // gbar_i with sum_i gbar_i.(v_i - u_i) = H(v) - H(u)
//
// For the analytic Newton Jacobians (math §3; without them every scheme falls back to forward-mode
// dual numbers, correct but several times slower), in plain Real:
//   NeighbourJacobian<Real> gradient_jacobian(l, s, r)  // the Hessian blocks d gradient / d l, s, r
//   SiteDiscreteGradientJacobian<Real> site_discrete_gradient_jacobian(l, a, b, r)  // for Itoh-Abe
// and chains, for mmp:
//   NeighbourJacobian<Real> midpoint_drg_jacobian(ul, vl, u, v, ur, vr)  // d midpoint_drg / d vl, v, vr
// tests/spin/test_analytic_jacobians.cpp checks them against dual numbers, through every scheme's
// Newton Jacobian: a new system gets its Jacobians checked by one more check_all() call there.
//
// Perturbed spinning top (math §2, d = 1): H = 1/2 s^T J s + 1/3 sum_k J_k s_k^3, J = I^{-1},
// grad H = J (s + s*s).
template <class Real>
struct SpinningTop {
    static constexpr bool is_chain = false;
    static constexpr const char* name = "top";
    static constexpr const char* summary = "one spin, H = 1/2 s.Js + 1/3 sum J_k s_k^3, J = I^-1";
    static constexpr auto parameters = parameter_list(
        ParameterSpec{"inertia", 3, "1,2,4", "principal moments of inertia I1,I2,I3", ParameterDomain::positive});
    Vec3<Real> inv_inertia{Real(1), Real(0.5), Real(0.25)};  // J for the default I = diag(1, 2, 4)

    GEOMINT_HD static SpinningTop with_inertia(Real i1, Real i2, Real i3) {
        return SpinningTop{Vec3<Real>{Real(1) / i1, Real(1) / i2, Real(1) / i3}};
    }
    GEOMINT_HD static SpinningTop from_parameters(const Real* inertia) {
        return with_inertia(inertia[0], inertia[1], inertia[2]);
    }
    template <class T>
    GEOMINT_HD T energy_density(const Vec3<T>&, const Vec3<T>& s, const Vec3<T>&) const {
        const Vec3<T> js = hadamard(inv_inertia, s);
        return Real(0.5) * dot(js, s) + dot(js, hadamard(s, s)) / Real(3);
    }
    template <class T>
    GEOMINT_HD T site_energy(const Vec3<T>& l, const Vec3<T>& s, const Vec3<T>& r) const {
        return energy_density(l, s, r);
    }
    template <class T>
    GEOMINT_HD Vec3<T> gradient(const Vec3<T>&, const Vec3<T>& s, const Vec3<T>&) const {
        return hadamard(inv_inertia, s + hadamard(s, s));
    }
    // b^2 - a^2 = (a + b)(b - a), b^3 - a^3 = (a^2 + a b + b^2)(b - a), componentwise.
    template <class T>
    GEOMINT_HD Vec3<T> site_discrete_gradient(const Vec3<T>&, const Vec3<T>& a, const Vec3<T>& b,
                                              const Vec3<T>&) const {
        const Vec3<T> quad = hadamard(a, a) + hadamard(a, b) + hadamard(b, b);
        return hadamard(inv_inertia, Real(0.5) * (a + b) + quad / Real(3));
    }
    // d/ds J (s + s*s) = diag(J (1 + 2 s)); the neighbours do not enter.
    GEOMINT_HD NeighbourJacobian<Real> gradient_jacobian(const Vec3<Real>&, const Vec3<Real>& s,
                                                         const Vec3<Real>&) const {
        const Vec3<Real> one{Real(1), Real(1), Real(1)};
        return {Mat3<Real>::zero(), Mat3<Real>::diagonal(hadamard(inv_inertia, one + Real(2) * s)), Mat3<Real>::zero()};
    }
    // d/da J ((a + b)/2 + (a*a + a*b + b*b)/3) = J diag(1/2 + (2 a + b)/3), and a <-> b for d/db.
    GEOMINT_HD SiteDiscreteGradientJacobian<Real> site_discrete_gradient_jacobian(const Vec3<Real>&,
                                                                                  const Vec3<Real>& a,
                                                                                  const Vec3<Real>& b,
                                                                                  const Vec3<Real>&) const {
        const Vec3<Real> half{Real(0.5), Real(0.5), Real(0.5)};
        return {Mat3<Real>::zero(), Mat3<Real>::diagonal(hadamard(inv_inertia, half + (Real(2) * a + b) / Real(3))),
                Mat3<Real>::diagonal(hadamard(inv_inertia, half + (a + Real(2) * b) / Real(3))), Mat3<Real>::zero()};
    }
};

// Periodic Heisenberg chain (math §2): H = sum_i s_i . s_{i-1}, dH/ds_i = s_{i-1} + s_{i+1}.
template <class Real>
struct HeisenbergChain {
    static constexpr bool is_chain = true;
    static constexpr const char* name = "chain";
    static constexpr const char* summary = "periodic Heisenberg chain, H = sum s_i.s_{i-1}";
    static constexpr auto parameters = parameter_list();

    GEOMINT_HD static HeisenbergChain from_parameters(const Real*) { return {}; }

    template <class T>
    GEOMINT_HD T energy_density(const Vec3<T>& l, const Vec3<T>& s, const Vec3<T>&) const {
        return dot(s, l);  // the bond to the left neighbour, so each bond is counted once
    }
    template <class T>
    GEOMINT_HD T site_energy(const Vec3<T>& l, const Vec3<T>& s, const Vec3<T>& r) const {
        return dot(s, l + r);
    }
    template <class T>
    GEOMINT_HD Vec3<T> gradient(const Vec3<T>& l, const Vec3<T>&, const Vec3<T>& r) const {
        return l + r;
    }
    template <class T>
    GEOMINT_HD Vec3<T> site_discrete_gradient(const Vec3<T>& l, const Vec3<T>&, const Vec3<T>&,
                                              const Vec3<T>& r) const {
        return l + r;  // the site energy is linear in s_i
    }
    // (v_i - u_i).(u_{i-1} + v_{i-1} + u_{i+1} + v_{i+1})/2 summed over i telescopes bond by bond
    // to H(v) - H(u) (math §2.2, local midpoint).
    template <class T>
    GEOMINT_HD Vec3<T> midpoint_drg(const Vec3<T>& ul, const Vec3<T>& vl, const Vec3<T>&, const Vec3<T>&,
                                    const Vec3<T>& ur, const Vec3<T>& vr) const {
        return Real(0.5) * (ul + vl + ur + vr);
    }
    GEOMINT_HD NeighbourJacobian<Real> gradient_jacobian(const Vec3<Real>&, const Vec3<Real>&,
                                                         const Vec3<Real>&) const {
        return {Mat3<Real>::identity(), Mat3<Real>::zero(), Mat3<Real>::identity()};
    }
    GEOMINT_HD SiteDiscreteGradientJacobian<Real> site_discrete_gradient_jacobian(const Vec3<Real>&, const Vec3<Real>&,
                                                                                  const Vec3<Real>&,
                                                                                  const Vec3<Real>&) const {
        return {Mat3<Real>::identity(), Mat3<Real>::zero(), Mat3<Real>::zero(), Mat3<Real>::identity()};
    }
    GEOMINT_HD NeighbourJacobian<Real> midpoint_drg_jacobian(const Vec3<Real>&, const Vec3<Real>&, const Vec3<Real>&,
                                                             const Vec3<Real>&, const Vec3<Real>&,
                                                             const Vec3<Real>&) const {
        return {Mat3<Real>::identity(Real(0.5)), Mat3<Real>::zero(), Mat3<Real>::identity(Real(0.5))};
    }
};

// The example of adding a Hamiltonian (CONTRIBUTING.md): the chain plus a Zeeman field and an easy
// axis, H = sum_i [ exchange s_i . s_{i-1} + field . s_i + anisotropy (s_i^z)^2 ].
// A new system copies this shape: its declaration (name, summary, parameters, from_parameters)
// and the four functions above, each a formula in T (no branches on
// dual values), with every term of H assigned to exactly one site in energy_density; then, for
// analytic Newton Jacobians, the derivatives of gradient and midpoint_drg (below, each a few
// constant or diagonal blocks), which the test against dual numbers checks. The exact
// discrete gradient for mmp comes from factoring each difference: b.v - b.u = b.(v - u) and
// v_z^2 - u_z^2 = (u_z + v_z)(v_z - u_z).
template <class Real>
struct AnisotropicChain {
    static constexpr bool is_chain = true;
    static constexpr const char* name = "anisotropic";
    static constexpr const char* summary = "periodic chain, H = sum J s_i.s_{i-1} + b.s_i + D (s_i^z)^2";
    static constexpr auto parameters = parameter_list(ParameterSpec{"exchange", 1, "1", "exchange coupling J"},
                                                      ParameterSpec{"field", 3, "0,0,0.3", "Zeeman field b = bx,by,bz"},
                                                      ParameterSpec{"anisotropy", 1, "0.5", "easy-axis coefficient D"});
    Real exchange = Real(1);
    Vec3<Real> field{Real(0), Real(0), Real(0.3)};
    Real anisotropy = Real(0.5);

    GEOMINT_HD static AnisotropicChain from_parameters(const Real* values) {
        return AnisotropicChain{values[0], Vec3<Real>{values[1], values[2], values[3]}, values[4]};
    }

    template <class T>
    GEOMINT_HD T onsite(const Vec3<T>& s) const {
        return dot(field, s) + anisotropy * s.z * s.z;
    }
    template <class T>
    GEOMINT_HD T energy_density(const Vec3<T>& l, const Vec3<T>& s, const Vec3<T>&) const {
        return exchange * dot(s, l) + onsite(s);
    }
    template <class T>
    GEOMINT_HD T site_energy(const Vec3<T>& l, const Vec3<T>& s, const Vec3<T>& r) const {
        return exchange * dot(s, l + r) + onsite(s);
    }
    template <class T>
    GEOMINT_HD Vec3<T> gradient(const Vec3<T>& l, const Vec3<T>& s, const Vec3<T>& r) const {
        Vec3<T> g = exchange * (l + r) + field;
        g.z += Real(2) * anisotropy * s.z;
        return g;
    }
    template <class T>
    GEOMINT_HD Vec3<T> site_discrete_gradient(const Vec3<T>& l, const Vec3<T>& a, const Vec3<T>& b,
                                              const Vec3<T>& r) const {
        Vec3<T> g = exchange * (l + r) + field;
        g.z += anisotropy * (a.z + b.z);
        return g;
    }
    template <class T>
    GEOMINT_HD Vec3<T> midpoint_drg(const Vec3<T>& ul, const Vec3<T>& vl, const Vec3<T>& u, const Vec3<T>& v,
                                    const Vec3<T>& ur, const Vec3<T>& vr) const {
        Vec3<T> g = (Real(0.5) * exchange) * (ul + vl + ur + vr) + field;
        g.z += anisotropy * (u.z + v.z);
        return g;
    }
    // gradient: exchange (l + r) + field + 2 D s_z e_z.
    GEOMINT_HD NeighbourJacobian<Real> gradient_jacobian(const Vec3<Real>&, const Vec3<Real>&,
                                                         const Vec3<Real>&) const {
        return {Mat3<Real>::identity(exchange),
                Mat3<Real>::diagonal(Vec3<Real>{Real(0), Real(0), Real(2) * anisotropy}),
                Mat3<Real>::identity(exchange)};
    }
    // site_discrete_gradient: exchange (l + r) + field + D (a_z + b_z) e_z.
    GEOMINT_HD SiteDiscreteGradientJacobian<Real> site_discrete_gradient_jacobian(const Vec3<Real>&, const Vec3<Real>&,
                                                                                  const Vec3<Real>&,
                                                                                  const Vec3<Real>&) const {
        const Mat3<Real> z = Mat3<Real>::diagonal(Vec3<Real>{Real(0), Real(0), anisotropy});
        return {Mat3<Real>::identity(exchange), z, z, Mat3<Real>::identity(exchange)};
    }
    // midpoint_drg: exchange/2 (ul + vl + ur + vr) + field + D (u_z + v_z) e_z.
    GEOMINT_HD NeighbourJacobian<Real> midpoint_drg_jacobian(const Vec3<Real>&, const Vec3<Real>&, const Vec3<Real>&,
                                                             const Vec3<Real>&, const Vec3<Real>&,
                                                             const Vec3<Real>&) const {
        return {Mat3<Real>::identity(Real(0.5) * exchange),
                Mat3<Real>::diagonal(Vec3<Real>{Real(0), Real(0), anisotropy}),
                Mat3<Real>::identity(Real(0.5) * exchange)};
    }
};

// Whether a system provides the derivatives the analytic Newton Jacobians need (above).
template <class System, class Real>
concept HasGradientJacobian = requires(const System& s, const Vec3<Real>& v) {
    { s.gradient_jacobian(v, v, v) } -> std::same_as<NeighbourJacobian<Real>>;
};
template <class System, class Real>
concept HasSiteDiscreteGradientJacobian = requires(const System& s, const Vec3<Real>& v) {
    { s.site_discrete_gradient_jacobian(v, v, v, v) } -> std::same_as<SiteDiscreteGradientJacobian<Real>>;
};
template <class System, class Real>
concept HasMidpointDrgJacobian = requires(const System& s, const Vec3<Real>& v) {
    { s.midpoint_drg_jacobian(v, v, v, v, v, v) } -> std::same_as<NeighbourJacobian<Real>>;
};

// A system seen without its analytic Jacobians: every scheme then builds its Newton Jacobian by
// forward-mode dual numbers (local_newton.hpp). The oracle of the analytic Jacobians in the tests
// and the baseline of bench/bench_spin.cpp.
template <class System>
struct AutomaticJacobians {
    static constexpr bool is_chain = System::is_chain;
    static constexpr const char* name = System::name;
    System system;

    template <class... A>
    GEOMINT_HD auto energy_density(const A&... a) const {
        return system.energy_density(a...);
    }
    template <class... A>
    GEOMINT_HD auto site_energy(const A&... a) const {
        return system.site_energy(a...);
    }
    template <class... A>
    GEOMINT_HD auto gradient(const A&... a) const {
        return system.gradient(a...);
    }
    template <class... A>
    GEOMINT_HD auto site_discrete_gradient(const A&... a) const {
        return system.site_discrete_gradient(a...);
    }
    template <class... A>
    requires requires(const System& s, const A&... a) { s.midpoint_drg(a...); }
    GEOMINT_HD auto midpoint_drg(const A&... a) const { return system.midpoint_drg(a...); }
};

// H of a whole chain (or of the top, d = 1), summed site by site in a fixed order so that every
// memory layout gives the same bits.
template <class System, class Real>
GEOMINT_HD Real total_energy(const System& system, StridedSpins<Real> s) {
    Real h = Real(0);
    for (int i = 0; i < s.d; ++i) h += system.energy_density(s.get(s.wrap(i - 1)), s.get(i), s.get(s.wrap(i + 1)));
    return h;
}

}  // namespace geomint::spin
