// `geomint pendulum`: ensembles of one-degree-of-freedom Lagrangian systems (SPEC §1)
// integrated with the Newmark or Simpson variational scheme, written as CSV.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace geomint {

// Raw option texts; every number is parsed strictly by the command itself.
struct PendulumOptions {
    std::string scheme = "newmark";
    std::string potential = "pendulum";
    std::string beta = "1";
    std::string mass = "1", omega = "1", q0 = "1", p0 = "0";
    std::string steps, dt, t_end;
    std::string backend = "auto";
    int threads = 0;
    std::string precision = "double";
    std::string chunk_size = "1048576";
    std::string newton_max_iterations = "50";
    bool exact = false;
    bool quiet = false;
    std::string out;
};

CLI::App* add_pendulum_command(CLI::App& app, PendulumOptions& options);
// Runs the command; throws UsageError for bad input (before any output file appears).
void run_pendulum_command(const PendulumOptions& options);

}  // namespace geomint
