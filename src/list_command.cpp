// `geomint list` (see list_command.hpp).
#include "list_command.hpp"

#include <cstdio>

#include "geomint/pendulum/registry.hpp"
#include "geomint/spin/registry.hpp"
#include "registry_options.hpp"

namespace geomint {

CLI::App* add_list_command(CLI::App& app) {
    return app.add_subcommand("list", "List every scheme and system, with order, what it preserves and its parameters");
}

void run_list_command() {
    const std::string text =
        "geomint pendulum\n" + describe_schemes_for_help(describe_schemes(PendulumSchemes{}), "--scheme") +
        describe_entries_for_help(describe_entries(PendulumPotentials{}), "--potential") + "\ngeomint spin\n" +
        describe_schemes_for_help(describe_schemes(spin::SpinSchemes{}), "--scheme") +
        describe_entries_for_help(describe_entries(spin::SpinSystems{}), "--system");
    std::fputs(text.c_str(), stdout);
}

}  // namespace geomint
