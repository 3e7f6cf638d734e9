// Energy-preserving collocation-like schemes Coll-4, Coll-6, Coll-8 (math §2.3): s Gauss stages,
// centre c = u, one Newton solve per step on the stage vectors of every spin (block 3 s per spin).
#pragma once

#include <cstddef>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/spin/gauss_legendre.hpp"
#include "geomint/spin/geometry.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/mat3.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

// Constant coefficients of an s-stage method with Gauss nodes c_k and Lagrange basis l_j
// (math §2.3), and of the Q-point Gauss-Legendre rule for the integrals G_j (16 nodes, as in
// math §2.3: the integrand is not polynomial, and 16 nodes keep the energy error at round-off).
template <int S>
struct CollocationTables {
    static constexpr int quadrature_nodes = 16;
    double stage[S][S];                     // int_0^{c_k} l_j: sigma(c_k) = h sum_j stage[k][j] Z_j
    double weight[S];                       // b_j = int_0^1 l_j: v = phi_c(h sum_j b_j Z_j)
    double path[quadrature_nodes][S];       // int_0^{xi_q} l_j: sigma(xi_q)
    double integrand[quadrature_nodes][S];  // w_q l_j(xi_q) / b_j: G_j = sum_q integrand[q][j] f(xi_q)
    double frozen[S][S];                    // sum_q integrand[q][k] path[q][j]: the quasi-Newton's dG weights
    double middle[S];                       // int_0^{1/2} l_j: sigma(1/2)
    // The host's Newton Jacobian takes dG from a smaller Gauss rule (CollocationJacobian::
    // reduced_quadrature): s + 1 nodes. dG's integrand is l_k(xi) int_0^xi l_j (degree 2 s - 1)
    // times node blocks A(sigma(xi)), sigma = h sum_j Z_j int_0^xi l_j (degree s), so its h^m term
    // has degree 2 s - 1 + m s; k nodes are exact to degree 2 k - 1. With k = s + 1 the h^0 term
    // is exact for every s and the h^1 term for s = 2 only: the blocks (h dG) are off by O(h^3)
    // for coll4 and O(h^2) for coll6 and coll8 (tests/spin/test_collocation_reduced_jacobian.cpp).
    static constexpr int jacobian_nodes = S + 1;
    double jacobian_path[jacobian_nodes][S];       // path at that rule's nodes
    double jacobian_integrand[jacobian_nodes][S];  // integrand with that rule's weights
};

// l_j(xi) = prod_{m != j} (xi - c_m)/(c_j - c_m) in product form (better conditioned than
// monomial coefficients: the tables come out within a few ulps).
template <int S>
GEOMINT_HD constexpr double lagrange_basis(int j, double xi) {
    using Stages = GaussLegendre<S>;
    double r = 1.0;
    for (int m = 0; m < S; ++m)
        if (m != j) r *= (xi - Stages::node(m)) / (Stages::node(j) - Stages::node(m));
    return r;
}

// int_0^tau l_j: l_j has degree s - 1, so the s-point Gauss rule on [0, tau] is exact.
template <int S>
GEOMINT_HD constexpr double lagrange_integral(int j, double tau) {
    using Stages = GaussLegendre<S>;
    double r = 0.0;
    for (int q = 0; q < S; ++q) r += Stages::weight(q) * lagrange_basis<S>(j, tau * Stages::node(q));
    return tau * r;
}

// Built at compile time from the node tables.
template <int S>
GEOMINT_HD constexpr CollocationTables<S> make_collocation_tables() {
    using Stages = GaussLegendre<S>;
    using Rule = GaussLegendre<CollocationTables<S>::quadrature_nodes>;
    CollocationTables<S> t{};
    for (int j = 0; j < S; ++j) {
        t.weight[j] = Stages::weight(j);  // b_j = int_0^1 l_j is the Gauss weight
        for (int k = 0; k < S; ++k) t.stage[k][j] = lagrange_integral<S>(j, Stages::node(k));
        for (int q = 0; q < Rule::size; ++q) {
            t.path[q][j] = lagrange_integral<S>(j, Rule::node(q));
            t.integrand[q][j] = Rule::weight(q) * lagrange_basis<S>(j, Rule::node(q)) / t.weight[j];
        }
    }
    for (int j = 0; j < S; ++j) t.middle[j] = lagrange_integral<S>(j, 0.5);
    using JacobianRule = GaussLegendre<CollocationTables<S>::jacobian_nodes>;
    for (int j = 0; j < S; ++j)
        for (int q = 0; q < JacobianRule::size; ++q) {
            t.jacobian_path[q][j] = lagrange_integral<S>(j, JacobianRule::node(q));
            t.jacobian_integrand[q][j] =
                JacobianRule::weight(q) * lagrange_basis<S>(j, JacobianRule::node(q)) / t.weight[j];
        }
    for (int k = 0; k < S; ++k)
        for (int j = 0; j < S; ++j) {
            t.frozen[k][j] = 0.0;
            for (int q = 0; q < Rule::size; ++q) t.frozen[k][j] += t.integrand[q][k] * t.path[q][j];
        }
    return t;
}

