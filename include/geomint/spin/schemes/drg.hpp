// DRG schemes for spin systems (math §2.2): avf, mp, mmp, ia, sia, comp2, compsia, comp4. Each
// stage solves v_i = phi_{c_i}(phi_{c_i}^{-1}(u_i) + h m_i x g_i(u, v)) by the local Newton driver.
#pragma once

#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/spin/explicit_guess.hpp"
#include "geomint/spin/geometry.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/mat3.hpp"
#include "geomint/spin/schemes/drg_gradients.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/team.hpp"
#include "geomint/spin/team_newton.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

// Symmetric c = (u + v)/|u + v| everywhere, except plain Itoh-Abe (c = u), math §2.2.
enum class Centre { symmetric, start };

// Which Newton Jacobian a DRG stage builds (issue 10 items 1 and 3, chosen by measurement).
enum class DrgJacobian {
    analytic,          // the exact blocks of DrgStage::linearise (Gradient::linearise)
    dual_numbers,      // the exact blocks by forward-mode AD, one column per pass on the GPU
    midpoint_hessian,  // a quasi-Newton: exact residual, approximate blocks (DrgStage::linearise below)
};

// On the host the analytic blocks, 1-4.5x cheaper than dual numbers (bench/RESULTS.md, "Spin
// Newton Jacobians"). On the GPU (ptxas for sm_90, CUDA 13.0, registers / stack B / spill stores
// B of the plain double kernels; RESULTS, "2026-12-04 — Spin kernels: dual-number Jacobians on
// the device" and "2026-12-04 — A quasi-Newton for the symmetric-centre DRG stages on the GPU"):
// - Every stage with the symmetric centre but mmp's (avf, mp, sia, comp2, compsia, comp4):
//   midpoint_hessian. The exact Jacobians need a pass of the whole residual per column (dual
//   numbers) or keep many 3 x 3 matrices alive (analytic), and spilled on the chains: AVF
//   255/176/224 (Heisenberg) with dual numbers, sia 255/112/164 and comp4 255/80/80 (anisotropic
//   chain). The quasi-Newton evaluates the residual once and the system's Hessian once per block
//   row: no spills and fewer registers (figures in RESULTS), for up to three more iterations a
//   stage at h = 0.05 (linear convergence at a rate O(h^2); one more since the solve ends one
//   step after its stopping rule is met, local_newton.hpp), and 1.5-6.8x less arithmetic a stage
//   than dual numbers, measured on the CPU (bench/bench_drg_device_jacobians.cpp).
// - Gonzalez mp: midpoint_hessian since 2026-12-07 (dual numbers before, which took fewer
//   registers than its analytic blocks). Its Newton already converged linearly on the GPU, since
//   lambda is held within an iteration (MidpointGradient), so the quasi-Newton costs at most one
//   more iteration a stage at h = 0.05, a third of dual numbers' arithmetic on chains, and its
//   thread kernels took 124-130 registers where dual numbers took 144-162 (RESULTS, "The Gonzalez
//   midpoint's quasi-Newton on the GPU").
// - Plain Itoh-Abe ia (whose centre is u) and the local midpoint mmp: analytic. ia's walk without
//   its centre's terms (FixedCentre) took its plain kernels from 224-234 registers with dual
//   numbers to 152-168 (RESULTS, "plain Itoh-Abe's analytic blocks on the GPU"); the midpoint
//   Hessian took 1.4-2x the iterations at h = 0.05 and failed to converge on the chains at
//   h = 0.5. mmp's portrait kernel takes fewer registers than with dual numbers (162 against 168
//   on the Heisenberg chain, before its centre's Jacobian was formed late: DrgStage::linearise_into).
namespace detail {
// The gradients whose stages run the quasi-Newton on the device (with the symmetric centre), and
// their walk: 0 symmetric in u and v (AVF, mp, symmetrised Itoh-Abe), 1 the forward Itoh-Abe
// walk, -1 its adjoint (DrgStage::linearise below).
template <class Gradient>
inline constexpr bool quasi_newton_on_device = false;
template <class Rule, bool reduce_on_top>
inline constexpr bool quasi_newton_on_device<BasicAvfGradient<Rule, reduce_on_top>> = true;
template <IaDirection direction>
inline constexpr bool quasi_newton_on_device<ItohAbeGradient<direction>> = true;
template <class Real>
inline constexpr bool quasi_newton_on_device<MidpointGradient<Real>> = true;

// What DrgStage::prepared_residual_sweep keeps of spin i in a Real workspace (host): its centre,
// eta and P_c grad H(c), 9 values in T, which may be wider than Real (the last residual's long
// double), so they are copied in and out as bytes.
template <class T, class Real>
struct KeptRows {
    static constexpr std::size_t reals_per_spin = 9 * ((sizeof(T) + sizeof(Real) - 1) / sizeof(Real));
    static_assert(reals_per_spin <= kept_row_reals, "rank_one_workspace_reals has room for kept_row_reals a spin");
    Real* base;
    void set(int i, const Vec3<T>& c, const Vec3<T>& eta, const Vec3<T>& projected) const {
        const T values[9] = {c.x, c.y, c.z, eta.x, eta.y, eta.z, projected.x, projected.y, projected.z};
        std::memcpy(base + reals_per_spin * static_cast<std::size_t>(i), values, sizeof values);
    }
    void get(int i, Vec3<T>& c, Vec3<T>& eta, Vec3<T>& projected) const {
        T values[9];
        std::memcpy(values, base + reals_per_spin * static_cast<std::size_t>(i), sizeof values);
        c = Vec3<T>{values[0], values[1], values[2]};
        eta = Vec3<T>{values[3], values[4], values[5]};
        projected = Vec3<T>{values[6], values[7], values[8]};
    }
};

template <class Gradient>
inline constexpr int walk_of = 0;
template <>
inline constexpr int walk_of<ItohAbeGradient<IaDirection::forward>> = 1;
template <>
inline constexpr int walk_of<ItohAbeGradient<IaDirection::adjoint>> = -1;
}  // namespace detail

