// A pendulum ensemble for the run pipeline: the Cartesian parameter grid as source, the CPU or
// CUDA backend (recording a phase portrait as it runs, when asked), and the optional exact
// solution as derived columns.
#pragma once

#include <array>
#include <memory>
#include <optional>

#include "ensemble_pipeline.hpp"
#include "parameter_axis.hpp"
#include "pendulum_dispatch.hpp"
#include "portrait_run.hpp"
#include "row_table.hpp"

namespace geomint {

enum PendulumAxis : std::size_t { kMassAxis, kOmegaAxis, kQ0Axis, kP0Axis };

// `--random COUNT --seed S`: each parameter fixed (low == high) or uniform on [low, high), drawn
// from a counter-based hash of (seed, row, parameter): a row's values never depend on chunking.
struct RandomPendulumParameters {
    struct Range {
        double low = 0, high = 0;
    };
    std::uint64_t count = 1;
    std::uint64_t seed = 0;
    std::array<Range, 4> ranges;  // by PendulumAxis
    double value(std::uint64_t row, std::size_t axis) const;
};

// What `geomint pendulum` asks for, parsed.
struct PendulumJob {
    PendulumModel model;
    ParameterGrid grid;                              // axes in row order: mass, omega, q0, p0 (the last varies fastest)
    std::optional<RandomPendulumParameters> random;  // when set, the rows instead of `grid`
    bool exact = false;                              // add q_exact, p_exact (math §1.3)
    // When set, the rows instead of `grid` and `random`: values given row by row (the Python
    // module's arrays), in PendulumAxis order.
    std::shared_ptr<const RowTable> table;

    std::uint64_t size() const { return table ? table->rows : random ? random->count : grid.size(); }
    double value(std::uint64_t row, std::size_t axis) const {
        if (table) {
            double values[4];
            table->fill(row, values);
            return values[axis];
        }
        return random ? random->value(row, axis) : grid.value(row, axis);
    }
};

// The ensemble at the run's precision. With `portrait`, its bodies record every state the
// portrait's schedule picks into the target's histograms (on the device when it has a device
// view, with the CUDA portrait kernels; on the CPU otherwise); the histograms it points to
// must outlive the ensemble.
std::unique_ptr<Ensemble> make_pendulum_ensemble(const PendulumJob& job, const RunConfig& config,
                                                 const PortraitTarget* portrait = nullptr);

}  // namespace geomint
