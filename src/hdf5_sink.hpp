// Result sink writing HDF5 (--out FILE.h5): one typed dataset per result column under /summary,
// the saved states /states [saves][trajectories][dim] with their /step and /time axes, and the
// run's description as root attributes. Written chunk by chunk: no more than one chunk is held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ensemble_pipeline.hpp"
#include "hdf5_handles.hpp"
#include "result_columns.hpp"

namespace geomint {

// Whether `path` asks for HDF5 (its name ends in .h5).
bool is_hdf5_path(const std::string& path);

// What the file's layout depends on, fixed before the first chunk.
struct Hdf5Layout {
    std::uint64_t trajectories = 0;
    std::size_t chunk_capacity = 1;       // largest chunk the pipeline writes
    std::vector<std::string> components;  // of a saved state ("q", "p"); empty: no /states
};

class Hdf5Sink {
public:
    // Creates the file at `path` (the output's temporary), its datasets and its attributes;
    // `shown_path` is what errors name. `columns` gives names and types (before any chunk).
    Hdf5Sink(const std::string& path, const std::string& shown_path, const RunConfig& config, const ColumnSet& columns,
             const Hdf5Layout& layout);
    // Without close(), the run has failed: nothing more is written (see hdf5_sink.cpp).
    ~Hdf5Sink();
    Hdf5Sink(const Hdf5Sink&) = delete;
    Hdf5Sink& operator=(const Hdf5Sink&) = delete;

    // Writes trajectories [begin, begin + n): the columns and, with saves, `states` holding
    // [saves][n][dim] reals of the run's precision.
    void write_chunk(std::uint64_t begin, std::size_t n, const ColumnSet& columns, const void* states);
    // Records end_time and closes the file, every error checked: the file is complete after it.
    void close();

private:
    Hdf5Errors errors_;
    Precision precision_;
    long long saves_ = 0;
    std::size_t dim_ = 0;
    Hdf5Id file_;
    std::vector<Hdf5Id> summary_;  // one dataset per column, in column order
    Hdf5Id states_;
};

}  // namespace geomint
