// The error for bad command-line input: its message names the offending option and
// becomes the one-line "geomint: error: ..." that the CLI prints before exiting with status 2.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace geomint {

class UsageError : public std::runtime_error {
public:
    UsageError(const std::string& option, const std::string& problem) : std::runtime_error(option + ": " + problem) {}
};

// `text` made safe for one line of a terminal: control characters and bytes outside printable
// ASCII as \xNN (a binary --init file or a stray escape sequence cannot garble the terminal or
// split the message), and at most about `limit` characters. A longer text loses its middle, not
// its end: a message names the option first and gives its reason last, after the (long) value.
inline std::string printable(const std::string& text, std::size_t limit = 400) {
    std::string out;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f) {
            out += c;
        } else {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        }
    }
    if (out.size() <= limit) return out;
    const std::size_t head = limit / 3, tail = limit - head;
    return out.substr(0, head) + " ... " + out.substr(out.size() - tail);
}

}  // namespace geomint
