// What a portrait run computes, shared by the families: the pixel grid, which states are
// recorded, (for --colour energy) the scale of the initial-energy codes, and where an ensemble's
// bodies record them (PortraitTarget, handed out by the portrait sink: portrait_sink.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "density_histogram.hpp"
#include "energy_scale.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/histogram_view.hpp"
#include "geomint/portrait/record_schedule.hpp"
#include "geomint/portrait/trajectory_recorders.hpp"

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

// Where the bodies of a portrait's ensemble (make_pendulum_ensemble, make_spin_ensemble) record
// each state the schedule picks, instead of keeping any trajectory. The histograms belong to the
// portrait sink, which outlives the ensemble.
struct PortraitTarget {
    PortraitSettings settings;
    // The CPU: thread t of the batch loop adds into thread_views[t] (plain adds, no sharing).
    std::vector<portrait::HistogramView> thread_views;
    // CUDA: set when the device records, with atomic adds into this device histogram.
    std::optional<portrait::HistogramView> device_view;
    // Trajectory `index`'s initial-energy code (settings.energy); empty without energy colouring.
    std::function<std::uint32_t(std::uint64_t index)> energy_code;
    bool wrap = false;                // pendulum: x = q wrapped to (-pi, pi] (else q)
    portrait::SpinPlaneChoice plane;  // spins: the plane of the points
};

// The energy codes of trajectories [begin, begin + n) into `codes` (left empty without energy).
inline void fill_energy_codes(const PortraitTarget& target, std::uint64_t begin, std::size_t n,
                              std::vector<std::uint32_t>& codes) {
    codes.clear();
    if (!target.energy_code) return;
    codes.resize(n);
    for (std::size_t i = 0; i < n; ++i) codes[i] = target.energy_code(begin + i);
}

}  // namespace geomint
