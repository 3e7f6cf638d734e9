// Colours of a phase portrait: the viridis table (src/viridis_table.hpp, generated) and the
// mappings from a pixel's visit count (logarithmic) and mean initial-energy code to a table entry.
#pragma once

#include <cstdint>

#include "geomint/portrait/histogram_view.hpp"

namespace geomint {

struct Rgb8 {
    std::uint8_t r, g, b;
    friend bool operator==(const Rgb8&, const Rgb8&) = default;
};

// Entry `level` (0 dark purple .. 255 yellow) of viridis; level is clamped into [0, 255].
Rgb8 viridis(int level);

// A pixel no trajectory visits, in the density image: black, which viridis never reaches (its
// darkest entry is (68, 1, 84)), so "never visited" and "visited once" stay distinguishable.
inline constexpr Rgb8 kEmptyPixel{0, 0, 0};

// Logarithmic density: the level of a pixel with `count` visits when the busiest pixel has
// `max_count`: floor(256 * ln(count) / ln(max_count)), 255 for count == max_count; so one visit
// is level 0 and the busiest pixel level 255, each level a factor max_count^(1/256) in density.
// max_count == 1: level 255. count == 0: -1 (no level: the background).
int log_density_level(portrait::HistogramCount count, portrait::HistogramCount max_count);

// The level of a pixel's mean initial energy: floor(256 * mean code / 2^20), clamped to 255, in
// exact integer arithmetic: energy_sum / (count * 2^12). Throws std::overflow_error when count >
// portrait::kMaxEnergyCount (the sum may have wrapped); count == 0: -1.
int energy_level(portrait::HistogramCount energy_sum, portrait::HistogramCount count);

// The opacity of a pixel in an energy-coloured portrait: its log-density level scaled to [1, 255],
// 1 + 254 * level / 255 (integer division); 0 for a pixel no trajectory visits.
std::uint8_t density_alpha(int level);

}  // namespace geomint
