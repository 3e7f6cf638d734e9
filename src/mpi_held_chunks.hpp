// Which rank holds which chunks of a split run, kept by rank 0 so that a run stopped by a signal
// says so in its last line. When one rank dies, Open MPI's mpirun stops the others with SIGTERM
// (it names the dead rank itself), or rank 0, writing to the dead rank first, gets SIGPIPE; rank 0
// then prints, from its signal handler, the chunks every rank held — those a --resume computes
// again — before the output's own handler ends the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace geomint::mpi {

class HeldChunks {
public:
    // `hosts[r]`: rank r's host. Installs the handlers of the signals mpirun and users stop a run
    // with; they print the table, then give the signal to the handlers they replaced.
    explicit HeldChunks(std::vector<std::string> hosts);
    // Restores the replaced handlers.
    ~HeldChunks();
    HeldChunks(const HeldChunks&) = delete;
    HeldChunks& operator=(const HeldChunks&) = delete;

    void add(int rank, std::uint64_t begin, std::size_t n);
    void remove(int rank, std::uint64_t begin);
    // The line the handler prints: "geomint: error: stopped by signal N; chunks in flight: rank 1
    // on HOST: trajectories [a, b), ...; ..." (N filled in by the handler).
    std::string describe() const;

private:
    void publish() const;

    std::vector<std::string> hosts_;
    std::vector<std::map<std::uint64_t, std::size_t>> held_;  // per rank: begin -> n
};

}  // namespace geomint::mpi
