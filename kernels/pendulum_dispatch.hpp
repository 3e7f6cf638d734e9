// Host-side choice of the compiled (scheme, potential) pair of a pendulum run, by registry index
// (include/geomint/pendulum/registry.hpp), shared by the CPU backend and the CUDA launcher so
// both instantiate the same bodies: one per registry entry pair.
#pragma once

#include <stdexcept>
#include <vector>

#include "geomint/pendulum/registry.hpp"
#include "registry_lookup.hpp"

namespace geomint {

// What a pendulum run integrates: registry indices and the potential's declared parameters, in
// declaration order (PendulumPotentials entry ::parameters).
struct PendulumModel {
    int scheme = 0;
    int potential = 0;
    std::vector<double> potential_parameters;
};

// The model of the named scheme and potential with the potential's default parameters (tests,
// benchmarks, bindings); std::invalid_argument for a name not in the registry.
inline PendulumModel make_pendulum_model(std::string_view scheme, std::string_view potential = "pendulum") {
    PendulumModel model;
    model.scheme = registry_index_or_throw(PendulumSchemes{}, scheme);
    model.potential = registry_index_or_throw(PendulumPotentials{}, potential);
    model.potential_parameters = registry_default_parameters(PendulumPotentials{}, model.potential);
    return model;
}

// Calls f(Scheme{}, potential) with the potential built from the model's parameters in Real.
template <class Real, class F>
void with_pendulum_types(const PendulumModel& model, F&& f) {
    const std::vector<Real> values(model.potential_parameters.begin(), model.potential_parameters.end());
    bool potential_found = false;
    const bool scheme_found = with_type_at(PendulumSchemes{}, model.scheme, [&](auto scheme) {
        potential_found = with_type_at(PendulumPotentials{}, model.potential, [&](auto entry) {
            using Potential = typename decltype(entry)::template type<Real>;
            f(scheme, Potential::from_parameters(values.data()));
        });
    });
    if (!scheme_found || !potential_found) throw std::invalid_argument("pendulum scheme or potential not registered");
}

}  // namespace geomint
