// A phase portrait's raw counts as HDF5 (`geomint portrait ... --out FILE.h5`): the per-pixel visit
// counts (and energy sums) a PNG is rendered from, with what is needed to render or add them.
// Layout and attributes: README, "Adding portraits".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "atomic_output_file.hpp"
#include "density_histogram.hpp"
#include "energy_scale.hpp"
#include "portrait_png.hpp"

namespace geomint {

// What a counts file records besides the counts: the run (or, for a sum, the runs) and what its
// PNG would show.
struct PortraitRecord {
    std::string command, model, scheme;  // "pendulum", "pendulum", "stormer_verlet"
    PortraitLabels labels;               // axes and the Description of the PNG
    std::string configuration;           // the run as a sweep file; empty for a sum of several runs
    PortraitColouring colouring = PortraitColouring::log_density;
    std::optional<EnergyScale> energy;  // set with mean_energy: the scale of the energy sums' codes
    long long skip_steps = 0, record_every = 1;
    std::uint64_t trajectories = 0;    // of the run, or of all runs added
    std::vector<std::string> sources;  // for a sum: the files added, in order
};

// Writes `histogram` and `record` into `out`, an AtomicOutputFile made with Temporary::named
// (HDF5 opens its file by name); the caller commits. HDF5 errors throw std::runtime_error
// "OPTION: writing 'PATH' failed: ...".
void write_portrait_counts(AtomicOutputFile& out, const DensityHistogram& histogram, const PortraitRecord& record);

struct PortraitCounts {
    DensityHistogram histogram;
    PortraitRecord record;
};

// Reads a file write_portrait_counts wrote. Throws UsageError naming `path` when it cannot be
// read or is not a geomint portrait counts file (a missing dataset or attribute, wrong shapes).
PortraitCounts read_portrait_counts(const std::string& path);

}  // namespace geomint