// The tables of make_collocation_tables, read by reference (the loops index them at run time). On
// the GPU they live in __constant__ memory: a constexpr table local to a function, indexed at run
// time, was copied into every thread's stack (issue 10: 616 B of stack for coll4), while every
// thread of a warp reads the same entry, which the constant cache serves at once.
template <int S>
inline constexpr CollocationTables<S> collocation_tables = make_collocation_tables<S>();
#if defined(__CUDACC__)
template <int S>
__constant__ constexpr CollocationTables<S> collocation_tables_on_device = make_collocation_tables<S>();
#endif
template <int S>
GEOMINT_HD const CollocationTables<S>& collocation_table() {
#if defined(__CUDA_ARCH__)
    return collocation_tables_on_device<S>;
#else
    return collocation_tables<S>;
#endif
}

// Which Newton Jacobian the collocation steps build (issue 10 items 1, 2 and 3, chosen by
// measurement). On the host the analytic blocks of CollocationStep::linearise, several times
// cheaper than dual numbers (bench/RESULTS.md, "Collocation Newton Jacobians"), with dG from
// CollocationTables::jacobian_nodes Gauss nodes instead of the residual's 16
// (reduced_quadrature; `analytic` keeps the 16 as the tests' exact Jacobian). The host's simplified
// Newton keeps one Jacobian per step, so the Jacobian is only Newton's direction: the smaller
// rule leaves the root where it was and took the same linear solves a step at h = 0.05 and
// 0.2 (within 2%), for 12-28% fewer instructions a step and 1.1-1.6x the rate (bench/RESULTS.md,
// "Collocation's Newton Jacobian from fewer Gauss nodes"; s nodes for coll4 took 5 solves a step
// against 4). On the GPU the
// analytic blocks would keep 3 s^2 accumulated 3 x 3 matrices (up to 432 reals for coll8) alive
// through the quadrature loop, which a thread's registers cannot hold. There (ptxas, sm_90,
// registers / stack B / spill stores B of the plain double kernels; RESULTS, "2026-12-04 —
// Collocation on the GPU: a quasi-Newton for coll6 and coll8 on chains"):
// - coll6 and coll8 on chains: the quasi-Newton of CollocationStep::linearise_into
//   (frozen_quadrature), whose entries go straight to the solver's workspace. Dual numbers with
//   one column per pass spilled there (coll6 255/136-240/164-264, coll8 255/240-288/272-316); the
//   quasi-Newton does not (coll6 246/288/0, coll8 248-254/368/0), for 6 iterations a step where
//   Newton takes 3-4 at h = 0.05.
// - coll4, and every s on the top: dual numbers with one column per pass, which took fewer
//   registers and less stack than the quasi-Newton (coll4 on the Heisenberg chain 230/56/0
//   against 246/208/0; coll8 on the top 208/80/0 against 220/368/0) and do not spill.
enum class CollocationJacobian { analytic, reduced_quadrature, dual_numbers, frozen_quadrature };
template <int S, class System>
inline constexpr CollocationJacobian device_collocation_jacobian =
    S >= 3 && System::is_chain ? CollocationJacobian::frozen_quadrature : CollocationJacobian::dual_numbers;
#if defined(__CUDA_ARCH__)
template <int S, class System>
inline constexpr CollocationJacobian collocation_jacobian = device_collocation_jacobian<S, System>;
#else
template <int S, class System>
inline constexpr CollocationJacobian collocation_jacobian = CollocationJacobian::reduced_quadrature;
#endif

