// Memory of the double-buffered CUDA runners: device arrays and page-locked (pinned) host arrays,
// each allocated once per run, and a pair of them mirrored for asynchronous copies on a stream.
// Pinned memory is what lets cudaMemcpyAsync overlap a kernel; pageable memory would serialize it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuda_check.cuh"
#include "outcome_view.hpp"

namespace geomint {

// Device memory for `size` elements (uninitialised). The destructor never throws: after a failed
// run the context may hold a sticky error, and freeing must still not terminate the program.
template <class T>
class DeviceArray {
public:
    DeviceArray() = default;
    explicit DeviceArray(std::size_t size) : size_(size) {
        if (size > 0) GEOMINT_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), size * sizeof(T)));
    }
    ~DeviceArray() {
        if (data_ != nullptr) cudaFree(data_);
    }
    DeviceArray(DeviceArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
    DeviceArray& operator=(DeviceArray&& o) noexcept {
        std::swap(data_, o.data_);
        std::swap(size_, o.size_);
        return *this;
    }
    T* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

// Page-locked host memory for `size` elements (uninitialised), freed without throwing.
template <class T>
class PinnedArray {
public:
    PinnedArray() = default;
    explicit PinnedArray(std::size_t size) : size_(size) {
        if (size > 0) GEOMINT_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), size * sizeof(T)));
    }
    ~PinnedArray() {
        if (data_ != nullptr) cudaFreeHost(data_);
    }
    PinnedArray(PinnedArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
    PinnedArray& operator=(PinnedArray&& o) noexcept {
        std::swap(data_, o.data_);
        std::swap(size_, o.size_);
        return *this;
    }
    T* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

// A device array and its pinned host twin of the same size; the copies are queued on `stream`
// and return at once (the caller waits for the stream before touching the host side again).
template <class T>
struct Mirrored {
    DeviceArray<T> device;
    PinnedArray<T> host;

    Mirrored() = default;
    explicit Mirrored(std::size_t size) : device(size), host(size) {}
    void upload_async(std::size_t n, cudaStream_t stream) const {
        if (n > 0)
            GEOMINT_CUDA_CHECK(
                cudaMemcpyAsync(device.data(), host.data(), n * sizeof(T), cudaMemcpyHostToDevice, stream));
    }
    void download_async(std::size_t n, cudaStream_t stream) const {
        if (n > 0)
            GEOMINT_CUDA_CHECK(
                cudaMemcpyAsync(host.data(), device.data(), n * sizeof(T), cudaMemcpyDeviceToHost, stream));
    }
};

// The outcome arrays every body fills (outcome_view.hpp), mirrored: device view for the kernel,
// pinned host view for the caller.
template <class Real>
struct MirroredOutcome {
    Mirrored<Real> energy_error;
    Mirrored<long long> newton_iterations, steps_completed;
    Mirrored<std::uint8_t> status;

    explicit MirroredOutcome(std::size_t capacity)
        : energy_error(capacity), newton_iterations(capacity), steps_completed(capacity), status(capacity) {}
    OutcomeView<Real> device_view() const {
        return {energy_error.device.data(), newton_iterations.device.data(), steps_completed.device.data(),
                status.device.data()};
    }
    OutcomeView<Real> host_view() const {
        return {energy_error.host.data(), newton_iterations.host.data(), steps_completed.host.data(),
                status.host.data()};
    }
    void download_async(std::size_t n, cudaStream_t stream) const {
        energy_error.download_async(n, stream);
        newton_iterations.download_async(n, stream);
        steps_completed.download_async(n, stream);
        status.download_async(n, stream);
    }
};

}  // namespace geomint
