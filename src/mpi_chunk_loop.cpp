// The split chunk loop (see mpi_chunk_loop.hpp): rank 0's coordinator and the workers' loop.
// Messages: rank 0 -> worker, tag kAssign: {begin, n} of a chunk to compute, or {kStop, 0};
// worker -> rank 0, tag kResult: {begin, n} then the chunk's bytes as the journal keeps them
// (chunk_record.hpp), so rank 0 writes a received chunk exactly as one it computed.
#include "mpi_chunk_loop.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mpi_held_chunks.hpp"
#include "mpi_session.hpp"

#if GEOMINT_WITH_MPI
#include <mpi.h>
#endif

namespace geomint::mpi {

#if GEOMINT_WITH_MPI

namespace {

constexpr int kAssign = 1;
constexpr int kResult = 2;
constexpr std::int64_t kStop = -1;
constexpr std::size_t kHeader = 2 * sizeof(std::int64_t);
// Assignments a worker holds at once: it computes one while the next is already on its way, so
// it never waits for rank 0 (which may be computing a chunk itself) between chunks.
constexpr int kAhead = 2;

// Every rank's backend ("cpu" or "cuda"), on rank 0. Collective.
std::vector<std::string> gather_backends(const std::string& backend) {
    constexpr int kLength = 16;
    std::array<char, kLength> mine{};
    std::memcpy(mine.data(), backend.data(), std::min<std::size_t>(backend.size(), kLength - 1));
    std::vector<char> all(rank() == 0 ? static_cast<std::size_t>(kLength) * size() : 0);
    check(MPI_Gather(mine.data(), kLength, MPI_CHAR, all.data(), kLength, MPI_CHAR, 0, MPI_COMM_WORLD),
          "gathering the ranks' backends");
    std::vector<std::string> backends;
    for (int r = 0; rank() == 0 && r < size(); ++r)
        backends.emplace_back(all.data() + static_cast<std::size_t>(r) * kLength);
    return backends;
}

// Warns on standard error when a rank's backend (gather_backends()'s answer) is not rank 0's: the
// backends round differently, so such an output is the one-process output of neither.
void check_backends(const std::vector<std::string>& backends) {
    std::string others;
    for (std::size_t r = 1; r < backends.size(); ++r)
        if (backends[r] != backends[0])
            others += (others.empty() ? "" : ", ") + std::to_string(r) + " (" + backends[r] + ")";
    if (!others.empty())
        std::fprintf(stderr,
                     "geomint: warning: ranks %s run on another backend than rank 0 (%s); the backends round "
                     "differently, so this output will not equal a one-process run: give --backend cpu or cuda "
                     "for reproducible output\n",
                     others.c_str(), backends[0].c_str());
}

// The message of a computed chunk: header, then its pieces back to back.
void pack(std::vector<char>& message, std::uint64_t begin, std::size_t n, const ChunkShape& shape,
          const Ensemble& ensemble) {
    const std::int64_t header[2] = {static_cast<std::int64_t>(begin), static_cast<std::int64_t>(n)};
    message.resize(kHeader + shape.bytes(n));
    std::memcpy(message.data(), header, kHeader);
    std::size_t offset = kHeader;
    for (const std::string_view piece : chunk_pieces(shape, ensemble.columns(), n, ensemble.saved_states())) {
        std::memcpy(message.data() + offset, piece.data(), piece.size());
        offset += piece.size();
    }
}

// A chunk's pieces (as pack() lays them out after the header) copied into a StoredChunk.
std::unique_ptr<StoredChunk> unpack(const ChunkShape& shape, std::size_t n, const char* bytes, std::size_t size) {
    if (size != shape.bytes(n)) throw std::runtime_error("a rank sent a chunk of the wrong size (different builds?)");
    auto stored = std::make_unique<StoredChunk>(shape, n);
    for (const ChunkTarget& target : stored->targets()) {
        std::memcpy(target.data, bytes, target.size);
        bytes += target.size;
    }
    return stored;
}

}  // namespace

void announce_start(int status) {
    check(MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD), "announcing the start");
    if (status != 0) set_workers_dismissed();
}

int await_start() {
    int status = 0;
    check(MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD), "waiting for the start");
    return status;
}

