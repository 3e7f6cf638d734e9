// Strict parsing of numbers given on the command line: the whole text must be a finite
// number, or a UsageError names the option. Used for every numeric option.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace geomint {

double parse_finite_real(const std::string& text, const std::string& option);
double parse_positive_real(const std::string& text, const std::string& option);
long long parse_positive_integer(const std::string& text, const std::string& option);
// 0, 1, 2, ...: decimal digits only (no sign, space, exponent or base prefix).
long long parse_nonnegative_integer(const std::string& text, const std::string& option);
// Any 64-bit unsigned integer, 0 .. 18446744073709551615, in decimal digits only.
std::uint64_t parse_uint64(const std::string& text, const std::string& option);
// "x,y,z,...": exactly `count` finite numbers separated by commas.
std::vector<double> parse_real_list(const std::string& text, std::size_t count, const std::string& option);

}  // namespace geomint
