// The options of `geomint portrait` on top of the family's own: image size, plane extent, which
// states are recorded, colouring and (spins) the plane. Parsed strictly, each error naming its option.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "geomint/portrait/record_schedule.hpp"
#include "portrait_png.hpp"

namespace geomint {

// Raw option texts; an empty size means the plane's default.
struct PortraitOptions {
    std::string width, height;
    std::string q_range, p_range;  // pendulum: LOW:HIGH
    std::string skip_steps = "0", record_every = "1";
    std::string colour = "density";
    std::string energy_range;  // --colour energy: LOW:HIGH of the colour scale (default: the ensemble's)
    std::string plane = "sphere", spin = "1";  // spins
};

void add_portrait_options(CLI::App& command, PortraitOptions& options, bool pendulum);

// --width / --height: an integer in [1, 16384], or `fallback` when not given.
int parse_image_dimension(const std::string& text, const std::string& option, int fallback);

struct ValueRange {
    double low, high;
};
// LOW:HIGH with finite LOW < HIGH and a finite HIGH - LOW; std::nullopt when `text` is empty.
std::optional<ValueRange> parse_value_range(const std::string& text, const std::string& option);

// --skip-steps and --record-every; --skip-steps beyond the run's steps is refused (nothing would
// be recorded).
portrait::RecordSchedule parse_record_schedule(const PortraitOptions& options, long long steps);

// --colour density|energy.
PortraitColouring parse_colouring(const std::string& text);

// --energy-range LOW:HIGH, only with --colour energy; std::nullopt when not given.
std::optional<ValueRange> parse_energy_range(const PortraitOptions& options, PortraitColouring colouring);

}  // namespace geomint