// Which Newton the collocation steps run: jacobian_refresh of local_newton.hpp (the simplified
// Newton on the host, Newton on the GPU), named here for the tests.
inline constexpr double collocation_jacobian_refresh = jacobian_refresh;

// One step as a local problem (local_newton.hpp). Unknowns of spin i: Z_{1..s} in T_{u_i} S^2,
// x[3 s i + 3 j + k] = component k of Z_j. Residual (math §2.3):
//   Z_j - T_{U_j} phi_c^{-1} ( U_j x (T_{U_j} phi_c^{-1})^T G_j ),  c = u_i.
// Its image lies in T_c S^2 (c . T_U phi_c^{-1} a = 0 for every a), so the c-component of the
// residual is c . Z_j and the zero has Z_j tangent without a constraint. Spin i couples to its
// neighbours only through dH/ds_i at the quadrature points, so the Jacobian is block cyclic
// tridiagonal (math §3).
template <int S, class System, class Real, CollocationJacobian jacobian_choice = collocation_jacobian<S, System>>
struct CollocationStep {
    static constexpr int block_size = 3 * S;
    // local_newton.hpp: the frozen quadrature is an approximate Jacobian (stricter stopping rule).
    static constexpr bool exact_jacobian =
        !(jacobian_choice == CollocationJacobian::frozen_quadrature && HasGradientJacobian<System, Real>);
    const System& system;
    StridedSpins<Real> u;
    Real h;

    GEOMINT_HD int blocks() const { return u.d; }

    template <class T>
    GEOMINT_HD void residual(int i, const T* left, const T* self, const T* right, T* out) const {
        const CollocationTables<S>& tab = collocation_table<S>();
        constexpr int Q = CollocationTables<S>::quadrature_nodes;
        const Vec3<Real> c = u.get(i);
        Vec3<T> z[S], g[S];
        for (int j = 0; j < S; ++j) {
            z[j] = Vec3<T>{self[3 * j], self[3 * j + 1], self[3 * j + 2]};
            g[j] = Vec3<T>{T(0), T(0), T(0)};
        }
        // G_j = int_0^1 l_j(xi)/b_j (T_{sigma(xi)} phi_c)^T gradH(phi_c(sigma(xi))) dxi.
        for (int q = 0; q < Q; ++q) {
            const Vec3<T> f = path_integrand(c, i, tab.path[q], left, self, right);
            for (int j = 0; j < S; ++j) g[j] += Real(tab.integrand[q][j]) * f;
        }
        for (int k = 0; k < S; ++k) {
            const Vec3<T> uk = retract(c, path_point(tab.stage[k], self));
            const Vec3<T> w = tangent_inverse_retract_transpose(c, uk, g[k]);
            const Vec3<T> r = z[k] - tangent_inverse_retract(c, uk, cross(uk, w));
            out[3 * k] = r.x;
            out[3 * k + 1] = r.y;
            out[3 * k + 2] = r.z;
        }
    }

