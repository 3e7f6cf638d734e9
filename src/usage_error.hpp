// The error for bad command-line input: its message names the offending option and
// becomes the one-line "geomint: error: ..." that the CLI prints before exiting non-zero.
#pragma once

#include <stdexcept>
#include <string>

namespace geomint {

class UsageError : public std::runtime_error {
public:
    UsageError(const std::string& option, const std::string& problem) : std::runtime_error(option + ": " + problem) {}
};

}  // namespace geomint
