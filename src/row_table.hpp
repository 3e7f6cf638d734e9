// Rows of an ensemble given value by value by the caller instead of parsed from the command line:
// the Python module's NumPy arrays become an ensemble's source through this, so its runs go
// through the same ensembles (and give the same numbers) as the CLI's.
#pragma once

#include <cstdint>
#include <functional>

namespace geomint {

struct RowTable {
    std::uint64_t rows = 0;
    // Writes row `row`'s values to `out` in the family's layout (pendulum: mass, omega, q0, p0 in
    // PendulumAxis order; spin: x, y, z of each spin). Called for one row at a time, on one thread.
    std::function<void(std::uint64_t row, double* out)> fill;
};

}  // namespace geomint
