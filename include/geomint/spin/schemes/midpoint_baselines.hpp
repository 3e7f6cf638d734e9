// The two baselines the energy-preserving schemes are compared with (math §2.5): the implicit
// midpoint rule in the embedding R^{3d} and the spherical midpoint rule of McLachlan-Modin-Verdier.
#pragma once

#include <cstddef>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/spin/explicit_guess.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/mat3.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/team.hpp"
#include "geomint/spin/team_newton.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

enum class MidpointKind {
    embedded,   // m_i = (u_i + v_i)/2: the implicit midpoint rule for ds_i/dt = s_i x dH/ds_i in R^{3d}
    spherical,  // m_i = (u_i + v_i)/|u_i + v_i| (McLachlan, Modin, Verdier 2014)
};

// Which Newton Jacobian the midpoint rules build (issue 10 items 1 and 3, chosen by
// measurement). On the host the analytic blocks of MidpointStep::linearise, about 2x cheaper than
// dual numbers (bench/RESULTS.md, "Spin Newton Jacobians"). On the GPU whichever takes fewer
// registers in the plain double kernel (sm_90, CUDA 13.0, registers / stack B / spill stores B,
// analytic against dual numbers with one column per pass; RESULTS, "2026-12-04 — Spin kernels:
// dual-number Jacobians on the device"): implicit midpoint top 124/32/0 against 122/32/0, chains
// 116/32/0 against 150/32/0 (Heisenberg) and 114/32/0 against 144/32/0 (anisotropic); spherical
// midpoint top 108/32/0 against 124/32/0, chains 146/32/0 against 180/32/0 and 152/32/0 against
// 154/32/0. So analytic everywhere but for the embedded rule on a single spin (whose saving and
// portrait kernels also take fewer: 120 and 126 registers against 122 and 128).
#if defined(__CUDA_ARCH__)
template <MidpointKind kind, class System>
inline constexpr bool midpoint_analytic_jacobian = System::is_chain || kind == MidpointKind::spherical;
#else
template <MidpointKind kind, class System>
inline constexpr bool midpoint_analytic_jacobian = true;
#endif

// One step as a local problem (local_newton.hpp), unknown v_i per spin (block 3):
//   v_i - u_i - h m_i x dH/ds_i(m_{i-1}, m_i, m_{i+1}).
// Both rules keep |v_i| = |u_i| exactly: v_i - u_i is orthogonal to m_i, a multiple of u_i + v_i,
// so |v_i|^2 - |u_i|^2 = (v_i - u_i).(v_i + u_i) = 0. The embedded rule preserves only quadratic
// invariants, so not the top's cubic H (math §2.5); the spherical one is symplectic, order 2.
template <MidpointKind kind, class System, class Real>
struct MidpointStep {
    static constexpr int block_size = 3;
    // The spherical rule keeps |s_i| = 1 by itself (it is not renormalised), so the host's
    // simplified Newton must leave no systematic error there (local_simplified_newton_solve): without
    // the extra step its unit-length error grew tenfold per decade, 4.3e-13 after 10^5 top steps of
    // h = 0.1 against 8.3e-15 under Newton (bench/RESULTS.md, "A simplified Newton for every spin
    // step"). The implicit midpoint rule renormalises, and neither rule keeps the energy.
    static constexpr bool exact_conservation = kind == MidpointKind::spherical;
    const System& system;
    StridedSpins<Real> u;
    Real h;

    GEOMINT_HD int blocks() const { return u.d; }

    template <class T>
    GEOMINT_HD Vec3<T> midpoint(int i, const T* v) const {
        const Vec3<T> sum = u.get(i) + Vec3<T>{v[0], v[1], v[2]};
        if constexpr (kind == MidpointKind::spherical) {
            return sum / norm(sum);
        } else {
            return Real(0.5) * sum;
        }
    }

    template <class T>
    GEOMINT_HD void residual(int i, const T* left, const T* self, const T* right, T* out) const {
        const Vec3<T> m = midpoint(i, self);
        Vec3<T> ml = m, mr = m;
        if constexpr (System::is_chain) {
            ml = midpoint(u.wrap(i - 1), left);
            mr = midpoint(u.wrap(i + 1), right);
        }
        const Vec3<T> r = Vec3<T>{self[0], self[1], self[2]} - u.get(i) - h * cross(m, system.gradient(ml, m, mr));
        out[0] = r.x;
        out[1] = r.y;
        out[2] = r.z;
    }