    // The residual (as above) and its exact Jacobian blocks, by the chain rule in plain Real (math
    // §3.1). With f_q = T_{x_q} phi_c grad H(y_q) at the quadrature points x_q = sigma(xi_q),
    // y_q = phi_c(x_q), and a_{qj} = h path[q][j],
    //   dG_k/dZ_j^{own}   = sum_q integrand[q][k] a_{qj} (D_x T_x phi_c [grad H] + P_q H_s P_q),
    //   dG_k/dZ_j^{left}  = sum_q integrand[q][k] a_{qj} P_q H_l P^l_q   (right alike),
    // P_q = T_{x_q} phi_c = d y_q/d x_q, H_l, H_s, H_r the system's gradient_jacobian. The stage
    // part r_k = M (U_k x M^T G_k), M = T_{U_k} phi_c^{-1}, gives dr_k = K_u dU_k + K_G dG_k with
    //   K_u = D_u[M v] + M ([U_k]_x D_u[M^T G_k] - [M^T G_k]_x),  K_G = M [U_k]_x M^T,
    // v = U_k x M^T G_k, and dU_k/dZ_j = h stage[k][j] T_{sigma_k} phi_c. The residual is Z_k - r_k.
    // (The [M^T G_k]_x term vanishes on tangent dU_k: both factors are normal to U_k, so their
    // cross product lies along U_k, which M maps to 0. It is kept, as the plain chain rule.)
    GEOMINT_HD void linearise(int i, const Real* left, const Real* self, const Real* right, Real* out,
                              NeighbourBlocks<block_size, Real>& jacobian) const
        requires((jacobian_choice == CollocationJacobian::analytic ||
                  jacobian_choice == CollocationJacobian::reduced_quadrature) &&
                 HasGradientJacobian<System, Real>) {
        using M3 = Mat3<Real>;
        const CollocationTables<S>& tab = collocation_table<S>();
        constexpr int Q = CollocationTables<S>::quadrature_nodes;
        constexpr int neighbours = System::is_chain ? 3 : 1;  // dG blocks kept: left, own, right, or own
        constexpr int own = System::is_chain ? 1 : 0;
        Vec3<Real> g[S];
        M3 dg[neighbours][S][S];
        for (int k = 0; k < S; ++k) {
            g[k] = Vec3<Real>{Real(0), Real(0), Real(0)};
            for (int b = 0; b < neighbours; ++b)
                for (int j = 0; j < S; ++j) dg[b][k][j] = M3::zero();
        }
        // dG += sum over one rule's nodes of integrand[k] h path[j] a (the node blocks).
        const auto add_node_blocks = [&](const double(&integrand)[S], const double(&path)[S], const M3(&a)[3]) {
            for (int k = 0; k < S; ++k)
                for (int j = 0; j < S; ++j) {
                    const Real w = Real(integrand[k]) * (h * Real(path[j]));
                    for (int b = 0; b < neighbours; ++b) dg[b][k][j] += w * a[System::is_chain ? b : 1];
                }
        };
        if constexpr (jacobian_choice == CollocationJacobian::analytic) {
            for (int q = 0; q < Q; ++q) {
                M3 a[3];
                const Vec3<Real> f = node_blocks(i, tab.path[q], left, self, right, a);
                for (int k = 0; k < S; ++k) g[k] += Real(tab.integrand[q][k]) * f;
                add_node_blocks(tab.integrand[q], tab.path[q], a);
            }
        } else {
            // G as residual() forms it, at the 16 nodes; the node blocks at the smaller rule's.
            const Vec3<Real> c = u.get(i);
            for (int q = 0; q < Q; ++q) {
                const Vec3<Real> f = path_integrand(c, i, tab.path[q], left, self, right);
                for (int k = 0; k < S; ++k) g[k] += Real(tab.integrand[q][k]) * f;
            }
            for (int q = 0; q < CollocationTables<S>::jacobian_nodes; ++q) {
                M3 a[3];
                node_blocks(i, tab.jacobian_path[q], left, self, right, a);
                add_node_blocks(tab.jacobian_integrand[q], tab.jacobian_path[q], a);
            }
        }
        for (int k = 0; k < S; ++k) {
            const StagePart part = stage_part(i, k, self, g[k]);
            for (int a = 0; a < 3; ++a) out[3 * k + a] = part.r[a];
            for (int b = 0; b < 3; ++b)
                for (int j = 0; j < S; ++j) {
                    M3 block = M3::zero();
                    if (System::is_chain || b == 1) block = Real(-1) * (part.kg * dg[System::is_chain ? b : own][k][j]);
                    if (b == 1) {
                        block += Real(-(h * Real(tab.stage[k][j]))) * part.kun;
                        if (j == k) block += M3::identity();
                    }
                    for (int a = 0; a < 3; ++a)
                        for (int e = 0; e < 3; ++e) jacobian.m[b][3 * k + a][3 * j + e] = block.m[a][e];
                }
        }
    }