// The GPU's choice, named so that host tests can check it (tests/spin/test_drg_quasi_newton.cpp).
template <Centre centre, class Gradient>
inline constexpr DrgJacobian device_drg_jacobian = [] {
    if (std::is_same_v<Gradient, LocalMidpointGradient> || centre == Centre::start) return DrgJacobian::analytic;
    if (detail::quasi_newton_on_device<Gradient> && centre == Centre::symmetric) return DrgJacobian::midpoint_hessian;
    return DrgJacobian::dual_numbers;
}();

#if defined(__CUDA_ARCH__)
template <Centre centre, class Gradient>
inline constexpr DrgJacobian drg_jacobian = device_drg_jacobian<centre, Gradient>;
#else
template <Centre centre, class Gradient>
inline constexpr DrgJacobian drg_jacobian = DrgJacobian::analytic;
#endif

// One DRG step u -> v as a local problem (local_newton.hpp) with one 3-block per spin, the
// unknown v_i. Residual: v_i - phi_c(phi_c^{-1}(u_i) + h m_i x g_i). Its zero has |v_i| = 1
// because phi_c maps onto the sphere. It is evaluated in increment form, (v_i - u_i) minus the
// step retract_increment computes: the absolute form rounded phi_c(...) to an ulp of 1 in a way
// that leaned to one side and drifted the energy linearly over long runs (math §2.6).
// `jacobian` is the Newton Jacobian it builds (drg_jacobian above: the host's and the GPU's
// choices; the tests instantiate every choice on the host).
template <Centre centre, class Gradient, class System, class Real,
          DrgJacobian jacobian = drg_jacobian<centre, Gradient>>
struct DrgStage {
    static constexpr int block_size = 3;
    // local_newton.hpp: an approximate Jacobian converges linearly, and Newton's stopping rule
    // must then ask for contraction as well as a small step. (A system without Hessian blocks
    // falls back to dual numbers even where midpoint_hessian is asked for.)
    static constexpr bool exact_jacobian =
        !(jacobian == DrgJacobian::midpoint_hessian && HasGradientJacobian<System, Real>);
    // The stage's zero preserves the energy exactly: the host's simplified Newton and the GPU's
    // quasi-Newton must leave no systematic error there (local_simplified_newton_solve,
    // NewtonStopRule). The midpoint rules' energy errors are truncation errors, and collocation's
    // kept Jacobian measured no drift (bench/RESULTS.md, "A simplified Newton for every spin
    // step"), so neither declares it.
    static constexpr bool exact_conservation = true;
    // Whether prepare() refreshes a global scalar (the Gonzalez midpoint's lambda): Newton without
    // its rank-one term (coupling() below: host only) converges linearly (LaggedScalar,
    // local_newton.hpp).
    static constexpr bool global_scalar = requires(Gradient & g, const System& s, StridedSpins<Real> v) {
        g.prepare(s, v, v);
    };
    const System& system;
    StridedSpins<Real> u;
    Real h;
    Gradient gradient;

    GEOMINT_HD int blocks() const { return u.d; }

    // The residual of block row i, v_i - u_i minus the step to v_i (residual_from).
    template <class T>
    GEOMINT_HD void residual(int i, const T* left, const T* self, const T* right, T* out) const {
        const Neighbourhood<T, Real> n = neighbourhood(i, left, self, right);
        Vec3<T> c;
        if constexpr (centre == Centre::symmetric) {
            c = symmetric_centre(n.u, n.v);
        } else {
            c = vec3_cast<T>(n.u);
        }
        residual_from(n.u, n.v, c, gradient(system, n, c), out);
    }

    // Every residual row, in order, into emit(i, row) (host; AVF and the Gonzalez midpoint): what
    // the gradient reads of each spin, its Gradient::Path (AVF: the path's points at the 8 Gauss
    // nodes; the Gonzalez midpoint: the symmetric centre and eta), is formed once with the spin's
    // centre and read by its own row and its two neighbours', where residual() forms it in all
    // three (and the own centre, or AVF's own |p|, twice). The arithmetic is residual()'s, so the
    // rows are its rows bit for bit (tests/spin/test_residual_sweep.cpp). The host's simplified
    // Newton takes every residual without a Jacobian this way (local_newton.hpp,
    // HasResidualSweep): AVF 1.25x faster on chains of 16 and 128 spins, 1.08x on the top
    // (bench/RESULTS.md, "AVF's residual rows share each spin's path"; the Gonzalez midpoint's
    // figures in "The Gonzalez midpoint's residual rows share each spin's centre").
    template <class T, class Emit>
    void residual_sweep(StridedReals<Real> x, const Emit& emit) const
        requires(centre == Centre::symmetric && requires { typename Gradient::template Path<T>; }) {
        using Path = typename Gradient::template Path<T>;
        sweep_rows<Path>(
            [&](Path& path, int spin) {
                const Vec3<T> v{T(x[3 * spin]), T(x[3 * spin + 1]), T(x[3 * spin + 2])};
                Gradient::template trace<Real>(path, spin, u.get(spin), v);
            },
            [&](int i, int, int, const Path& left, const Path& own, const Path& right) {
                T out[3];
                residual_from(u.get(i), own.v, own.c, gradient.template path_sum<Real>(system, left, own, right), out);
                emit(i, static_cast<const T*>(out));
            });
    }

