// libFuzzer target: the strict number parsers of src/number_parsing.hpp on arbitrary text.
// Accepted text must give what the C library reads from it (strtod, strtoll, strtoull), finite and,
// for the positive parsers, positive; rejected text must give a UsageError naming the option. Any
// other exception, a crash or a sanitizer report is a finding.
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "number_parsing.hpp"
#include "usage_error.hpp"

namespace {

using geomint::UsageError;
using geomint_fuzz::names_option;

bool same_double(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The value the C library reads from the whole of `text`, if it reads the whole of it.
bool c_library_real(const std::string& text, double& value) {
    if (text.empty() || text.find('\0') != std::string::npos) return false;
    char* end = nullptr;
    errno = 0;
    value = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
}

void check_finite_real(const std::string& text) {
    double value = 0;
    try {
        value = geomint::parse_finite_real(text, "--x");
    } catch (const UsageError& e) {
        FUZZ_CHECK(names_option(e.what(), "--x"), text);
        return;
    }
    FUZZ_CHECK(std::isfinite(value), text);
    double reference = 0;
    FUZZ_CHECK(c_library_real(text, reference), text);  // accepted text is a number to strtod too
    FUZZ_CHECK(same_double(value, reference), text);    // and the same one, to the bit
    // Only decimal numbers: no hexadecimal, no leading space, no "inf"/"nan" spellings.
    FUZZ_CHECK(text.find_first_not_of("0123456789+-.eE") == std::string::npos, text);
}

void check_positive_real(const std::string& text) {
    double value = 0;
    try {
        value = geomint::parse_positive_real(text, "--x");
    } catch (const UsageError& e) {
        FUZZ_CHECK(names_option(e.what(), "--x"), text);
        return;
    }
    FUZZ_CHECK(std::isfinite(value) && value > 0, text);
    FUZZ_CHECK(same_double(value, geomint::parse_finite_real(text, "--x")), text);
}

void check_positive_integer(const std::string& text) {
    long long value = 0;
    try {
        value = geomint::parse_positive_integer(text, "--n");
    } catch (const UsageError& e) {
        FUZZ_CHECK(names_option(e.what(), "--n"), text);
        return;
    }
    FUZZ_CHECK(value > 0, text);
    FUZZ_CHECK(!text.empty() && text.find_first_not_of("0123456789") == std::string::npos, text);
    errno = 0;
    char* end = nullptr;
    const long long reference = std::strtoll(text.c_str(), &end, 10);
    FUZZ_CHECK(errno == 0 && end == text.c_str() + text.size() && reference == value, text);
}

// parse_nonnegative_integer and parse_uint64: decimal digits only, the value strtoull reads.
template <class Integer>
void check_digits(const std::string& text, Integer (*parse)(const std::string&, const std::string&)) {
    Integer value = 0;
    try {
        value = parse(text, "--seed");
    } catch (const UsageError& e) {
        FUZZ_CHECK(names_option(e.what(), "--seed"), text);
        return;
    }
    FUZZ_CHECK(value >= 0, text);
    FUZZ_CHECK(!text.empty() && text.find_first_not_of("0123456789") == std::string::npos, text);
    errno = 0;
    char* end = nullptr;
    const unsigned long long reference = std::strtoull(text.c_str(), &end, 10);
    FUZZ_CHECK(errno == 0 && end == text.c_str() + text.size(), text);
    FUZZ_CHECK(reference == static_cast<unsigned long long>(value), text);
}

void check_real_list(const std::string& text, std::size_t count) {
    std::vector<double> values;
    try {
        values = geomint::parse_real_list(text, count, "--s0");
    } catch (const UsageError& e) {
        FUZZ_CHECK(names_option(e.what(), "--s0"), text);
        return;
    }
    FUZZ_CHECK(values.size() == count, text);
    // Each value is what parse_finite_real reads from its comma-separated field.
    std::size_t start = 0;
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t comma = text.find(',', start);
        FUZZ_CHECK((comma == std::string::npos) == (k + 1 == count), text);
        const std::string field = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        FUZZ_CHECK(std::isfinite(values[k]), text);
        FUZZ_CHECK(same_double(values[k], geomint::parse_finite_real(field, "--s0")), text);
        start = comma + 1;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    check_finite_real(text);
    check_positive_real(text);
    check_positive_integer(text);
    check_digits<long long>(text, geomint::parse_nonnegative_integer);
    check_digits<std::uint64_t>(text, geomint::parse_uint64);
    // The list parser with the count the text has, and with the fixed counts the CLI uses.
    std::size_t commas = 0;
    for (const char c : text) commas += c == ',';
    check_real_list(text, commas + 1);
    check_real_list(text, 3);
    return 0;
}
