// geomint command line: `geomint pendulum ...`, `geomint spin ...` and `geomint list`.
// Every error is one line "geomint: error: ..." on standard error and a non-zero exit.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "list_command.hpp"
#include "pendulum_command.hpp"
#include "spin_command.hpp"
#include "usage_error.hpp"

int main(int argc, char** argv) {
    CLI::App app{"geomint: structure-preserving ensemble integrator (CPU and CUDA)", "geomint"};
    app.require_subcommand(1);
    geomint::PendulumOptions pendulum;
    CLI::App* pendulum_command = geomint::add_pendulum_command(app, pendulum);
    geomint::SpinOptions spin;
    CLI::App* spin_command = geomint::add_spin_command(app, spin);
    CLI::App* list_command = geomint::add_list_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "geomint: error: %s (see --help)\n", e.what());
        return 2;
    }
    try {
        if (pendulum_command->parsed()) geomint::run_pendulum_command(pendulum);
        if (spin_command->parsed()) geomint::run_spin_command(spin);
        if (list_command->parsed()) geomint::run_list_command();
    } catch (const geomint::UsageError& e) {
        std::fprintf(stderr, "geomint: error: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "geomint: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