    // The quasi-Newton of CollocationJacobian::frozen_quadrature (math §3.1): the residual and the
    // stage part (K_u, K_G at the current U_k and G_k) exactly, and dG_k/dZ_j with its quadrature
    // collapsed to one point, the middle of the path sigma(1/2): the node blocks a_b of linearise
    // taken there once, weighted by h frozen[k][j] = h sum_q integrand[q][k] path[q][j]. The path
    // points are O(h) from it, so this dG is off by O(h^2) and Newton contracts linearly at a rate
    // O(h^2) (the middle took fewer iterations than sigma = 0: 8-10 against 10-12 on chains at
    // h = 0.2). Three 3 x 3 node blocks instead of 3 s^2 accumulated ones, and the entries go to
    // the solver's workspace through the sink, not through a 3 s x 3 s array on the stack (a
    // NeighbourBlocks took coll8's stack to 3.8 KB).
    template <class Sink>
    GEOMINT_HD void linearise_into(int i, const Real* left, const Real* self, const Real* right, Real* out,
                                   const Sink& sink) const
        requires(jacobian_choice == CollocationJacobian::frozen_quadrature && HasGradientJacobian<System, Real>) {
        using M3 = Mat3<Real>;
        const CollocationTables<S>& tab = collocation_table<S>();
        constexpr int Q = CollocationTables<S>::quadrature_nodes;
        const Vec3<Real> c = u.get(i);
        // G_k by residual's quadrature loop, written out here with path_integrand per node: residual
        // calling a shared whole loop grew the top's dual-number kernels (coll6 184 -> 206
        // registers, coll8 208 -> 228; RESULTS, "Collocation on the GPU: a quasi-Newton").
        Vec3<Real> g[S];
        for (int j = 0; j < S; ++j) g[j] = Vec3<Real>{Real(0), Real(0), Real(0)};
        for (int q = 0; q < Q; ++q) {
            const Vec3<Real> f = path_integrand(c, i, tab.path[q], left, self, right);
            for (int j = 0; j < S; ++j) g[j] += Real(tab.integrand[q][j]) * f;
        }
        // The node blocks at the middle of the path, xi = 1/2 (the analytic linearise's a_b there).
        M3 a[3];
        node_blocks(i, tab.middle, left, self, right, a);
        for (int k = 0; k < S; ++k) {
            const StagePart part = stage_part(i, k, self, g[k]);
            for (int e = 0; e < 3; ++e) out[3 * k + e] = part.r[e];
            for (int b = 0; b < 3; ++b) {
                const M3 kga = part.kg * a[b];
                for (int j = 0; j < S; ++j) {
                    M3 block = Real(-(h * Real(tab.frozen[k][j]))) * kga;
                    if (b == 1) {
                        block += Real(-(h * Real(tab.stage[k][j]))) * part.kun;
                        if (j == k) block += M3::identity();
                    }
                    for (int row = 0; row < 3; ++row)
                        for (int col = 0; col < 3; ++col) sink(b, 3 * k + row, 3 * j + col, block.m[row][col]);
                }
            }
        }
    }

private:
    // sigma = h sum_j coefficient[j] Z_j for one spin's stage block.
    template <class T>
    GEOMINT_HD Vec3<T> path_point(const double (&coefficient)[S], const T* z) const {
        Vec3<T> x{T(0), T(0), T(0)};
        for (int j = 0; j < S; ++j) x += (h * Real(coefficient[j])) * Vec3<T>{z[3 * j], z[3 * j + 1], z[3 * j + 2]};
        return x;
    }

    // The integrand T_x phi_c grad H(phi_c(x)) of G at the path point x = path_point(coefficient) of
    // spin i, centre c = u_i, in T (Real, or dual numbers): one node of the quadrature loop that
    // residual, linearise (reduced_quadrature) and linearise_into share. As a call for one node
    // it left every collocation kernel's registers, stack and spills as they were (ptxas, sm_90;
    // sharing the whole loop had grown the top's dual-number kernels, see linearise_into).
    template <class T>
    GEOMINT_HD Vec3<T> path_integrand(const Vec3<Real>& c, int i, const double (&coefficient)[S], const T* left,
                                      const T* self, const T* right) const {
        const Vec3<T> x = path_point(coefficient, self);
        const Vec3<T> y = retract(c, x);
        Vec3<T> yl = y, yr = y;
        if constexpr (System::is_chain) {
            yl = retract(u.get(u.wrap(i - 1)), path_point(coefficient, left));
            yr = retract(u.get(u.wrap(i + 1)), path_point(coefficient, right));
        }
        return tangent_retract(c, x, system.gradient(yl, y, yr));
    }

    // phi_c(x) = (c + x)/|c + x| and N(c + x) = T_x phi_c = d phi_c/dx from one square root and one
    // division; returns 1/|c + x|. (As separate calls to retract, normalise_jacobian and
    // tangent_retract_dp they took four of each per node, half of the top's coll4 run.)
    GEOMINT_HD static Real unit_point(const Vec3<Real>& centre, const Vec3<Real>& x, Vec3<Real>& y, Mat3<Real>& n) {
        const Vec3<Real> sum = centre + x;
        const Real inv = Real(1) / norm(sum);
        y = inv * sum;
        n = Mat3<Real>::identity(inv) - Mat3<Real>::outer(inv * y, y);
        return inv;
    }