    // The residual rows of an iterate together with the refresh of the gradient's global scalar
    // from it, in T (host; the Gonzalez midpoint's lambda): prepare() (T = Real) or prepare_wide<T>
    // keeps each spin's centre c, eta and P_c grad H(c) in `kept` as its sums form them, and row i
    // is finished from them once lambda is known (kept_sum, residual_from), where prepare() and
    // residual_sweep() each formed them. lambda is prepare()'s (prepare_wide's) and the rows are
    // residual_sweep's, bit for bit (tests/spin/test_residual_sweep.cpp). The host's simplified
    // Newton takes every residual without a Jacobian this way (local_newton.hpp,
    // PreparesResidualRows): the same iterates, 3.7-4.2% fewer instructions for mp on chains and
    // 2% on the top, time the same on chains to this machine's noise and about 3% less on the top
    // (bench/RESULTS.md, "The Gonzalez midpoint's rows finished from its lambda sums").
    // kept: kept_row_reals d reals, contiguous (stride 1).
    template <class T, class Emit>
    void prepared_residual_sweep(StridedReals<Real> x, StridedReals<Real> kept, const Emit& emit) requires(
        centre == Centre::symmetric && requires(const Gradient& g, const Vec3<T>& p) { g.kept_sum(p, p); }) {
        const detail::KeptRows<T, Real> rows{kept.base};
        const auto keep = [&](int i, const Vec3<T>& c, const Vec3<T>& eta, const Vec3<T>& projected) {
            rows.set(i, c, eta, projected);
        };
        if constexpr (std::is_same_v<T, Real>)
            gradient.prepare(system, u, x.spins(u.d), SequentialTeam{}, keep);
        else
            gradient.template prepare_wide<T>(system, u, x.spins(u.d), keep);
        for (int i = 0; i < u.d; ++i) {
            Vec3<T> c, eta, projected;
            rows.get(i, c, eta, projected);
            const Vec3<T> v{T(x[3 * i]), T(x[3 * i + 1]), T(x[3 * i + 2])};
            T out[3];
            residual_from(u.get(i), v, c, gradient.kept_sum(projected, eta), out);
            emit(i, static_cast<const T*>(out));
        }
    }

    // Every block row of the Newton system in one sweep (host, chains: the top's one row has
    // nothing to share; AVF and the Gonzalez midpoint with analytic Jacobians): the residual into
    // emit(i, row) and the three Jacobian blocks into sink_for(i), as linearise_into gives them.
    // What the gradient's linearise reads of each spin, its Gradient::LinearisePath (the
    // symmetric centre and dc/dv; for AVF also the path's dp/dv and its unit points and their
    // Jacobians at the nodes), is traced once for the three rows that read it, where
    // linearise_into traces the neighbours' again in every row. The arithmetic is
    // linearise_into's, so rows and blocks are its own bit for bit
    // (tests/spin/test_residual_sweep.cpp). The host's simplified Newton builds every fresh
    // Jacobian this way (local_newton.hpp, HasLineariseSweep).
    template <class SinkFor, class Emit>
    void linearise_sweep(StridedReals<Real> x, const SinkFor& sink_for, const Emit& emit) const
        requires(centre == Centre::symmetric && jacobian == DrgJacobian::analytic && System::is_chain &&
                 HasGradientJacobian<System, Real> &&
                 requires { typename Gradient::template LinearisePath<System, Real>; }) {
        using M3 = Mat3<Real>;
        using Path = typename Gradient::template LinearisePath<System, Real>;
        const auto v_of = [&](int spin) { return Vec3<Real>{x[3 * spin], x[3 * spin + 1], x[3 * spin + 2]}; };
        sweep_rows<Path>(
            [&](Path& path, int spin) {
                const Vec3<Real> us = u.get(spin), vs = v_of(spin);
                Gradient::trace_linearise(path, spin, symmetric_centre(us, vs), normalise_jacobian(us + vs), us, vs);
            },
            [&](int i, int il, int ir, const Path& left, const Path& own, const Path& right) {
                const Neighbourhood<Real, Real> n{i, u.d, u.get(il), u.get(i), u.get(ir), v_of(il), v_of(i), v_of(ir)};
                NeighbourJacobian<Real> dg;
                const Vec3<Real> g = gradient.path_linearise(system, left, own, right, dg);
                Real out[3];
                stage_blocks_into(
                    n, own.centre(), g, [&](int side) -> const M3& { return side < 0 ? dg.left : dg.right; },
                    [&]() -> const M3& { return dg.self; }, [&]() -> const M3& { return own.centre_jacobian(); }, out,
                    sink_for(i));
                emit(i, static_cast<const Real*>(out));
            });
    }

    // The residual of spin i's row from its u_i and v_i, its centre c and its gradient g:
    // residual()'s tail, which the sweep's rows enter with the centre their path holds.
    template <class T>
    GEOMINT_HD void residual_from(const Vec3<Real>& ui, const Vec3<T>& vi, const Vec3<T>& c, const Vec3<T>& g,
                                  T* out) const {
        const Vec3<T> m = Real(0.5) * (ui + vi);
        const Vec3<T> r = (vi - ui) - retract_increment(c, ui, h * cross(m, g));
        out[0] = r.x;
        out[1] = r.y;
        out[2] = r.z;
    }

