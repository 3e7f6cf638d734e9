// `geomint portrait pendulum|spin`: the family's ensemble, every visited state rasterized into a
// density image while integrating (no trajectory stored), written as a PNG or as raw counts
// (FILE.h5, added by `geomint portrait add`) (docs/portraits.md).
#pragma once

#include <CLI/CLI.hpp>

#include "pendulum_command.hpp"
#include "portrait_add_command.hpp"
#include "portrait_options.hpp"
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

// Run the commands; throw UsageError for bad input (before any output file appears).
void run_portrait_pendulum_command(const PortraitPendulumOptions& options);
void run_portrait_spin_command(const PortraitSpinOptions& options);

}  // namespace geomint
