// Result sink writing CSV: a header of column names, then one row per trajectory. Reals have 17
// significant digits so every double round-trips; integers as integers; status as its word.
#pragma once

#include <cstddef>
#include <cstdio>

#include "result_columns.hpp"

namespace geomint {

class CsvSink {
public:
    explicit CsvSink(std::FILE* out) : out_(out) {}
    void write_header(const ColumnSet& columns);
    void write_rows(const ColumnSet& columns, std::size_t rows);

private:
    std::FILE* out_;
};

}  // namespace geomint
