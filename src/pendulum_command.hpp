// `geomint pendulum`: ensembles of one-degree-of-freedom Lagrangian systems (math §1) integrated
// with a variational scheme of the pendulum registry, written as CSV.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "common_options.hpp"
#include "pendulum_ensemble.hpp"
#include "registry_options.hpp"

namespace geomint {

// Raw option texts; every number is parsed strictly by the command itself.
struct PendulumOptions {
    PendulumOptions();
    std::string scheme = "newmark";
    std::string potential = "pendulum";
    DeclaredParameterOptions potential_parameters;  // --beta, ... as the potentials declare them
    std::string mass = "1", omega = "1", q0 = "1", p0 = "0";
    std::string random, seed = "0";  // --random COUNT: draw each parameter from its LOW:HIGH
    bool exact = false;
    CommonOptions common;
};

CLI::App* add_pendulum_command(CLI::App& app, PendulumOptions& options);
// Runs the command; throws UsageError for bad input (before any output file appears).
void run_pendulum_command(const PendulumOptions& options);

// The options parsed as the command parses them (its warnings printed), for other commands that
// run the same ensemble differently (geomint portrait pendulum).
struct PendulumRun {
    PendulumJob job;
    RunConfig config;
};
PendulumRun prepare_pendulum_run(const PendulumOptions& options);
// The defaults the run's configuration makes explicit (the model's parameters, --seed with
// --random), for record_configuration: the same sweep file whichever command records it.
std::map<std::string, std::string> implied_pendulum_configuration(const PendulumOptions& options,
                                                                  const PendulumRun& run);

}  // namespace geomint
