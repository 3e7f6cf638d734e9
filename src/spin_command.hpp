// `geomint spin`: ensembles of spin systems of the spin registry on (S^2)^d (spinning tops,
// periodic chains) integrated with the energy-preserving schemes of math §2, written as CSV.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "common_options.hpp"
#include "registry_options.hpp"
#include "spin_ensemble.hpp"

namespace geomint {

// Raw option texts; every number is parsed strictly by the command itself.
struct SpinOptions {
    SpinOptions();
    std::string system = "top";
    DeclaredParameterOptions system_parameters;  // --inertia, --field, ... as the systems declare them
    std::string spins;
    std::string scheme = "avf";
    std::string s0, wave, random, seed = "0", init;
    bool exact = false;
    CommonOptions common;
};

CLI::App* add_spin_command(CLI::App& app, SpinOptions& options);
// Runs the command; throws UsageError for bad input (before any output file appears).
void run_spin_command(const SpinOptions& options);

// The options parsed as the command parses them, for other commands that run the same ensemble
// differently (geomint portrait spin).
struct SpinRun {
    SpinJob job;
    RunConfig config;
};
SpinRun prepare_spin_run(const SpinOptions& options);
// The defaults the run's configuration makes explicit (the model's parameters, --seed with
// --random), for record_configuration: the same sweep file whichever command records it.
std::map<std::string, std::string> implied_spin_configuration(const SpinOptions& options, const SpinRun& run);

}  // namespace geomint
