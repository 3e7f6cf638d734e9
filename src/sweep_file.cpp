// Sweep files as TOML text (see sweep_file.hpp); toml++ does the parsing.
#include "sweep_file.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <toml++/toml.h>

#include "input_files.hpp"
#include "option_values.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

std::string at(const std::string& source, std::size_t line) { return source + ":" + std::to_string(line); }

// A float as the shortest text that reads back to it, marked as a float ("1000.0", not "1000") so
// that an integer option refuses it as the command line would refuse "1000.0".
std::string float_text(double value) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    std::string text(buffer, result.ptr);
    if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // "nan" and "inf" have an 'n'
    return text;
}

// The text of a number node, or false when the node is no number.
bool number_text(const toml::node& node, std::string& text) {
    if (const auto* integer = node.as_integer()) {
        text = std::to_string(integer->get());
        return true;
    }
    if (const auto* floating = node.as_floating_point()) {
        text = float_text(floating->get());
        return true;
    }
    return false;
}

std::string describe(const toml::node& node) {
    switch (node.type()) {
        case toml::node_type::table:
            return "a table";
        case toml::node_type::array:
            return "an array that is not all numbers";
        case toml::node_type::date:
            return "a date";
        case toml::node_type::time:
            return "a time";
        case toml::node_type::date_time:
            return "a date-time";
        default:
            return "a value of another type";
    }
}

SweepSetting setting_of(const std::string& key, std::size_t line, const toml::node& node) {
    SweepSetting s{key, line, SweepSetting::Kind::other, describe(node)};
    if (const auto* boolean = node.as_boolean()) {
        s.kind = SweepSetting::Kind::boolean;
        s.text = boolean->get() ? "true" : "false";
    } else if (const auto* string = node.as_string()) {
        s.kind = SweepSetting::Kind::scalar;
        s.text = string->get();
    } else if (number_text(node, s.text)) {
        s.kind = SweepSetting::Kind::scalar;
    } else if (const auto* array = node.as_array()) {
        std::string joined, item;
        bool numbers = true;
        for (std::size_t i = 0; i < array->size() && numbers; ++i) {
            numbers = number_text(*array->get(i), item);
            joined += (i == 0 ? "" : ",") + item;
        }
        if (numbers) {
            s.kind = SweepSetting::Kind::list;
            s.text = joined;
        }
    }
    return s;
}

// `key = "text"` as toml++ writes it: the key quoted when it must be, and with no format flags
// every character that is not printable ASCII as an escape (sweep files are ASCII).
std::string string_line(const std::string& key, const std::string& text) {
    toml::table table;
    table.insert(key, text);
    std::ostringstream line;
    line << toml::toml_formatter{table, toml::format_flags::none};
    return line.str();
}

// `key = `: bare when TOML allows it (A-Z a-z 0-9 _ -), otherwise quoted with string escapes.
// toml++ 3.3.0 writes a key holding an apostrophe bare, which no TOML reader accepts (found by
// fuzz_sweep_file), so keys are not left to its formatter.
std::string key_part(const std::string& key) {
    const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
    return (bare ? key : string_line("x", key).substr(4, std::string::npos)) + " = ";
}

// `text` written so that parse_sweep_text reads exactly `text` back: bare when it is a number or
// a list of numbers that reads back the same, a string otherwise.
std::string value_literal(const std::string& text) {
    // Only the characters of numbers, nan, inf and commas can make a bare value; anything else is
    // written as a string without reaching toml++'s parser, which meets undefined behaviour on some
    // non-ASCII characters (refuse_non_ascii).
    const bool could_be_bare = !text.empty() && text.find_first_not_of("0123456789+-.,eEinfa") == std::string::npos;
    for (const bool as_array : {false, true}) {
        if (!could_be_bare) break;
        const std::string literal = as_array ? "[" + text + "]" : text;
        try {
            const toml::table table = toml::parse("x = " + literal + "\n", std::string_view("value"));
            const toml::node* node = table.get("x");
            if (table.size() != 1 || node == nullptr || node->is_string() || node->is_boolean()) continue;
            const SweepSetting s = setting_of("x", 1, *node);
            const auto wanted = as_array ? SweepSetting::Kind::list : SweepSetting::Kind::scalar;
            // A one-element list would read back as a list of one: keep those as strings.
            if (s.kind == wanted && s.text == text && (!as_array || text.find(',') != std::string::npos))
                return as_array ? "[" + text + "]" : literal;
        } catch (const toml::parse_error&) {
        }
    }
    return string_line("x", text).substr(4);  // less "x = "
}

