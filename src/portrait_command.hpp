// `geomint portrait pendulum|spin`: the family's ensemble, every visited state rasterized into a
// density image while integrating (no trajectory stored), written as a PNG or as raw counts
// (FILE.h5, added by `geomint portrait add`) (docs/portraits.md).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <optional>

#include "atomic_output_file.hpp"

#include "pendulum_command.hpp"
#include "portrait_add_command.hpp"
#include "portrait_counts_file.hpp"
#include "portrait_options.hpp"
#include "portrait_sink.hpp"
#include "row_table.hpp"
#include "spin_command.hpp"

namespace geomint {

struct PortraitPendulumOptions {
    PendulumOptions family;
    PortraitOptions portrait;
};

struct PortraitSpinOptions {
    SpinOptions family;
    PortraitOptions portrait;
};

struct PortraitCommands {
    CLI::App* command = nullptr;  // `portrait`
    CLI::App* pendulum = nullptr;
    CLI::App* spin = nullptr;
    CLI::App* add = nullptr;  // `portrait add`
};

PortraitCommands add_portrait_command(CLI::App& app, PortraitPendulumOptions& pendulum, PortraitSpinOptions& spin,
                                      PortraitAddOptions& add);

// A portrait run with every option parsed and checked and the ensemble's bounds scanned: the
// sink's settings and what its output records. The CLI writes it to --out; the Python module keeps
// the histogram in memory.
struct PortraitPlan {
    RunConfig config;
    PortraitSettings settings;
    PortraitRecord record;  // the run, its labels and colouring, for the counts file and the PNG
    bool on_device = false;
    // The family's ensemble, its bodies recording into `sink`'s histograms.
    std::function<std::unique_ptr<Ensemble>(const RunConfig&, PortraitSink&)> make_ensemble;
};

// Parses and checks the options (UsageError), then calls `before_work` (if set; the CLI opens its
// output there, so that a bad destination is refused before the ensemble is scanned). Empty when
// --print-config printed the run instead. With `rows` (the Python module's arrays), they are the
// ensemble's rows instead of the options' (pendulum: PendulumJob::table; spin: 3 d values per chain).
std::optional<PortraitPlan> plan_portrait_pendulum(const PortraitPendulumOptions& options,
                                                   const std::function<void(const RunConfig&)>& before_work,
                                                   std::shared_ptr<const RowTable> rows = nullptr);
std::optional<PortraitPlan> plan_portrait_spin(const PortraitSpinOptions& options,
                                               const std::function<void(const RunConfig&)>& before_work,
                                               std::shared_ptr<const RowTable> rows = nullptr);

// Opens the output --out names into `file`: FILE.h5 holds the raw counts (portrait_counts_file.hpp),
// any other name the PNG (UsageError for a bad destination).
void open_portrait_output(std::optional<AtomicOutputFile>& file, const std::string& out);

// The sink's write: the PNG, or with --out FILE.h5 the counts, into `file` (opened for config.out).
PortraitSink::Write portrait_writer(const PortraitPlan& plan, AtomicOutputFile& file);

// Run the commands; throw UsageError for bad input (before any output file appears).
void run_portrait_pendulum_command(const PortraitPendulumOptions& options);
void run_portrait_spin_command(const PortraitSpinOptions& options);

}  // namespace geomint
