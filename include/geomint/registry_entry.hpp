// A registry entry for a family of types templated on the floating type (potentials, spin
// systems): Entry<PendulumPotential>::type<float> is the potential in float, and the entry
// forwards the family's metadata (name, summary, parameters) so a registry can list it without
// choosing a Real.
#pragma once

namespace geomint {

template <template <class> class Family>
struct Entry {
    template <class Real>
    using type = Family<Real>;
    static constexpr const char* name = Family<double>::name;
    static constexpr const char* summary = Family<double>::summary;
    static constexpr auto parameters = Family<double>::parameters;
};

}  // namespace geomint
