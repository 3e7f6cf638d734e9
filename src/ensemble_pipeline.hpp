// The one run pipeline of every family: a source of initial conditions and parameters for a range
// of trajectory indices -> a backend (CPU or CUDA) running the per-trajectory body over a chunk ->
// a result sink (CSV, HDF5, or a phase portrait: portrait_sink.hpp). Chunking, progress, status
// counts, the journal and the atomic output file live here, not in the commands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backend_choice.hpp"
#include "result_columns.hpp"
#include "run_reporting.hpp"
#include "time_grid.hpp"

namespace geomint {

class AtomicOutputFile;
class RunJournal;

enum class Precision { float32, float64 };

// The settings every family shares (the shared options, parsed once: common_options.hpp).
struct RunConfig {
    TimeGrid time;
    BackendChoice backend;
    int threads = 0;               // CPU threads, 0: all cores
    std::uint64_t chunk_size = 1;  // trajectories held in memory at once (as asked)
    int newton_max_iterations = 50;
    Precision precision = Precision::float64;
    bool quiet = false;
    std::string out;
    long long save_every = 0;  // save the state every K steps and at the end (0: no saves; HDF5 only)
    bool resume = false;       // continue the interrupted run of config.out from its journal (run_journal.hpp)
    // What a self-describing output (HDF5) records about the run; set by the command.
    struct Description {
        std::string command;        // "pendulum" or "spin"
        std::string scheme;         // registry name
        std::string model;          // the potential or spin system's registry name
        std::string configuration;  // the run as sweep-file text (TOML); empty when not representable
    } description;
};

// One family's ensemble at one floating type, as the pipeline drives it. An implementation owns
// its source, its backend (with the backend's buffers, kept for the run) and its chunk storage.
class Ensemble {
public:
    virtual ~Ensemble() = default;
    // Trajectories in the ensemble.
    virtual std::uint64_t size() const = 0;
    // Largest chunk the pipeline may ask for (fixed at construction).
    virtual std::size_t chunk_capacity() const = 0;
    // Computes trajectories [begin, begin + n), n <= chunk_capacity(): initial conditions from the
    // source, the backend over the chunk, derived columns. `progress` counts finished trajectories.
    virtual void compute(std::uint64_t begin, std::size_t n, const ProgressCallback& progress) = 0;
    // The columns of the last computed chunk (names are valid before any).
    virtual ColumnSet columns() const = 0;
    // The names of a state's components, in the order of saved states ("q", "p").
    virtual std::vector<std::string> state_components() const = 0;
    // With RunConfig::save_every > 0: the states saved in the last computed chunk of n, as
    // [save][trajectory][component] reals of the run's precision (NaN where a trajectory had
    // failed before that save). Null without saves.
    virtual const void* saved_states() const = 0;
};

// Where the pipeline's chunks go, in order. A sink that records while the bodies run (a phase
// portrait's histogram) hands the ensemble its recorder at construction; it sees the chunks'
// columns here all the same.
class ResultSink {
public:
    virtual ~ResultSink() = default;
    // Trajectories [begin, begin + n): the chunk's columns and saved states (Ensemble::saved_states).
    // Written before the next chunk is computed, so a write error ends the run at once.
    virtual void write_chunk(std::uint64_t begin, std::size_t n, const ColumnSet& columns, const void* states) = 0;
    // After the last chunk, before the output is committed: whatever the sink holds is written.
    virtual void finish() = 0;
};

// The chunk loop: trajectories [start, ensemble.size()) computed chunk by chunk, each chunk given
// to `sink` before the next is computed. `progress` counts finished trajectories. No finish().
void run_chunks(Ensemble& ensemble, ResultSink& sink, const ProgressCallback& progress, std::uint64_t start = 0);

// A whole run into the output `file` (opened by the caller, so that a bad destination is refused
// before any work): the chunks into `sink` with progress and status counts on standard error
// unless config.quiet, sink.finish(), the file committed, the summary line. With `journal`, the
// chunks it holds are replayed into the sink first and every new chunk is appended to it.
void run_pipeline(const RunConfig& config, Ensemble& ensemble, ResultSink& sink, AtomicOutputFile& file,
                  RunJournal* journal = nullptr);

// Runs the whole ensemble chunk by chunk into config.out (written atomically: CSV, or HDF5 for a
// name ending in .h5) and reports progress and the summary on standard error unless quiet. An
// output that is a regular file is journaled (run_journal.hpp): with config.resume, a killed run
// continues from its last completed chunk and gives the same output. Under mpirun with several
// ranks, the chunks are computed by all of them and rank 0 alone writes (mpi_chunk_loop.hpp);
// run_pipeline splits a portrait's chunks the same way.
void run_ensemble(const RunConfig& config, Ensemble& ensemble);

}  // namespace geomint