    // Analytic Jacobian (math §3), the same map for every DRG: only g and its derivatives
    // (Gradient::linearise, total derivatives in v_{i-1}, v_i, v_{i+1}, through the centre too)
    // change. With W = phi_c^{-1}(u_i) + h m x g, p = c + W and N = d(p/|p|)/dp:
    //   dR/dv_i = I - N (dc + dW), dW = (d phi_c^{-1}(u_i)/dc) dc + h (-[g]x / 2 + [m]x dg/dv_i),
    //   dR/dv_{i+-1} = -N h [m]x dg/dv_{i+-1}.
    // Present when the gradient has an analytic linearisation for this system (every gradient of
    // drg_gradients.hpp has one where the system provides the derivatives it reads) and
    // `jacobian` selects it; otherwise local_newton_solve takes dual numbers. A gradient that does
    // not go through the centre (mmp's g = mu gbar) takes neither c nor dc: dc/dv_i is then formed
    // only when the stage's own block reads it, not held across the gradient's linearisation
    // (ptxas sm_90: mmp's six thread-per-chain kernels 130-138 -> 124 registers).
    template <class Sink>
        GEOMINT_HD void linearise_into(int i, const Real* left, const Real* self, const Real* right, Real* out,
                                       const Sink& sink) const requires(jacobian == DrgJacobian::analytic) &&
        (
            requires(const Neighbourhood<Real, Real>& n, const Vec3<Real>& c, const Mat3<Real>& dc,
                     NeighbourJacobian<Real>& dg) {
                { gradient.linearise(system, n, c, dc, dg) } -> std::same_as<Vec3<Real>>;
            } ||
            requires(const Neighbourhood<Real, Real>& n, NeighbourJacobian<Real>& dg) {
                { gradient.linearise(system, n, dg) } -> std::same_as<Vec3<Real>>;
            }) {
        using M3 = Mat3<Real>;
        const Neighbourhood<Real, Real> n = neighbourhood(i, left, self, right);
        const Vec3<Real> c = centre == Centre::symmetric ? symmetric_centre(n.u, n.v) : n.u;
        const auto centre_jacobian = [&]() -> M3 {
            if constexpr (centre == Centre::symmetric) {
                return normalise_jacobian(n.u + n.v);
            } else {
                return M3::zero();
            }
        };
        NeighbourJacobian<Real> dg;
        const auto dg_neighbour = [&](int side) -> const M3& { return side < 0 ? dg.left : dg.right; };
        const auto dg_self = [&]() -> const M3& { return dg.self; };
        if constexpr (requires { gradient.linearise(system, n, dg); }) {
            const Vec3<Real> g = gradient.linearise(system, n, dg);
            stage_blocks_into(n, c, g, dg_neighbour, dg_self, centre_jacobian, out, sink);
        } else {
            const M3 dc = centre_jacobian();
            Vec3<Real> g;
            if constexpr (centre == Centre::start &&
                          requires { gradient.linearise(system, n, c, FixedCentre{}, dg); }) {
                g = gradient.linearise(system, n, c, FixedCentre{}, dg);  // dc = 0: its terms left out
            } else {
                g = gradient.linearise(system, n, c, dc, dg);
            }
            stage_blocks_into(
                n, c, g, dg_neighbour, dg_self, [&]() -> M3 { return dc; }, out, sink);
        }
    }

    // The quasi-Newton of DrgJacobian::midpoint_hessian (math §3.1): the residual, the centre and
    // the retraction exactly, and dg/dv from the system's Hessian blocks at the Euclidean midpoints
    // m = (u + v)/2: for a gradient symmetric in u and v (AVF, mp, symmetrised Itoh-Abe), (H_s -
    // (m.grad H/m.m) I)/2 and H_{l,r}/2 (halved because m moves by half of v; the radial term is
    // the sphere's curvature along the step, H(phi(x)) = H + x.grad H + (x^T H x - |x|^2 c.grad H)/2
    // + ..., without which the count more than doubled); for the one-sided Itoh-Abe walks
    // (comp2, comp4) the Hessian weighted by how far the walk has moved each coordinate. This
    // differs from the exact dg/dv by O(|v - u|) = O(h), so the Jacobian by O(h^2) and Newton
    // contracts linearly at a rate O(h^2): measured (tests/spin/test_drg_quasi_newton.cpp,
    // RESULTS), 0-3 more iterations a stage at h = 0.05. The converged point is the same
    // zero of the same residual, so the energy is preserved as before; only the stopping rule must
    // see contraction (exact_jacobian above), and end one step later, since the error a linearly
    // converging last step leaves is systematic (exact_conservation below, NewtonStopRule).
    // The blocks go out one at a time (stage_blocks_into); dg's blocks and the centre's dc/dv are
    // formed only when their stage block is, so that none is held across the gradient's evaluation.
    template <class Sink>
        GEOMINT_HD void linearise_into(int i, const Real* left, const Real* self, const Real* right, Real* out,
                                       const Sink& sink) const requires(jacobian == DrgJacobian::midpoint_hessian) &&
        HasGradientJacobian<System, Real> {
        using M3 = Mat3<Real>;
        const Neighbourhood<Real, Real> n = neighbourhood(i, left, self, right);
        static_assert(centre == Centre::symmetric, "the midpoint Hessian is a Jacobian for the symmetric centre");
        const Vec3<Real> c = symmetric_centre(n.u, n.v);
        const Vec3<Real> g = gradient(system, n, c);
        const Vec3<Real> m = Real(0.5) * (n.u + n.v);
        const Vec3<Real> ml = Real(0.5) * (n.ul + n.vl), mr = Real(0.5) * (n.ur + n.vr);
        const NeighbourJacobian<Real> hess =
            System::is_chain ? system.gradient_jacobian(ml, m, mr) : system.gradient_jacobian(m, m, m);
        constexpr int walk = detail::walk_of<Gradient>;
        // dg/dv_{i-1} (side -1) and dg/dv_{i+1} (side +1).
        const auto dg_neighbour = [&](int side) -> M3 {
            if constexpr (!System::is_chain) {
                return M3::zero();
            } else if constexpr (walk == 0) {
                return Real(0.5) * (side < 0 ? hess.left : hess.right);
            } else {
                // A neighbour enters in full when the walk has already moved it, not at all
                // otherwise (itoh_abe in drg_gradients.hpp).
                const bool moved = side < 0 ? (n.i > 0) == (walk > 0) : (n.i < n.d - 1) == (walk < 0);
                return moved ? (side < 0 ? hess.left : hess.right) : M3::zero();
            }
        };
        const auto dg_self = [&]() -> M3 {
            const Vec3<Real> gm = System::is_chain ? system.gradient(ml, m, mr) : system.gradient(m, m, m);
            const M3 hs = System::is_chain ? hess.self : hess.left + hess.self + hess.right;
            const M3 radial = M3::identity(dot(m, gm) / dot(m, m));
            if constexpr (walk == 0) {
                return Real(0.5) * (hs - radial);
            } else {
                // The walk moves v_i along e_1, then e_2 (forward; the adjoint in the reverse
                // order): the leg along e_j sees a coordinate already walked in full and its own
                // by half, so in the basis (e_1, e_2) dg is the Hessian weighted [[1/2, 0], [1, 1/2]]
                // (transposed for the adjoint).
                Vec3<Real> e1, e2;
                tangent_basis(c, n.u.z, e1, e2);
                const Vec3<Real> he1 = hs * e1, he2 = hs * e2;
                const Real w12 = walk > 0 ? Real(0) : Real(1), w21 = walk > 0 ? Real(1) : Real(0);
                return M3::outer(e1, (Real(0.5) * dot(e1, he1)) * e1 + (w12 * dot(e1, he2)) * e2) +
                       M3::outer(e2, (w21 * dot(e2, he1)) * e1 + (Real(0.5) * dot(e2, he2)) * e2) - Real(0.5) * radial;
            }
        };
        stage_blocks_into(
            n, c, g, dg_neighbour, dg_self, [&] { return normalise_jacobian(n.u + n.v); }, out, sink);
    }

