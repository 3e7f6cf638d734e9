// The chunk loop of every family and the CSV/HDF5 table sink (see ensemble_pipeline.hpp).
#include "ensemble_pipeline.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "atomic_output_file.hpp"
#include "csv_sink.hpp"
#include "geomint/solve_status.hpp"
#include "hdf5_sink.hpp"
#include "mpi_chunk_loop.hpp"
#include "mpi_configuration.hpp"
#include "mpi_session.hpp"
#include "run_journal.hpp"
#include "save_recorder.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

void count_statuses(const ColumnSet& columns, std::size_t rows, RunReporter& reporter) {
    for_each_status(columns, rows, [&](const char* name) { reporter.count_status(name); });
}

// "cpu" or "cuda": what the journal keeps and the ranks compare.
std::string backend_name(const RunConfig& config) { return config.backend.backend == Backend::cuda ? "cuda" : "cpu"; }

// The shape of the run's chunks as bytes: how the journal keeps them and ranks send them.
ChunkShape chunk_shape(const RunConfig& config, Ensemble& ensemble) {
    ChunkShape shape;
    shape.columns = ensemble.columns();
    if (config.save_every > 0)
        shape.state_values = static_cast<std::size_t>(save_count(config.time.steps, config.save_every)) *
                             ensemble.state_components().size();
    shape.real_size = config.precision == Precision::float32 ? sizeof(float) : sizeof(double);
    return shape;
}

// The journal of a run whose output is a regular file and which can be written as a sweep file
// (the journal keeps that text to check a resume against); none otherwise. Opened after the output
// is validated and before its named temporary (`temporary`, if any) is made: the journal holds the
// output's lock (run_journal.hpp) and records the temporary's name before it exists.
std::unique_ptr<RunJournal> open_journal(const RunConfig& config, const AtomicOutputFile& file, Ensemble& ensemble,
                                         std::uint64_t chunk, const std::string& temporary) {
    const bool journaled = file.kind() == AtomicOutputFile::Kind::replace && !config.description.configuration.empty();
    if (!journaled) {
        if (config.resume)
            throw UsageError("--resume", file.kind() == AtomicOutputFile::Kind::replace
                                             ? "this run cannot be written as a sweep file, so it keeps no journal"
                                             : "needs --out to be a regular file (a pipe or device keeps no journal)");
        return nullptr;
    }
    RunJournal::Run run;
    run.out = config.out;
    run.configuration = config.description.configuration;
    run.total = ensemble.size();
    run.chunk = chunk;
    run.backend = backend_name(config);
    run.shape = chunk_shape(config, ensemble);
    run.temporary = temporary;
    run.temporary_directory = file.directory();
    return std::make_unique<RunJournal>(std::move(run), config.resume);
}

// The CSV or HDF5 file of an ensemble run (config.out: HDF5 for a name ending in .h5).
class TableSink final : public ResultSink {
public:
    TableSink(const RunConfig& config, AtomicOutputFile& file, Ensemble& ensemble) {
        if (is_hdf5_path(config.out)) {
            // HDF5 seeks back to write its metadata: a pipe or a device cannot hold it.
            if (file.kind() != AtomicOutputFile::Kind::replace)
                throw UsageError("--out", "'" + config.out + "' is not a regular file; HDF5 needs a seekable file");
            hdf5_ = std::make_unique<Hdf5Sink>(
                file.temporary_path(), config.out, config, ensemble.columns(),
                Hdf5Layout{ensemble.size(), std::max<std::size_t>(1, ensemble.chunk_capacity()),
                           config.save_every > 0 ? ensemble.state_components() : std::vector<std::string>{}});
        } else {
            csv_.emplace(file);
            csv_->write_header(ensemble.columns());  // written (and checked) at once
        }
    }
    void write_chunk(std::uint64_t begin, std::size_t n, const ColumnSet& columns, const void* states) override {
        if (hdf5_)
            hdf5_->write_chunk(begin, n, columns, states);
        else
            csv_->write_rows(columns, n);
    }
    void finish() override {
        if (hdf5_) hdf5_->close();
    }

private:
    std::optional<CsvSink> csv_;
    std::unique_ptr<Hdf5Sink> hdf5_;
};

// What the pipeline adds to the caller's sink for each chunk: the status counts of the summary,
// then (after the output has the chunk) the journal's record of it.
class ReportedSink final : public ResultSink {
public:
    ReportedSink(ResultSink& out, RunReporter& reporter, RunJournal* journal)
        : out_(out), reporter_(reporter), journal_(journal) {}
    void write_chunk(std::uint64_t begin, std::size_t n, const ColumnSet& columns, const void* states) override {
        out_.write_chunk(begin, n, columns, states);
        count_statuses(columns, n, reporter_);
        if (journal_) journal_->append_chunk(chunk_pieces(journal_->shape(), columns, n, states), begin + n);
    }
    void finish() override { out_.finish(); }

private:
    ResultSink& out_;
    RunReporter& reporter_;
    RunJournal* journal_;
};

}  // namespace

