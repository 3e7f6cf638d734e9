// Colour levels of a phase portrait: logarithmic density, mean energy, and opacity.
#include "colour_map.hpp"

#include <cmath>
#include <stdexcept>

#include "viridis_table.hpp"

namespace geomint {

Rgb8 viridis(int level) { return kViridis[static_cast<std::size_t>(level < 0 ? 0 : (level > 255 ? 255 : level))]; }

int log_density_level(portrait::HistogramCount count, portrait::HistogramCount max_count) {
    if (count == 0) return -1;
    if (count >= max_count) return 255;
    const double t = std::log(static_cast<double>(count)) / std::log(static_cast<double>(max_count));
    const int level = static_cast<int>(std::floor(256.0 * t));
    return level < 0 ? 0 : (level > 255 ? 255 : level);
}

int energy_level(portrait::HistogramCount energy_sum, portrait::HistogramCount count) {
    if (count == 0) return -1;
    if (count > portrait::kMaxEnergyCount) {
        throw std::overflow_error("a pixel has 2^44 visits or more: its energy sum may have wrapped");
    }
    const portrait::HistogramCount level = energy_sum / (count << (portrait::kEnergyCodeBits - 8));
    return level > 255 ? 255 : static_cast<int>(level);
}

std::uint8_t density_alpha(int level) {
    if (level < 0) return 0;
    return static_cast<std::uint8_t>(1 + 254 * (level > 255 ? 255 : level) / 255);
}

}  // namespace geomint