    // The gradient's refresh from the iterate x (the Gonzalez midpoint's lambda); a parallel team
    // shares its O(d) sums (team_reduce.hpp).
    template <class Team = SequentialTeam>
    GEOMINT_HD void prepare(StridedReals<Real> x, const Team& team = Team{}) {
        if constexpr (requires { gradient.prepare(system, u, x.spins(u.d), team); })
            gradient.prepare(system, u, x.spins(u.d), team);
    }

    // The same refresh with its sums in Acc (WiderResidual's type): the host's last residual of a
    // solve (local_simplified_newton_solve; team_newton_solve, where every worker sums it all).
    template <class Acc>
    GEOMINT_HD void prepare_wide(StridedReals<Real> x) {
        if constexpr (requires { gradient.template prepare_wide<Acc>(system, u, x.spins(u.d)); })
            gradient.template prepare_wide<Acc>(system, u, x.spins(u.d));
    }

    // Newton's rank-one term (local_newton.hpp) for a gradient with a global scalar, the Gonzalez
    // midpoint's lambda, which prepare() refreshes from each iterate: the residual R(x, lambda(x))
    // has the Jacobian J + a b^T, J the blocks above (lambda held), a = dR/dlambda, b = dlambda/dx
    // (3 d reals each). With it Newton converges quadratically; without, lambda's lag made it
    // linear, at a rate of about 1e-3 on chains at h = 0.05 (6 iterations a step against 4;
    // bench/RESULTS.md). dR_i/dlambda = -N(c + W) h [m]x eta_i, since dg_i/dlambda = eta_i (the
    // stage map above). false when lambda is held at 0 (no term). Host only, with the analytic
    // blocks: the GPU and a team keep the simplified Newton in lambda (math §3).
    GEOMINT_HD bool coupling(StridedReals<Real> x, StridedReals<Real> a, StridedReals<Real> b) const
        requires(jacobian == DrgJacobian::analytic) &&
        requires(StridedSpins<Real> s, StridedReals<Real> r,
                 void (*f)(int, const Vec3<Real>&, const Vec3<Real>&, const Vec3<Real>&)) {
        { gradient.lambda_gradient(system, s, s, r, f) } -> std::same_as<bool>;
    }
    {
        const StridedSpins<Real> v = x.spins(u.d), column = a.spins(u.d);
        // a_i = -N(p) h (m x eta_i), N(p) = (I - y y^T)/|p| at p = c + W (the stage map above).
        const auto column_of = [&](int i, const Vec3<Real>& c, const Vec3<Real>& g, const Vec3<Real>& eta) {
            const Vec3<Real> hm = h * (Real(0.5) * (u.get(i) + v.get(i)));
            const Vec3<Real> p = c + (inverse_retract(c, u.get(i)) + cross(hm, g));
            const Real length = norm(p);
            const Vec3<Real> y = p / length, t = cross(hm, eta);
            column.set(i, (y * dot(t, y) - t) / length);
        };
        return gradient.lambda_gradient(system, u, v, b, column_of);
    }

private:
    // Spin i's neighbourhood: the known u (periodic) and the unknown blocks left, self, right.
    template <class T>
    GEOMINT_HD Neighbourhood<T, Real> neighbourhood(int i, const T* left, const T* self, const T* right) const {
        return Neighbourhood<T, Real>{i,
                                      u.d,
                                      u.get(u.wrap(i - 1)),
                                      u.get(i),
                                      u.get(u.wrap(i + 1)),
                                      Vec3<T>{left[0], left[1], left[2]},
                                      Vec3<T>{self[0], self[1], self[2]},
                                      Vec3<T>{right[0], right[1], right[2]}};
    }

    // Rows 0 to d - 1 in order into row(i, i - 1, i + 1, left, own, right) with the paths of
    // spins i - 1, i and i + 1 (periodic), each formed by trace(path, spin) once while rows read
    // it (the sweeps above). A row reads three, so one of the four slots is always free for the
    // next spin; the paths of spins 0 and d - 1, read again by the last row, are formed twice.
    template <class Path, class Trace, class Row>
    void sweep_rows(const Trace& trace, const Row& row) const {
        Path kept[4];
        const auto path_of = [&](int spin, int il, int i, int ir) -> const Path& {
            for (const Path& p : kept)
                if (p.spin == spin) return p;
            Path* slot = kept;
            while (slot->spin == il || slot->spin == i || slot->spin == ir) ++slot;
            trace(*slot, spin);
            return *slot;
        };
        for (int i = 0; i < u.d; ++i) {
            const int il = u.wrap(i - 1), ir = u.wrap(i + 1);
            const Path& left = path_of(il, il, i, ir);
            const Path& own = path_of(i, il, i, ir);
            const Path& right = path_of(ir, il, i, ir);
            row(i, il, ir, left, own, right);
        }
    }

