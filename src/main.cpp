// geomint command line: `geomint pendulum ...`, `geomint spin ...`, `geomint run FILE`,
// `geomint portrait pendulum|spin|add ...` and `geomint list`. Every error is one line "geomint: error: ..." on
// standard error and a non-zero exit status: 0 success, 1 runtime failure (a write error, memory, CUDA), 2 bad usage,
// 128 + n after signal n.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "list_command.hpp"
#include "mpi_session.hpp"
#include "option_values.hpp"
#include "pendulum_command.hpp"
#include "portrait_command.hpp"
#include "spin_command.hpp"
#include "sweep_arguments.hpp"
#include "sweep_file.hpp"
#include "usage_error.hpp"

namespace {

constexpr int kRuntimeFailure = 1;
constexpr int kUsageError = 2;

int fail(int status, const std::string& message) {
    namespace mpi = geomint::mpi;
    if (!mpi::split()) {
        std::fprintf(stderr, "geomint: error: %s\n", geomint::printable(message).c_str());
        return status;
    }
    // A run split across MPI ranks (mpirun): one line from the rank that failed, and the whole job
    // ends. Rank 0 ends it normally once its workers were dismissed, else by aborting the job.
    if (mpi::rank() == 0) {
        std::fprintf(stderr, "geomint: error: %s\n", geomint::printable(message).c_str());
        std::fflush(stderr);
        if (!mpi::workers_dismissed()) mpi::abort_job(status);
        return status;
    }
    // Bad usage is the same on every rank (they parse the same arguments): rank 0 reports it and
    // aborts the job within moments. Only usage particular to this rank (--backend cuda without a
    // GPU here) is still there to report after the wait.
    if (status == kUsageError) std::this_thread::sleep_for(std::chrono::seconds(10));
    std::fprintf(stderr, "geomint: error: rank %d on %s: %s\n", mpi::rank(), mpi::host().c_str(),
                 geomint::printable(message).c_str());
    std::fflush(stderr);
    mpi::abort_job(status);
}

// The whole command line, with the options each command fills. A sweep file is parsed by a fresh
// one of these, as if its arguments had been typed.
struct Cli {
    Cli() {
        app.require_subcommand(1);
        app.footer(
            "Exit status: 0 success, 1 runtime failure (write error, out of memory, CUDA error), 2 bad usage,\n"
            "128 + n when stopped by signal n. A failed run leaves no output file and no temporary file; a run\n"
            "stopped by a signal keeps OUT.geomint-journal and OUT.geomint-partial for --resume.");
        pendulum_command = geomint::add_pendulum_command(app, pendulum);
        spin_command = geomint::add_spin_command(app, spin);
        run_command =
            app.add_subcommand("run", "Run the pendulum or spin ensemble (or portrait) a sweep file (TOML) describes");
        run_command
            ->add_option("FILE", sweep_path,
                         "sweep file: command = \"pendulum\" or \"spin\", then one key per "
                         "option of that command, and for a phase portrait a [portrait] table of the "
                         "portrait's options (see README, Sweep files)")
            ->required();
        run_command->add_flag("--resume", resume_sweep,
                              "continue the file's interrupted run from its journal (see --resume of its command)");
        portrait = geomint::add_portrait_command(app, portrait_pendulum, portrait_spin, portrait_add);
        list_command = geomint::add_list_command(app);
    }
    Cli(const Cli&) = delete;
    Cli& operator=(const Cli&) = delete;

