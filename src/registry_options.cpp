// The command-line face of the registries (see registry_options.hpp).
#include "registry_options.hpp"

#include <cstdio>

#include "number_parsing.hpp"
#include "usage_error.hpp"

namespace geomint {

int choose_by_name(const std::vector<std::string>& names, const std::string& name, const std::string& option,
                   const std::string& what) {
    for (std::size_t k = 0; k < names.size(); ++k)
        if (names[k] == name) return static_cast<int>(k);
    throw UsageError(option, "unknown " + what + " '" + name + "' (valid: " + join_names(names) + ")");
}

std::vector<std::string> names_of(const std::vector<RegistryEntryInfo>& entries) {
    std::vector<std::string> names;
    for (const auto& e : entries) names.push_back(e.name);
    return names;
}

std::vector<std::string> names_of(const std::vector<SchemeInfo>& schemes) {
    std::vector<std::string> names;
    for (const auto& s : schemes) names.push_back(s.name);
    return names;
}

std::string join_names(const std::vector<std::string>& names) {
    std::string text;
    for (const auto& n : names) text += (text.empty() ? "" : ", ") + n;
    return text;
}

namespace {

std::string padded(const std::string& text, std::size_t width) {
    return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

}  // namespace

std::string describe_schemes_for_help(const std::vector<SchemeInfo>& schemes, const std::string& option) {
    std::string text = "Schemes (" + option + "), with their order and what they preserve:\n";
    for (const auto& s : schemes)
        text += "  " + padded(s.name, 20) + "order " + std::to_string(s.order) + "  " + s.summary + "; preserves " +
                s.preserves + "\n";
    return text;
}

std::string describe_entries_for_help(const std::vector<RegistryEntryInfo>& entries, const std::string& option) {
    std::string text = "Choices of " + option + ", with the parameters each takes:\n";
    for (const auto& e : entries) {
        text += "  " + padded(e.name, 20) + e.summary + "\n";
        for (const auto& p : e.parameters)
            text += "  " + padded("", 20) + "--" + p.name + " (default " + p.default_value + "): " + p.help + "\n";
    }
    return text;
}

DeclaredParameterOptions::DeclaredParameterOptions(std::vector<RegistryEntryInfo> entries, std::string selector_option)
    : entries_(std::move(entries)), selector_option_(std::move(selector_option)) {}

void DeclaredParameterOptions::add_to(CLI::App& command) {
    for (const auto& entry : entries_) {
        for (const auto& p : entry.parameters) {
            if (texts_.count(p.name) != 0) continue;  // declared by an earlier entry too: one option
            std::vector<std::string> takers;
            for (const auto& other : entries_)
                for (const auto& q : other.parameters)
                    if (std::string(q.name) == p.name) takers.push_back(other.name);
            std::string help = selector_option_ + " " + join_names(takers) + ": " + p.help;
            if (takers.size() == 1) help += " (default " + std::string(p.default_value) + ")";
            command.add_option(std::string("--") + p.name, texts_[p.name], help);
        }
    }
}

bool DeclaredParameterOptions::given(const std::string& name) const {
    const auto found = texts_.find(name);
    return found != texts_.end() && !found->second.empty();
}

std::vector<double> DeclaredParameterOptions::values_for(int entry) const {
    const RegistryEntryInfo& chosen = entries_.at(static_cast<std::size_t>(entry));
    for (const auto& [name, text] : texts_) {
        if (text.empty()) continue;
        bool declared = false;
        for (const auto& p : chosen.parameters) declared = declared || name == p.name;
        if (declared) continue;
        std::vector<std::string> takers;
        for (const auto& other : entries_)
            for (const auto& q : other.parameters)
                if (name == q.name) takers.push_back(other.name);
        throw UsageError("--" + name, "applies to " + selector_option_ + " " + join_names(takers) + " only");
    }
    std::vector<double> values;
    for (const auto& p : chosen.parameters) {
        const std::string option = std::string("--") + p.name;
        const std::string& text = texts_.at(p.name).empty() ? std::string(p.default_value) : texts_.at(p.name);
        for (double v : parse_real_list(text, static_cast<std::size_t>(p.components), option)) {
            if (p.domain == ParameterDomain::positive && !(v > 0))
                throw UsageError(option, "values must be positive, got '" + text + "'");
            values.push_back(v);
        }
    }
    return values;
}

}  // namespace geomint
