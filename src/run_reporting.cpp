// Progress and summary lines on standard error (see run_reporting.hpp).
#include "run_reporting.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace geomint {

namespace {

// "42 s", "3 min 05 s", "2 h 07 min": short enough for one terminal line.
std::string duration_text(double seconds) {
    char text[32];
    const auto s = static_cast<long long>(std::llround(seconds));
    if (s < 60)
        std::snprintf(text, sizeof text, "%lld s", s);
    else if (s < 3600)
        std::snprintf(text, sizeof text, "%lld min %02lld s", s / 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%lld h %02lld min", s / 3600, s / 60 % 60);
    return text;
}

// Erases the terminal line: carriage return, then clear to the end of the line (ECMA-48 EL).
constexpr const char* kClearLine = "\r\033[K";

}  // namespace

ProgressStream ProgressStream::standard_error() {
    const char* term = std::getenv("TERM");
    const bool dumb = term != nullptr && std::strcmp(term, "dumb") == 0;
    return {stderr, ::isatty(STDERR_FILENO) == 1 && !dumb};
}

RunReporter::RunReporter(std::uint64_t total, bool quiet, long long steps, ProgressStream out)
    : total_(total),
      quiet_(quiet),
      steps_(steps),
      out_(out),
      next_print_(out.terminal ? kTerminalInterval : kProgressInterval) {}

RunReporter::~RunReporter() {
    if (line_shown_) std::fputc('\n', out_.stream);
}

double RunReporter::elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string RunReporter::progress_text(std::uint64_t done, std::uint64_t total, long long steps, double seconds,
                                       std::uint64_t before) {
    char text[160];
    std::snprintf(text, sizeof text, "%llu/%llu trajectories (%.1f%%)", static_cast<unsigned long long>(done),
                  static_cast<unsigned long long>(total),
                  total > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0);
    std::string line = text;
    if (steps > 0 && seconds > 0) {
        std::snprintf(text, sizeof text, ", %.3g trajectory-steps/s",
                      static_cast<double>(done - before) * static_cast<double>(steps) / seconds);
        line += text;
    }
    line += ", " + duration_text(seconds) + " elapsed";
    // The remaining work at the rate so far: trajectories of one run cost about the same.
    if (done > before && done < total)
        line +=
            ", ETA " + duration_text(seconds * static_cast<double>(total - done) / static_cast<double>(done - before));
    return line;
}

void RunReporter::advance(std::uint64_t n) {
    const std::uint64_t done = done_.fetch_add(n) + n;
    if (quiet_) return;
    const double now = elapsed();
    double due = next_print_.load();
    const double interval = out_.terminal ? kTerminalInterval : kProgressInterval;
    // One thread wins the right to print; the others carry on computing.
    if (now < due || !next_print_.compare_exchange_strong(due, now + interval)) return;
    const std::string text = progress_text(done, total_, steps_, now, resumed_from_);
    if (out_.terminal) {
        std::fprintf(out_.stream, "%sgeomint: %s", kClearLine, text.c_str());
        std::fflush(out_.stream);
        line_shown_ = true;
    } else {
        std::fprintf(out_.stream, "geomint: computed %s\n", text.c_str());
    }
}

void RunReporter::resume_from(std::uint64_t done) {
    resumed_from_ = done;
    done_ = done;
}

ProgressCallback RunReporter::callback() {
    if (quiet_) return {};
    return [this](std::uint64_t n) { advance(n); };
}

void RunReporter::finish(const std::string& backend, const std::string& out_path) {
    if (quiet_) return;
    if (line_shown_.exchange(false)) std::fputs(kClearLine, out_.stream);
    std::string counts;
    for (const auto& [status, count] : status_counts_)
        counts += (counts.empty() ? "" : ", ") + std::to_string(count) + " " + status;
    const std::string resumed =
        resumed_from_ > 0 ? " (resumed: " + std::to_string(resumed_from_) + " computed before)" : std::string();
    std::fprintf(out_.stream, "geomint: %llu trajectories in %.2f s on %s%s: %s; wrote %s\n",
                 static_cast<unsigned long long>(total_), elapsed(), backend.c_str(), resumed.c_str(), counts.c_str(),
                 out_path.c_str());
}

}  // namespace geomint
