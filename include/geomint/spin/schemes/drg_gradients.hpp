// The discrete Riemannian gradients of math §2.2 (AVF, Gonzalez midpoint, local midpoint,
// Itoh-Abe and its symmetrisation), evaluated for one spin from its periodic neighbourhood.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "geomint/platform.hpp"
#include "geomint/spin/dual.hpp"
#include "geomint/spin/gauss_legendre.hpp"
#include "geomint/spin/geometry.hpp"
#include "geomint/spin/mat3.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/spin/team_reduce.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

// Spin i's neighbourhood in one DRG step u -> v: the known u (Real) and the Newton unknowns v (T).
template <class T, class Real>
struct Neighbourhood {
    int i, d;
    Vec3<Real> ul, u, ur;  // u_{i-1}, u_i, u_{i+1} (periodic)
    Vec3<T> vl, v, vr;     // v_{i-1}, v_i, v_{i+1}
};

// In place of dc = dc/dv_i for a gradient's linearise when the centre does not depend on v (plain
// Itoh-Abe's c = u): the terms through dc are then products with zero, and a gradient that takes
// this tag leaves them out (itoh_abe_linearised; the same blocks, bit for bit).
struct FixedCentre {};

// Whether a linearise's centre moves with v_i: its dc is a Jacobian, not FixedCentre.
template <class CentreJacobian>
inline constexpr bool centre_moves_v = !std::is_same_v<CentreJacobian, FixedCentre>;

// Below this |increment| a divided difference loses too many digits to round-off; a derivative
// at the middle of the increment is used instead, exact to O(alpha^3) ~ eps (math §2.2, "needs a
// tolerance, not == 0").
template <class Real>
GEOMINT_HD Real small_increment() {
    return std::cbrt(std::numeric_limits<Real>::epsilon());
}

// A gradient's linearise (g and dg/dv, dc = dc/dv_i) from its parts for the linearise sweep
// (DrgStage::linearise_sweep): Gradient::LinearisePath, what linearise reads of one spin, traced
// for spin i (centre c) and, on chains, its neighbours (their symmetric centres), then summed by
// path_linearise (the top's gradient reads its one spin three times). The sweep traces each
// spin's once for three rows; this traces all three for one, with the same arithmetic.
template <class Gradient, class System, class Real>
GEOMINT_HD Vec3<Real> linearise_by_paths(const Gradient& gradient, const System& system,
                                         const Neighbourhood<Real, Real>& n, const Vec3<Real>& c, const Mat3<Real>& dc,
                                         NeighbourJacobian<Real>& dg) {
    using Path = typename Gradient::template LinearisePath<System, Real>;
    Path own;
    Gradient::trace_linearise(own, n.i, c, dc, n.u, n.v);
    if constexpr (System::is_chain) {
        Path left, right;
        Gradient::trace_linearise(left, -1, symmetric_centre(n.ul, n.vl), normalise_jacobian(n.ul + n.vl), n.ul, n.vl);
        Gradient::trace_linearise(right, -1, symmetric_centre(n.ur, n.vr), normalise_jacobian(n.ur + n.vr), n.ur, n.vr);
        return gradient.path_linearise(system, left, own, right, dg);
    } else {
        return gradient.path_linearise(system, own, own, own, dg);
    }
}

// The AVF path of one spin for the analytic Jacobian: p(xi) = c + (1 - xi) phi_c^{-1}(u) +
// xi phi_c^{-1}(v), and dp/dv for a centre c(v) with dc/dv = dc (zero for c = u).
template <class Real>
struct PathJacobian {
    Vec3<Real> c, xu, xv;
    Mat3<Real> dc, dxu, dxv;
    PathJacobian() = default;  // a sweep's empty slot (DrgStage::linearise_sweep)
    GEOMINT_HD PathJacobian(const Vec3<Real>& centre, const Mat3<Real>& centre_jacobian, const Vec3<Real>& u,
                            const Vec3<Real>& v)
        : c(centre),
          xu(inverse_retract(centre, u)),
          xv(inverse_retract(centre, v)),
          dc(centre_jacobian),
          dxu(inverse_retract_dc(centre, u) * centre_jacobian),
          dxv(inverse_retract_du(centre, v) + inverse_retract_dc(centre, v) * centre_jacobian) {}
    GEOMINT_HD Vec3<Real> point(Real xi) const { return c + ((Real(1) - xi) * xu + xi * xv); }
    // dp/dv = constant() + xi slope().
    GEOMINT_HD Mat3<Real> constant() const { return dc + dxu; }
    GEOMINT_HD Mat3<Real> slope() const { return dxv - dxu; }
};

// y = p/|p| with 1/|p| and N = dy/dp = (I - y y^T)/|p|.
template <class Real>
struct UnitJacobian {
    Real inv;
    Vec3<Real> y;
    Mat3<Real> n;
    UnitJacobian() = default;  // a sweep's empty slot (DrgStage::linearise_sweep)
    GEOMINT_HD explicit UnitJacobian(const Vec3<Real>& p)
        : inv(Real(1) / norm(p)), y(inv * p), n(Mat3<Real>::identity(inv) - Mat3<Real>::outer(inv * y, y)) {}
};

// The node blocks of AVF's linearise at one node, from the unit points of the three paths that
// spin i's gradient reads (its own and, on chains, its neighbours'; the top's gradient reads its
// one spin three times: yl = y = yr): with y = p/|p|, N = dy/dp and a = grad H(y), f = N a
// (returned), K = df/dp + N H N (own block) and N H_{l,r} N_{l,r} (neighbour blocks) into k.
template <class System, class Real>
GEOMINT_HD Vec3<Real> avf_node_blocks(const System& system, const UnitJacobian<Real>& yl, const UnitJacobian<Real>& y,
                                      const UnitJacobian<Real>& yr, NeighbourJacobian<Real>& k) {
    using M3 = Mat3<Real>;
    const Vec3<Real> a = system.gradient(yl.y, y.y, yr.y);
    const NeighbourJacobian<Real> hess = system.gradient_jacobian(yl.y, y.y, yr.y);
    // f = N a; df/dp = -((y.a) N + y (a^T N) + f y^T)/|p|, then + N H N for a(y(p)).
    const Vec3<Real> f = y.n * a;
    const M3 dfdp = Real(-y.inv) * (dot(y.y, a) * y.n + M3::outer(y.y, row_times(a, y.n)) + M3::outer(f, y.y));
    const M3 h_self = System::is_chain ? hess.self : hess.left + hess.self + hess.right;
    k.self = dfdp + y.n * (h_self * y.n);
    if constexpr (System::is_chain) {
        k.left = y.n * (hess.left * yl.n);
        k.right = y.n * (hess.right * yr.n);
    }
    return f;
}

// AVF DRG (math §2.2): g_i = int_0^1 (T_{gam_i} phi_{c_i})^T dH/ds_i(phi_c(gam(xi))) dxi with
// 8-point Gauss-Legendre (enough for round-off energy error, math §2.2). Symmetric centres.
// JacobianRule: the quadrature of dg/dv in linearise (the residual g keeps the 8 nodes). The
// Jacobian is only Newton's direction: a rule of k nodes moves it by h times a quadrature error
// O(|eta|^{2k}) (eta = phi_c^{-1}(v) - phi_c^{-1}(u) = O(h)), which slows Newton from quadratic
// to linear with that factor but leaves the converged point, and so the energy, as it was
// (math §3.1). See AvfGradient below for the rule the schemes use and why.
template <class JacobianRule, bool reduce_on_top = true>
struct BasicAvfGradient {
    // The residual's Gauss nodes and weights in T when the residual is evaluated wider than Real
    // (the host's last residual of a solve, WiderResidual in local_newton.hpp), else in Real.
    template <class T, class Real>
    using NodeReal = std::conditional_t<std::is_floating_point_v<T> && (sizeof(T) > sizeof(Real)), T, Real>;
    template <class X>
    GEOMINT_HD static void residual_node(int q, X& xi, X& w) {
        using Rule = GaussLegendre<8>;
        if constexpr (sizeof(X) > sizeof(double)) {  // long double, named on the host only
            xi = Rule::wide_node(q);
            w = Rule::wide_weight(q);
        } else {
            xi = X(Rule::node(q));
            w = X(Rule::weight(q));
        }
    }

