// What every per-trajectory body reports, whatever the system: arrays of one entry per trajectory
// (energy drift, Newton work, steps done, status), host or device memory alike.
#pragma once

#include <cstdint>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

template <class Real>
struct OutcomeView {
    Real* energy_error;            // largest |H - H0| over the steps taken
    long long* newton_iterations;  // summed over the steps
    long long* steps_completed;
    std::uint8_t* status;  // SolveStatus values

    GEOMINT_HD void set(std::size_t i, Real max_energy_error, long long iterations, long long steps,
                        SolveStatus s) const {
        energy_error[i] = max_energy_error;
        newton_iterations[i] = iterations;
        steps_completed[i] = steps;
        status[i] = static_cast<std::uint8_t>(s);
    }
};

}  // namespace geomint