// toml++ 3.3.0 (Debian 12) reaches __builtin_unreachable, undefined behaviour, when it tests some
// non-ASCII characters for whitespace (upstream issues 190 and 295; found here by fuzz_sweep_file,
// tests/test_fuzz_regressions.cpp): such bytes never reach it. Sweep files are ASCII; strings can
// hold any character as a \uXXXX escape.
void refuse_non_ascii(std::string_view text, const std::string& source) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (static_cast<unsigned char>(text[i]) < 0x80) continue;
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(i), '\n');
        throw UsageError(at(source, static_cast<std::size_t>(line)),
                         "non-ASCII byte in a sweep file; write such characters in strings as \\uXXXX escapes");
    }
}

}  // namespace

SweepFile parse_sweep_text(std::string_view text, const std::string& source) {
    refuse_non_ascii(text, source);
    toml::table table;
    try {
        table = toml::parse(text, std::string_view(source));
    } catch (const toml::parse_error& e) {
        throw UsageError(at(source, e.source().begin.line), "not a valid TOML file: " + std::string(e.description()));
    }
    SweepFile file{source, {}, 0, {}, false, 0};
    bool has_command = false;
    for (auto&& [key, node] : table) {
        const std::string name(key.str());
        const std::size_t line = key.source().begin.line;
        if (name == "portrait" && node.is_table()) {
            // The portrait's own options; a nested table or any other value is a setting that
            // sweep_arguments refuses by its key.
            file.portrait = true;
            file.portrait_line = line;
            for (auto&& [inner_key, inner_node] : *node.as_table()) {
                // `command` is never a setting (found by fuzz_sweep_file): it names the family
                // at the top level.
                if (inner_key.str() == "command")
                    throw UsageError(at(source, inner_key.source().begin.line) + ": portrait.command",
                                     "name the command at the top level, above the [portrait] table");
                SweepSetting s = setting_of(std::string(inner_key.str()), inner_key.source().begin.line, inner_node);
                s.in_portrait = true;
                file.settings.push_back(std::move(s));
            }
            continue;
        }
        if (name == "command") {
            if (!node.is_string())
                throw UsageError(at(source, line) + ": command", "must be a string (pendulum or spin)");
            file.command = node.as_string()->get();
            file.command_line = line;
            has_command = true;
            continue;
        }
        file.settings.push_back(setting_of(name, line, node));
    }
    if (!has_command) throw UsageError(source + ": command", "missing key: the command to run (pendulum or spin)");
    // toml++ keeps keys sorted by name; messages and arguments follow the file instead.
    std::stable_sort(file.settings.begin(), file.settings.end(),
                     [](const SweepSetting& a, const SweepSetting& b) { return a.line < b.line; });
    return file;
}

SweepFile read_sweep_file(const std::string& path) {
    check_file_name(path, "sweep file");
    // A directory opens as a stream that reads nothing: say what it is instead of "no command".
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode))
        throw UsageError(path, "is a directory; give the sweep file (TOML) to run");
    register_input_file(path, kSweepFileRole);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError(path, std::string("cannot read the sweep file: ") + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw UsageError(path, "cannot read the sweep file");
    return parse_sweep_text(text.str(), path);
}

std::string render_sweep_file(const std::string& command, const std::vector<SweepEntry>& entries, bool portrait) {
    std::string out = "# geomint sweep file: run it with `geomint run FILE`\n" + string_line("command", command) + "\n";
    const auto write = [&out](const SweepEntry& e) {
        out += key_part(e.key) + (e.flag ? e.text : value_literal(e.text)) + "\n";
    };
    for (const SweepEntry& e : entries)
        if (!e.in_portrait) write(e);
    if (!portrait && std::none_of(entries.begin(), entries.end(), [](const SweepEntry& e) { return e.in_portrait; }))
        return out;
    // Top-level keys come first: after the header every key belongs to the table.
    out += "\n[portrait]\n";
    for (const SweepEntry& e : entries)
        if (e.in_portrait) write(e);
    return out;
}

}  // namespace geomint
