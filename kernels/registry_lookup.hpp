// Host-side reading of a registry (a TypeList of schemes, potentials or systems): the names in
// order and the index of a name. What the CLI lists, accepts and dispatches on comes from here.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "geomint/type_list.hpp"

namespace geomint {

template <class... Ts>
std::vector<std::string> registry_names(TypeList<Ts...>) {
    return {std::string(Ts::name)...};
}

// Index of the entry called `name`, or -1.
template <class List>
int registry_index(List list, std::string_view name) {
    int found = -1, position = 0;
    for_each_type(list, [&](auto entry) {
        if (name == decltype(entry)::name) found = position;
        ++position;
    });
    return found;
}

// Index of the entry called `name`; std::invalid_argument naming it otherwise.
template <class List>
int registry_index_or_throw(List list, std::string_view name) {
    const int index = registry_index(list, name);
    if (index < 0) throw std::invalid_argument("'" + std::string(name) + "' is not in the registry");
    return index;
}

// The declared default values of the parameters of entry `index` (its ParameterSpec texts,
// comma-separated numbers), in declaration order.
template <class List>
std::vector<double> registry_default_parameters(List list, int index) {
    std::vector<double> values;
    with_type_at(list, index, [&](auto entry) {
        const auto& parameters = decltype(entry)::parameters;
        for (int k = 0; k < parameters.size; ++k) {
            const char* text = parameters.items[k].default_value;
            for (int c = 0; c < parameters.items[k].components; ++c) {
                char* end = nullptr;
                values.push_back(std::strtod(text, &end));
                text = *end == ',' ? end + 1 : end;
            }
        }
    });
    return values;
}

}  // namespace geomint
