// Sweep files (TOML) as text: reading one into its settings, each with the key, its line and the
// value as the command line would spell it, and writing settings back as a sweep file. Knows no
// command's options: sweep_arguments.hpp checks the settings against the command they select.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace geomint {

// One key = value of a sweep file.
struct SweepSetting {
    enum class Kind {
        boolean,  // true or false (a flag)
        scalar,   // a string, integer or float: one option value
        list,     // an array of numbers, joined with commas as the CLI takes a list ("1,2,4")
        other     // anything else (a table, a date, an array of non-numbers): never an option value
    };
    std::string key;
    std::size_t line = 0;
    Kind kind = Kind::other;
    // boolean: "true" or "false"; scalar: a string as is, an integer in decimal, a float as the
    // shortest text that reads back to it (always with '.' or an exponent); list: the numbers so
    // written, joined with ','; other: what the value is, for messages ("a table").
    std::string text;
    bool in_portrait = false;  // a key of the [portrait] table (a portrait option), not of the top level
};

struct SweepFile {
    std::string source;  // the file's name, as messages name it
    std::string command;
    std::size_t command_line = 0;
    std::vector<SweepSetting> settings;  // every key but `command`, in the order of the file
    // A [portrait] table makes the file a phase portrait (`geomint portrait COMMAND`): its keys are
    // the portrait's own options, the top-level keys those of the family command.
    bool portrait = false;
    std::size_t portrait_line = 0;
};

// Reads TOML text, ASCII only (toml++ 3.3.0 has undefined behaviour on some other characters;
// strings take \uXXXX escapes); throws UsageError "SOURCE:LINE: KEY: problem" (or "SOURCE:LINE: problem" for
// TOML that does not parse, "SOURCE: command: ..." when the key is missing). The keys of a
// [portrait] table are settings too, marked in_portrait.
SweepFile parse_sweep_text(std::string_view text, const std::string& source);
// Reads the file at `path` (UsageError naming it when it cannot be read).
SweepFile read_sweep_file(const std::string& path);

// One value to write: `text` as the CLI took it, or for a flag "true"/"false".
struct SweepEntry {
    std::string key;
    std::string text;
    bool flag = false;
    bool in_portrait = false;  // written in the [portrait] table
};

// The sweep file of `command` with `entries` in order: `command = "..."` first, then each entry;
// with `portrait` (or any in_portrait entry), a [portrait] table (even an empty one) after them
// holding the in_portrait entries, in order.
// A text is written as a bare TOML number or array of numbers only when parse_sweep_text reads it
// back as the very same text, otherwise as a TOML string (written by toml++, every character that
// is not printable ASCII escaped): every value survives exactly. The result is ASCII.
std::string render_sweep_file(const std::string& command, const std::vector<SweepEntry>& entries,
                              bool portrait = false);

}  // namespace geomint
