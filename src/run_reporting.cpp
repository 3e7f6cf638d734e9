// Progress and summary lines on standard error (see run_reporting.hpp).
#include "run_reporting.hpp"

#include <cstdio>

namespace geomint {

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

void RunReporter::chunk_done(std::uint64_t done, std::uint64_t chunk_index, std::uint64_t chunk_count) {
    if (quiet_ || chunk_count < 2) return;
    std::fprintf(stderr, "geomint: computed chunk %llu/%llu, %llu/%llu trajectories (%.1f%%), %.1f s\n",
                 static_cast<unsigned long long>(chunk_index + 1), static_cast<unsigned long long>(chunk_count),
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
                 100.0 * static_cast<double>(done) / static_cast<double>(total_), seconds_since(start_));
}

std::uint64_t RunReporter::failures() const {
    std::uint64_t failed = 0;
    for (const auto& [status, count] : status_counts_)
        if (status != "ok") failed += count;
    return failed;
}

void RunReporter::finish(const std::string& backend, const std::string& out_path) const {
    if (quiet_) return;
    std::string counts;
    for (const auto& [status, count] : status_counts_)
        counts += (counts.empty() ? "" : ", ") + std::to_string(count) + " " + status;
    std::fprintf(stderr, "geomint: %llu trajectories in %.2f s on %s: %s; wrote %s\n",
                 static_cast<unsigned long long>(total_), seconds_since(start_), backend.c_str(), counts.c_str(),
                 out_path.c_str());
}

}  // namespace geomint
