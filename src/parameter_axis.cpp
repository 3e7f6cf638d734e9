// Parameter axes and their Cartesian product (see parameter_axis.hpp).
#include "parameter_axis.hpp"

#include <algorithm>
#include <cmath>

#include "number_parsing.hpp"
#include "usage_error.hpp"

namespace geomint {

double ParameterAxis::value(std::uint64_t i) const {
    if (count == 1 || i == 0) return start;
    if (i + 1 == count) return stop;
    const double fraction = static_cast<double>(i) / static_cast<double>(count - 1);
    const double span = stop - start;
    // Ends of opposite sign near the largest double overflow `span`; weighting the ends instead
    // stays finite. Only then, so that every ordinary range keeps its exact values.
    const double value = std::isfinite(span) ? start + span * fraction : start * (1 - fraction) + stop * fraction;
    // With more than 2^53 values the fraction rounds (to 1 below the last index) and the sum can
    // leave [start, stop] by cancellation: every value stays between the ends.
    return std::clamp(value, std::min(start, stop), std::max(start, stop));
}

ParameterAxis parse_parameter_axis(const std::string& text, const std::string& option) {
    const std::size_t first = text.find(':');
    if (first == std::string::npos) {
        const double value = parse_finite_real(text, option);
        return {value, value, 1};
    }
    const std::size_t second = text.find(':', first + 1);
    if (second == std::string::npos || text.find(':', second + 1) != std::string::npos)
        throw UsageError(option, "'" + text + "' is neither a number nor START:STOP:COUNT");
    ParameterAxis axis;
    axis.start = parse_finite_real(text.substr(0, first), option);
    axis.stop = parse_finite_real(text.substr(first + 1, second - first - 1), option);
    axis.count = static_cast<std::uint64_t>(parse_positive_integer(text.substr(second + 1), option + " COUNT"));
    if (axis.count == 1 && axis.start != axis.stop)
        throw UsageError(option, "COUNT 1 needs START equal to STOP in '" + text + "'");
    return axis;
}

ParameterGrid::ParameterGrid(std::vector<ParameterAxis> axes, const std::string& size_option)
    : axes_(std::move(axes)), strides_(axes_.size()) {
    for (std::size_t a = axes_.size(); a-- > 0;) {
        strides_[a] = size_;
        if (axes_[a].count != 0 && size_ > UINT64_MAX / axes_[a].count)
            throw UsageError(size_option, "the ensemble has more than 2^64 trajectories");
        size_ *= axes_[a].count;
    }
}

std::uint64_t ParameterGrid::index(std::uint64_t row, std::size_t axis) const {
    return (row / strides_[axis]) % axes_[axis].count;
}

}  // namespace geomint
