// Number formatting for CSV output: 17 significant digits, so every double round-trips.
#pragma once

#include <cstdio>

namespace geomint {

inline void write_csv_number(std::FILE* out, double value) { std::fprintf(out, "%.17g", value); }

}  // namespace geomint