    CLI::App app{"geomint: structure-preserving ensemble integrator (CPU and CUDA)", "geomint"};
    geomint::PendulumOptions pendulum;
    geomint::SpinOptions spin;
    std::string sweep_path;
    bool resume_sweep = false;
    geomint::PortraitPendulumOptions portrait_pendulum;
    geomint::PortraitSpinOptions portrait_spin;
    geomint::PortraitAddOptions portrait_add;
    geomint::PortraitCommands portrait;
    CLI::App *pendulum_command = nullptr, *spin_command = nullptr, *run_command = nullptr, *list_command = nullptr;
};

// Runs the parsed family or list command.
void execute(const Cli& cli) {
    for (const CLI::App* command : {cli.pendulum_command, cli.spin_command, cli.list_command, cli.portrait.pendulum,
                                    cli.portrait.spin, cli.portrait.add})
        if (command->parsed()) geomint::refuse_unusable_values(*command);
    if (cli.pendulum_command->parsed()) geomint::run_pendulum_command(cli.pendulum);
    if (cli.spin_command->parsed()) geomint::run_spin_command(cli.spin);
    if (cli.list_command->parsed()) geomint::run_list_command();
    if (cli.portrait.pendulum->parsed()) geomint::run_portrait_pendulum_command(cli.portrait_pendulum);
    if (cli.portrait.spin->parsed()) geomint::run_portrait_spin_command(cli.portrait_spin);
    if (cli.portrait.add->parsed()) geomint::run_portrait_add_command(cli.portrait_add);
}

// `geomint run FILE`: the file's settings become the arguments of its command (`geomint portrait
// COMMAND` with a [portrait] table), parsed and run as on the command line; errors about an option
// name the file's key and line instead.
void run_sweep_file(const std::string& path, bool resume) {
    const geomint::SweepFile file = geomint::read_sweep_file(path);
    const auto cli = std::make_unique<Cli>();
    std::vector<std::string> arguments = geomint::sweep_arguments(file, cli->app);
    const CLI::App* command = &geomint::sweep_command(file, cli->app);
    if (resume) {
        if (command->get_option_no_throw("--resume") == nullptr)
            throw geomint::UsageError("--resume", "a portrait run keeps no journal to resume");
        arguments.push_back("--resume");
    }
    std::reverse(arguments.begin(), arguments.end());  // CLI11 takes them last first
    try {
        cli->app.parse(arguments);
        execute(*cli);
    } catch (const CLI::ParseError& e) {
        throw geomint::locate_in_file(file, *command, e.what());
    } catch (const geomint::UsageError& e) {
        throw geomint::locate_in_file(file, *command, e.what());
    }
}

}  // namespace

int main(int argc, char** argv) {
    // Under mpirun, this process's rank in the job (mpi_session.hpp); otherwise a no-op.
    const geomint::mpi::Session session(argc, argv);
    const auto cli = std::make_unique<Cli>();
    const std::string first = argc > 1 ? argv[1] : "";
    if (!first.empty() && first[0] != '-' && first != "pendulum" && first != "spin" && first != "run" &&
        first != "list" && first != "portrait")
        return fail(kUsageError, std::string("unknown command '") + argv[1] +
                                     "' (valid: pendulum, spin, run, portrait, list; see --help)");
    try {
        geomint::refuse_empty_assignments(std::vector<std::string>(argv + std::min(argc, 1), argv + argc));
        cli->app.parse(argc, argv);
    } catch (const geomint::UsageError& e) {
        return fail(kUsageError, e.what());
    } catch (const CLI::CallForHelp& e) {
        return cli->app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return cli->app.exit(e);
    } catch (const CLI::ParseError& e) {
        return fail(kUsageError, std::string(e.what()) + " (see --help)");
    }
    try {
        if (cli->run_command->parsed())
            run_sweep_file(cli->sweep_path, cli->resume_sweep);
        else
            execute(*cli);
    } catch (const geomint::mpi::QuietExit& e) {
        return e.status;  // a worker of a split run that rank 0 ended before it began (and reported)
    } catch (const geomint::UsageError& e) {
        return fail(kUsageError, e.what());
    } catch (const std::bad_alloc&) {
        return fail(kRuntimeFailure, "out of memory (try a smaller --chunk-size, or fewer --spins)");
    } catch (const std::exception& e) {
        return fail(kRuntimeFailure, e.what());
    }
    return 0;
}
