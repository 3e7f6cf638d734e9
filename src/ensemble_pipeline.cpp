// The chunk loop of every family (see ensemble_pipeline.hpp).
#include "ensemble_pipeline.hpp"

#include <algorithm>

#include "atomic_output_file.hpp"
#include "csv_sink.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

namespace {

void count_statuses(const ColumnSet& columns, std::size_t rows, RunReporter& reporter) {
    for (const Column& column : columns) {
        if (column.kind != ColumnKind::status) continue;
        const auto* status = static_cast<const std::uint8_t*>(column.data);
        for (std::size_t r = 0; r < rows; ++r) reporter.count_status(status_name(static_cast<SolveStatus>(status[r])));
    }
}

}  // namespace

void run_ensemble(const RunConfig& config, Ensemble& ensemble) {
    // Opened, and so validated, before any work; the header is written (and checked) at once.
    AtomicOutputFile file(config.out, "--out");
    CsvSink csv(file);
    csv.write_header(ensemble.columns());
    const std::uint64_t total = ensemble.size();
    const std::uint64_t chunk = std::max<std::uint64_t>(1, ensemble.chunk_capacity());
    RunReporter reporter(total, config.quiet, config.time.steps);
    const ProgressCallback progress = reporter.callback();
    for (std::uint64_t begin = 0; begin < total; begin += chunk) {
        const auto n = static_cast<std::size_t>(std::min(chunk, total - begin));
        ensemble.compute(begin, n, progress);
        const ColumnSet columns = ensemble.columns();
        csv.write_rows(columns, n);  // written before the next chunk: a write error ends the run now
        count_statuses(columns, n, reporter);
    }
    file.commit();  // only now does the output appear under its name
    reporter.finish(config.backend.description, file.description());
}

}  // namespace geomint
