// Progress of a run for a Python callback: the CPU loops count finished trajectories from their
// threads into an atomic; a helper thread hands the count to the callback (with the GIL) a few
// times a second, so the loops never wait for Python and a one-chunk run still shows progress.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>

#include "run_reporting.hpp"

namespace geomint::python {

class ProgressMonitor {
public:
    // `callback(done, total)`, or none (None): then nothing is started. Construct and destroy
    // without the GIL held (the helper thread takes it to call back).
    ProgressMonitor(pybind11::handle callback, std::uint64_t total);
    ~ProgressMonitor();
    ProgressMonitor(const ProgressMonitor&) = delete;
    ProgressMonitor& operator=(const ProgressMonitor&) = delete;

    // For the ensemble's loops (empty without a callback).
    ProgressCallback counter();
    // With the GIL: rethrows an exception the callback raised, so that the run stops.
    void rethrow_callback_error();

    static constexpr double kInterval = 0.2;  // seconds between calls

private:
    void watch();

    pybind11::handle callback_;  // borrowed: the caller keeps it alive
    std::uint64_t total_;
    std::atomic<std::uint64_t> done_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::optional<pybind11::error_already_set> error_;  // raised by the callback
    std::thread thread_;
};

}  // namespace geomint::python
