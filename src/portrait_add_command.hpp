// `geomint portrait add A.h5 B.h5 ... --out FILE.png|FILE.h5`: the sum of portraits' raw counts
// (portrait_counts_file.hpp), checked to be of one plane, grid and recording, rendered as the PNG a
// single run over all their ensembles would give, or written as counts again.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace geomint {

struct PortraitAddOptions {
    std::vector<std::string> inputs;
    std::string out;
    bool quiet = false;
};

CLI::App* add_portrait_add_command(CLI::App& portrait, PortraitAddOptions& options);

// Throws UsageError naming the input that cannot be read or does not match the first.
void run_portrait_add_command(const PortraitAddOptions& options);

}  // namespace geomint