std::string coordinate_chunks(Ensemble& ensemble, ResultSink& sink, RunReporter& reporter, const ChunkShape& shape,
                              std::uint64_t start, const std::string& backend) {
    const std::uint64_t total = ensemble.size();
    const std::uint64_t chunk = std::max<std::uint64_t>(1, ensemble.chunk_capacity());
    const int ranks = size();
    check_backends(gather_backends(backend));
    HeldChunks held(hosts());
    // The reorder buffer: chunks are handed out no further than `window` trajectories past the
    // first one not yet written, so rank 0 holds at most that many; a worker that is that far
    // ahead waits for its next assignment (the slowest rank holds the oldest chunk).
    const std::uint64_t window = chunk * static_cast<std::uint64_t>(std::max(8, 4 * ranks));
    std::uint64_t next_assign = start, next_write = start;
    std::map<std::uint64_t, std::unique_ptr<StoredChunk>> ready;  // begin -> chunk, not yet written
    std::vector<std::uint64_t> computed(ranks, 0);                // chunks per rank, for the summary
    std::vector<int> wanted(ranks, kAhead);                       // assignments a worker would take now
    wanted[0] = 0;
    auto assignable = [&] { return next_assign < total && next_assign < next_write + window; };
    auto take = [&](int r) {
        const auto n = static_cast<std::size_t>(std::min(chunk, total - next_assign));
        const std::uint64_t begin = next_assign;
        next_assign += n;
        held.add(r, begin, n);
        ++computed[r];
        return std::pair{begin, n};
    };
    auto grant = [&](int w) {
        while (wanted[w] > 0 && assignable()) {
            const auto [begin, n] = take(w);
            const std::int64_t assignment[2] = {static_cast<std::int64_t>(begin), static_cast<std::int64_t>(n)};
            check(MPI_Send(assignment, 2, MPI_INT64_T, w, kAssign, MPI_COMM_WORLD), "assigning a chunk");
            --wanted[w];
        }
    };
    for (int w = 1; w < ranks; ++w) grant(w);
    const ProgressCallback progress = reporter.callback();
    std::vector<char> message;
    while (next_write < total) {
        if (const auto next = ready.find(next_write); next != ready.end()) {
            const std::size_t n = static_cast<std::size_t>(std::min(chunk, total - next_write));
            sink.write_chunk(next_write, n, next->second->columns(), next->second->states());
            ready.erase(next);
            next_write += n;
            for (int w = 1; w < ranks; ++w) grant(w);
            continue;
        }
        int arrived = 0;
        MPI_Status status;
        check(MPI_Iprobe(MPI_ANY_SOURCE, kResult, MPI_COMM_WORLD, &arrived, &status), "polling");
        if (!arrived && assignable()) {
            // Nothing to receive or write: rank 0 computes a chunk too.
            const auto [begin, n] = take(0);
            ensemble.compute(begin, n, progress);
            pack(message, begin, n, shape, ensemble);
            ready[begin] = unpack(shape, n, message.data() + kHeader, message.size() - kHeader);
            held.remove(0, begin);
            continue;
        }
        if (!arrived) check(MPI_Probe(MPI_ANY_SOURCE, kResult, MPI_COMM_WORLD, &status), "waiting for a chunk");
        int bytes = 0;
        check(MPI_Get_count(&status, MPI_BYTE, &bytes), "sizing a chunk");
        message.resize(static_cast<std::size_t>(bytes));
        check(MPI_Recv(message.data(), bytes, MPI_BYTE, status.MPI_SOURCE, kResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "receiving a chunk");
        std::int64_t header[2];
        std::memcpy(header, message.data(), kHeader);
        const auto begin = static_cast<std::uint64_t>(header[0]);
        const auto n = static_cast<std::size_t>(header[1]);
        ready[begin] = unpack(shape, n, message.data() + kHeader, message.size() - kHeader);
        held.remove(status.MPI_SOURCE, begin);
        reporter.advance(n);
        ++wanted[status.MPI_SOURCE];
        grant(status.MPI_SOURCE);
    }
    const std::int64_t stop[2] = {kStop, 0};
    for (int w = 1; w < ranks; ++w) check(MPI_Send(stop, 2, MPI_INT64_T, w, kAssign, MPI_COMM_WORLD), "stopping");
    set_workers_dismissed();
    std::string summary = std::to_string(ranks) + " MPI ranks, chunks per rank:";
    for (int r = 0; r < ranks; ++r) summary += (r == 0 ? " " : ", ") + std::to_string(computed[r]);
    return summary;
}

void serve_chunks(Ensemble& ensemble, const ChunkShape& shape, const std::string& backend) {
    gather_backends(backend);
    // Two send buffers: a chunk's bytes travel while the next chunk is computed.
    std::array<std::vector<char>, 2> buffers;
    std::array<MPI_Request, 2> requests{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    for (int slot = 0;; slot ^= 1) {
        std::int64_t assignment[2];
        check(MPI_Recv(assignment, 2, MPI_INT64_T, 0, kAssign, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "receiving an assignment");
        if (assignment[0] == kStop) break;
        const auto begin = static_cast<std::uint64_t>(assignment[0]);
        const auto n = static_cast<std::size_t>(assignment[1]);
        if (n > ensemble.chunk_capacity())
            throw std::runtime_error("rank 0 assigned a chunk of " + std::to_string(n) + " trajectories, more than " +
                                     std::to_string(ensemble.chunk_capacity()) + " this rank holds");
        ensemble.compute(begin, n, {});
        check(MPI_Wait(&requests[slot], MPI_STATUS_IGNORE), "sending a chunk");
        pack(buffers[slot], begin, n, shape, ensemble);
        if (buffers[slot].size() > static_cast<std::size_t>(INT_MAX))  // MPI counts are int
            throw std::runtime_error("a chunk of " + std::to_string(buffers[slot].size()) +
                                     " bytes is too large to send between ranks (use a smaller --chunk-size)");
        check(MPI_Isend(buffers[slot].data(), static_cast<int>(buffers[slot].size()), MPI_BYTE, 0, kResult,
                        MPI_COMM_WORLD, &requests[slot]),
              "sending a chunk");
    }
    check(MPI_Waitall(2, requests.data(), MPI_STATUSES_IGNORE), "sending the last chunks");
}

#else

// Built without MPI every run is one process: split() is false and none of these is called.
void announce_start(int) { throw std::logic_error("announce_start: built without MPI"); }
int await_start() { throw std::logic_error("await_start: built without MPI"); }
std::string coordinate_chunks(Ensemble&, ResultSink&, RunReporter&, const ChunkShape&, std::uint64_t,
                              const std::string&) {
    throw std::logic_error("coordinate_chunks: built without MPI");
}
void serve_chunks(Ensemble&, const ChunkShape&, const std::string&) {
    throw std::logic_error("serve_chunks: built without MPI");
}

#endif

}  // namespace geomint::mpi
