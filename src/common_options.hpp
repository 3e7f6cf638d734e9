// The options every family's command shares (time grid, backend, threads, precision, chunking,
// Newton limit, output, quiet), defined and parsed once for all commands.
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>

#include "ensemble_pipeline.hpp"

namespace geomint {

// Raw option texts; every number is parsed strictly (number_parsing.hpp).
struct CommonOptions {
    std::string steps, dt, t_end;
    std::string backend = "auto";
    std::string threads = "0";
    std::string precision = "double";
    std::string chunk_size;  // default set by the family (add_common_options)
    std::string newton_max_iterations = "50";
    bool quiet = false;
    std::string out;
    std::string save_every;             // empty: no saved states
    bool print_config = false;          // print the run as a sweep file instead of running it
    bool resume = false;                // continue an interrupted run from its journal
    const CLI::App* command = nullptr;  // the subcommand, to ask which options were given
    // Set by the Python module: the results stay in memory, so there is no --out to require and
    // --save-every needs no HDF5 file.
    bool in_memory = false;
};

// Whether `option` (e.g. "--seed") was given on the command line, even with its default value.
bool given(const CommonOptions& options, const std::string& option);

// Adds the shared options to `command`; `default_chunk_size` is the family's default.
void add_common_options(CLI::App& command, CommonOptions& options, const std::string& default_chunk_size);

// Parses them; throws UsageError naming the offending option. Chooses the backend last, so that
// a bad option is reported before any device is touched.
RunConfig parse_run_config(const CommonOptions& options);

// Records the run as sweep-file text in config.description.configuration (sweep_arguments.hpp;
// `implied` gives defaults that depend on other options). With --print-config prints that text on
// standard output and returns true: the caller runs nothing. Without it a run whose values cannot
// be written as TOML (a file name that is not UTF-8) records an empty configuration and goes on.
bool record_configuration(const CommonOptions& options, RunConfig& config,
                          const std::map<std::string, std::string>& implied);

// --precision alone (a family checks its inputs against it before the rest is parsed).
Precision parse_precision(const std::string& text);

// Throws UsageError naming `option` when `value` does not survive conversion to the run's
// floating type: overflow to infinity, or (when `nonzero`) underflow to 0.
void check_representable(double value, Precision precision, const std::string& option, bool nonzero);

// The most CPU threads --threads accepts: 64 per core, far beyond any useful count, so that a
// typo cannot make the OpenMP runtime fail.
int max_threads();

}  // namespace geomint
