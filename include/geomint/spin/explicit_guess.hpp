// Newton's first iterate for a spin step u -> v (math §3): one explicit Euler step on the sphere,
// v_i = phi_{u_i}(h u_i x dH/ds_i(u)), shared by the DRG stages and the midpoint rules.
#pragma once

#include "geomint/platform.hpp"
#include "geomint/spin/geometry.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/team.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

// Writes the guess for every spin of `from` into x (3 d reals, not aliasing `from`). Its error is
// O(h^2) where v = u's is O(h), so Newton's second iterate is closer by a factor of order h, and
// with the stop of local_newton.hpp (once the error left is below round-off) a Newton solve of a
// chain at h = 0.05 takes 3 iterations instead of 4 (bench/RESULTS.md, "An explicit first
// iterate"); the host's simplified Newton, whose kept Jacobian is the guess's, gains as well.
// The guess is only where Newton starts: the converged v is the same zero of the same residual.
// Every worker of a team writes its own spins and reads `from` only.
template <class System, class Real, class Team>
GEOMINT_HD void explicit_guess(const System& system, Real h, StridedSpins<Real> from, StridedReals<Real> x,
                               const Team& team) {
    const int d = from.d;
    team_for(team, d, [&](int i) {
        const Vec3<Real> ui = from.get(i);
        const Vec3<Real> g = system.gradient(from.get(from.wrap(i - 1)), ui, from.get(from.wrap(i + 1)));
        x.spins(d).set(i, retract(ui, h * cross(ui, g)));
    });
}

}  // namespace geomint::spin
