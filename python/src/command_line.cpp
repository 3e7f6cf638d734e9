// Parsing the Python module's arguments with the CLI's own commands (see command_line.hpp).
#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>

#include "option_values.hpp"
#include "usage_error.hpp"

namespace geomint::python {

namespace {

// Parses `words` (the command's path, "portrait pendulum") then `arguments` with `app`, whose
// subcommand `command` they select; CLI11's own errors become UsageErrors.
void parse(CLI::App& app, const CLI::App& command, std::vector<std::string> words,
           const std::vector<std::string>& arguments) {
    const std::string name = words.back();
    refuse_empty_assignments(arguments);
    words.insert(words.end(), arguments.begin(), arguments.end());
    std::reverse(words.begin(), words.end());  // CLI11 takes them last first
    try {
        app.parse(words);
    } catch (const CLI::ParseError& e) {
        const std::string what = e.what();
        const std::size_t colon = what.find(": ");
        // "--steps: ..." from CLI11 keeps its shape; anything else is prefixed with the command.
        if (!what.empty() && what[0] == '-' && colon != std::string::npos)
            throw UsageError(what.substr(0, colon), what.substr(colon + 2));
        throw UsageError(name, what);
    }
    refuse_unusable_values(command);
}

}  // namespace

PendulumRun parse_pendulum_arguments(const std::vector<std::string>& arguments) {
    CLI::App app;
    PendulumOptions options;
    parse(app, *add_pendulum_command(app, options), {"pendulum"}, arguments);
    options.common.in_memory = true;
    return prepare_pendulum_run(options);
}

SpinRun parse_spin_arguments(const std::vector<std::string>& arguments) {
    CLI::App app;
    SpinOptions options;
    parse(app, *add_spin_command(app, options), {"spin"}, arguments);
    options.common.in_memory = true;
    return prepare_spin_run(options);
}

PortraitPlan parse_portrait_arguments(const std::string& family, const std::vector<std::string>& arguments,
                                      std::shared_ptr<const RowTable> rows) {
    CLI::App app;
    PortraitPendulumOptions pendulum;
    PortraitSpinOptions spin;
    PortraitAddOptions add;
    const PortraitCommands commands = add_portrait_command(app, pendulum, spin, add);
    if (family != "pendulum" && family != "spin")
        throw UsageError("family", "unknown family '" + family + "' (valid: pendulum, spin)");
    parse(app, family == "spin" ? *commands.spin : *commands.pendulum, {"portrait", family}, arguments);
    pendulum.family.common.in_memory = spin.family.common.in_memory = true;
    // No --print-config here, so there is always a plan.
    return *(family == "spin" ? plan_portrait_spin(spin, {}, std::move(rows))
                              : plan_portrait_pendulum(pendulum, {}, std::move(rows)));
}

namespace {

// Every command the module runs, defined on one app, to describe one of them.
struct CommandTree {
    CLI::App app{"geomint", "geomint"};
    PendulumOptions pendulum;
    SpinOptions spin;
    PortraitPendulumOptions portrait_pendulum;
    PortraitSpinOptions portrait_spin;
    PortraitAddOptions portrait_add;

    // "pendulum", "spin", "portrait pendulum" or "portrait spin".
    CLI::App& command(const std::string& name) {
        if (name == "pendulum") return *add_pendulum_command(app, pendulum);
        if (name == "spin") return *add_spin_command(app, spin);
        const PortraitCommands portrait = add_portrait_command(app, portrait_pendulum, portrait_spin, portrait_add);
        if (name == "portrait pendulum") return *portrait.pendulum;
        if (name == "portrait spin") return *portrait.spin;
        throw UsageError("family", "unknown command '" + name + "'");
    }
};

}  // namespace

std::vector<std::pair<std::string, bool>> command_options(const std::string& name) {
    CommandTree tree;
    std::vector<std::pair<std::string, bool>> options;
    for (const CLI::Option* option : tree.command(name).get_options()) {
        if (option->get_lnames().empty()) continue;  // positional options have none
        options.emplace_back("--" + option->get_lnames().front(), option->get_expected_max() == 0);
    }
    return options;
}

std::string command_help(const std::string& name) {
    CommandTree tree;
    return tree.command(name).help();
}

}  // namespace geomint::python
