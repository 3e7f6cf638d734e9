// The sweep-file targets' common first step: the input read as a sweep file, or refused with a
// UsageError that names the file (a failed check aborts, fuzz_check.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz_check.hpp"
#include "sweep_file.hpp"
#include "usage_error.hpp"

namespace geomint_fuzz {

inline constexpr char kSweepSource[] = "fuzz.toml";

// The settings of `text`, or nothing when parse_sweep_text refused it (as it must: naming the file).
inline std::optional<geomint::SweepFile> read_sweep_input(const std::string& text) {
    try {
        return geomint::parse_sweep_text(text, kSweepSource);
    } catch (const geomint::UsageError& e) {
        FUZZ_CHECK(names_option(e.what(), kSweepSource), text);
        return std::nullopt;
    }
}

}  // namespace geomint_fuzz
