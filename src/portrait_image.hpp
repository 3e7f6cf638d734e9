// A density histogram as an image: log-density viridis (RGB), or mean initial energy over
// viridis with log-density opacity (RGBA). docs/portraits.md describes both mappings.
#pragma once

#include "density_histogram.hpp"
#include "png_writer.hpp"

namespace geomint {

// RGB: kEmptyPixel where no trajectory passed, else viridis(log_density_level(count, max_count)).
PngImage render_log_density(const DensityHistogram& histogram);

// RGBA: (0, 0, 0, 0) where no trajectory passed, else the colour viridis(energy_level(sum, count))
// with opacity density_alpha(log_density_level(count, max_count)). Throws std::invalid_argument
// for a histogram without energy sums and std::overflow_error when a pixel has 2^44 visits or
// more (its energy sum may have wrapped).
PngImage render_mean_energy(const DensityHistogram& histogram);

}  // namespace geomint
