// The command-line face of a registry (include/geomint/*/registry.hpp): what its entries are
// called, what they take and how they are described in --help. Everything a user can choose by
// name is listed from here, so a new registry entry appears in the CLI with no CLI change.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <vector>

#include "geomint/parameter_spec.hpp"
#include "geomint/type_list.hpp"

namespace geomint {

// One entry of a registry of systems or potentials, described at run time.
struct RegistryEntryInfo {
    std::string name;
    std::string summary;
    std::vector<ParameterSpec> parameters;
};

// One scheme of a registry, described at run time.
struct SchemeInfo {
    std::string name;
    int order;
    std::string preserves;
    std::string summary;
};

template <class Entry>
RegistryEntryInfo describe_entry() {
    RegistryEntryInfo info{Entry::name, Entry::summary, {}};
    for (int k = 0; k < Entry::parameters.size; ++k) info.parameters.push_back(Entry::parameters.items[k]);
    return info;
}

template <class... Entries>
std::vector<RegistryEntryInfo> describe_entries(TypeList<Entries...>) {
    return {describe_entry<Entries>()...};
}

template <class... Schemes>
std::vector<SchemeInfo> describe_schemes(TypeList<Schemes...>) {
    return {SchemeInfo{Schemes::name, Schemes::order, Schemes::preserves, Schemes::summary}...};
}

// Index of the entry called `name`; otherwise a UsageError naming `option`:
// "unknown WHAT 'NAME' (valid: a, b, c)".
int choose_by_name(const std::vector<std::string>& names, const std::string& name, const std::string& option,
                   const std::string& what);
std::vector<std::string> names_of(const std::vector<RegistryEntryInfo>& entries);
std::vector<std::string> names_of(const std::vector<SchemeInfo>& schemes);
// "a, b, c"
std::string join_names(const std::vector<std::string>& names);

// Text blocks for a command's --help footer: one line per scheme (order, what it preserves) and
// per system or potential (its parameters with their defaults).
std::string describe_schemes_for_help(const std::vector<SchemeInfo>& schemes, const std::string& option);
std::string describe_entries_for_help(const std::vector<RegistryEntryInfo>& entries, const std::string& option);

// The options of the parameters that the entries of a registry declare: one --NAME per distinct
// name, its help naming the entries that take it. Values are read for the chosen entry only; a
// parameter given for an entry that does not declare it is an error, not silently ignored.
class DeclaredParameterOptions {
public:
    DeclaredParameterOptions(std::vector<RegistryEntryInfo> entries, std::string selector_option);
    void add_to(CLI::App& command);
    // The chosen entry's parameters, given or default, in declaration order. Throws UsageError
    // naming the option for a malformed or out-of-domain value or a parameter of another entry.
    std::vector<double> values_for(int entry) const;
    // Whether --NAME was given.
    bool given(const std::string& name) const;

private:
    std::vector<RegistryEntryInfo> entries_;
    std::string selector_option_;
    std::map<std::string, std::string> texts_;  // parameter name -> text given ("" when not given)
};

}  // namespace geomint
