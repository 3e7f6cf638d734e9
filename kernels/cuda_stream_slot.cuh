// One lane of a double-buffered CUDA runner: its own non-blocking stream (so that it neither waits
// for nor blocks the other lane or the legacy default stream) and the CUDA events that time its
// kernel. A chunk is queued on the lane, then waited for; the destructor waits too, so no kernel
// or copy of the lane outlives the memory it uses.
#pragma once

#include <cuda_runtime.h>

#include "cuda_check.cuh"

namespace geomint {

class StreamSlot {
public:
    StreamSlot() {
        GEOMINT_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        GEOMINT_CUDA_CHECK(cudaEventCreate(&start_));
        GEOMINT_CUDA_CHECK(cudaEventCreate(&stop_));
    }
    ~StreamSlot() {
        synchronize_quietly();
        if (start_ != nullptr) cudaEventDestroy(start_);
        if (stop_ != nullptr) cudaEventDestroy(stop_);
        if (stream_ != nullptr) cudaStreamDestroy(stream_);
    }
    StreamSlot(const StreamSlot&) = delete;
    StreamSlot& operator=(const StreamSlot&) = delete;

    cudaStream_t stream() const { return stream_; }
    bool pending() const { return pending_; }

    // Around the kernel's launch, in stream order: its time is stop - start.
    void record_kernel_start() {
        pending_ = true;  // from here on something may be queued: wait() and the destructor sync
        GEOMINT_CUDA_CHECK(cudaEventRecord(start_, stream_));
    }
    void record_kernel_stop() {
        GEOMINT_CUDA_CHECK(cudaEventRecord(stop_, stream_));
        timed_ = true;
    }

    // Blocks until everything queued on the lane has run; any error of its copies or kernel
    // becomes a std::runtime_error here. Returns the kernel's time in milliseconds (0: none).
    float wait() {
        if (!pending_) return 0.0f;
        pending_ = false;
        const bool timed = timed_;
        timed_ = false;
        GEOMINT_CUDA_CHECK(cudaStreamSynchronize(stream_));
        float milliseconds = 0.0f;
        if (timed) GEOMINT_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start_, stop_));
        return milliseconds;
    }

    // For destructors and failure paths: waits, ignoring errors (they were or will be reported).
    void synchronize_quietly() noexcept {
        if (stream_ != nullptr) cudaStreamSynchronize(stream_);
        pending_ = timed_ = false;
    }

private:
    cudaStream_t stream_ = nullptr;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
    bool pending_ = false, timed_ = false;
};

}  // namespace geomint