    template <class System, class T, class Real>
    GEOMINT_HD Vec3<T> operator()(const System& system, const Neighbourhood<T, Real>& n, const Vec3<T>& c) const {
        const Vec3<T> xu = inverse_retract(c, n.u), xv = inverse_retract(c, n.v);
        Vec3<T> cl = c, cr = c, xul = xu, xvl = xv, xur = xu, xvr = xv;
        if constexpr (System::is_chain) {
            cl = symmetric_centre(n.ul, n.vl);
            cr = symmetric_centre(n.ur, n.vr);
            xul = inverse_retract(cl, n.ul);
            xvl = inverse_retract(cl, n.vl);
            xur = inverse_retract(cr, n.ur);
            xvr = inverse_retract(cr, n.vr);
        }
        Vec3<T> g{T(0), T(0), T(0)};
        using X = NodeReal<T, Real>;
        for (int q = 0; q < GaussLegendre<8>::size; ++q) {
            X xi, w;
            residual_node(q, xi, w);
            const Vec3<T> gam = (X(1) - xi) * xu + xi * xv;
            const Vec3<T> y = retract(c, gam);
            Vec3<T> yl = y, yr = y;
            if constexpr (System::is_chain) {
                yl = retract(cl, (X(1) - xi) * xul + xi * xvl);
                yr = retract(cr, (X(1) - xi) * xur + xi * xvr);
            }
            g += w * tangent_retract(c, gam, system.gradient(yl, y, yr));
        }
        return g;
    }

    // One spin's path at the residual's nodes: the spin's v and centre c, and at each node
    // y = phi_c(gam(xi)) and |p| = |c + gam(xi)|, formed as operator() forms its own path and its
    // neighbours'. DrgStage::residual_sweep (host) forms each spin's once for the rows that read
    // it, where operator() forms it in three rows on a chain, and the own path's |p| twice in each
    // (retract and tangent_retract). path_sum is then operator()'s sum, term for term, so the rows
    // are operator()'s bit for bit.
    template <class T>
    struct Path {
        int spin = -1;
        Vec3<T> v, c, y[GaussLegendre<8>::size];
        T length[GaussLegendre<8>::size];
    };
    template <class Real, class T>
    static void trace(Path<T>& path, int spin, const Vec3<Real>& u, const Vec3<T>& v) {
        using X = NodeReal<T, Real>;
        path.spin = spin;
        path.v = v;
        path.c = symmetric_centre(u, v);
        const Vec3<T> xu = inverse_retract(path.c, u), xv = inverse_retract(path.c, v);
        for (int q = 0; q < GaussLegendre<8>::size; ++q) {
            X xi, w;
            residual_node(q, xi, w);
            const Vec3<T> p = path.c + ((X(1) - xi) * xu + xi * xv);  // retract's arithmetic, keeping |p|
            path.length[q] = norm(p);
            path.y[q] = p / path.length[q];
        }
    }
    template <class Real, class System, class T>
    static Vec3<T> path_sum(const System& system, const Path<T>& left, const Path<T>& own, const Path<T>& right) {
        using X = NodeReal<T, Real>;
        Vec3<T> g{T(0), T(0), T(0)};
        for (int q = 0; q < GaussLegendre<8>::size; ++q) {
            X xi, w;
            residual_node(q, xi, w);
            g += w * tangent_retract_at(own.y[q], own.length[q], system.gradient(left.y[q], own.y[q], right.y[q]));
        }
        return g;
    }

    // Whether linearise takes the exact 8-node Jacobian, fused with the residual's nodes
    // (reduce_on_top = false keeps the top, d = 1, on it).
    template <class System>
    static constexpr bool exact_for() {
        return JacobianRule::size == GaussLegendre<8>::size || (!System::is_chain && !reduce_on_top);
    }

    // g and its total derivatives in v_{i-1}, v_i, v_{i+1} (dc = dc/dv_i), for the analytic
    // Jacobian of DrgStage. Per node, with p = c + gam, y = p/|p|, N = dy/dp and a = grad H(y):
    // tangent_retract is f(p, a) = N a, so df = (df/dp) dp + N H dy, and dp/dv_i =
    // dc + (1 - xi) dxu + xi dxv with x = phi_c^{-1} differentiated in c and in v. The
    // neighbours enter only through their own y (and the top's three gradient arguments are y).
    // The three paths are traced here (trace_linearise) and summed by path_linearise; the
    // host's linearise sweep (DrgStage::linearise_sweep) traces each spin's once for the three
    // rows that read it, with the same arithmetic, so its rows are these bit for bit.
    // Host code: the GPU runs the quasi-Newton of DrgJacobian::midpoint_hessian (drg.hpp).
    template <class System, class Real>
    requires HasGradientJacobian<System, Real> GEOMINT_HD Vec3<Real> linearise(const System& system,
                                                                               const Neighbourhood<Real, Real>& n,
                                                                               const Vec3<Real>& c,
                                                                               const Mat3<Real>& dc,
                                                                               NeighbourJacobian<Real>& dg)
    const { return linearise_by_paths(*this, system, n, c, dc, dg); }

    // What linearise reads of one spin's path, as trace_linearise forms it: the centre c, with dc
    // = dc/dv, and the path's dp/dv; at the residual's 8 nodes y = p/|p| and 1/|p| (unless the
    // Jacobian's nodes are the residual's, exact_for); at the Jacobian's nodes y and N = dy/dp.
    template <class System, class Real>
    struct LinearisePath {
        static constexpr bool exact = exact_for<System>();
        static constexpr int residual_nodes = exact ? 0 : GaussLegendre<8>::size;
        static constexpr int jacobian_nodes = exact ? GaussLegendre<8>::size : JacobianRule::size;
        int spin = -1;
        PathJacobian<Real> path;
        Vec3<Real> y[residual_nodes > 0 ? residual_nodes : 1];
        Real inv[residual_nodes > 0 ? residual_nodes : 1];
        UnitJacobian<Real> unit[jacobian_nodes];
        GEOMINT_HD const Vec3<Real>& centre() const { return path.c; }
        GEOMINT_HD const Mat3<Real>& centre_jacobian() const { return path.dc; }
    };
    template <class System, class Real>
    GEOMINT_HD static void trace_linearise(LinearisePath<System, Real>& out, int spin, const Vec3<Real>& c,
                                           const Mat3<Real>& dc, const Vec3<Real>& u, const Vec3<Real>& v) {
        using Path = LinearisePath<System, Real>;
        using Rule = std::conditional_t<Path::exact, GaussLegendre<8>, JacobianRule>;
        out.spin = spin;
        out.path = PathJacobian<Real>(c, dc, u, v);
        for (int q = 0; q < Path::residual_nodes; ++q) {
            const Vec3<Real> p = out.path.point(Real(GaussLegendre<8>::node(q)));
            out.inv[q] = Real(1) / norm(p);
            out.y[q] = out.inv[q] * p;
        }
        for (int q = 0; q < Path::jacobian_nodes; ++q)
            out.unit[q] = UnitJacobian<Real>(out.path.point(Real(Rule::node(q))));
    }

    // linearise's sums from the three paths (the top passes its own three times).
    template <class System, class Real>
    GEOMINT_HD Vec3<Real> path_linearise(const System& system, const LinearisePath<System, Real>& left,
                                         const LinearisePath<System, Real>& own,
                                         const LinearisePath<System, Real>& right, NeighbourJacobian<Real>& dg) const {
        using M3 = Mat3<Real>;
        using Path = LinearisePath<System, Real>;
        // dp/dv = P0 + xi P1 is affine in xi, so sum_q w_q K_q dp_q/dv = K0 P0 + K1 P1 with
        // K0 = sum w_q K_q, K1 = sum w_q xi_q K_q: one matrix product per block after the loop
        // instead of one per node.
        M3 s0 = M3::zero(), s1 = M3::zero(), l0 = M3::zero(), l1 = M3::zero(), r0 = M3::zero(), r1 = M3::zero();
        const auto add_node = [&](Real w, Real xi, const NeighbourJacobian<Real>& k) {
            s0 += w * k.self;
            s1 += (w * xi) * k.self;
            if constexpr (System::is_chain) {
                l0 += w * k.left;
                l1 += (w * xi) * k.left;
                r0 += w * k.right;
                r1 += (w * xi) * k.right;
            }
        };
        Vec3<Real> g{Real(0), Real(0), Real(0)};
        if constexpr (Path::exact) {
            // The residual's nodes are the Jacobian's: g is the sum of the nodes' f.
            using Rule = GaussLegendre<8>;
            for (int q = 0; q < Rule::size; ++q) {
                const Real xi = Real(Rule::node(q)), w = Real(Rule::weight(q));
                NeighbourJacobian<Real> k;
                g += w * avf_node_blocks(system, left.unit[q], own.unit[q], right.unit[q], k);
                add_node(w, xi, k);
            }
        } else {
            // g is the residual's 8-node sum (operator() on the paths already formed: f = N a =
            // (a - y (y.a))/|p|); the same node algebra (avf_node_blocks) on JacobianRule's
            // nodes gives the derivatives.
            using Rule = GaussLegendre<8>;
            for (int q = 0; q < Rule::size; ++q) {
                const Real w = Real(Rule::weight(q));
                const Vec3<Real>& y = own.y[q];
                const Vec3<Real> a = system.gradient(left.y[q], y, right.y[q]);
                g += (w * own.inv[q]) * (a - y * dot(y, a));
            }
            for (int q = 0; q < JacobianRule::size; ++q) {
                const Real xi = Real(JacobianRule::node(q)), w = Real(JacobianRule::weight(q));
                NeighbourJacobian<Real> k;
                avf_node_blocks(system, left.unit[q], own.unit[q], right.unit[q], k);
                add_node(w, xi, k);
            }
        }
        dg.self = s0 * own.path.constant() + s1 * own.path.slope();
        if constexpr (System::is_chain) {
            dg.left = l0 * left.path.constant() + l1 * left.path.slope();
            dg.right = r0 * right.path.constant() + r1 * right.path.slope();
        } else {
            dg.left = dg.right = M3::zero();
        }
        return g;
    }
};

