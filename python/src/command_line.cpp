// Parsing the Python module's arguments with the CLI's own commands (see command_line.hpp).
#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>

#include "usage_error.hpp"

namespace geomint::python {

namespace {

// An option given with an empty value is an error, never silently its default (as main.cpp).
void refuse_empty_values(const CLI::App& command) {
    for (const CLI::Option* option : command.get_options()) {
        if (option->count() == 0 || option->get_type_size() == 0) continue;
        for (const std::string& value : option->results())
            if (value.empty()) throw UsageError(option->get_name(), "empty value");
    }
}

// Parses `arguments` into the options `add` defines; CLI11's own errors become UsageErrors.
template <class Options, class Add>
void parse(const std::string& family, const std::vector<std::string>& arguments, Options& options, CLI::App& app,
           const Add& add) {
    CLI::App* command = add(app, options);
    std::vector<std::string> reversed{family};
    reversed.insert(reversed.end(), arguments.begin(), arguments.end());
    std::reverse(reversed.begin(), reversed.end());  // CLI11 takes them last first
    try {
        app.parse(reversed);
    } catch (const CLI::ParseError& e) {
        const std::string what = e.what();
        const std::size_t colon = what.find(": ");
        // "--steps: ..." from CLI11 keeps its shape; anything else is prefixed with the command.
        if (!what.empty() && what[0] == '-' && colon != std::string::npos)
            throw UsageError(what.substr(0, colon), what.substr(colon + 2));
        throw UsageError(family, what);
    }
    refuse_empty_values(*command);
    options.common.in_memory = true;
}

}  // namespace

PendulumRun parse_pendulum_arguments(const std::vector<std::string>& arguments) {
    CLI::App app;
    PendulumOptions options;
    parse("pendulum", arguments, options, app, add_pendulum_command);
    return prepare_pendulum_run(options);
}

SpinRun parse_spin_arguments(const std::vector<std::string>& arguments) {
    CLI::App app;
    SpinOptions options;
    parse("spin", arguments, options, app, add_spin_command);
    return prepare_spin_run(options);
}

std::vector<std::pair<std::string, bool>> command_options(const std::string& family) {
    CLI::App app{"geomint", "geomint"};
    PendulumOptions pendulum;
    SpinOptions spin;
    const CLI::App* command = family == "spin" ? add_spin_command(app, spin) : add_pendulum_command(app, pendulum);
    std::vector<std::pair<std::string, bool>> options;
    for (const CLI::Option* option : command->get_options()) {
        if (option->get_lnames().empty()) continue;  // --help has one; positional options none
        options.emplace_back("--" + option->get_lnames().front(), option->get_expected_max() == 0);
    }
    return options;
}

std::string command_help(const std::string& family) {
    CLI::App app{"geomint", "geomint"};
    PendulumOptions pendulum;
    SpinOptions spin;
    CLI::App* command = family == "spin" ? add_spin_command(app, spin) : add_pendulum_command(app, pendulum);
    return command->help();
}

}  // namespace geomint::python
