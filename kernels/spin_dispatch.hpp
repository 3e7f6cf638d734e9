// Host-side choice of the compiled (scheme, system) pair for a spin run, shared by the CPU
// backend and the CUDA launcher so both instantiate the same bodies.
#pragma once

#include <string>
#include <type_traits>

#include "geomint/spin/scheme_dispatch.hpp"
#include "geomint/spin/systems.hpp"

namespace geomint {

enum class SpinSystemKind { top, chain, anisotropic_chain };

// Parameters of the Hamiltonian; each system reads its own.
struct SpinSystemParameters {
    SpinSystemKind kind = SpinSystemKind::top;
    double inertia[3] = {1, 2, 4};  // top (SPEC §2: I = diag(1, 2, 4))
    double field[3] = {0, 0, 0};    // anisotropic chain: Zeeman term field . s_i
    double anisotropy = 0;          // anisotropic chain: anisotropy (s_i^z)^2
};

inline bool is_chain(SpinSystemKind kind) { return kind != SpinSystemKind::top; }

// Calls f(system) with the system object that `p` describes.
template <class Real, class F>
void with_spin_system(const SpinSystemParameters& p, F&& f) {
    switch (p.kind) {
        case SpinSystemKind::top:
            return f(spin::SpinningTop<Real>::with_inertia(Real(p.inertia[0]), Real(p.inertia[1]), Real(p.inertia[2])));
        case SpinSystemKind::chain:
            return f(spin::HeisenbergChain<Real>{});
        case SpinSystemKind::anisotropic_chain: {
            spin::AnisotropicChain<Real> system;
            system.field = spin::Vec3<Real>{Real(p.field[0]), Real(p.field[1]), Real(p.field[2])};
            system.anisotropy = Real(p.anisotropy);
            return f(system);
        }
    }
}

// Calls f(scheme) for the scheme named `name`, instantiating only the schemes valid for System:
// mmp needs neighbours (SPEC §2.2), and with_spin_scheme never hands it over for a top.
template <class System, class F>
void with_spin_scheme_for(const std::string& name, F&& f) {
    spin::with_spin_scheme(name, System::is_chain, [&](auto scheme) {
        if constexpr (System::is_chain || !std::is_same_v<decltype(scheme), spin::LocalMidpoint>) f(scheme);
    });
}

// Calls f(scheme, system) with the types named by the run-time choice; throws
// std::invalid_argument for a scheme unknown or invalid for the system.
template <class Real, class F>
void with_spin_types(const SpinSystemParameters& p, const std::string& scheme_name, F&& f) {
    with_spin_system<Real>(p, [&](auto system) {
        with_spin_scheme_for<decltype(system)>(scheme_name, [&](auto scheme) { f(scheme, system); });
    });
}

}  // namespace geomint
