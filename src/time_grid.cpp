// Parsing of --steps, --dt and --t-end (see time_grid.hpp).
#include "time_grid.hpp"

#include "number_parsing.hpp"
#include "usage_error.hpp"

namespace geomint {

TimeGrid parse_time_grid(const std::string& steps, const std::string& dt, const std::string& t_end) {
    if (steps.empty()) throw UsageError("--steps", "is required");
    TimeGrid grid;
    grid.steps = parse_positive_integer(steps, "--steps");
    if (!dt.empty() && !t_end.empty()) throw UsageError("--dt", "give either --dt or --t-end, not both");
    if (dt.empty() && t_end.empty()) throw UsageError("--dt", "give --dt or --t-end");
    grid.dt = dt.empty() ? parse_positive_real(t_end, "--t-end") / static_cast<double>(grid.steps)
                         : parse_positive_real(dt, "--dt");
    if (!(grid.dt > 0)) throw UsageError("--t-end", "gives a step size that underflows to 0");
    return grid;
}

}  // namespace geomint
