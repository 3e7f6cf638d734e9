// The time grid of a run from --steps with either --dt or --t-end (exactly one of them).
#pragma once

#include <string>

namespace geomint {

struct TimeGrid {
    long long steps = 0;
    double dt = 0;
    double t_end() const { return dt * static_cast<double>(steps); }
};

// Empty strings mean "not given". Throws UsageError naming the offending option.
TimeGrid parse_time_grid(const std::string& steps, const std::string& dt, const std::string& t_end);

}  // namespace geomint
