// Checks every value given to a command before it runs, for the CLI, sweep files and the Python
// module alike: a value is never empty (silently its default) and never holds a NUL byte (the
// system reads a file name only up to it, so "a\0b.csv" would silently be the file "a").
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace geomint {

// Throws UsageError naming the option of the first value of `command` (given, not a flag) that is
// empty or holds a NUL byte.
void refuse_unusable_values(const CLI::App& command);

// Throws UsageError naming the option of the first argument spelt "--option=" with nothing after
// the '=': CLI11 would take the next argument as its value ("--out= --exact" writes a file named
// "--exact").
void refuse_empty_assignments(const std::vector<std::string>& arguments);

// Throws UsageError(option, ...) when `path` cannot name a file exactly: empty, or holding a NUL.
void check_file_name(const std::string& path, const std::string& option);

}  // namespace geomint
