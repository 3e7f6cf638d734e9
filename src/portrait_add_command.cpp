// `geomint portrait add` (see portrait_add_command.hpp).
#include "portrait_add_command.hpp"

#include <sys/stat.h>

#include <cstdio>

#include "atomic_output_file.hpp"
#include "hdf5_sink.hpp"
#include "input_files.hpp"
#include "portrait_counts_file.hpp"
#include "portrait_png.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

std::string grid_text(const portrait::PixelGrid& g) {
    return std::to_string(g.width) + "x" + std::to_string(g.height) + " over " + format_extent(g.extent);
}

std::string energy_text(const std::optional<EnergyScale>& e) {
    if (!e) return "none";
    char text[64];
    std::snprintf(text, sizeof text, "%.17g %.17g", e->emin(), e->emax());
    return text;
}

// Refuses `next` unless its counts mean the same as `first`'s: one plane and pixel grid (a sum
// over other pixels would be meaningless), one system and scheme, the same recorded steps and
// colouring, and for energy sums the same code scale (codes of different scales do not add).
void check_same(const PortraitCounts& first, const std::string& first_path, const PortraitCounts& next,
                const std::string& next_path) {
    const PortraitRecord &a = first.record, &b = next.record;
    const auto differ = [&](const std::string& what, const std::string& mine, const std::string& theirs) {
        if (mine == theirs) return;
        throw UsageError(next_path, what + " " + theirs + " differs from " + mine + " in '" + first_path +
                                        "': only portraits of the same plane, grid and recording add");
    };
    differ("grid", grid_text(first.histogram.grid()), grid_text(next.histogram.grid()));
    differ("x axis", "'" + a.labels.x_axis + "'", "'" + b.labels.x_axis + "'");
    differ("y axis", "'" + a.labels.y_axis + "'", "'" + b.labels.y_axis + "'");
    differ("command", a.command, b.command);
    differ("model", a.model, b.model);
    differ("scheme", a.scheme, b.scheme);
    differ("skip_steps", std::to_string(a.skip_steps), std::to_string(b.skip_steps));
    differ("record_every", std::to_string(a.record_every), std::to_string(b.record_every));
    differ("colour", a.colouring == PortraitColouring::log_density ? "density" : "energy",
           b.colouring == PortraitColouring::log_density ? "density" : "energy");
    differ("energy_range", energy_text(a.energy), energy_text(b.energy));
}

// An existing FIFO or device named FILE.h5 is refused before any work: HDF5 seeks.
void check_hdf5_destination(const std::string& out) {
    struct stat status {};
    if (::stat(out.c_str(), &status) == 0 && !S_ISREG(status.st_mode) && !S_ISDIR(status.st_mode))
        throw UsageError("--out", "'" + out + "' is not a regular file; HDF5 needs a seekable file");
}

}  // namespace

CLI::App* add_portrait_add_command(CLI::App& portrait, PortraitAddOptions& o) {
    CLI::App* cmd = portrait.add_subcommand(
        "add", "Add the raw counts of portraits (each from `geomint portrait ... --out FILE.h5`) into one");
    cmd->add_option("FILES", o.inputs, "counts files FILE.h5 of portraits of the same plane, grid and recording")
        ->required();
    cmd->add_option("--out", o.out,
                    "output (required): FILE.png (the portrait of the sum) or FILE.h5 (the summed counts); "
                    "written atomically");
    cmd->add_flag("--quiet", o.quiet, "no summary on standard error");
    cmd->footer(
        "The files must agree on the pixel grid and extent, the axes, command, model, scheme, --skip-steps,\n"
        "--record-every and --colour (and for --colour energy on the energy range); an error names the first\n"
        "file that differs. Give --p-range (pendulum) and, with --colour energy, --energy-range to runs meant\n"
        "to be added: their defaults depend on the ensemble. One FILE with --out FILE.png gives the PNG the run itself "
        "would have written.");
    return cmd;
}

void run_portrait_add_command(const PortraitAddOptions& o) {
    if (o.out.empty()) throw UsageError("--out", "is required");
    const bool hdf5 = is_hdf5_path(o.out);
    if (hdf5) check_hdf5_destination(o.out);
    for (const std::string& input : o.inputs) register_input_file(input, "an input of portrait add");
    // Opened first: a bad destination is refused before the inputs are read.
    AtomicOutputFile file(o.out, "--out",
                          hdf5 ? AtomicOutputFile::Temporary::named : AtomicOutputFile::Temporary::unnamed_if_possible);
    PortraitCounts sum = read_portrait_counts(o.inputs.front());
    std::vector<std::string> descriptions{sum.record.labels.description};
    for (std::size_t k = 1; k < o.inputs.size(); ++k) {
        const PortraitCounts next = read_portrait_counts(o.inputs[k]);
        descriptions.push_back(next.record.labels.description);
        check_same(sum, o.inputs.front(), next, o.inputs[k]);
        sum.histogram.add(next.histogram);
        sum.record.trajectories += next.record.trajectories;
    }
    PortraitRecord& record = sum.record;
    if (o.inputs.size() > 1) {
        // A sum is no single run: no configuration; its description lists the runs'.
        std::string description = "geomint portrait add: the sum of " + std::to_string(o.inputs.size()) + " portraits";
        for (std::size_t k = 0; k < o.inputs.size(); ++k) description += "\n\n" + o.inputs[k] + ":\n" + descriptions[k];
        record.labels.description = description;
        record.configuration.clear();
        record.sources = o.inputs;
    }
    if (hdf5)
        write_portrait_counts(file, sum.histogram, record);
    else
        write_portrait_png(file, sum.histogram, record.labels, record.colouring,
                           record.energy ? &*record.energy : nullptr);
    file.commit();
    if (!o.quiet)
        std::fprintf(stderr, "geomint: added %zu portrait%s (%llu trajectories, %llu visits) into %s\n",
                     o.inputs.size(), o.inputs.size() == 1 ? "" : "s",
                     static_cast<unsigned long long>(record.trajectories),
                     static_cast<unsigned long long>(sum.histogram.total_count()), file.description().c_str());
}

}  // namespace geomint
