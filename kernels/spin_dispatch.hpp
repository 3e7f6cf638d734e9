// Host-side choice of the compiled (scheme, system) pair of a spin run, by registry index
// (include/geomint/spin/registry.hpp), shared by the CPU backend and the CUDA launcher so both
// instantiate the same bodies: one per registry pair for which the scheme applies.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/registry.hpp"
#include "registry_lookup.hpp"

namespace geomint {

// What a spin run integrates: registry indices and the system's declared parameters, in
// declaration order (SpinSystems entry ::parameters).
struct SpinModel {
    int system = 0;
    int scheme = 0;
    std::vector<double> system_parameters;
};

// The model of the named system and scheme with the system's default parameters (tests,
// benchmarks, bindings); std::invalid_argument for a name not in the registry.
inline SpinModel make_spin_model(std::string_view system, std::string_view scheme) {
    SpinModel model;
    model.system = registry_index_or_throw(spin::SpinSystems{}, system);
    model.scheme = registry_index_or_throw(spin::SpinSchemes{}, scheme);
    model.system_parameters = registry_default_parameters(spin::SpinSystems{}, model.system);
    return model;
}

// The system of the model's entry, built from its parameters in Real.
template <class System, class Real>
System make_spin_system(const SpinModel& model) {
    const std::vector<Real> values(model.system_parameters.begin(), model.system_parameters.end());
    return System::from_parameters(values.data());
}

// Calls f(system) with the system of entry `model.system`, built from the model's parameters.
template <class Real, class F>
void with_spin_system(const SpinModel& model, F&& f) {
    const bool found = with_type_at(spin::SpinSystems{}, model.system, [&](auto entry) {
        using System = typename decltype(entry)::template type<Real>;
        f(make_spin_system<System, Real>(model));
    });
    if (!found) throw std::invalid_argument("spin system not registered");
}

// Calls f(Scheme{}) for entry `scheme` of the scheme registry, instantiating only the schemes that
// apply to System; throws std::invalid_argument for one that does not (the CLI checks first).
template <class System, class F>
void with_spin_scheme_for(int scheme, F&& f) {
    bool applies = true;
    const bool found = with_type_at(spin::SpinSchemes{}, scheme, [&](auto s) {
        if constexpr (spin::scheme_applies<decltype(s), System>()) {
            f(s);
        } else {
            applies = false;
        }
    });
    if (!found) throw std::invalid_argument("spin scheme not registered");
    if (!applies) throw std::invalid_argument("the spin scheme does not apply to this system");
}

// Calls f(scheme, system) for the model's pair.
template <class Real, class F>
void with_spin_types(const SpinModel& model, F&& f) {
    with_spin_system<Real>(model, [&](const auto& system) {
        with_spin_scheme_for<std::decay_t<decltype(system)>>(model.scheme, [&](auto scheme) { f(scheme, system); });
    });
}

// Whether scheme entry `scheme` applies to system entry `system` (the CLI's check).
inline bool spin_scheme_applies(int system, int scheme) {
    bool applies = false;
    with_type_at(spin::SpinSystems{}, system, [&](auto entry) {
        using System = typename decltype(entry)::template type<double>;
        with_type_at(spin::SpinSchemes{}, scheme,
                     [&](auto s) { applies = spin::scheme_applies<decltype(s), System>(); });
    });
    return applies;
}

// Reals of workspace one chain of `spins` spins needs for the model's scheme: O(spins).
inline std::size_t spin_workspace_reals(const SpinModel& model, int spins) {
    std::size_t reals = 0;
    with_type_at(spin::SpinSchemes{}, model.scheme, [&](auto scheme) { reals = spin::workspace_reals(scheme, spins); });
    return reals;
}

}  // namespace geomint