// The Jacobian quadrature exact to round-off, like the residual's: the test oracle's match.
using ExactAvfGradient = BasicAvfGradient<GaussLegendre<8>>;
// What the AVF scheme runs: on chains (host) the Newton Jacobian from 3 nodes, on the top and on
// the device the exact 8. Measured (bench/RESULTS.md, "AVF's Newton Jacobian from fewer Gauss
// nodes" and "AVF's chain Jacobian from 3 Gauss nodes", one thread, same run): on chains of
// d = 16 and 128, 4 nodes took the same Newton iterations per step as 8 at h = 0.05 and 0.2 and
// 12-15% less CPU time per step; 3 nodes the same iterations as 4 at h = 0.05 and 0.2 (one more
// linear solve in 6755 at h = 0.2 on the anisotropic chain of 128 spins, fewer at h = 0.5) and
// 3-4% less time again, 6% fewer instructions (2 nodes: the chains took more iterations, 4.55
// against 4 at d = 128, h = 0.05, and 6 against 5 at h = 0.2). On the top, fewer nodes saved
// nothing (the separate 8-node residual loop costs what the skipped Jacobian nodes save; the
// chain's Jacobian node has three Hessian blocks to carry, the top's one), and 3 nodes took more
// iterations there at h = 0.2 (4.07 against 4.03 a step), so the top keeps 8.
using AvfGradient = BasicAvfGradient<GaussLegendre<3>, false>;

// The symmetric centres c_k = (u_k + v_k)/|u_k + v_k| of spins i-1, i and i+1, with |u_k + v_k|,
// for a loop over the rows i in turn (the Gonzalez midpoint's lambda sums on the host): moving
// from row i to i + 1 forms one new centre and keeps two, where each row formed its three (a
// square root and three divisions each: 1% of mp's instructions on chains, but slow ones; with
// the window mp's chains ran 1.07-1.08x faster, bench/RESULTS.md, "... the Gonzalez midpoint's
// lambda sums form each centre once"). The values are symmetric_centre's bit for bit. Without
// neighbours (the top: chain false) all three are the own centre.
template <class Acc, class Real, bool chain>
class CentreWindow {
public:
    struct Slot {
        Vec3<Acc> c;
        Acc length;
    };
    GEOMINT_HD CentreWindow(StridedSpins<Real> u, StridedSpins<Real> v) : u_(u), v_(v) {}

    GEOMINT_HD Slot slot_of(int k) const {
        const Vec3<Acc> m = vec3_cast<Acc>(u_.get(k)) + vec3_cast<Acc>(v_.get(k));
        const Acc length = norm(m);
        return Slot{m / length, length};
    }
    // Rows may come in any order (a team's workers take partitions): a row that does not follow
    // the last one forms all three. One that does has i - 1 and i held as the last row's own and
    // right centres, whatever d (wrap() makes the same neighbours for d = 1 and 2).
    GEOMINT_HD void move_to(int i) {
        if constexpr (!chain) {
            own_ = left_ = right_ = slot_of(i);
            return;
        }
        if (i == next_) {
            left_ = own_;
            own_ = right_;
        } else {
            left_ = slot_of(u_.wrap(i - 1));
            own_ = slot_of(i);
        }
        right_ = slot_of(u_.wrap(i + 1));
        next_ = i + 1;
    }
    GEOMINT_HD const Slot& own() const { return own_; }
    GEOMINT_HD const Slot& left() const { return left_; }
    GEOMINT_HD const Slot& right() const { return right_; }

private:
    StridedSpins<Real> u_, v_;
    Slot left_{}, own_{}, right_{};
    int next_ = -1;  // the row that moving on from the window held would reach
};

// What MidpointGradient::prepare keeps of each spin when the caller asks nothing (the device).
struct KeepNothing {
    template <class T>
    GEOMINT_HD void operator()(int, const Vec3<T>&, const Vec3<T>&, const Vec3<T>&) const {}
};

// Gonzalez midpoint DRG (math §2.2): g = P_c gradH(c) + lambda eta with the one global scalar
// lambda = (H(v) - H(u) - P gradH(c) . eta)/|eta|^2. The residual reads lambda as a constant that
// prepare() refreshes from each iterate; on the host, Newton adds lambda's dependence on v as a
// rank-one term (lambda_gradient below, DrgStage::coupling), while the GPU and a team run the
// simplified Newton in lambda, which contracts linearly, by O(h^2) per iteration (math §3).
template <class Real>
struct MidpointGradient {
    Real lambda = Real(0);

    template <class System, class T>
    GEOMINT_HD Vec3<T> operator()(const System& system, const Neighbourhood<T, Real>& n, const Vec3<T>& c) const {
        Vec3<T> cl = c, cr = c;
        if constexpr (System::is_chain) {
            cl = symmetric_centre(n.ul, n.vl);
            cr = symmetric_centre(n.ur, n.vr);
        }
        const Vec3<T> grad = system.gradient(cl, c, cr);
        const Vec3<T> eta = inverse_retract(c, n.v) - inverse_retract(c, n.u);
        return grad - c * dot(c, grad) + lambda * eta;
    }

    // g and its total derivatives (see AvfGradient::linearise); lambda is a constant here, as in
    // the dual-number residual. d(P_c grad) = P_c dgrad - ((c.grad) I + c grad^T) dc and
    // d eta/dv = d phi_c^{-1}(v)/dv + (d phi_c^{-1}(v)/dc - d phi_c^{-1}(u)/dc) dc.
    // The spins' centres are traced here (trace_linearise) and summed by path_linearise, as the
    // host's linearise sweep (DrgStage::linearise_sweep) does once per spin for three rows.
    template <class System>
    requires HasGradientJacobian<System, Real> GEOMINT_HD Vec3<Real> linearise(const System& system,
                                                                               const Neighbourhood<Real, Real>& n,
                                                                               const Vec3<Real>& c,
                                                                               const Mat3<Real>& dc,
                                                                               NeighbourJacobian<Real>& dg)
    const { return linearise_by_paths(*this, system, n, c, dc, dg); }

    // What linearise reads of one spin (trace_linearise copies it in): u, v, the centre c, dc/dv.
    template <class System, class R>
    struct LinearisePath {
        int spin = -1;
        Vec3<R> u, v, c;
        Mat3<R> dc;
        GEOMINT_HD const Vec3<R>& centre() const { return c; }
        GEOMINT_HD const Mat3<R>& centre_jacobian() const { return dc; }
    };
    template <class System>
    GEOMINT_HD static void trace_linearise(LinearisePath<System, Real>& out, int spin, const Vec3<Real>& c,
                                           const Mat3<Real>& dc, const Vec3<Real>& u, const Vec3<Real>& v) {
        out.spin = spin;
        out.u = u;
        out.v = v;
        out.c = c;
        out.dc = dc;
    }

