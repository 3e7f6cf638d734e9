// Messages to the user on standard error during a run: progress while trajectories are computed
// (thread-safe, so the CPU loops report as trajectories finish) and the final summary. On a
// terminal the progress is one line that rewrites itself; otherwise a line every few seconds, so
// that a log file stays readable.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>

namespace geomint {

// What a CPU backend calls as trajectories finish (argument: how many); may be empty.
using ProgressCallback = std::function<void(std::uint64_t)>;

// Where progress goes and how: `terminal` selects the self-updating line.
struct ProgressStream {
    std::FILE* stream = stderr;
    bool terminal = false;
    // Standard error, a terminal when it is a tty and TERM is not "dumb".
    static ProgressStream standard_error();
};

class RunReporter {
public:
    // `steps` per trajectory, for the steps/s figure (0: not shown).
    RunReporter(std::uint64_t total, bool quiet, long long steps = 0,
                ProgressStream out = ProgressStream::standard_error());
    // A self-updating line left on screen by a failed run is ended, so the error starts a line.
    ~RunReporter();
    RunReporter(const RunReporter&) = delete;
    RunReporter& operator=(const RunReporter&) = delete;

    // Thread-safe: counts `n` more trajectories computed and reports when the last report is
    // older than the interval (kTerminalInterval on a terminal, kProgressInterval otherwise).
    void advance(std::uint64_t n);
    // The callback for the CPU backends (empty when quiet).
    ProgressCallback callback();
    void count_status(const std::string& status) { ++status_counts_[status]; }
    // A resumed run: `done` trajectories were computed by the run it continues. They count as
    // done, not in the rate, and the summary says so.
    void resume_from(std::uint64_t done);
    // Clears the progress line, then "geomint: N trajectories in S s on BACKEND: N ok, ...; wrote FILE".
    void finish(const std::string& backend, const std::string& out_path);

    static constexpr double kProgressInterval = 5.0;  // seconds, between lines in a log
    static constexpr double kTerminalInterval = 0.5;  // seconds, between rewrites of the line

    // "D/T trajectories (P%), R trajectory-steps/s, E elapsed, ETA X" for `done` after `seconds`.
    // `before`: of `done`, those a resumed run found done (not in the rate or the ETA).
    static std::string progress_text(std::uint64_t done, std::uint64_t total, long long steps, double seconds,
                                     std::uint64_t before = 0);

private:
    double elapsed() const;

    std::uint64_t total_;
    bool quiet_;
    long long steps_;
    ProgressStream out_;
    std::atomic<std::uint64_t> done_{0};
    std::uint64_t resumed_from_ = 0;
    std::atomic<double> next_print_;
    std::atomic<bool> line_shown_{false};  // a terminal line is on screen, not yet ended
    std::map<std::string, std::uint64_t> status_counts_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace geomint
