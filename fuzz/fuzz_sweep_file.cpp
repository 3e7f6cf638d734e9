// libFuzzer target: the sweep-file reader parse_sweep_text and writer render_sweep_file
// (src/sweep_file.hpp). UsageError naming the file is the expected failure; an accepted file must
// give settings with a line, booleans as true/false, lists of numbers, and written back and read
// again it must give the same command, the same [portrait] table or none, and the same key, text
// and place (top level or [portrait]) of every option value.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "fuzz_sweep_input.hpp"
#include "sweep_file.hpp"
#include "usage_error.hpp"

namespace {

using geomint::SweepEntry;
using geomint::SweepFile;
using geomint::SweepSetting;
using geomint::UsageError;
using geomint_fuzz::names_option;

// A number as the reader writes one: decimal, or nan/inf from TOML's special floats.
bool number_text(const std::string& text) {
    if (text == "nan" || text == "-nan" || text == "inf" || text == "-inf") return true;
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    return !text.empty() && end == text.c_str() + text.size();
}

bool list_text(const std::string& text) {
    std::size_t begin = 0;
    while (true) {
        const std::size_t comma = text.find(',', begin);
        if (!number_text(text.substr(begin, comma - begin))) return false;
        if (comma == std::string::npos) return true;
        begin = comma + 1;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::optional<SweepFile> read = geomint_fuzz::read_sweep_input(text);
    if (!read) return 0;
    const SweepFile& file = *read;
    FUZZ_CHECK(file.command_line >= 1, text);
    std::vector<SweepEntry> entries;
    for (const SweepSetting& s : file.settings) {
        FUZZ_CHECK(s.line >= 1 && s.key != "command", text);
        switch (s.kind) {
            case SweepSetting::Kind::boolean:
                FUZZ_CHECK(s.text == "true" || s.text == "false", text);
                break;
            case SweepSetting::Kind::list:
                FUZZ_CHECK(s.text.empty() || list_text(s.text), text + " -> " + s.text);
                break;
            default:
                break;
        }
        FUZZ_CHECK(file.portrait || !s.in_portrait, text);
        if (s.kind != SweepSetting::Kind::other)
            entries.push_back({s.key, s.text, s.kind == SweepSetting::Kind::boolean, s.in_portrait});
    }
    // Written and read back: the same values, the top level's first, then the table's.
    const std::string written = geomint::render_sweep_file(file.command, entries, file.portrait);
    std::stable_partition(entries.begin(), entries.end(), [](const SweepEntry& e) { return !e.in_portrait; });
    SweepFile back;
    try {
        back = geomint::parse_sweep_text(written, "written.toml");
    } catch (const UsageError& e) {
        FUZZ_CHECK(false, text + "\n  written:\n" + written + "\n  error: " + e.what());
    }
    FUZZ_CHECK(back.command == file.command, text);
    FUZZ_CHECK(back.portrait == file.portrait, text + "\n  written:\n" + written);
    FUZZ_CHECK(back.settings.size() == entries.size(), text + "\n  written:\n" + written);
    for (std::size_t k = 0; k < entries.size(); ++k) {
        FUZZ_CHECK(back.settings[k].key == entries[k].key, text + "\n  written:\n" + written);
        FUZZ_CHECK(back.settings[k].text == entries[k].text, text + "\n  written:\n" + written);
        FUZZ_CHECK(back.settings[k].in_portrait == entries[k].in_portrait, text + "\n  written:\n" + written);
    }
    return 0;
}