    // linearise's terms from the three spins' centres (the top passes its own three times).
    template <class System>
    GEOMINT_HD Vec3<Real> path_linearise(const System& system, const LinearisePath<System, Real>& left,
                                         const LinearisePath<System, Real>& own,
                                         const LinearisePath<System, Real>& right, NeighbourJacobian<Real>& dg) const {
        using M3 = Mat3<Real>;
        const Vec3<Real>& c = own.c;
        const Mat3<Real>& dc = own.dc;
        const Vec3<Real> cl = System::is_chain ? left.c : c, cr = System::is_chain ? right.c : c;
        const Vec3<Real> grad = system.gradient(cl, c, cr);
        const NeighbourJacobian<Real> hess = system.gradient_jacobian(cl, c, cr);
        const Vec3<Real> eta = inverse_retract(c, own.v) - inverse_retract(c, own.u);
        const Real cg = dot(c, grad);
        const M3 projector = M3::identity() - M3::outer(c, c);
        const M3 deta =
            inverse_retract_du(c, own.v) + (inverse_retract_dc(c, own.v) - inverse_retract_dc(c, own.u)) * dc;
        const M3 h_self = System::is_chain ? hess.self : hess.left + hess.self + hess.right;
        dg.self = (projector * h_self - M3::identity(cg) - M3::outer(c, grad)) * dc + lambda * deta;
        if constexpr (System::is_chain) {
            dg.left = projector * hess.left * left.dc;
            dg.right = projector * hess.right * right.dc;
        } else {
            dg.left = dg.right = M3::zero();
        }
        return grad - c * cg + lambda * eta;
    }

    // One spin's part of the gradient, as AVF's Path (DrgStage::residual_sweep, host): its v, its
    // symmetric centre c and eta, formed once for the three rows that read them, where operator()
    // forms the neighbours' centres in every row and residual() the own centre again. path_sum
    // is operator()'s arithmetic term for term, so the rows are its rows bit for bit.
    template <class T>
    struct Path {
        int spin = -1;
        Vec3<T> v, c, eta;
    };
    template <class R, class T>
    static void trace(Path<T>& path, int spin, const Vec3<R>& u, const Vec3<T>& v) {
        path.spin = spin;
        path.v = v;
        path.c = symmetric_centre(u, v);
        path.eta = inverse_retract(path.c, v) - inverse_retract(path.c, u);
    }
    template <class R, class System, class T>
    Vec3<T> path_sum(const System& system, const Path<T>& left, const Path<T>& own, const Path<T>& right) const {
        const Vec3<T> grad = system.gradient(left.c, own.c, right.c);
        return kept_sum(grad - own.c * dot(own.c, grad), own.eta);
    }
    // g = p + lambda eta from p = P_c grad H(c) and eta: path_sum's last terms, and all of a row
    // finished from what prepare() kept (DrgStage::prepared_residual_sweep).
    template <class T>
    Vec3<T> kept_sum(const Vec3<T>& projected, const Vec3<T>& eta) const {
        return projected + lambda * eta;
    }

    // keep(i, c, eta, p) (host only; the device passes none) receives spin i's centre c, eta and
    // p = P_c grad H(c) as the sums form them: residual row i is residual_from with g = p + lambda
    // eta (path_sum's arithmetic), so that the rows of the same iterate need not form them again
    // (DrgStage::prepared_residual_sweep).
    template <class System, class Team = SequentialTeam, class Keep = KeepNothing>
    GEOMINT_HD void prepare(const System& system, StridedSpins<Real> u, StridedSpins<Real> v, const Team& team = Team{},
                            const Keep& keep = Keep{}) {
        // H(v) - H(u) as a sum of O(|v - u|) terms (the Itoh-Abe walk through the system's exact
        // site discrete gradients), not as a difference of two O(d) sums: the round-off of the
        // latter does not cancel from step to step and drifts the energy.
        // The iterate v is off the sphere (near convergence by rounding: |v_i| - 1 a fraction of
        // an ulp), and H(v) counts that radial offset with weight v_i . dH/ds_i = O(1), while
        // lambda |eta|^2 is O(|eta|^3): the radial offset of one iterate moved lambda, and through
        // it the energy of the next iterate, by about as much, and the point Newton settled on
        // leaned to one side (a drift of 2e-19 a step on the top, math §2.6). The next iterate
        // lands on the sphere, so lambda is taken for v_i/|v_i|: H(v/|v|) = H(v) -
        // sum_i (v_i . dH/ds_i) (|v_i| - 1) to first order, with |v_i| - 1 = (v_i . v_i - 1)/2
        // from length_defect (plain v_i . v_i leans, math §2.6). It vanishes at the solution,
        // where |v_i| = 1, so the step map is unchanged in exact arithmetic.
        // The four sums (dh, radial, projected, eta2) are site sums: a parallel team splits them.
        Real sum[4] = {Real(0), Real(0), Real(0), Real(0)};
        const int d = u.d;
#if !defined(__CUDA_ARCH__)
        CentreWindow<Real, Real, System::is_chain> centres{u, v};
#endif
        team_reduce(
            team, d, sum,
            [&](int i, Real(&acc)[4]) {
                const int il = u.wrap(i - 1), ir = u.wrap(i + 1);
                const Vec3<Real> left = i > 0 ? v.get(il) : u.get(il);
                const Vec3<Real> right = i < d - 1 ? u.get(ir) : v.get(ir);
                acc[0] += dot(system.site_discrete_gradient(left, u.get(i), v.get(i), right), v.get(i) - u.get(i));
                acc[1] += dot(v.get(i), system.gradient(v.get(il), v.get(i), v.get(ir))) * length_defect(v.get(i));
#if defined(__CUDA_ARCH__)
                // Each row forms its three centres: holding the window from row to row took mp's
                // chain kernels up to 10 registers more (ptxas, sm_90).
                const Vec3<Real> c = symmetric_centre(u.get(i), v.get(i));
                const Vec3<Real> grad =
                    system.gradient(symmetric_centre(u.get(il), v.get(il)), c, symmetric_centre(u.get(ir), v.get(ir)));
#else
                centres.move_to(i);
                const Vec3<Real> c = centres.own().c;
                const Vec3<Real> grad = system.gradient(centres.left().c, c, centres.right().c);
#endif
                const Vec3<Real> eta = inverse_retract(c, v.get(i)) - inverse_retract(c, u.get(i));
                const Vec3<Real> projected = grad - c * dot(c, grad);
#if !defined(__CUDA_ARCH__)
                keep(i, c, eta, projected);
#endif
                acc[2] += dot(projected, eta);
                acc[3] += dot(eta, eta);
            },
            AddParts{});
        const Real dh = sum[0], radial = sum[1], projected = sum[2], eta2 = sum[3];
        // g = P gradH(c) when eta -> 0; below the threshold the quotient is round-off noise and
        // dropping it costs O(|eta|^3) in the energy.
        const Real small = small_increment<Real>();
        lambda = eta2 > small * small ? ((dh - Real(0.5) * radial) - projected) / eta2 : Real(0);
    }

    // prepare()'s sums in Acc, from the spins widened to it (sequential), lambda rounded to Real
    // at the end: the host's last residual of a solve (WiderResidual, local_newton.hpp; math
    // §2.6). A separate function, so that the device's prepare() is the one above, unchanged.
    // keep as for prepare(), in Acc.
    template <class Acc, class System, class Keep = KeepNothing>
    GEOMINT_HD void prepare_wide(const System& system, StridedSpins<Real> u, StridedSpins<Real> v,
                                 const Keep& keep = Keep{}) {
        const auto at = [](StridedSpins<Real> s, int k) { return vec3_cast<Acc>(s.get(k)); };
        Acc dh = Acc(0), radial = Acc(0), projected = Acc(0), eta2 = Acc(0);
        const int d = u.d;
        CentreWindow<Acc, Real, System::is_chain> centres{u, v};
        for (int i = 0; i < d; ++i) {
            const int il = u.wrap(i - 1), ir = u.wrap(i + 1);
            const Vec3<Acc> ui = at(u, i), vi = at(v, i);
            const Vec3<Acc> left = i > 0 ? at(v, il) : at(u, il);
            const Vec3<Acc> right = i < d - 1 ? at(u, ir) : at(v, ir);
            dh += dot(system.site_discrete_gradient(left, ui, vi, right), vi - ui);
            // v.v - 1 plainly: in Acc its rounding is far below double's ulp, and length_defect's
            // std::fma on long double is glibc's software fmal, which doubled mp's step time.
            radial += dot(vi, system.gradient(at(v, il), vi, at(v, ir))) * (dot(vi, vi) - Acc(1));
            centres.move_to(i);
            const Vec3<Acc> c = centres.own().c;
            const Vec3<Acc> grad = system.gradient(centres.left().c, c, centres.right().c);
            const Vec3<Acc> eta = inverse_retract(c, vi) - inverse_retract(c, ui);
            const Vec3<Acc> p = grad - c * dot(c, grad);
            keep(i, c, eta, p);
            projected += dot(p, eta);
            eta2 += dot(eta, eta);
        }
        const Acc small = small_increment<Real>();
        lambda = eta2 > small * small ? Real(((dh - Acc(0.5) * radial) - projected) / eta2) : Real(0);
    }

