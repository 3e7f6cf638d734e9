// `geomint spin`: ensembles of spinning tops or periodic Heisenberg chains on (S^2)^d
// integrated with the energy-preserving schemes of SPEC §2, written as CSV.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace geomint {

// Raw option texts; every number is parsed strictly by the command itself.
struct SpinOptions {
    std::string system = "top";
    std::string inertia = "1,2,4";
    std::string spins;
    std::string field, anisotropy;
    std::string scheme = "avf";
    std::string s0, wave, random, seed = "0", init;
    std::string steps, dt, t_end;
    std::string backend = "auto";
    int threads = 0;
    std::string chunk_size = "65536";
    std::string newton_max_iterations = "50";
    bool exact = false;
    bool quiet = false;
    std::string out;
};

CLI::App* add_spin_command(CLI::App& app, SpinOptions& options);
// Runs the command; throws UsageError for bad input (before any output file appears).
void run_spin_command(const SpinOptions& options);

}  // namespace geomint
