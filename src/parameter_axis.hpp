// One axis of a parameter sweep, written `VALUE` or `START:STOP:COUNT` on the command line
// (COUNT evenly spaced values, both ends included), and the Cartesian product of several axes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace geomint {

struct ParameterAxis {
    double start = 0;
    double stop = 0;
    std::uint64_t count = 1;

    // Value i of the axis; the last one is exactly `stop`.
    double value(std::uint64_t i) const;
};

// Parses SPEC for `option`; throws UsageError on malformed text, count 0, non-finite ends,
// or a count of 1 with two different ends.
ParameterAxis parse_parameter_axis(const std::string& text, const std::string& option);

// Cartesian product in row-major order: the LAST axis varies fastest.
class ParameterGrid {
public:
    // Throws UsageError naming `size_option` when the product does not fit in 64 bits.
    ParameterGrid(std::vector<ParameterAxis> axes, const std::string& size_option);
    std::uint64_t size() const { return size_; }
    // Index along `axis` of row `row`.
    std::uint64_t index(std::uint64_t row, std::size_t axis) const;
    double value(std::uint64_t row, std::size_t axis) const { return axes_[axis].value(index(row, axis)); }

private:
    std::vector<ParameterAxis> axes_;
    std::vector<std::uint64_t> strides_;
    std::uint64_t size_ = 1;
};

}  // namespace geomint
