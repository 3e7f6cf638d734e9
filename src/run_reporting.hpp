// Messages to the user on standard error during a run: progress lines at most every few
// seconds (thread-safe, so the CPU loops report as trajectories finish) and the final summary.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace geomint {

// What a CPU backend calls as trajectories finish (argument: how many); may be empty.
using ProgressCallback = std::function<void(std::uint64_t)>;

class RunReporter {
public:
    RunReporter(std::uint64_t total, bool quiet) : total_(total), quiet_(quiet) {}
    // Thread-safe: counts `n` more trajectories computed and prints a progress line when the
    // last one is older than kProgressInterval.
    void advance(std::uint64_t n);
    // The callback for the CPU backends (empty when quiet).
    ProgressCallback callback();
    void count_status(const std::string& status) { ++status_counts_[status]; }
    // "geomint: N trajectories in S s on BACKEND: N ok, N non_finite; wrote FILE"
    void finish(const std::string& backend, const std::string& out_path) const;

    static constexpr double kProgressInterval = 5.0;  // seconds

private:
    double elapsed() const;

    std::uint64_t total_;
    bool quiet_;
    std::atomic<std::uint64_t> done_{0};
    std::atomic<double> next_print_{kProgressInterval};
    std::map<std::string, std::uint64_t> status_counts_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace geomint
