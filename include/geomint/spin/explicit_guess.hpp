// Newton's first iterate for a spin step u -> v (math §3), shared by the DRG stages and the
// midpoint rules: one explicit step on the sphere, Euler's or, for the host's chains, the midpoint
// rule's.
#pragma once

#include "geomint/platform.hpp"
#include "geomint/spin/geometry.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/team.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

// The two first iterates, each one explicit step on the sphere:
// - euler:    v_i = phi_{u_i}(h u_i x dH/ds_i(u)), within O(h^2) of the exact flow;
// - midpoint: m_i = phi_{u_i}((h/2) u_i x dH/ds_i(u)), v_i = phi_{u_i}(h m_i x dH/ds_i(m)).
//   In R^3, u + h f(u + (h/2) f(u)) with f(s) = s x grad H(s) is the explicit midpoint rule,
//   within O(h^3) of the flow. m is off the straight half step by O(h^2), which moves h f(m) by
//   O(h^3), and normalising a point that close to the (unit) flow keeps it as close: v is within
//   O(h^3) of the flow, and so of the second-order schemes' v.
// Which one runs, measured at h = 0.05 (bench/RESULTS.md, "An explicit midpoint first iterate";
// the counts are tests/spin/test_explicit_guess.cpp's):
// - the host's chains: the midpoint step. The simplified Newton, whose factors are formed at the
//   guess and kept, takes one linear solve fewer a stage (4 against 5) for avf, mp, mmp, sia and
//   both midpoint rules, whose chain steps were 7-29% faster in two measurements; ia's stages
//   (first order, so the guess is within O(h^2) of their v too) gained less, and comp2, made of
//   them, nothing, until drg_stage took one fixed-point step after it for them (schemes/drg.hpp);
// - the host's top: Euler's. The midpoint step saves about 0.5 of 3.5 solves there too, but its
//   extra gradient and half-step pass cost as much for the DRG schemes (-2% to +5%) and more for
//   the midpoint rules (9-10% slower), whose solves on the top are cheap;
// - the GPU: Euler's. On chains an exact Newton gains nothing (3 iterations against 3), the GPU's
//   quasi-Newton of avf and sia -0.3 to +0.3, its mp (no rank-one term) 0.6-0.8 of 6; and the
//   midpoint step made 66 chain kernels 2-38 registers larger, three of them no longer within 128
//   (mp's -2 to +12; ptxas, sm_90). On the top Newton takes 2.0 iterations against 2.6, for -4 to
//   +12 registers. Gains not measured on a GPU, so not taken yet.
enum class FirstIterate { euler, midpoint };

// What the GPU runs, named for the host tests that reproduce the GPU's solves.
template <class System>
inline constexpr FirstIterate device_first_iterate = FirstIterate::euler;
#if defined(__CUDA_ARCH__)
template <class System>
inline constexpr FirstIterate first_iterate = device_first_iterate<System>;
#else
template <class System>
inline constexpr FirstIterate first_iterate = System::is_chain ? FirstIterate::midpoint : FirstIterate::euler;
#endif

// Writes the guess `rule` for every spin of `from` into x (3 d reals, not aliasing `from`); the
// midpoint step keeps its half step in `scratch` (3 d reals, aliasing neither; left undefined).
// The guess is only where Newton starts: the converged v is the same zero of the same residual.
// Every worker of a team writes its own spins; the barriers keep a worker from reading a
// neighbour's half step before it is written, or Newton from overwriting `scratch` (its
// workspace, in the schemes) while another worker still reads it.
template <FirstIterate rule, class System, class Real, class Team>
GEOMINT_HD void explicit_guess_by(const System& system, Real h, StridedSpins<Real> from, StridedReals<Real> x,
                                  StridedReals<Real> scratch, const Team& team) {
    const int d = from.d;
    if constexpr (rule == FirstIterate::euler) {
        team_for(team, d, [&](int i) {
            const Vec3<Real> ui = from.get(i);
            const Vec3<Real> g = system.gradient(from.get(from.wrap(i - 1)), ui, from.get(from.wrap(i + 1)));
            x.spins(d).set(i, retract(ui, h * cross(ui, g)));
        });
    } else {
        const StridedSpins<Real> half = scratch.spins(d);
        team_for(team, d, [&](int i) {
            const Vec3<Real> ui = from.get(i);
            const Vec3<Real> g = system.gradient(from.get(from.wrap(i - 1)), ui, from.get(from.wrap(i + 1)));
            half.set(i, retract(ui, (Real(0.5) * h) * cross(ui, g)));
        });
        team.barrier();
        team_for(team, d, [&](int i) {
            const Vec3<Real> mi = half.get(i);
            const Vec3<Real> g = system.gradient(half.get(half.wrap(i - 1)), mi, half.get(half.wrap(i + 1)));
            x.spins(d).set(i, retract(from.get(i), h * cross(mi, g)));
        });
        team.barrier();
    }
}

// The first iterate of this platform (first_iterate above): what the schemes start from.
template <class System, class Real, class Team>
GEOMINT_HD void explicit_guess(const System& system, Real h, StridedSpins<Real> from, StridedReals<Real> x,
                               StridedReals<Real> scratch, const Team& team) {
    explicit_guess_by<first_iterate<System>>(system, h, from, x, scratch, team);
}

}  // namespace geomint::spin
