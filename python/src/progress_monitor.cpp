// Progress for a Python callback from a helper thread (see progress_monitor.hpp).
#include "progress_monitor.hpp"

#include <chrono>

namespace geomint::python {

namespace py = pybind11;

ProgressMonitor::ProgressMonitor(py::handle callback, std::uint64_t total) : callback_(callback), total_(total) {
    if (!callback_.is_none()) thread_ = std::thread([this] { watch(); });
}

ProgressMonitor::~ProgressMonitor() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

ProgressCallback ProgressMonitor::counter() {
    if (callback_.is_none()) return {};
    return [this](std::uint64_t n) { done_.fetch_add(n, std::memory_order_relaxed); };
}

void ProgressMonitor::rethrow_callback_error() {
    std::optional<py::error_already_set> error;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        error.swap(error_);
    }
    if (error) throw *error;
}

void ProgressMonitor::watch() {
    std::uint64_t shown = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
        wake_.wait_for(lock, std::chrono::duration<double>(kInterval), [this] { return stop_; });
        if (stop_ || error_) continue;
        const std::uint64_t done = done_.load(std::memory_order_relaxed);
        if (done == shown) continue;
        shown = done;
        lock.unlock();
        {
            const py::gil_scoped_acquire gil;
            try {
                callback_(done, total_);
            } catch (py::error_already_set& e) {
                const std::lock_guard<std::mutex> guard(mutex_);
                error_ = std::move(e);
            }
        }
        lock.lock();
    }
}

}  // namespace geomint::python
