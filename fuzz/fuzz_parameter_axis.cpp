// libFuzzer target: parse_parameter_axis (src/parameter_axis.hpp) on each line of the input, and a
// ParameterGrid over the axes that parse. A parsed axis must have count >= 1, finite ends,
// value(0) == start, value(count - 1) == stop, and every value finite and between the ends; the
// grid's rows must decompose into indices within each axis. UsageError is the only allowed failure.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "parameter_axis.hpp"
#include "usage_error.hpp"

namespace {

using geomint::ParameterAxis;
using geomint::UsageError;
using geomint_fuzz::names_option;

// Indices worth checking on an axis of `count` values: both ends, their neighbours, the middle.
std::vector<std::uint64_t> sample_indices(std::uint64_t count, std::uint64_t salt) {
    std::vector<std::uint64_t> indices = {0, count - 1, count / 2, salt % count};
    if (count > 1) indices.insert(indices.end(), {1, count - 2});
    return indices;
}

void check_axis(const ParameterAxis& axis, const std::string& text, std::uint64_t salt) {
    FUZZ_CHECK(axis.count >= 1, text);
    FUZZ_CHECK(std::isfinite(axis.start) && std::isfinite(axis.stop), text);
    if (axis.count == 1) FUZZ_CHECK(axis.start == axis.stop, text);
    FUZZ_CHECK(axis.value(0) == axis.start, text);
    FUZZ_CHECK(axis.value(axis.count - 1) == axis.stop, text);
    const double low = std::min(axis.start, axis.stop);
    const double high = std::max(axis.start, axis.stop);
    for (const std::uint64_t i : sample_indices(axis.count, salt)) {
        const double v = axis.value(i);
        FUZZ_CHECK(std::isfinite(v), text + " at index " + std::to_string(i));
        FUZZ_CHECK(low <= v && v <= high, text + " at index " + std::to_string(i));
    }
}

void check_grid(const std::vector<ParameterAxis>& axes, const std::string& text, std::uint64_t salt) {
    std::uint64_t expected = 1;
    bool overflows = false;
    for (const ParameterAxis& axis : axes)
        overflows = overflows || __builtin_mul_overflow(expected, axis.count, &expected);
    try {
        const geomint::ParameterGrid grid(axes, "--size");
        FUZZ_CHECK(!overflows && grid.size() == expected, text);
        for (const std::uint64_t row : sample_indices(grid.size(), salt)) {
            // Row-major with the last axis fastest: the indices rebuild the row.
            std::uint64_t rebuilt = 0;
            for (std::size_t a = 0; a < axes.size(); ++a) {
                const std::uint64_t index = grid.index(row, a);
                FUZZ_CHECK(index < axes[a].count, text);
                rebuilt = rebuilt * axes[a].count + index;
                FUZZ_CHECK(grid.value(row, a) == axes[a].value(index), text);
            }
            FUZZ_CHECK(rebuilt == row, text + " at row " + std::to_string(row));
        }
    } catch (const UsageError& e) {
        FUZZ_CHECK(overflows && names_option(e.what(), "--size"), text);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::uint64_t salt = 1469598103934665603ULL;  // FNV-1a of the input picks the extra indices
    for (const std::uint8_t byte : input) salt = (salt ^ byte) * 1099511628211ULL;

    std::vector<ParameterAxis> axes;
    bool all_parsed = true;
    std::size_t start = 0;
    for (int line = 0; line < 4 && start <= input.size(); ++line) {
        const std::size_t end = std::min(input.find('\n', start), input.size());
        const std::string text = input.substr(start, end - start);
        try {
            const ParameterAxis axis = geomint::parse_parameter_axis(text, "--q0");
            check_axis(axis, text, salt);
            axes.push_back(axis);
        } catch (const UsageError& e) {
            FUZZ_CHECK(names_option(e.what(), "--q0"), text);
            all_parsed = false;
        }
        start = end + 1;
    }
    if (all_parsed && !axes.empty()) check_grid(axes, input, salt);
    return 0;
}