    // Analytic Jacobian (math §3): with M = dm_i/dv_i and the Hessian blocks H of the system,
    // d(m x g) = -[g]x dm + [m]x dg, so D = I + h [g]x M - h [m]x H_self M and the neighbour
    // blocks are -h [m]x H_left M_left, -h [m]x H_right M_right. For the top all three arguments
    // of the gradient are m_i: the three Hessian blocks add up in D. The residual goes out first
    // and the blocks one at a time (emit_block, mat3.hpp), the neighbours' first: on the GPU
    // holding all three had kept the spherical midpoint's chain kernels at 142-152 registers, now
    // 122-146, four of six within 128 (the own block first: 130 on the Heisenberg chain; ptxas,
    // sm_90; bench/RESULTS.md, "Jacobian blocks handed on one at a time").
    template <class Sink>
    GEOMINT_HD void linearise_into(int i, const Real* left, const Real* self, const Real* right, Real* out,
                                   const Sink& sink) const
        requires(midpoint_analytic_jacobian<kind, System>&& HasGradientJacobian<System, Real>) {
        using M3 = Mat3<Real>;
        const Vec3<Real> m = midpoint(i, self);
        Vec3<Real> ml = m, mr = m;
        if constexpr (System::is_chain) {
            ml = midpoint(u.wrap(i - 1), left);
            mr = midpoint(u.wrap(i + 1), right);
        }
        const Vec3<Real> g = system.gradient(ml, m, mr);
        const Vec3<Real> r = Vec3<Real>{self[0], self[1], self[2]} - u.get(i) - h * cross(m, g);
        out[0] = r.x;
        out[1] = r.y;
        out[2] = r.z;
        const NeighbourJacobian<Real> hess = system.gradient_jacobian(ml, m, mr);
        const M3 hm = M3::cross_matrix(h * m);
        if constexpr (System::is_chain) {
            emit_block(sink, 0, Real(-1) * (hm * hess.left * midpoint_jacobian(u.wrap(i - 1), left)));
            emit_block(sink, 2, Real(-1) * (hm * hess.right * midpoint_jacobian(u.wrap(i + 1), right)));
            emit_block(sink, 1,
                       M3::identity() + (M3::cross_matrix(h * g) - hm * hess.self) * midpoint_jacobian(i, self));
        } else {
            emit_block(sink, 0, M3::zero());
            emit_block(sink, 2, M3::zero());
            emit_block(sink, 1,
                       M3::identity() + (M3::cross_matrix(h * g) - hm * (hess.left + hess.self + hess.right)) *
                                            midpoint_jacobian(i, self));
        }
    }

private:
    GEOMINT_HD Mat3<Real> midpoint_jacobian(int i, const Real* v) const {
        if constexpr (kind == MidpointKind::spherical) {
            return normalise_jacobian(u.get(i) + Vec3<Real>{v[0], v[1], v[2]});
        } else {
            return Mat3<Real>::identity(Real(0.5));
        }
    }
};

namespace detail {

// Unknowns (3 d) and the Newton workspace (block 3).
GEOMINT_HD inline std::size_t midpoint_workspace_reals(int d) {
    return 3 * static_cast<std::size_t>(d) + local_newton_workspace_reals<3, double>(d);
}

// Solves one step in place; the state is written only after Newton has converged (INTERFACE.md).
// With a parallel team (team.hpp) every worker calls it; the O(d) loops are split.
template <MidpointKind kind, class System, class Real, class Team>
GEOMINT_HD NewtonOutcome<Real> midpoint_step(const System& system, Real h, StridedSpins<Real> state,
                                             StridedReals<Real> work, const NewtonOptions<Real>& options,
                                             bool renormalise, const Team& team) {
    const int d = state.d;
    const StridedReals<Real> x = work, newton_work = work.at(3 * static_cast<std::size_t>(d));
    explicit_guess(system, h, state, x, newton_work, team);  // Newton's workspace is free until it starts
    MidpointStep<kind, System, Real> problem{system, state, h};
    const NewtonOutcome<Real> out = newton_solve(problem, x, newton_work, options, team);
    if (out.status != SolveStatus::ok) return out;
    team_for(team, d, [&](int i) {
        const Vec3<Real> v = x.spins(d).get(i);
        state.set(i, renormalise ? v / norm(v) : v);
    });
    team.barrier();
    return out;
}

}  // namespace detail

// Both baselines: order 2, one Newton solve per step on the v_i, differing only in the midpoint
// and in whether the result is renormalised.
template <MidpointKind kind, bool renormalise>
struct MidpointRule {
    static constexpr int order = 2;

    GEOMINT_HD std::size_t workspace_reals(int d) const { return detail::midpoint_workspace_reals(d); }

    template <class System, class Real, class Team = SequentialTeam>
    GEOMINT_HD NewtonOutcome<Real> step(const System& system, Real h, StridedSpins<Real> state, StridedReals<Real> work,
                                        const NewtonOptions<Real>& options, const Team& team = Team{}) const {
        return detail::midpoint_step<kind>(system, h, state, work, options, renormalise, team);
    }
};

// "implicit_midpoint": v = u + h m x gradH(m), m = (u + v)/2, then each spin renormalised (the
// rule keeps |s_i| itself, so this only removes the Newton tolerance). It does not conserve the
// top's energy: the baseline the energy-preserving schemes are plotted against (math §2.5).
struct ImplicitMidpoint : MidpointRule<MidpointKind::embedded, true> {
    static constexpr const char* name = "implicit_midpoint";
    static constexpr const char* preserves = "unit length (renormalised); not the energy of a cubic H";
    static constexpr const char* summary = "implicit midpoint rule in R^3d (baseline)";
};

// "spherical_midpoint" (McLachlan, Modin, Verdier, Phys. Rev. E 89, 2014): v_i = u_i + h mhat_i x
// dH/ds_i(mhat), mhat_i = (u_i + v_i)/|u_i + v_i|. Symplectic on (S^2)^d, order 2. Not
// renormalised: the scheme itself keeps |s_i| = 1 (see MidpointStep), and the tests check that.
struct SphericalMidpoint : MidpointRule<MidpointKind::spherical, false> {
    static constexpr const char* name = "spherical_midpoint";
    static constexpr const char* preserves = "unit length, symplectic form; energy not exactly";
    static constexpr const char* summary = "spherical midpoint rule of McLachlan-Modin-Verdier (baseline)";
};

}  // namespace geomint::spin
