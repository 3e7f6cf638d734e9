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
    if (first != last && *first == '+') {
        ++first;  // from_chars rejects a leading '+'; after it, no second sign ("+-1")
        if (first != last && (*first == '-' || *first == '+')) return false;
    }
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

namespace {

// Decimal digits only, the whole text; from_chars alone would take a leading '-' for signed types.
template <class Integer>
Integer parse_digits(const std::string& text, const std::string& option) {
    Integer value = 0;
    const char* first = text.data();
    const char* last = first + text.size();
    const bool digits_only = first != last && text.find_first_not_of("0123456789") == std::string::npos;
    const auto [end, error] = std::from_chars(first, last, value);
    if (digits_only && error == std::errc::result_out_of_range) throw UsageError(option, "'" + text + "' is too large");
    if (!digits_only && !text.empty() && text[0] == '-' &&
        text.find_first_not_of("0123456789", 1) == std::string::npos && text.size() > 1)
        throw UsageError(option, "must not be negative, got '" + text + "'");
    if (!digits_only || error != std::errc() || end != last)
        throw UsageError(option, "'" + text + "' is not an integer");
    return value;
}

}  // namespace

long long parse_positive_integer(const std::string& text, const std::string& option) {
    const long long value = parse_digits<long long>(text, option);
    if (value <= 0) throw UsageError(option, "must be positive, got '" + text + "'");
    return value;
}

long long parse_nonnegative_integer(const std::string& text, const std::string& option) {
    return parse_digits<long long>(text, option);
}

std::uint64_t parse_uint64(const std::string& text, const std::string& option) {
    return parse_digits<std::uint64_t>(text, option);
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
