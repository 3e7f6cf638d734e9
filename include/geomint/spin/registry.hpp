// The registry of spin systems on (S^2)^d: every scheme and every Hamiltonian geomint offers.
// Names, help text, dispatch, CUDA instantiations and test lists are all generated from these two
// lists: a new scheme or Hamiltonian is its header plus one line here (CONTRIBUTING.md).
// The scheme order is the order of presentation (math §2.2, §2.3, then the baselines of §2.5).
#pragma once

#include "geomint/registry_entry.hpp"
#include "geomint/spin/schemes/collocation.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/schemes/midpoint_baselines.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/type_list.hpp"

// The test suite builds a second geomint whose registry has test-only entries, added exactly the
// way a new scheme or system is (tests/registry_extension/): GEOMINT_REGISTRY_EXTENSION names the
// header defining them, which sets GEOMINT_EXTRA_SPIN_SCHEMES / _SYSTEMS to ", Entry...". A normal
// build defines neither and the lists below are the whole registry.
#ifdef GEOMINT_REGISTRY_EXTENSION
#include GEOMINT_REGISTRY_EXTENSION
#endif
#ifndef GEOMINT_EXTRA_SPIN_SCHEMES
#define GEOMINT_EXTRA_SPIN_SCHEMES
#endif
#ifndef GEOMINT_EXTRA_SPIN_SYSTEMS
#define GEOMINT_EXTRA_SPIN_SYSTEMS
#endif

namespace geomint::spin {

using SpinSchemes = TypeList<Avf, GonzalezMidpoint, LocalMidpoint, ItohAbe, SymmetrisedItohAbe, Comp2, CompSia, Comp4,
                             Coll4, Coll6, Coll8, ImplicitMidpoint, SphericalMidpoint GEOMINT_EXTRA_SPIN_SCHEMES>;

template <template <class> class System>
struct SystemEntry : Entry<System> {
    static constexpr bool is_chain = System<double>::is_chain;
};
using SpinSystems = TypeList<SystemEntry<SpinningTop>, SystemEntry<HeisenbergChain>,
                             SystemEntry<AnisotropicChain> GEOMINT_EXTRA_SPIN_SYSTEMS>;

// Whether Scheme can run System: a scheme restricts itself with applies_to<System>() (mmp needs
// the chain's local midpoint DRG); the others run every system.
template <class Scheme, class System>
constexpr bool scheme_applies() {
    if constexpr (requires { Scheme::template applies_to<System>(); }) {
        return Scheme::template applies_to<System>();
    } else {
        return true;
    }
}

}  // namespace geomint::spin
