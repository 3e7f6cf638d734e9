// Readable GoogleTest output for the library's value types that assertions print: a failing
// ASSERT_EQ(status, SolveStatus::ok) shows "non_finite" instead of "1-byte object <02>".
#pragma once

#include <ostream>

#include "geomint/solve_status.hpp"

namespace geomint {

// Found by argument-dependent lookup from GoogleTest's printer; the word is the CLI's.
inline void PrintTo(SolveStatus status, std::ostream* os) { *os << status_name(status); }

}  // namespace geomint