    // d lambda/dv into b (3 d reals), lambda as prepare(system, u, v) last set it, for the Newton
    // that keeps lambda's dependence on v (DrgStage::coupling, math §3). lambda = N/E with
    // N = dh - radial/2 - projected and E = eta2, so grad lambda = (grad N - lambda grad E)/E; each
    // site's four terms are differentiated in the spins they read (the site's own and its
    // neighbours', added into their slots, which also covers d = 1 and 2). projected is
    // differentiated as grad(c).eta: c.eta = 0 for any v (eta = v/(c.v) - u/(c.u)), so the
    // projection's term and its derivative vanish. The derivative matrices of the sphere
    // geometry (mat3.hpp) are applied to row vectors in their rank-one form, never formed.
    // per_spin(i, c, g, eta) receives spin i's centre, gradient g and eta on the way (the stage
    // map's dR_i/dlambda is made of them). Returns false, b untouched, when prepare held lambda
    // at 0 (E below its threshold, as at an iterate v = u): then it does not depend on v.
    template <class System, class PerSpin>
    requires HasGradientJacobian<System, Real> && HasSiteDiscreteGradientJacobian<System, Real> GEOMINT_HD bool
    lambda_gradient(const System& system, StridedSpins<Real> u, StridedSpins<Real> v, StridedReals<Real> b,
                    const PerSpin& per_spin) const {
        // prepare() sets lambda to exactly 0 where it holds it (and a lambda that is 0 by chance
        // only costs this iterate the simplified step).
        if (lambda == Real(0)) return false;
        const int d = u.d;
        Real eta2 = Real(0);  // prepare's sum[3], in its order
        const StridedSpins<Real> grad = b.spins(d);
        for (int i = 0; i < d; ++i) grad.set(i, Vec3<Real>{Real(0), Real(0), Real(0)});
        const auto add = [&](int k, const Vec3<Real>& g) { grad.set(k, grad.get(k) + g); };
        // t^T dc/dv_k with dc/dv_k = (I - c c^T)/|u_k + v_k|, the symmetric centre's Jacobian.
        using Slot = typename CentreWindow<Real, Real, System::is_chain>::Slot;
        const auto through_centre = [](const Slot& spin, const Vec3<Real>& t) {
            return (t - spin.c * dot(t, spin.c)) / spin.length;
        };
        CentreWindow<Real, Real, System::is_chain> centres{u, v};
        // A neighbour's block; the top's gradient reads one spin, passed three times (its blocks,
        // like the Hessian of linearise, are summed into the own one).
        const auto own_block = [](const NeighbourJacobian<Real>& j) {
            return System::is_chain ? j.self : j.left + j.self + j.right;
        };
        for (int i = 0; i < d; ++i) {
            const int il = u.wrap(i - 1), ir = u.wrap(i + 1);
            const Vec3<Real> ui = u.get(i), vi = v.get(i), vl = v.get(il), vr = v.get(ir);
            // dh: gbar(left, u_i, v_i, right) . (v_i - u_i), left and right as prepare reads them.
            const Vec3<Real> left = i > 0 ? vl : u.get(il), right = i < d - 1 ? u.get(ir) : vr;
            const Vec3<Real> step = vi - ui;
            const SiteDiscreteGradientJacobian<Real> dgbar =
                system.site_discrete_gradient_jacobian(left, ui, vi, right);
            Vec3<Real> own = system.site_discrete_gradient(left, ui, vi, right) + row_times(step, dgbar.end);
            if (i > 0) add(il, row_times(step, dgbar.left));
            if (i == d - 1) add(ir, row_times(step, dgbar.right));
            // radial: (v_i . grad H(v)) (v_i . v_i - 1), with weight -1/2.
            const Vec3<Real> gv = system.gradient(vl, vi, vr);
            const NeighbourJacobian<Real> hv = system.gradient_jacobian(vl, vi, vr);
            const Real defect = length_defect(vi), along = dot(vi, gv);
            own -= Real(0.5) * (defect * (gv + row_times(vi, own_block(hv))) + (Real(2) * along) * vi);
            if constexpr (System::is_chain) {
                add(il, (Real(-0.5) * defect) * row_times(vi, hv.left));
                add(ir, (Real(-0.5) * defect) * row_times(vi, hv.right));
            }
            // projected, grad H(c) . eta, with weight -1, and E = |eta|^2 with weight -lambda:
            // w^T d eta/dv_i for w = grad H(c) + 2 lambda eta, with d phi_c^{-1}(v)/dv =
            // (I - v c^T/(c.v))/(c.v) and d phi_c^{-1}(v)/dc = -I - v v^T/(c.v)^2 (mat3.hpp).
            centres.move_to(i);
            const Vec3<Real> cl = centres.left().c, cr = centres.right().c;
            const Vec3<Real> c = centres.own().c;
            const Vec3<Real> gc = system.gradient(cl, c, cr);
            const NeighbourJacobian<Real> hc = system.gradient_jacobian(cl, c, cr);
            const Real cv = Real(1) / dot(c, vi), cu = Real(1) / dot(c, ui);
            const Vec3<Real> eta = inverse_retract(c, vi) - inverse_retract(c, ui);
            eta2 += dot(eta, eta);
            const Vec3<Real> w = gc + (Real(2) * lambda) * eta;
            const Real wv = dot(w, vi) * cv * cv, wu = dot(w, ui) * cu * cu;
            own -= cv * w - wv * c;  // w^T d phi_c^{-1}(v)/dv
            add(i, Real(-1) * through_centre(centres.own(), row_times(eta, own_block(hc)) - wv * vi + wu * ui));
            if constexpr (System::is_chain) {
                add(il, Real(-1) * through_centre(centres.left(), row_times(eta, hc.left)));
                add(ir, Real(-1) * through_centre(centres.right(), row_times(eta, hc.right)));
            }
            add(i, own);
            per_spin(i, c, gc - c * dot(c, gc) + lambda * eta, eta);
        }
        const Real inverse = Real(1) / eta2;
        for (int i = 0; i < d; ++i) grad.set(i, inverse * grad.get(i));
        return true;
    }
};

// Local midpoint DRG for chains (math §2.2, the paper's MMP idea): g_i = mu_i gbar_i with
// mu_i = |u_i + v_i|/2 and gbar the system's exact Euclidean midpoint gradient; since
// eta_i = (v_i - u_i)/mu_i for the symmetric centre, g_i . eta_i = gbar_i . (v_i - u_i).
// For a single spin (d = 1) the site discrete gradient is that gbar, so the type also compiles
// for the top (host dispatch still offers "mmp" for chains only, INTERFACE.md).
struct LocalMidpointGradient {
    template <class System, class T, class Real>
    GEOMINT_HD Vec3<T> operator()(const System& system, const Neighbourhood<T, Real>& n, const Vec3<T>&) const {
        const Vec3<T> ul = vec3_cast<T>(n.ul), u = vec3_cast<T>(n.u), ur = vec3_cast<T>(n.ur);
        const T mu = Real(0.5) * norm(u + n.v);
        if constexpr (System::is_chain) {
            return mu * system.midpoint_drg(ul, n.vl, u, n.v, ur, n.vr);
        } else {
            return mu * system.site_discrete_gradient(u, u, n.v, u);
        }
    }

    // g = mu gbar: dg/dv_i = gbar (d mu/dv_i)^T + mu d gbar/dv_i, d mu/dv_i = (u + v)^T/(2 |u + v|);
    // the neighbours enter through gbar only. Chains (mmp runs on chains only). g does not go
    // through the centre, so this takes neither c nor dc/dv_i (DrgStage::linearise_into).
    template <class System, class Real>
    requires(System::is_chain&& HasMidpointDrgJacobian<System, Real>) GEOMINT_HD Vec3<Real> linearise(
        const System& system, const Neighbourhood<Real, Real>& n, NeighbourJacobian<Real>& dg)
    const {
        const Vec3<Real> sum = n.u + n.v;
        const Real length = norm(sum);
        const Real mu = Real(0.5) * length;
        const Vec3<Real> gbar = system.midpoint_drg(n.ul, n.vl, n.u, n.v, n.ur, n.vr);
        const NeighbourJacobian<Real> j = system.midpoint_drg_jacobian(n.ul, n.vl, n.u, n.v, n.ur, n.vr);
        dg.self = Mat3<Real>::outer(gbar, (Real(0.5) / length) * sum) + mu * j.self;
        dg.left = mu * j.left;
        dg.right = mu * j.right;
        return mu * gbar;
    }
};

