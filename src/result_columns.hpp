// The columns of one computed chunk, as every result sink sees them: a name, an element type and
// n contiguous values. A family describes its results once this way; the CSV writer (and later
// sinks) need nothing else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "geomint/solve_status.hpp"

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

// Calls count(name) with the status name of each of the first `rows` entries of every status
// column: how the pipeline's summary and a portrait tally how a chunk's trajectories ended.
template <class Count>
void for_each_status(const ColumnSet& columns, std::size_t rows, const Count& count) {
    for (const Column& column : columns) {
        if (column.kind != ColumnKind::status) continue;
        const auto* status = static_cast<const std::uint8_t*>(column.data);
        for (std::size_t r = 0; r < rows; ++r) count(status_name(static_cast<SolveStatus>(status[r])));
    }
}

}  // namespace geomint
