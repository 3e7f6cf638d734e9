// Result sink writing CSV: a header of column names, then one row per trajectory. Reals have 17
// significant digits so every double round-trips; integers as integers; status as its word.
// Rows are formatted into a buffer handed to the output file in large blocks and at the end of
// every chunk, so a write error stops the run before the next chunk is computed.
#pragma once

#include <cstddef>
#include <string>

#include "atomic_output_file.hpp"
#include "result_columns.hpp"

namespace geomint {

class CsvSink {
public:
    explicit CsvSink(AtomicOutputFile& out) : out_(out) {}
    // Each writes (and so checks) everything it formatted before returning.
    void write_header(const ColumnSet& columns);
    void write_rows(const ColumnSet& columns, std::size_t rows);

    static constexpr std::size_t kBlockBytes = std::size_t{1} << 20;

private:
    void flush();

    AtomicOutputFile& out_;
    std::string buffer_;
};

}  // namespace geomint