    // The stage map's residual block into out, then its Jacobian blocks from g and its derivatives
    // (exact or approximate; the formulas above the analytic linearise_into) into sink, one at a
    // time: the own block first, from dg_self() = dg/dv_i and dc_of() = dc/dv_i, then the
    // neighbours' from dg_neighbour(-1) = dg/dv_{i-1} and dg_neighbour(+1) = dg/dv_{i+1}, each
    // called when its block is formed. On the GPU the three blocks and the three of dg were
    // otherwise alive together: 1-36 registers fewer on 69 DRG kernels, more on two (ptxas, sm_90;
    // the own block first took fewer than the neighbours' first on 8 of 16 kernels tried, as many
    // on 7, two more on one; bench/RESULTS.md, "Jacobian blocks handed on one at a time").
    template <class NeighbourDg, class SelfDg, class CentreJacobian, class Sink>
    GEOMINT_HD void stage_blocks_into(const Neighbourhood<Real, Real>& n, const Vec3<Real>& c, const Vec3<Real>& g,
                                      const NeighbourDg& dg_neighbour, const SelfDg& dg_self,
                                      const CentreJacobian& dc_of, Real* out, const Sink& sink) const {
        using M3 = Mat3<Real>;
        const Vec3<Real> m = Real(0.5) * (n.u + n.v);
        const Vec3<Real> r = (n.v - n.u) - retract_increment(c, n.u, h * cross(m, g));
        out[0] = r.x;
        out[1] = r.y;
        out[2] = r.z;
        const Vec3<Real> w = inverse_retract(c, n.u) + h * cross(m, g);
        const M3 np = normalise_jacobian(c + w);
        const M3 hm = M3::cross_matrix(h * m);
        {
            const M3 dc = dc_of();
            const M3 dw = inverse_retract_dc(c, n.u) * dc + hm * dg_self() - M3::cross_matrix((Real(0.5) * h) * g);
            emit_block(sink, 1, M3::identity() - np * (dc + dw));
        }
        emit_block(sink, 0, Real(-1) * (np * (hm * dg_neighbour(-1))));
        emit_block(sink, 2, Real(-1) * (np * (hm * dg_neighbour(1))));
    }
};

