// Messages to the user on standard error during a run: progress per chunk and the final summary.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

namespace geomint {

class RunReporter {
public:
    RunReporter(std::uint64_t total, bool quiet) : total_(total), quiet_(quiet) {}
    // Called after each chunk; prints a progress line when the run has several chunks.
    void chunk_done(std::uint64_t done, std::uint64_t chunk_index, std::uint64_t chunk_count);
    void count_status(const std::string& status) { ++status_counts_[status]; }
    // "geomint: N trajectories in S s on BACKEND: N ok, N non_finite; wrote FILE"
    void finish(const std::string& backend, const std::string& out_path) const;
    std::uint64_t failures() const;

private:
    std::uint64_t total_;
    bool quiet_;
    std::map<std::string, std::uint64_t> status_counts_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace geomint
