// A result sink that keeps a run in memory: each chunk's columns are copied into the caller's
// arrays at the chunk's rows, and its saved states into an array [trajectory][save][component].
// Nothing is formatted or rounded, so the values are exactly those the CSV and HDF5 sinks write
// (the Python module's NumPy arrays are filled this way).
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "ensemble_pipeline.hpp"

namespace geomint {

// Where a column goes: row r at element r * stride of `data` (elements of the column's kind:
// float, double, long long, or one status byte).
struct MemoryColumn {
    void* data = nullptr;
    std::size_t stride = 1;
};

// Where the saved states go: room for size x saves x components reals of `real_size` bytes.
struct MemoryStates {
    void* data = nullptr;
    std::size_t saves = 0;
    std::size_t components = 0;
    std::size_t real_size = sizeof(double);
};

class MemorySink final : public ResultSink {
public:
    // A column of the run without a destination in `columns` is not kept.
    MemorySink(std::map<std::string, MemoryColumn> columns, MemoryStates states)
        : columns_(std::move(columns)), states_(states) {}
    void write_chunk(std::uint64_t begin, std::size_t n, const ColumnSet& columns, const void* states) override;
    void finish() override {}

private:
    std::map<std::string, MemoryColumn> columns_;
    MemoryStates states_;
};

}  // namespace geomint
