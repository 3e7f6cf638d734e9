// CSV result sink (see csv_sink.hpp).
#include "csv_sink.hpp"

#include <cstdint>

#include "geomint/solve_status.hpp"

namespace geomint {

void CsvSink::write_header(const ColumnSet& columns) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (c > 0) std::fputc(',', out_);
        std::fputs(columns[c].name.c_str(), out_);
    }
    std::fputc('\n', out_);
}

void CsvSink::write_rows(const ColumnSet& columns, std::size_t rows) {
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (c > 0) std::fputc(',', out_);
            const Column& column = columns[c];
            switch (column.kind) {
                case ColumnKind::real32:
                    std::fprintf(out_, "%.17g", static_cast<double>(static_cast<const float*>(column.data)[r]));
                    break;
                case ColumnKind::real64:
                    std::fprintf(out_, "%.17g", static_cast<const double*>(column.data)[r]);
                    break;
                case ColumnKind::int64:
                    std::fprintf(out_, "%lld", static_cast<const long long*>(column.data)[r]);
                    break;
                case ColumnKind::status:
                    std::fputs(status_name(static_cast<SolveStatus>(static_cast<const std::uint8_t*>(column.data)[r])),
                               out_);
                    break;
            }
        }
        std::fputc('\n', out_);
    }
}

}  // namespace geomint