namespace detail {

// A first-order stage's gradient (ItohAbeGradient forward or adjoint) says so; the others do not.
template <class Gradient>
concept FirstOrderGradient = Gradient::first_order;

// x <- x - R(x), one fixed-point step of the stage: with R(v) = (v - u) - phi(v) it is v <- u +
// phi(v), a contraction of about h L. r: 3 d reals of scratch.
template <class Stage, class Real, class Team>
GEOMINT_HD void fixed_point_step(const Stage& stage, StridedReals<Real> x, StridedReals<Real> r, int d,
                                 const Team& team) {
    team_for(team, d, [&](int i) {
        Real out[3];
        residual_block<Real>(stage, x, d, i, out);
        for (int k = 0; k < 3; ++k) r[3 * i + k] = out[k];
    });
    team.barrier();  // every residual reads its neighbours' x before any is moved
    team_for(team, d, [&](int i) {
        for (int k = 0; k < 3; ++k) x[3 * i + k] -= r[3 * i + k];
    });
    team.barrier();
}

// Solves one stage from `from` into `to` (they may alias: `to` is written only on success).
// x: 3 d reals for the unknowns, newton_work: local_newton_workspace_reals<3>(d) and
// rank_one_workspace_reals<3>(d) (the Gonzalez midpoint's rank-one term). With a parallel
// team (team.hpp) every worker calls it; the O(d) loops are split and end at a barrier.
template <Centre centre, class Gradient, class System, class Real, class Team = SequentialTeam>
GEOMINT_HD NewtonOutcome<Real> drg_stage(const System& system, const Gradient& gradient, Real h,
                                         StridedSpins<Real> from, StridedSpins<Real> to, StridedReals<Real> x,
                                         StridedReals<Real> newton_work, const NewtonOptions<Real>& options,
                                         const Team& team = Team{}) {
    const int d = from.d;
    explicit_guess(system, h, from, x, newton_work, team);  // Newton's workspace is free until it starts
    DrgStage<centre, Gradient, System, Real> stage{system, from, h, gradient};
    // A first-order stage's v is O(h^2) from the midpoint first iterate (of second order), so
    // one fixed-point step brings it to O(h^3): 4 linear solves a stage on the host's chains
    // against 5, and ia, comp2 and comp4 steps 3-5% faster (bench/RESULTS.md, "A fixed-point
    // step for the Itoh-Abe stages"). Second-order stages gain under a solve (4 -> 3.04) and no
    // time, so they do not take it.
    if constexpr (first_iterate<System> == FirstIterate::midpoint && FirstOrderGradient<Gradient>)
        fixed_point_step(stage, x, newton_work, d, team);
    const NewtonOutcome<Real> out = newton_solve(stage, x, newton_work, options, team);
    if (out.status != SolveStatus::ok) return out;
    // The converged iterate is v_i = phi_c(W_i) to the Newton tolerance, so |v_i| = 1 to round-off
    // and does not drift (the residual's u.u - 1 term pulls every step back onto the sphere). It
    // is used as is:
    // renormalising it once more moved H by (radial part of dH/ds) x (rounding), a bias that
    // accumulated to ~1e-15 per step for mp on the spin wave.
    team_for(team, d, [&](int i) { to.set(i, x.spins(d).get(i)); });
    team.barrier();
    return out;
}

// Workspace of every DRG scheme: unknowns (3 d), one intermediate stage state (3 d), Newton (the
// Gonzalez midpoint adds its own part: GonzalezMidpoint::workspace_reals).
GEOMINT_HD constexpr std::size_t drg_workspace_reals(int d) {
    return 6 * static_cast<std::size_t>(d) + local_newton_workspace_reals<3, double>(d);  // count, any Real
}

// A sequence of stages state -> y -> ... -> y -> state; the state is written only when every
// stage has converged, so a failed step leaves it untouched (INTERFACE.md).
struct StagedStep {
    template <class Real>
    struct Parts {
        StridedReals<Real> x, newton;
        StridedSpins<Real> y;
    };
    template <class Real>
    GEOMINT_HD static Parts<Real> carve(StridedReals<Real> work, int d) {
        const std::size_t n = 3 * static_cast<std::size_t>(d);
        return Parts<Real>{work, work.at(2 * n), work.at(n).spins(d)};
    }
};

// Triple-jump coefficients (math §2.2): g1 = g3 = 1/(2 - 2^{1/3}), g2 = 1 - 2 g1.
// 2^{1/3} is written as its correctly rounded double (also correctly rounded once converted to
// float), not std::cbrt(2): libm's cbrt is not correctly rounded everywhere (CUDA's, clang's
// unfolded call), and the same bits on every compiler and backend keep results identical.
template <class Real>
GEOMINT_HD Real triple_jump_outer() {
    constexpr double cube_root_of_two = 1.2599210498948732;
    return Real(1) / (Real(2) - Real(cube_root_of_two));
}

// Accumulates a stage outcome; returns false when the step has to stop.
template <class Real>
GEOMINT_HD bool add_stage(NewtonOutcome<Real>& total, const NewtonOutcome<Real>& stage) {
    total.iterations += stage.iterations;
    total.status = stage.status;
    return stage.status == SolveStatus::ok;
}

// Triple jump of a symmetric second-order step (math §2.2): stage(g h, from, to) is run for
// g = g1, 1 - 2 g1, g1 into the intermediate state p.y; the state is written only when all
// three have converged.
// One thread per chain (SequentialTeam) copies the state into p.y first and runs every stage in
// place there (from = to = p.y), as a single-stage scheme runs its stage on the state: the same
// arithmetic on the same values, so the same results, for a copy of 3 d reals a step. On the GPU
// the stages then hold one view where they held two: 15 of compsia's and comp4's 18 double
// thread-per-chain kernels took 2-16 registers fewer (compsia's chain kernels 178-186 -> 168-174,
// comp4's plain and portrait chain kernels 170-184 -> 160-178), comp4's two chain kernels with
// saves 4 more (172 -> 176, 180 -> 184; ptxas, sm_90; bench/RESULTS.md, "The triple jump's stages
// in place"). A parallel team keeps the stages from the state: in place, its block kernels took
// up to 32 more.
template <class Real, class Stage, class Team>
GEOMINT_HD NewtonOutcome<Real> triple_jump(Real h, StridedSpins<Real> state, const StagedStep::Parts<Real>& p,
                                           const Stage& stage, const Team& team) {
    const Real g1 = triple_jump_outer<Real>();
    const Real fractions[3] = {g1, Real(1) - Real(2) * g1, g1};
    NewtonOutcome<Real> total{SolveStatus::ok, 0};
    if constexpr (Team::sequential) {
        for (int i = 0; i < state.d; ++i) p.y.set(i, state.get(i));
        for (int s = 0; s < 3; ++s)
            if (!add_stage(total, stage(fractions[s] * h, p.y, p.y))) return total;
    } else {
        for (int s = 0; s < 3; ++s) {
            const StridedSpins<Real> from = s == 0 ? state : p.y;
            if (!add_stage(total, stage(fractions[s] * h, from, p.y))) return total;
        }
    }
    team_for(team, state.d, [&](int i) { state.set(i, p.y.get(i)); });
    team.barrier();
    return total;
}

}  // namespace detail

// Base of the single-stage schemes: Gradient built by Make, centre as given.
template <Centre centre, class Gradient>
struct SingleStageDrg {
    GEOMINT_HD std::size_t workspace_reals(int d) const { return detail::drg_workspace_reals(d); }

    template <class System, class Real, class Team = SequentialTeam>
    GEOMINT_HD NewtonOutcome<Real> step(const System& system, Real h, StridedSpins<Real> state, StridedReals<Real> work,
                                        const NewtonOptions<Real>& options, const Team& team = Team{}) const {
        const auto p = detail::StagedStep::carve(work, state.d);
        return detail::drg_stage<centre>(system, make_gradient<Real>(), h, state, state, p.x, p.newton, options, team);
    }

private:
    template <class Real>
    GEOMINT_HD static auto make_gradient() {
        if constexpr (requires { typename Gradient::template Of<Real>; }) {
            return typename Gradient::template Of<Real>{};
        } else {
            return Gradient{};
        }
    }
};

// The Gonzalez gradient is templated on Real (it stores lambda); this selects it per Real.
struct MidpointGradientFamily {
    template <class Real>
    using Of = MidpointGradient<Real>;
};