    // At the path point sigma = path_point(coefficient) of spin i and of its neighbours: the
    // integrand f = T_x phi_c grad H(y) (returned) and the node blocks a_b of dG/dZ (see
    // linearise): a[0], a[2] the neighbours' P H_l P^l and P H_r P^r, a[1] the own
    // D_x T_x phi_c [grad H] + P H_s P; on the top a[1] holds the three Hessian blocks summed and
    // a[0] = a[2] = 0. Real only: the analytic linearise at every node, the quasi-Newton once.
    GEOMINT_HD Vec3<Real> node_blocks(int i, const double (&coefficient)[S], const Real* left, const Real* self,
                                      const Real* right, Mat3<Real> (&a)[3]) const {
        using M3 = Mat3<Real>;
        const Vec3<Real> c = u.get(i);
        Vec3<Real> y;
        M3 p;
        const Real inv = unit_point(c, path_point(coefficient, self), y, p);
        Vec3<Real> yl = y, yr = y;
        M3 pl = p, pr = p;
        if constexpr (System::is_chain) {
            unit_point(u.get(u.wrap(i - 1)), path_point(coefficient, left), yl, pl);
            unit_point(u.get(u.wrap(i + 1)), path_point(coefficient, right), yr, pr);
        }
        const Vec3<Real> grad = system.gradient(yl, y, yr);
        const NeighbourJacobian<Real> hess = system.gradient_jacobian(yl, y, yr);
        // f = T_x phi_c grad = (grad - y (y.grad))/|c + x| and its derivative in x for fixed
        // grad (tangent_retract_dp, mat3.hpp): -((y.grad) N + y grad^T N + f y^T)/|c + x|.
        const Real yg = dot(y, grad);
        const Vec3<Real> f = inv * (grad - yg * y);
        const M3 df = Real(-inv) * ((M3::identity(yg) + M3::outer(y, grad)) * p + M3::outer(f, y));
        if constexpr (System::is_chain) {
            a[0] = p * hess.left * pl;
            a[1] = df + p * hess.self * p;
            a[2] = p * hess.right * pr;
        } else {
            a[1] = df + p * (hess.left + hess.self + hess.right) * p;
            a[0] = a[2] = M3::zero();
        }
        return f;
    }

    // Stage k's part of spin i's residual, r_k = Z_k - M (U_k x M^T G_k), and its derivatives (see
    // linearise): kun = K_u T_{sigma_k} phi_c (dU_k/dZ_j = h stage[k][j] times it) and kg = K_G.
    struct StagePart {
        Vec3<Real> r;
        Mat3<Real> kun, kg;
    };
    GEOMINT_HD StagePart stage_part(int i, int k, const Real* self, const Vec3<Real>& gk) const {
        using M3 = Mat3<Real>;
        const CollocationTables<S>& tab = collocation_table<S>();
        const Vec3<Real> c = u.get(i);
        const Vec3<Real> sigma = path_point(tab.stage[k], self);
        const Vec3<Real> uk = retract(c, sigma);
        const Vec3<Real> w = tangent_inverse_retract_transpose(c, uk, gk);
        const Vec3<Real> v = cross(uk, w);
        const Vec3<Real> r =
            Vec3<Real>{self[3 * k], self[3 * k + 1], self[3 * k + 2]} - tangent_inverse_retract(c, uk, v);
        const M3 m = tangent_inverse_retract_matrix(c, uk);
        const M3 ku =
            tangent_inverse_retract_du(c, uk, v) +
            m * (M3::cross_matrix(uk) * tangent_inverse_retract_transpose_du(c, uk, gk) - M3::cross_matrix(w));
        return {r, ku * normalise_jacobian(c + sigma),
                m * M3::cross_matrix(uk) * tangent_inverse_retract_transpose_matrix(c, uk)};
    }
};

