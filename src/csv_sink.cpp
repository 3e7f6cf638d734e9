// CSV result sink (see csv_sink.hpp).
#include "csv_sink.hpp"

#include <cstdint>
#include <cstdio>

#include "geomint/solve_status.hpp"

namespace geomint {

namespace {

// snprintf with the formats the CSV has always had ("%.17g", "%lld"): byte for byte the same
// output as the fprintf it replaces (tests/golden holds it).
void append_real(std::string& out, double value) {
    char text[40];
    const int length = std::snprintf(text, sizeof text, "%.17g", value);
    out.append(text, static_cast<std::size_t>(length));
}

void append_integer(std::string& out, long long value) {
    char text[24];
    const int length = std::snprintf(text, sizeof text, "%lld", value);
    out.append(text, static_cast<std::size_t>(length));
}

}  // namespace

void CsvSink::flush() {
    out_.write(buffer_);
    buffer_.clear();
}

void CsvSink::write_header(const ColumnSet& columns) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (c > 0) buffer_ += ',';
        buffer_ += columns[c].name;
    }
    buffer_ += '\n';
    flush();  // an unwritable destination (/dev/full) fails now, before any work
}

void CsvSink::write_rows(const ColumnSet& columns, std::size_t rows) {
    buffer_.reserve(kBlockBytes + 4096);
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (c > 0) buffer_ += ',';
            const Column& column = columns[c];
            switch (column.kind) {
                case ColumnKind::real32:
                    append_real(buffer_, static_cast<double>(static_cast<const float*>(column.data)[r]));
                    break;
                case ColumnKind::real64:
                    append_real(buffer_, static_cast<const double*>(column.data)[r]);
                    break;
                case ColumnKind::int64:
                    append_integer(buffer_, static_cast<const long long*>(column.data)[r]);
                    break;
                case ColumnKind::status:
                    buffer_ += status_name(static_cast<SolveStatus>(static_cast<const std::uint8_t*>(column.data)[r]));
                    break;
            }
        }
        buffer_ += '\n';
        if (buffer_.size() >= kBlockBytes) flush();
    }
    flush();
}

}  // namespace geomint
