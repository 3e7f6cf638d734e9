// Host-side choice of the compiled (scheme, potential) pair for a pendulum run, shared by
// the CPU backend and the CUDA launcher so both instantiate the same bodies.
#pragma once

#include <stdexcept>

#include "geomint/pendulum/newmark.hpp"
#include "geomint/pendulum/potentials.hpp"
#include "geomint/pendulum/simpson.hpp"

namespace geomint {

enum class PendulumScheme { newmark, simpson };
enum class PotentialKind { pendulum, duffing };

// Calls f(Scheme{}, PotentialType{}) with the types named by the run-time choice.
template <class Real, class F>
void with_pendulum_types(PendulumScheme scheme, PotentialKind potential, F&& f) {
    const auto with_potential = [&](auto scheme_object) {
        switch (potential) {
            case PotentialKind::pendulum: return f(scheme_object, PendulumPotential<Real>{});
            case PotentialKind::duffing: return f(scheme_object, DuffingPotential<Real>{});
        }
        throw std::invalid_argument("unknown potential");
    };
    switch (scheme) {
        case PendulumScheme::newmark: return with_potential(Newmark{});
        case PendulumScheme::simpson: return with_potential(Simpson{});
    }
    throw std::invalid_argument("unknown scheme");
}

}  // namespace geomint
