// The chunk loop of a run split across MPI ranks (issue 11). Rank 0 is the coordinator and the
// only writer: it owns the output, the sinks, the journal and the progress, hands out chunk
// indices to the ranks that ask (dynamic assignment: a faster rank takes more chunks), computes
// chunks itself when it has nothing to receive or write, and gives every chunk to the sink in
// chunk order. Since a trajectory's result never depends on which chunk or process computed it,
// the output is the one-process output byte for byte, and --resume works with any rank count.
#pragma once

#include <cstdint>
#include <string>

#include "chunk_record.hpp"
#include "ensemble_pipeline.hpp"
#include "run_reporting.hpp"

namespace geomint::mpi {

// Rank 0: tells the workers whether the run starts (0) or, after rank 0's setup failed (it
// reports why), the exit status they end with (they throw QuietExit).
void announce_start(int status);
// A worker: rank 0's announcement (0: start).
int await_start();

// Rank 0: chunks [start, ensemble.size()) computed by all ranks, given to `sink` in order, each
// counted in `reporter`'s progress as it arrives. Workers are told to stop at the end. Returns
// what the summary adds to the backend: "R MPI ranks, chunks per rank: a, b, ...".
// `backend` ("cpu" or "cuda", as this rank runs): when the ranks differ (`--backend auto` on
// nodes with and without GPUs), rank 0 warns that the output is not reproducible.
std::string coordinate_chunks(Ensemble& ensemble, ResultSink& sink, RunReporter& reporter, const ChunkShape& shape,
                              std::uint64_t start, const std::string& backend);
// A worker: computes the chunks rank 0 assigns and sends them back, until told to stop.
void serve_chunks(Ensemble& ensemble, const ChunkShape& shape, const std::string& backend);

}  // namespace geomint::mpi
