// A phase portrait's PNG: the rendered histogram plus text chunks that make the file
// self-describing (axes, extent, colouring, energy range, the run's description).
#pragma once

#include <string>
#include <vector>

#include "density_histogram.hpp"
#include "energy_scale.hpp"
#include "png_writer.hpp"

namespace geomint {

enum class PortraitColouring { log_density, mean_energy };

struct PortraitLabels {
    std::string x_axis, y_axis;  // e.g. "q wrapped to (-pi, pi]" and "p"
    std::string description;     // the command line or configuration of the run
};

// "xmin xmax ymin ymax", each with 17 significant digits (reads back to the same doubles).
std::string format_extent(const portrait::PlaneExtent& extent);

// The text chunks: Software, Description, geomint:x-axis, geomint:y-axis, geomint:extent,
// geomint:colour, geomint:max-count, and with mean_energy geomint:energy-range ("emin emax", 17
// significant digits). `energy` is needed for mean_energy (std::invalid_argument otherwise).
std::vector<PngText> portrait_texts(const DensityHistogram& histogram, const PortraitLabels& labels,
                                    PortraitColouring colouring, const EnergyScale* energy);

// Renders (render_log_density or render_mean_energy) and writes the PNG to `out`, opened before
// the run so that a bad destination is refused before any work; the caller commits.
void write_portrait_png(AtomicOutputFile& out, const DensityHistogram& histogram, const PortraitLabels& labels,
                        PortraitColouring colouring, const EnergyScale* energy = nullptr);
// The same to a new AtomicOutputFile(path, option), committed.
void write_portrait_png(const std::string& path, const std::string& option, const DensityHistogram& histogram,
                        const PortraitLabels& labels, PortraitColouring colouring, const EnergyScale* energy = nullptr);

}  // namespace geomint