struct Avf : SingleStageDrg<Centre::symmetric, AvfGradient> {
    static constexpr const char* name = "avf";
    static constexpr int order = 2;
    static constexpr const char* preserves = "energy";
    static constexpr const char* summary = "averaged vector field DRG";
};
struct GonzalezMidpoint : SingleStageDrg<Centre::symmetric, MidpointGradientFamily> {
    static constexpr const char* name = "mp";
    static constexpr int order = 2;
    static constexpr const char* preserves = "energy";
    static constexpr const char* summary = "Gonzalez midpoint DRG";
    // Newton's room after the other DRG schemes' for lambda's rank-one term (DrgStage::coupling)
    // and the values its rows are finished from (DrgStage::prepared_residual_sweep): host only,
    // 24 d of 69 d reals, which the GPU does not use.
    GEOMINT_HD std::size_t workspace_reals(int d) const {
        return detail::drg_workspace_reals(d) + rank_one_workspace_reals<3>(d);
    }
};
struct LocalMidpoint : SingleStageDrg<Centre::symmetric, LocalMidpointGradient> {  // chains only
    static constexpr const char* name = "mmp";
    static constexpr int order = 2;
    static constexpr const char* preserves = "energy";
    static constexpr const char* summary = "local midpoint DRG (chains only)";
    // Needs the system's exact local midpoint DRG (math §2.2), which only chains provide.
    template <class System>
    static constexpr bool applies_to() {
        return System::is_chain && requires(const System& s, const Vec3<double>& v) {
            s.midpoint_drg(v, v, v, v, v, v);
        };
    }
};
struct ItohAbe : SingleStageDrg<Centre::start, ItohAbeGradient<IaDirection::forward>> {  // order 1
    static constexpr const char* name = "ia";
    static constexpr int order = 1;
    static constexpr const char* preserves = "energy";
    static constexpr const char* summary = "Itoh-Abe DRG";
};
struct SymmetrisedItohAbe : SingleStageDrg<Centre::symmetric, ItohAbeGradient<IaDirection::symmetrised>> {
    static constexpr const char* name = "sia";
    static constexpr int order = 2;
    static constexpr const char* preserves = "energy";
    static constexpr const char* summary = "symmetrised Itoh-Abe DRG";
};

// Comp-2 (math §2.2): half a step of the adjoint (g = IA(v, u)), then half a step of IA(u, v),
// both with the symmetric centre.
struct Comp2 {
    static constexpr const char* name = "comp2";
    static constexpr int order = 2;
    static constexpr const char* preserves = "energy";
    static constexpr const char* summary = "Itoh-Abe and its adjoint, half steps";
    GEOMINT_HD std::size_t workspace_reals(int d) const { return detail::drg_workspace_reals(d); }

    template <class System, class Real, class Team = SequentialTeam>
    GEOMINT_HD NewtonOutcome<Real> step(const System& system, Real h, StridedSpins<Real> state, StridedReals<Real> work,
                                        const NewtonOptions<Real>& options, const Team& team = Team{}) const {
        const auto p = detail::StagedStep::carve(work, state.d);
        NewtonOutcome<Real> total{SolveStatus::ok, 0};
        if (!detail::add_stage(total, half_pair(system, h, state, p.y, p, options, team))) return total;
        team_for(team, state.d, [&](int i) { state.set(i, p.y.get(i)); });
        team.barrier();
        return total;
    }

    // Both halves of one Comp-2 step of size h, from `from` into p.y.
    template <class System, class Real, class Parts, class Team>
    GEOMINT_HD static NewtonOutcome<Real> half_pair(const System& system, Real h, StridedSpins<Real> from,
                                                    StridedSpins<Real> to, const Parts& p,
                                                    const NewtonOptions<Real>& options, const Team& team) {
        NewtonOutcome<Real> total{SolveStatus::ok, 0};
        const Real half = Real(0.5) * h;
        if (!detail::add_stage(
                total, detail::drg_stage<Centre::symmetric>(system, ItohAbeGradient<IaDirection::adjoint>{}, half, from,
                                                            to, p.x, p.newton, options, team)))
            return total;
        detail::add_stage(total, detail::drg_stage<Centre::symmetric>(system, ItohAbeGradient<IaDirection::forward>{},
                                                                      half, to, to, p.x, p.newton, options, team));
        return total;
    }
};

// Comp-SIA (math §2.2): the triple jump of SIA, order 4.
struct CompSia {
    static constexpr const char* name = "compsia";
    static constexpr int order = 4;
    static constexpr const char* preserves = "energy";
    static constexpr const char* summary = "triple jump of sia";
    GEOMINT_HD std::size_t workspace_reals(int d) const { return detail::drg_workspace_reals(d); }

    template <class System, class Real, class Team = SequentialTeam>
    GEOMINT_HD NewtonOutcome<Real> step(const System& system, Real h, StridedSpins<Real> state, StridedReals<Real> work,
                                        const NewtonOptions<Real>& options, const Team& team = Team{}) const {
        const auto p = detail::StagedStep::carve(work, state.d);
        return detail::triple_jump(
            h, state, p,
            [&](Real sub_h, StridedSpins<Real> from, StridedSpins<Real> to) {
                return detail::drg_stage<Centre::symmetric>(system, ItohAbeGradient<IaDirection::symmetrised>{}, sub_h,
                                                            from, to, p.x, p.newton, options, team);
            },
            team);
    }
};

// Comp-4 (math §2.2): the triple jump of Comp-2, six Itoh-Abe stages, order 4.
struct Comp4 {
    static constexpr const char* name = "comp4";
    static constexpr int order = 4;
    static constexpr const char* preserves = "energy";
    static constexpr const char* summary = "triple jump of comp2";
    GEOMINT_HD std::size_t workspace_reals(int d) const { return detail::drg_workspace_reals(d); }

    template <class System, class Real, class Team = SequentialTeam>
    GEOMINT_HD NewtonOutcome<Real> step(const System& system, Real h, StridedSpins<Real> state, StridedReals<Real> work,
                                        const NewtonOptions<Real>& options, const Team& team = Team{}) const {
        const auto p = detail::StagedStep::carve(work, state.d);
        return detail::triple_jump(
            h, state, p,
            [&](Real sub_h, StridedSpins<Real> from, StridedSpins<Real> to) {
                return Comp2::half_pair(system, sub_h, from, to, p, options, team);
            },
            team);
    }
};

}  // namespace geomint::spin