namespace detail {

// One coordinate increment of the Itoh-Abe walk along e, from phi_c(x) to phi_c(x + t e) with
// p = c + x: the quotient (s(t) - s(0))/t written without cancellation,
//   E/n_t - p (2 e.p + t)/(n_t n_0 (n_0 + n_t)),  n_t = |p + t e|,
// so a_j = gbar . quotient is accurate for any t and equals the directional derivative at t = 0
// (math §2.2 asks for a tolerance at alpha = 0; this form needs none).
// n0 = |p| and nt = |p + t e| come from the walk, which has formed both points and their lengths.
template <class T>
GEOMINT_HD Vec3<T> ia_chord(const Vec3<T>& p, const T& n0, const T& t, const Vec3<T>& e, const T& nt) {
    using R = real_of_t<T>;
    return e / nt - p * ((R(2) * dot(e, p) + t) / (nt * n0 * (n0 + nt)));
}

}  // namespace detail

// Itoh-Abe DRG (math §2.2) for spin i, walking from `from` to `to`: the spins are moved one at a
// time in index order, each along E_1 then E_2 of its tangent plane at c_i. So when spin i moves,
// spin i-1 is already at `to` (spin d-1 when i = 0 is not yet) and spin i+1 is still at `from`
// (spin 0 when i = d-1 has moved): local, math §3. `side` picks the basis branch.
// a_j = (H(w_j) - H(w_{j-1}))/alpha_j = gbar(w_{j-1}, w_j) . (w_j - w_{j-1})/alpha_j, with the
// system's exact site discrete gradient gbar and the chord quotient above.
template <class System, class T, class Real>
GEOMINT_HD Vec3<T> itoh_abe(const System& system, int i, int d, const Vec3<T>& c, Real side, const Vec3<T>& from_l,
                            const Vec3<T>& from, const Vec3<T>& from_r, const Vec3<T>& to_l, const Vec3<T>& to,
                            const Vec3<T>& to_r) {
    const Vec3<T> left = i > 0 ? to_l : from_l;
    const Vec3<T> right = i < d - 1 ? from_r : to_r;
    Vec3<T> e1, e2;
    tangent_basis(c, side, e1, e2);
    const Vec3<T> x0 = inverse_retract(c, from);
    const Vec3<T> eta = inverse_retract(c, to) - x0;
    const T a1 = dot(e1, eta), a2 = dot(e2, eta);
    const Vec3<T> p0 = c + x0;
    const Vec3<T> p1 = p0 + a1 * e1;
    const Vec3<T> p2 = p1 + a2 * e2;
    const T n0 = norm(p0), n1 = norm(p1), n2 = norm(p2);
    const Vec3<T> w0 = p0 / n0, w1 = p1 / n1, w2 = p2 / n2;
    const T g1 = dot(system.site_discrete_gradient(left, w0, w1, right), detail::ia_chord(p0, n0, a1, e1, n1));
    const T g2 = dot(system.site_discrete_gradient(left, w1, w2, right), detail::ia_chord(p1, n1, a2, e2, n2));
    return g1 * e1 + g2 * e2;
}

