// Host-side selection of a spin scheme by name (INTERFACE.md): calls f with the scheme object,
// so each call site instantiates the per-chain code once per scheme.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "geomint/spin/schemes/collocation.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/schemes/midpoint_baselines.hpp"

namespace geomint::spin {

// Every name, in the order the paper presents the schemes (SPEC §2.2, §2.3, §2.5). mmp is the
// local midpoint DRG, defined for chains only (SPEC §2.2).
inline std::vector<std::string> spin_scheme_names(bool is_chain) {
    std::vector<std::string> names = {"avf", "mp"};
    if (is_chain) names.push_back("mmp");
    for (const char* n : {"ia", "sia", "comp2", "compsia", "comp4", "coll4", "coll6", "coll8", "implicit_midpoint",
                          "spherical_midpoint"})
        names.push_back(n);
    return names;
}

namespace detail {

template <class Scheme, class F>
bool dispatch_if(std::string_view name, F& f) {
    if (name != Scheme::name) return false;
    f(Scheme{});
    return true;
}

}  // namespace detail

// Calls f(SchemeObject) for the scheme named `name`; throws std::invalid_argument naming the
// scheme and the valid names when unknown or not valid for the system.
template <class F>
void with_spin_scheme(std::string_view name, bool is_chain, F&& f) {
    // mmp is only instantiated for chains: its DRG needs the system's midpoint_drg.
    bool found = detail::dispatch_if<Avf>(name, f) || detail::dispatch_if<GonzalezMidpoint>(name, f) ||
                 detail::dispatch_if<ItohAbe>(name, f) || detail::dispatch_if<SymmetrisedItohAbe>(name, f) ||
                 detail::dispatch_if<Comp2>(name, f) || detail::dispatch_if<CompSia>(name, f) ||
                 detail::dispatch_if<Comp4>(name, f) || detail::dispatch_if<Collocation<2>>(name, f) ||
                 detail::dispatch_if<Collocation<3>>(name, f) || detail::dispatch_if<Collocation<4>>(name, f) ||
                 detail::dispatch_if<ImplicitMidpoint>(name, f) || detail::dispatch_if<SphericalMidpoint>(name, f);
    if (!found && is_chain) found = detail::dispatch_if<LocalMidpoint>(name, f);
    if (found) return;
    std::string message = "unknown spin scheme '" + std::string(name) + "'";
    if (!is_chain && name == LocalMidpoint::name) message = "spin scheme 'mmp' is defined for chains only";
    message += "; valid names:";
    for (const std::string& n : spin_scheme_names(is_chain)) message += " " + n;
    throw std::invalid_argument(message);
}

}  // namespace geomint::spin
