// `geomint list`: every scheme and system of every family, with order, what it preserves and the
// parameters it takes, as the registries declare them.
#pragma once

#include <CLI/CLI.hpp>

namespace geomint {

CLI::App* add_list_command(CLI::App& app);
void run_list_command();

}  // namespace geomint