namespace detail {

// ia_chord q(p, t, e) with its derivatives pulled back through gbar, for the analytic Itoh-Abe
// Jacobian: the walk needs only g = gbar . q, so gbar^T dq/dp and gbar^T dq/de are rows and
// gbar . dq/dt a scalar (three vectors, not two 3 x 3 matrices). With s = p + t e, n_t = |s|,
// n_0 = |p|, k = 2 e.p + t, D = n_t n_0 (n_0 + n_t): q = e/n_t - p k/D, and
// dD = n_0 (n_0 + 2 n_t) dn_t + n_t (2 n_0 + n_t) dn_0.
template <class Real>
struct ChordPullback {
    Vec3<Real> q;
    Vec3<Real> dp, de;  // gbar^T dq/dp, gbar^T dq/de
    Real dt;            // gbar . dq/dt
};
template <class Real>
GEOMINT_HD ChordPullback<Real> ia_chord_pullback(const Vec3<Real>& p, Real n0, Real t, const Vec3<Real>& e, Real nt,
                                                 const Vec3<Real>& gbar) {
    const Vec3<Real> sum = p + t * e;
    const Real k = Real(2) * dot(e, p) + t;
    const Real big = nt * n0 * (n0 + nt);
    const Real inv_nt = Real(1) / nt, inv_d = Real(1) / big;
    const Real kd = k * inv_d, kdd = kd * inv_d;
    const Real at = n0 * (n0 + Real(2) * nt), a0 = nt * (Real(2) * n0 + nt);
    // Gradients of n_t in p, t, e and of n_0 in p.
    const Vec3<Real> nt_p = inv_nt * sum, nt_e = (t * inv_nt) * sum, n0_p = p / n0;
    const Real nt_t = inv_nt * dot(sum, e);
    // gbar . e / n_t^2 and gbar . p: each rank-one term (a b^T) of dq pulls back to (gbar . a) b.
    const Real ge = dot(gbar, e) * (inv_nt * inv_nt), gp = dot(gbar, p);
    const Real gpd = inv_d * gp, gpdd = kdd * gp;
    ChordPullback<Real> j;
    j.q = inv_nt * e - kd * p;
    // dq/dp = -(e/n_t^2) nt_p^T - (k/D) I - (p/D) 2 e^T + (k/D^2) p (at nt_p + a0 n0_p)^T
    j.dp = gpdd * (at * nt_p + a0 * n0_p) - ge * nt_p - kd * gbar - (Real(2) * gpd) * e;
    // dq/dt = -(e/n_t^2) nt_t - p/D + (k/D^2) at nt_t p
    j.dt = (gpdd * at - ge) * nt_t - gpd;
    // dq/de = I/n_t - (e/n_t^2) nt_e^T - (p/D) 2 p^T + (k/D^2) at p nt_e^T
    j.de = inv_nt * gbar + (gpdd * at - ge) * nt_e - (Real(2) * gpd) * p;
    return j;
}

// tangent_basis and its Jacobians in c (the branch `side` is fixed): a = -1/(sign + c_z),
// da/dc = a^2 e_z, b = c_x c_y a.
template <class Real>
struct BasisJacobian {
    Vec3<Real> e1, e2;
    Mat3<Real> de1, de2;
};
template <class Real>
GEOMINT_HD BasisJacobian<Real> tangent_basis_jacobian(const Vec3<Real>& c, Real side) {
    const Real sign = side >= Real(0) ? Real(1) : Real(-1);
    BasisJacobian<Real> j;
    tangent_basis(c, side, j.e1, j.e2);
    const Real a = Real(-1) / (sign + c.z);
    const Real a2 = a * a;
    const Vec3<Real> db{c.y * a, c.x * a, c.x * c.y * a2};
    const Vec3<Real> d1{Real(2) * c.x * a, Real(0), c.x * c.x * a2};  // d(c_x^2 a)
    const Vec3<Real> d2{Real(0), Real(2) * c.y * a, c.y * c.y * a2};  // d(c_y^2 a)
    j.de1 = Mat3<Real>{
        {{sign * d1.x, sign * d1.y, sign * d1.z}, {sign * db.x, sign * db.y, sign * db.z}, {-sign, Real(0), Real(0)}}};
    j.de2 = Mat3<Real>{{{db.x, db.y, db.z}, {d2.x, d2.y, d2.z}, {Real(0), Real(-1), Real(0)}}};
    return j;
}

// r^T d phi_c^{-1}(u)/dc = -r - u (u.r)/(c.u)^2 (inverse_retract_dc).
template <class Real>
GEOMINT_HD Vec3<Real> inverse_retract_dc_pullback(const Vec3<Real>& c, const Vec3<Real>& u, const Vec3<Real>& r) {
    const Real inv = Real(1) / dot(c, u);
    return Real(-1) * (r + (inv * inv * dot(u, r)) * u);
}

// The tangent basis at c, with its Jacobians in c when the centre moves (dc/dv given).
template <class Real, class CentreJacobian>
GEOMINT_HD BasisJacobian<Real> ia_basis(const Vec3<Real>& c, Real side) {
    BasisJacobian<Real> basis;
    if constexpr (centre_moves_v<CentreJacobian>) {
        basis = tangent_basis_jacobian(c, side);
    } else {
        tangent_basis(c, side, basis.e1, basis.e2);  // de1, de2 are never read
    }
    return basis;
}

// What Itoh-Abe walks hand on for their legs k = 0, 1 (g_k = gbar_k . q_k): g_k, and the rows of
// dg_k on the walk's inputs that depend on c and v_i: dp_0 directly (on_c), dx_known and dx_own
// (x = phi_c^{-1} of the known u_i and of the unknown v_i, the walk's start and end in either
// order) and de_1, de_2. Linear in them, so two walks at the same c add their rows here and they
// are pulled back through c once (ia_walk_finish).
template <class Real>
struct IaWalkRows {
    Real g[2];
    Vec3<Real> on_c[2], on_known[2], on_own[2], on_e1[2], on_e2[2];
};

// The walk from x0 = phi_c^{-1}(from) to xt = phi_c^{-1}(to) in the basis (e1, e2) at c (v_i is
// `to` when own_is_to, else `from`): its rows set into `into` (accumulate = false) or added to them
// (true), and its derivatives in the unknown neighbours added to dg: the left argument is v_{i-1}
// when it is taken from the unknown side, and so on (they enter through gbar's left and right
// arguments only). With a fixed centre only g and the rows on dx_own are formed, the others are
// never read. The rows are written into the caller's, not returned: returned by value, the two
// walks' rows took the symmetrised top 1.2x more time with fewer instructions (bench_spin); and
// the choices are template arguments: as run-time arguments, with every row formed whether read
// or not, ia took 4.8% more instructions on the top than as one function; as template ones 1.0%.
// The walk: eta = xt - x0, a_k = e_k . eta, p_0 = c + x0, p_1 = p_0 + a_1 e_1,
// p_2 = p_1 + a_2 e_2, w_k = p_k/|p_k|, gbar_1 = gbar(w_0, w_1), q_1 = ia_chord from p_0 along
// a_1 e_1, gbar_2 = gbar(w_1, w_2), q_2 = ia_chord from p_1 along a_2 e_2.
template <bool own_is_to, bool centre_moves, bool accumulate, class System, class Real>
GEOMINT_HD void ia_walk_rows(const System& system, int i, int d, const Vec3<Real>& c, const Vec3<Real>& e1,
                             const Vec3<Real>& e2, const Vec3<Real>& x0, const Vec3<Real>& xt, const Vec3<Real>& from_l,
                             const Vec3<Real>& from_r, const Vec3<Real>& to_l, const Vec3<Real>& to_r,
                             NeighbourJacobian<Real>& dg, IaWalkRows<Real>& into) {
    using M3 = Mat3<Real>;
    const bool left_from_to = i > 0, right_from_to = !(i < d - 1);
    const Vec3<Real> left = left_from_to ? to_l : from_l;
    const Vec3<Real> right = right_from_to ? to_r : from_r;
    const Vec3<Real> eta = xt - x0;
    const Real a1 = dot(e1, eta), a2 = dot(e2, eta);
    const Vec3<Real> p0 = c + x0;
    const Vec3<Real> p1 = p0 + a1 * e1;
    const Vec3<Real> p2 = p1 + a2 * e2;
    const Real n0 = norm(p0), n1 = norm(p1), n2 = norm(p2);
    const Vec3<Real> w0 = p0 / n0, w1 = p1 / n1, w2 = p2 / n2;
    const Vec3<Real> gbar1 = system.site_discrete_gradient(left, w0, w1, right);
    const Vec3<Real> gbar2 = system.site_discrete_gradient(left, w1, w2, right);
    const SiteDiscreteGradientJacobian<Real> j1 = system.site_discrete_gradient_jacobian(left, w0, w1, right);
    const SiteDiscreteGradientJacobian<Real> j2 = system.site_discrete_gradient_jacobian(left, w1, w2, right);
    const ChordPullback<Real> q1 = ia_chord_pullback(p0, n0, a1, e1, n1, gbar1);
    const ChordPullback<Real> q2 = ia_chord_pullback(p1, n1, a2, e2, n2, gbar2);
    // dg_1 = q_1^T (J1_start dw_0 + J1_end dw_1) + (gbar_1^T dq_1/dp) dp_0 + (gbar_1 . dq_1/dt) da_1
    // + (gbar_1^T dq_1/de) de_1 with dw_k = N(p_k) dp_k (r^T N(p) = tangent_retract_at(w, |p|, r),
    // N symmetric), and dg_2 alike one leg on. The rows on dp_2 and dp_1 are pushed down the walk
    // (dp_2 = dp_1 + e_2 da_2 + a_2 de_2, dp_1 = dp_0 + e_1 da_1 + a_1 de_1), so that each dg_k is
    //   on_p0 . dp_0 + on_a1 da_1 + on_e1 . de_1 + on_a2 da_2 + on_e2 . de_2.
    const Vec3<Real> s0 = tangent_retract_at(w0, n0, row_times(q1.q, j1.start)) + q1.dp;
    const Vec3<Real> s1 = tangent_retract_at(w1, n1, row_times(q1.q, j1.end));
    const Vec3<Real> t1 = tangent_retract_at(w1, n1, row_times(q2.q, j2.start)) + q2.dp;
    const Vec3<Real> t2 = tangent_retract_at(w2, n2, row_times(q2.q, j2.end));
    const Vec3<Real> t = t1 + t2;
    struct Rows {
        Vec3<Real> on_p0;
        Real on_a1;
        Vec3<Real> on_e1;
        Real on_a2;
        Vec3<Real> on_e2;
    };
    const Rows walk[2] = {{s0 + s1, dot(s1, e1) + q1.dt, a1 * s1 + q1.de, Real(0), Vec3<Real>{}},
                          {t, dot(t, e1), a1 * t, dot(t2, e2) + q2.dt, a2 * t2 + q2.de}};
    const auto put = [](auto& to, const auto& value) {
        if constexpr (accumulate) {
            to += value;
        } else {
            to = value;
        }
    };
    put(into.g[0], dot(gbar1, q1.q));
    put(into.g[1], dot(gbar2, q2.q));
    // Then on to eta (through da_1, da_2: da_k = eta^T de_k + e_k^T deta) and x0 (through dp_0 and
    // -deta), with deta = dxt - dx0 and dp_0 = dc + dx0.
    for (int k = 0; k < 2; ++k) {
        const Rows& w = walk[k];
        const Vec3<Real> on_eta = w.on_a1 * e1 + w.on_a2 * e2;
        const Vec3<Real> on_x0 = w.on_p0 - on_eta;
        if constexpr (own_is_to) {
            put(into.on_own[k], on_eta);
        } else {
            put(into.on_own[k], on_x0);
        }
        if constexpr (centre_moves) {
            put(into.on_c[k], w.on_p0);
            put(into.on_known[k], own_is_to ? on_x0 : on_eta);
            put(into.on_e1[k], w.on_e1 + w.on_a1 * eta);
            put(into.on_e2[k], w.on_e2 + w.on_a2 * eta);
        }
    }
    if constexpr (System::is_chain) {  // a top ignores its neighbour arguments: zero blocks
        if (left_from_to == own_is_to)
            dg.left += M3::outer(e1, row_times(q1.q, j1.left)) + M3::outer(e2, row_times(q2.q, j2.left));
        if (right_from_to == own_is_to)
            dg.right += M3::outer(e1, row_times(q1.q, j1.right)) + M3::outer(e2, row_times(q2.q, j2.right));
    }
}

// Rows of a walk (or of two at the same c, added) pulled back to v_i and added to dg.self as
// e_1 dg_1 + e_2 dg_2 + (g_1 de_1 + g_2 de_2) dc: de_k = B_k dc, dx = (d phi_c^{-1}/dc) dc for
// x = phi_c^{-1} of the known u_i and of the unknown v_i, plus M = d phi_c^{-1}(v_i)/dv_i for the
// latter. With FixedCentre (dc = 0) the terms through dc are left out. `own_is_to` orders the two
// phi_c^{-1} terms as the walk's start and end (the same sum, rounded as the walk's order gives).
template <bool own_is_to, class Real, class CentreJacobian>
GEOMINT_HD void ia_walk_finish(const IaWalkRows<Real>& r, const Vec3<Real>& c, const CentreJacobian& dc,
                               const BasisJacobian<Real>& basis, const Vec3<Real>& known, const Vec3<Real>& own,
                               NeighbourJacobian<Real>& dg) {
    using M3 = Mat3<Real>;
    constexpr bool centre_moves = centre_moves_v<CentreJacobian>;
    const Real inv_cu = Real(1) / dot(c, own);
    Vec3<Real> dg_rows[2];
    for (int k = 0; k < 2; ++k) {
        // M^T on_own = (on_own - c (own.on_own)/(c.own))/(c.own), tangent_inverse_retract_transpose
        // with one division where that takes four.
        const Vec3<Real> through_own = inv_cu * (r.on_own[k] - (inv_cu * dot(r.on_own[k], own)) * c);
        if constexpr (centre_moves) {
            const Vec3<Real> via_known = inverse_retract_dc_pullback(c, known, r.on_known[k]);
            const Vec3<Real> via_own = inverse_retract_dc_pullback(c, own, r.on_own[k]);
            const Vec3<Real> on_dc = r.on_c[k] + (own_is_to ? via_known : via_own) + (own_is_to ? via_own : via_known) +
                                     row_times(r.on_e1[k], basis.de1) + row_times(r.on_e2[k], basis.de2);
            dg_rows[k] = row_times(on_dc, dc) + through_own;
        } else {
            dg_rows[k] = through_own;
        }
    }
    dg.self += M3::outer(basis.e1, dg_rows[0]) + M3::outer(basis.e2, dg_rows[1]);
    if constexpr (centre_moves) dg.self += (r.g[0] * basis.de1 + r.g[1] * basis.de2) * dc;
}

}  // namespace detail

