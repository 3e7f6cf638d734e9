// Strict number parsing for the CLI (see number_parsing.hpp).
#include "number_parsing.hpp"

#include <charconv>
#include <cmath>

#include "usage_error.hpp"

namespace geomint {

namespace {

bool parse_whole(const std::string& text, double& value) {
    const char* first = text.data();
    const char* last = first + text.size();
    if (first != last && *first == '+') ++first;  // from_chars rejects a leading '+'
    const auto [end, error] = std::from_chars(first, last, value);
    return error == std::errc() && end == last && first != last;
}

}  // namespace

double parse_finite_real(const std::string& text, const std::string& option) {
    double value = 0;
    if (!parse_whole(text, value)) throw UsageError(option, "'" + text + "' is not a number");
    if (!std::isfinite(value)) throw UsageError(option, "'" + text + "' is not finite");
    return value;
}

double parse_positive_real(const std::string& text, const std::string& option) {
    const double value = parse_finite_real(text, option);
    if (!(value > 0)) throw UsageError(option, "must be positive, got '" + text + "'");
    return value;
}

long long parse_positive_integer(const std::string& text, const std::string& option) {
    long long value = 0;
    const char* first = text.data();
    const char* last = first + text.size();
    const auto [end, error] = std::from_chars(first, last, value);
    if (error == std::errc::result_out_of_range) throw UsageError(option, "'" + text + "' is too large");
    if (error != std::errc() || end != last || first == last)
        throw UsageError(option, "'" + text + "' is not an integer");
    if (value <= 0) throw UsageError(option, "must be positive, got '" + text + "'");
    return value;
}

std::vector<double> parse_real_list(const std::string& text, std::size_t count, const std::string& option) {
    std::vector<double> values;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        values.push_back(parse_finite_real(text.substr(start, comma - start), option));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (values.size() != count)
        throw UsageError(option, "expected " + std::to_string(count) + " comma-separated numbers, got " +
                                     std::to_string(values.size()));
    return values;
}

}  // namespace geomint
