// Memory of the CUDA runners: device arrays and page-locked (pinned) host arrays, each allocated
// once per run, a pair of them mirrored for asynchronous copies on a stream, and the synchronous
// copies of the one-chunk-at-a-time portrait runners and the device histogram.
// Pinned memory is what lets cudaMemcpyAsync overlap a kernel; pageable memory would serialize it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "cuda_check.cuh"
#include "outcome_view.hpp"

namespace geomint {

// Where a CudaArray lives: device memory, or page-locked (pinned) host memory.
struct DeviceMemory {
    static cudaError_t allocate(void** data, std::size_t bytes) { return cudaMalloc(data, bytes); }
    static void release(void* data) { cudaFree(data); }
};
struct PinnedHostMemory {
    static cudaError_t allocate(void** data, std::size_t bytes) { return cudaMallocHost(data, bytes); }
    static void release(void* data) { cudaFreeHost(data); }
};

// `size` elements (uninitialised) of `Memory`. The destructor never throws: after a failed run the
// context may hold a sticky error, and freeing must still not terminate the program.
template <class T, class Memory>
class CudaArray {
public:
    CudaArray() = default;
    explicit CudaArray(std::size_t size) : size_(size) {
        if (size > 0) GEOMINT_CUDA_CHECK(Memory::allocate(reinterpret_cast<void**>(&data_), size * sizeof(T)));
    }
    ~CudaArray() {
        if (data_ != nullptr) Memory::release(data_);
    }
    CudaArray(CudaArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
    CudaArray& operator=(CudaArray&& o) noexcept {
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

template <class T>
using DeviceArray = CudaArray<T, DeviceMemory>;
template <class T>
using PinnedArray = CudaArray<T, PinnedHostMemory>;

// Synchronous copies of n elements between host memory and device memory, and a device array
// zeroed byte by byte (zero bytes are a zero integer or +0.0).
template <class T>
void copy_to_device(T* device, const T* host, std::size_t n) {
    if (n > 0) GEOMINT_CUDA_CHECK(cudaMemcpy(device, host, n * sizeof(T), cudaMemcpyHostToDevice));
}
template <class T>
void copy_to_host(T* host, const T* device, std::size_t n) {
    if (n > 0) GEOMINT_CUDA_CHECK(cudaMemcpy(host, device, n * sizeof(T), cudaMemcpyDeviceToHost));
}
template <class T>
void zero_device(const DeviceArray<T>& array) {
    if (array.size() > 0) GEOMINT_CUDA_CHECK(cudaMemset(array.data(), 0, array.size() * sizeof(T)));
}

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