// The Itoh-Abe DRG above with its derivatives, in plain Real, for the analytic Jacobian of
// DrgStage. One of `from`, `to` is the unknown v_i (`own_is_to`), the other the known u_i; dc is
// dc/dv_i, or FixedCentre (ia: the terms through dc left out). Adds to dg the derivatives of the
// result in v_i and in the unknown neighbours that the walk reads.
// The result is g_1 e_1 + g_2 e_2 with two scalars g_k = gbar_k . q_k, so their derivatives are
// taken in reverse (rows pulled back from g_k towards v_i, vector times matrix: ia_walk_rows,
// ia_walk_finish), not forward (a 3 x 3 derivative carried by every intermediate): the same
// Jacobian with 2.1x fewer instructions (callgrind; bench/RESULTS.md, "The Itoh-Abe Jacobian in
// reverse").
template <bool own_is_to, class System, class Real, class CentreJacobian>
GEOMINT_HD Vec3<Real> itoh_abe_linearised(const System& system, int i, int d, const Vec3<Real>& c,
                                          const CentreJacobian& dc, Real side, const Vec3<Real>& from_l,
                                          const Vec3<Real>& from, const Vec3<Real>& from_r, const Vec3<Real>& to_l,
                                          const Vec3<Real>& to, const Vec3<Real>& to_r, NeighbourJacobian<Real>& dg) {
    constexpr bool centre_moves = centre_moves_v<CentreJacobian>;
    const detail::BasisJacobian<Real> basis = detail::ia_basis<Real, CentreJacobian>(c, side);
    detail::IaWalkRows<Real> rows;
    detail::ia_walk_rows<own_is_to, centre_moves, false>(system, i, d, c, basis.e1, basis.e2, inverse_retract(c, from),
                                                         inverse_retract(c, to), from_l, from_r, to_l, to_r, dg, rows);
    detail::ia_walk_finish<own_is_to>(rows, c, dc, basis, own_is_to ? from : to, own_is_to ? to : from, dg);
    return rows.g[0] * basis.e1 + rows.g[1] * basis.e2;
}

// The symmetrised Itoh-Abe DRG's two walks, IA(u, v) and IA(v, u), with their derivatives, for
// spin i's neighbourhood n (v the unknown): both at the same c, so the basis and its Jacobians,
// phi_c^{-1}(u) and phi_c^{-1}(v) are formed once, and the two walks' rows are added before they
// are pulled back through c and phi_c^{-1} (linear in them; ia_walk_finish): one pull-back where
// itoh_abe_linearised twice took two. Returns g_1 e_1 + g_2 e_2 with each g_k the sum of the two
// walks' (IA(u, v) + IA(v, u)) and adds the sum of their derivatives to dg.
template <class System, class Real, class CentreJacobian>
GEOMINT_HD Vec3<Real> itoh_abe_pair_linearised(const System& system, const Neighbourhood<Real, Real>& n,
                                               const Vec3<Real>& c, const CentreJacobian& dc, Real side,
                                               NeighbourJacobian<Real>& dg) {
    constexpr bool centre_moves = centre_moves_v<CentreJacobian>;
    const detail::BasisJacobian<Real> basis = detail::ia_basis<Real, CentreJacobian>(c, side);
    const Vec3<Real> xu = inverse_retract(c, n.u), xv = inverse_retract(c, n.v);
    detail::IaWalkRows<Real> rows;
    detail::ia_walk_rows<true, centre_moves, false>(system, n.i, n.d, c, basis.e1, basis.e2, xu, xv, n.ul, n.ur, n.vl,
                                                    n.vr, dg, rows);
    detail::ia_walk_rows<false, centre_moves, true>(system, n.i, n.d, c, basis.e1, basis.e2, xv, xu, n.vl, n.vr, n.ul,
                                                    n.ur, dg, rows);
    detail::ia_walk_finish<true>(rows, c, dc, basis, n.u, n.v, dg);
    return rows.g[0] * basis.e1 + rows.g[1] * basis.e2;
}

// Which Itoh-Abe DRG: IA(u, v), its adjoint's IA(v, u), or the symmetrised mean (math §2.2).
enum class IaDirection { forward, adjoint, symmetrised };

template <IaDirection direction>
struct ItohAbeGradient {
    // IA(u, v) and its adjoint are of first order (the symmetrised mean of second): drg_stage
    // takes a fixed-point step from the host's chain first iterate for them.
    static constexpr bool first_order = direction != IaDirection::symmetrised;

    template <class System, class T, class Real>
    GEOMINT_HD Vec3<T> operator()(const System& system, const Neighbourhood<T, Real>& n, const Vec3<T>& c) const {
        const Vec3<T> ul = vec3_cast<T>(n.ul), u = vec3_cast<T>(n.u), ur = vec3_cast<T>(n.ur);
        const Real side = n.u.z;  // fixed during the solve, the same for both walks of one step
        if constexpr (direction == IaDirection::forward) {
            return itoh_abe(system, n.i, n.d, c, side, ul, u, ur, n.vl, n.v, n.vr);
        } else if constexpr (direction == IaDirection::adjoint) {
            return itoh_abe(system, n.i, n.d, c, side, n.vl, n.v, n.vr, ul, u, ur);
        } else {
            return Real(0.5) * (itoh_abe(system, n.i, n.d, c, side, ul, u, ur, n.vl, n.v, n.vr) +
                                itoh_abe(system, n.i, n.d, c, side, n.vl, n.v, n.vr, ul, u, ur));
        }
    }

    // g and its total derivatives (itoh_abe_linearised; the symmetrised mean's two walks together,
    // itoh_abe_pair_linearised). A top ignores its neighbour arguments (is_chain false), so the
    // walk forms no neighbour blocks for it: they would be products with zero blocks (ia 2.3% and
    // sia 3.2% of the top's instructions, callgrind, with the same checksums and iterations). dc:
    // dc/dv_i, or FixedCentre for plain Itoh-Abe's c = u (DrgStage::linearise_into).
    template <class System, class Real, class CentreJacobian>
    requires HasSiteDiscreteGradientJacobian<System, Real> &&(std::is_same_v<CentreJacobian, Mat3<Real>> ||
                                                              std::is_same_v<CentreJacobian, FixedCentre>)
        GEOMINT_HD Vec3<Real> linearise(const System& system, const Neighbourhood<Real, Real>& n, const Vec3<Real>& c,
                                        const CentreJacobian& dc, NeighbourJacobian<Real>& dg) const {
        using M3 = Mat3<Real>;
        const Real side = n.u.z;
        dg = {M3::zero(), M3::zero(), M3::zero()};
        Vec3<Real> g;
        if constexpr (direction == IaDirection::forward) {
            g = itoh_abe_linearised<true>(system, n.i, n.d, c, dc, side, n.ul, n.u, n.ur, n.vl, n.v, n.vr, dg);
        } else if constexpr (direction == IaDirection::adjoint) {
            g = itoh_abe_linearised<false>(system, n.i, n.d, c, dc, side, n.vl, n.v, n.vr, n.ul, n.u, n.ur, dg);
        } else {
            g = Real(0.5) * itoh_abe_pair_linearised(system, n, c, dc, side, dg);
            dg = {Real(0.5) * dg.left, Real(0.5) * dg.self, Real(0.5) * dg.right};
        }
        return g;
    }
};

}  // namespace geomint::spin
