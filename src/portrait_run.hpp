// What a portrait run computes, shared by the families' portrait drivers: the pixel grid, which
// states are recorded, and (for --colour energy) the scale of the initial-energy codes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "density_histogram.hpp"
#include "energy_scale.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/record_schedule.hpp"

namespace geomint {

struct PortraitSettings {
    portrait::PixelGrid grid;
    portrait::RecordSchedule schedule;
    std::optional<EnergyScale> energy;  // set: every visit also adds its trajectory's energy code
};

// The histogram of a run and how its trajectories ended (status name -> trajectories), for the
// summary line.
struct PortraitResult {
    DensityHistogram histogram;
    std::map<std::string, std::uint64_t> statuses;
};

}  // namespace geomint
