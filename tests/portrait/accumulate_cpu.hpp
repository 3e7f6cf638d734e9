// A test harness over PerThreadHistograms (src/portrait_cpu_accumulator.hpp): records
// trajectories on OpenMP threads into their private histograms and merges them, as the CPU batch
// loops do for a portrait, so the tests can check the merge for any thread count without a scheme.
#pragma once

#include <omp.h>

#include <cstddef>
#include <exception>

#include "portrait_cpu_accumulator.hpp"

namespace geomint {

// Runs record(i, view) for every trajectory i in [0, trajectories) on `threads` OpenMP threads
// (dynamic schedule), each call recording the points of trajectory i into its thread's private
// view, and returns the merged histogram. The first exception a call throws is rethrown here
// after the loop (the remaining trajectories are skipped).
template <class Record>
DensityHistogram accumulate_cpu(const portrait::PixelGrid& grid, bool with_energy, std::size_t trajectories,
                                int threads, const Record& record) {
    PerThreadHistograms parts(grid, with_energy, threads);
    const auto n = static_cast<long long>(trajectories);
    std::exception_ptr failure;
    bool failed = false;
#pragma omp parallel num_threads(parts.threads())
    {
        const portrait::HistogramView view = parts.view(omp_get_thread_num());
#pragma omp for schedule(dynamic, 1)
        for (long long i = 0; i < n; ++i) {
            bool stop = false;
#pragma omp atomic read
            stop = failed;
            if (stop) continue;
            try {
                record(static_cast<std::size_t>(i), view);
            } catch (...) {
#pragma omp critical(geomint_portrait_failure)
                if (!failure) failure = std::current_exception();
#pragma omp atomic write
                failed = true;
            }
        }
    }
    if (failure) std::rethrow_exception(failure);
    return parts.merge();
}

}  // namespace geomint