void run_chunks(Ensemble& ensemble, ResultSink& sink, const ProgressCallback& progress, std::uint64_t start) {
    const std::uint64_t total = ensemble.size();
    const std::uint64_t chunk = std::max<std::uint64_t>(1, ensemble.chunk_capacity());
    for (std::uint64_t begin = start; begin < total; begin += chunk) {
        const auto n = static_cast<std::size_t>(std::min(chunk, total - begin));
        ensemble.compute(begin, n, progress);
        sink.write_chunk(begin, n, ensemble.columns(), ensemble.saved_states());
    }
}

void run_pipeline(const RunConfig& config, Ensemble& ensemble, ResultSink& sink, AtomicOutputFile& file,
                  RunJournal* journal) {
    // A portrait split across ranks comes here on every rank, each with its own output and sink
    // (run_ensemble's runs come on rank 0 only): the workers compute the chunks rank 0 hands out,
    // recording into their own sink, whose finish() adds the histograms up on rank 0.
    if (mpi::split() && !mpi::split_run_started()) {
        mpi::agree_on_configuration(mpi::run_fingerprint(config.description.configuration));
        mpi::set_split_run_started();
        if (mpi::rank() == 0) {
            mpi::announce_start(0);
        } else {
            if (const int status = mpi::await_start(); status != 0) throw mpi::QuietExit{status};
            mpi::serve_chunks(ensemble, chunk_shape(config, ensemble), backend_name(config));
            sink.finish();
            return;
        }
    }
    const std::uint64_t chunk = std::max<std::uint64_t>(1, ensemble.chunk_capacity());
    RunReporter reporter(ensemble.size(), config.quiet, config.time.steps);
    // A resumed run first gives the output the chunks computed before, exactly as they were.
    const std::uint64_t start = journal ? journal->completed() : 0;
    if (journal && journal->resumed()) reporter.resume_from(start);
    for (std::uint64_t begin = 0; begin < start; begin += chunk) {
        const auto n = static_cast<std::size_t>(std::min(chunk, start - begin));
        StoredChunk stored(journal->shape(), n);
        journal->read_chunk(stored);
        sink.write_chunk(begin, n, stored.columns(), stored.states());
        count_statuses(stored.columns(), n, reporter);
    }
    ReportedSink reported(sink, reporter, journal);
    std::string backend = config.backend.description;
    if (mpi::split())
        backend += " x " + mpi::coordinate_chunks(ensemble, reported, reporter, chunk_shape(config, ensemble), start,
                                                  backend_name(config));
    else
        run_chunks(ensemble, reported, reporter.callback(), start);
    reported.finish();
    // Only now does the output appear under its name, and the journal goes with the same step:
    // a caught signal in between waits, so no complete output is left beside a journal.
    file.commit([&] {
        if (journal) journal->finish();
    });
    reporter.finish(backend, file.description());
}

void run_ensemble(const RunConfig& config, Ensemble& ensemble) {
    // A run split across MPI ranks (mpi_chunk_loop.hpp): the workers only compute; rank 0 opens the
    // output and tells them whether the run starts, so that a refused output ends every rank.
    const bool split = mpi::split();
    // First of all: a rank given other options or input files ends the job before any file is made.
    if (split) mpi::agree_on_configuration(mpi::run_fingerprint(config.description.configuration));
    if (split && mpi::rank() != 0) {
        if (const int status = mpi::await_start(); status != 0) throw mpi::QuietExit{status};
        mpi::set_split_run_started();
        mpi::serve_chunks(ensemble, chunk_shape(config, ensemble), backend_name(config));
        return;
    }
    // Destroyed in reverse: the journal, which holds the output's lock, last.
    std::unique_ptr<RunJournal> journal;
    std::unique_ptr<AtomicOutputFile> file;
    std::unique_ptr<TableSink> sink;
    try {
        const std::uint64_t chunk = std::max<std::uint64_t>(1, ensemble.chunk_capacity());
        const bool hdf5 = is_hdf5_path(config.out);
        // HDF5's temporary is named (the library opens its file by name): made only once the
        // journal has recorded its name, so that no kill leaves one that no journal names.
        const std::string temporary = hdf5 ? AtomicOutputFile::new_temporary_name() : std::string();
        // Opened, and so validated, before any work.
        file = std::make_unique<AtomicOutputFile>(
            config.out, "--out",
            hdf5 ? AtomicOutputFile::Temporary::named_later : AtomicOutputFile::Temporary::unnamed_if_possible,
            temporary);
        // After `file`: a journal refused (another live run, or a resume refused) leaves the output
        // untouched.
        journal = open_journal(config, *file, ensemble, chunk, temporary);
        if (hdf5 && file->kind() == AtomicOutputFile::Kind::replace) file->create_named_temporary();
        // After `file`: closed before the temporary is removed or committed.
        sink = std::make_unique<TableSink>(config, *file, ensemble);
    } catch (const UsageError&) {
        if (split) mpi::announce_start(2);  // main()'s exit status for bad usage
        throw;
    } catch (...) {
        if (split) mpi::announce_start(1);  // a runtime failure
        throw;
    }
    if (split) {
        mpi::announce_start(0);
        mpi::set_split_run_started();
    }
    run_pipeline(config, ensemble, *sink, *file, journal.get());
}

}  // namespace geomint
