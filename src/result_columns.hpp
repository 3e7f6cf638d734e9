// The columns of one computed chunk, as every result sink sees them: a name, an element type and
// n contiguous values. A family describes its results once this way; the CSV writer (and later
// sinks) need nothing else.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace geomint {

enum class ColumnKind { real32, real64, int64, status };

struct Column {
    std::string name;
    ColumnKind kind;
    const void* data;  // n values of the kind (status: SolveStatus bytes); null before the first chunk

    template <class Real>
    static constexpr ColumnKind real_kind() {
        return sizeof(Real) == sizeof(float) ? ColumnKind::real32 : ColumnKind::real64;
    }
};

using ColumnSet = std::vector<Column>;

}  // namespace geomint
