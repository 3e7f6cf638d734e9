// geomint command line: `geomint pendulum ...`, `geomint spin ...` and `geomint list`.
// Every error is one line "geomint: error: ..." on standard error and a non-zero exit status:
// 0 success, 1 runtime failure (a write error, memory, CUDA), 2 bad usage, 128 + n after signal n.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include "list_command.hpp"
#include "pendulum_command.hpp"
#include "spin_command.hpp"
#include "usage_error.hpp"

namespace {

constexpr int kRuntimeFailure = 1;
constexpr int kUsageError = 2;

int fail(int status, const std::string& message) {
    std::fprintf(stderr, "geomint: error: %s\n", geomint::printable(message).c_str());
    return status;
}

// An option given with an empty value ("--init ''") is an error, never silently its default.
void refuse_empty_values(const CLI::App& command) {
    for (const CLI::Option* option : command.get_options()) {
        if (option->count() == 0 || option->get_type_size() == 0) continue;  // not given, or a flag
        for (const std::string& value : option->results())
            if (value.empty()) throw geomint::UsageError(option->get_name(), "empty value");
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"geomint: structure-preserving ensemble integrator (CPU and CUDA)", "geomint"};
    app.require_subcommand(1);
    app.footer(
        "Exit status: 0 success, 1 runtime failure (write error, out of memory, CUDA error), 2 bad usage,\n"
        "128 + n when stopped by signal n. A failed run leaves no output file and no temporary file.");
    geomint::PendulumOptions pendulum;
    CLI::App* pendulum_command = geomint::add_pendulum_command(app, pendulum);
    geomint::SpinOptions spin;
    CLI::App* spin_command = geomint::add_spin_command(app, spin);
    CLI::App* list_command = geomint::add_list_command(app);
    const std::string first = argc > 1 ? argv[1] : "";
    if (!first.empty() && first[0] != '-' && first != "pendulum" && first != "spin" && first != "list")
        return fail(kUsageError,
                    std::string("unknown command '") + argv[1] + "' (valid: pendulum, spin, list; see --help)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        return fail(kUsageError, std::string(e.what()) + " (see --help)");
    }
    try {
        for (const CLI::App* command : {pendulum_command, spin_command, list_command})
            if (command->parsed()) refuse_empty_values(*command);
        if (pendulum_command->parsed()) geomint::run_pendulum_command(pendulum);
        if (spin_command->parsed()) geomint::run_spin_command(spin);
        if (list_command->parsed()) geomint::run_list_command();
    } catch (const geomint::UsageError& e) {
        return fail(kUsageError, e.what());
    } catch (const std::bad_alloc&) {
        return fail(kRuntimeFailure, "out of memory (try a smaller --chunk-size, or fewer --spins)");
    } catch (const std::exception& e) {
        return fail(kRuntimeFailure, e.what());
    }
    return 0;
}