// Coll-2s (math §2.3, order 2 s): Collocation<2> = coll4, <3> = coll6, <4> = coll8.
// Newton's first iterate for a collocation step u = state (math §3): every stage vector at its
// h -> 0 limit, u_i x dH/ds_i(u), tangent at c = u. x: 3 S d reals, stage j of spin i at 3 S i + 3 j
// (CollocationStep's unknowns). Also the guess of the tests and benchmarks that drive the solver.
// The views are taken by reference: by value, ptxas (CUDA 13.0, sm_90) gave coll6's top kernel 208
// registers instead of the 184 of the loop written inside step().
template <int S, class System, class Real>
GEOMINT_HD void collocation_guess(const System& system, const StridedSpins<Real>& state, const StridedReals<Real>& x) {
    const int d = state.d;
    for (int i = 0; i < d; ++i) {
        const Vec3<Real> ui = state.get(i);
        const Vec3<Real> z = cross(ui, system.gradient(state.get(state.wrap(i - 1)), ui, state.get(state.wrap(i + 1))));
        for (int j = 0; j < S; ++j)
            for (int k = 0; k < 3; ++k) x[3 * S * i + 3 * j + k] = z[k];
    }
}

template <int S>
struct Collocation {
    static_assert(S >= 2 && S <= 4, "math §2.3 defines s = 2, 3, 4 (Coll-4, Coll-6, Coll-8)");
    static constexpr const char* name = S == 2 ? "coll4" : (S == 3 ? "coll6" : "coll8");
    static constexpr int stages = S;
    static constexpr int order = 2 * S;
    static constexpr const char* preserves = "energy";
    static constexpr const char* summary = "energy-preserving collocation, Gauss stages";

    // Unknowns (3 s d) and the Newton workspace for 3 s blocks: O(d).
    GEOMINT_HD std::size_t workspace_reals(int d) const {
        return 3 * S * static_cast<std::size_t>(d) + local_newton_workspace_reals<3 * S, double>(d);
    }

    template <class System, class Real>
    GEOMINT_HD NewtonOutcome<Real> step(const System& system, Real h, StridedSpins<Real> state, StridedReals<Real> work,
                                        const NewtonOptions<Real>& options) const {
        return step(system, h, state, work, options, Real(collocation_jacobian_refresh));
    }

    // The step with a given Jacobian refresh rule: negative, Newton (local_newton_solve); otherwise
    // local_simplified_newton_solve's refresh_contraction, with *jacobians counting the Jacobians
    // built (the tests and bench/bench_spin.cpp compare the rules). On the GPU always Newton.
    template <class System, class Real>
    GEOMINT_HD NewtonOutcome<Real> step(const System& system, Real h, StridedSpins<Real> state, StridedReals<Real> work,
                                        const NewtonOptions<Real>& options, Real refresh_contraction,
                                        int* jacobians = nullptr) const {
        const int d = state.d;
        const StridedReals<Real> x = work;
        const StridedReals<Real> newton = work.at(3 * S * static_cast<std::size_t>(d));
        collocation_guess<S>(system, state, x);
        CollocationStep<S, System, Real> problem{system, state, h};
#if defined(__CUDA_ARCH__)
        (void)refresh_contraction, (void)jacobians;  // the GPU keeps Newton (see above)
        const NewtonOutcome<Real> out = local_newton_solve(problem, x, newton, options);
#else
        const NewtonOutcome<Real> out =
            refresh_contraction < Real(0)
                ? local_newton_solve(problem, x, newton, options)
                : local_simplified_newton_solve(problem, x, newton, options, refresh_contraction, jacobians);
#endif
        if (out.status != SolveStatus::ok) return out;  // state untouched (INTERFACE.md)
        // v_i = phi_{u_i}(h sum_j b_j Z_j) (math §2.3): spin i needs only its own u_i and stages,
        // so it can be overwritten at once.
        const CollocationTables<S>& tab = collocation_table<S>();
        for (int i = 0; i < d; ++i) {
            Vec3<Real> sum{Real(0), Real(0), Real(0)};
            for (int j = 0; j < S; ++j)
                sum += (h * Real(tab.weight[j])) *
                       Vec3<Real>{x[3 * S * i + 3 * j], x[3 * S * i + 3 * j + 1], x[3 * S * i + 3 * j + 2]};
            state.set(i, retract(state.get(i), sum));
        }
        return out;
    }
};

using Coll4 = Collocation<2>;
using Coll6 = Collocation<3>;
using Coll8 = Collocation<4>;

}  // namespace geomint::spin
