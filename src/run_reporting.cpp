// Progress and summary lines on standard error (see run_reporting.hpp).
#include "run_reporting.hpp"

#include <cstdio>

namespace geomint {

double RunReporter::elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void RunReporter::advance(std::uint64_t n) {
    const std::uint64_t done = done_.fetch_add(n) + n;
    if (quiet_) return;
    const double now = elapsed();
    double due = next_print_.load();
    // One thread wins the right to print; the others carry on computing.
    if (now < due || !next_print_.compare_exchange_strong(due, now + kProgressInterval)) return;
    std::fprintf(stderr, "geomint: computed %llu/%llu trajectories (%.1f%%), %.0f s\n",
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
                 100.0 * static_cast<double>(done) / static_cast<double>(total_), now);
}

ProgressCallback RunReporter::callback() {
    if (quiet_) return {};
    return [this](std::uint64_t n) { advance(n); };
}

void RunReporter::finish(const std::string& backend, const std::string& out_path) const {
    if (quiet_) return;
    std::string counts;
    for (const auto& [status, count] : status_counts_)
        counts += (counts.empty() ? "" : ", ") + std::to_string(count) + " " + status;
    std::fprintf(stderr, "geomint: %llu trajectories in %.2f s on %s: %s; wrote %s\n",
                 static_cast<unsigned long long>(total_), elapsed(), backend.c_str(), counts.c_str(), out_path.c_str());
}

}  // namespace geomint
