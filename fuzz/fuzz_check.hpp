// Property checks for the libFuzzer targets: a failed check prints what was expected and aborts,
// which libFuzzer reports as a crash and saves the input (tools/run-fuzz.sh keeps it).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(condition, text)                                                                          \
    do {                                                                                                     \
        if (!(condition)) {                                                                                  \
            std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n  input text: '%s'\n", __FILE__, __LINE__, \
                         #condition, std::string(text).c_str());                                             \
            std::abort();                                                                                    \
        }                                                                                                    \
    } while (false)

namespace geomint_fuzz {

// A UsageError's message must start with the option it names (the CLI prints it as is).
inline bool names_option(const char* message, const std::string& option) {
    return std::string(message).rfind(option, 0) == 0;
}

}  // namespace geomint_fuzz
