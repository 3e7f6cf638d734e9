// How a system or potential declares the run-wide parameters it takes (name, size, default,
// meaning): the CLI options, the help text and the checks are generated from this declaration,
// so a new Hamiltonian brings its parameters in its own header.
#pragma once

namespace geomint {

enum class ParameterDomain { finite, positive };

struct ParameterSpec {
    const char* name;           // the option is --NAME
    int components;             // values, written comma-separated: 3 for a vector
    const char* default_value;  // text, as a user would write it
    const char* help;           // one line
    ParameterDomain domain = ParameterDomain::finite;
};

template <int N>
struct ParameterList {
    ParameterSpec items[N > 0 ? N : 1];
    static constexpr int size = N;

    // Reals of all parameters together, in declaration order (what from_parameters reads).
    constexpr int reals() const {
        int total = 0;
        for (int k = 0; k < N; ++k) total += items[k].components;
        return total;
    }
};

// parameter_list(ParameterSpec{...}, ...): the declaration, deduced size (possibly none).
template <class... Specs>
constexpr ParameterList<static_cast<int>(sizeof...(Specs))> parameter_list(Specs... specs) {
    if constexpr (sizeof...(Specs) == 0) {
        return ParameterList<0>{{ParameterSpec{"", 0, "", ""}}};
    } else {
        return ParameterList<static_cast<int>(sizeof...(Specs))>{{specs...}};
    }
}

}  // namespace geomint
