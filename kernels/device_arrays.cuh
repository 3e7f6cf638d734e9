// Device arrays of a run (Thrust vectors, allocated once per run) and the copies between them and
// a host chunk: one upload and one download helper, and the outcome arrays every family shares.
#pragma once

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/fill.h>

#include <cstddef>
#include <cstdint>
#include <limits>

#include "outcome_view.hpp"
#include "save_recorder.hpp"

namespace geomint {

template <class T>
T* device_pointer(thrust::device_vector<T>& v) {
    return thrust::raw_pointer_cast(v.data());
}

// The first n entries of `host` to the device array.
template <class T>
void upload(const T* host, std::size_t n, thrust::device_vector<T>& device) {
    thrust::copy_n(host, n, device.begin());
}

// The first n entries of the device array back to `host`.
template <class T>
void download(const thrust::device_vector<T>& device, std::size_t n, T* host) {
    thrust::copy_n(device.begin(), n, host);
}

// The device buffer of one chunk's saved states (kernels/save_recorder.hpp), NaN until written,
// grown to the largest chunk and kept for the run.
template <class Real>
SaveRecorder<Real> device_saves(thrust::device_vector<Real>& buffer, std::size_t n, int dim, long long every,
                                long long steps) {
    const std::size_t size = static_cast<std::size_t>(save_count(steps, every)) * n * static_cast<std::size_t>(dim);
    if (buffer.size() < size) buffer.resize(size);
    thrust::fill_n(buffer.begin(), size, std::numeric_limits<Real>::quiet_NaN());
    return {device_pointer(buffer), n, dim, every, steps};
}

template <class Real>
struct DeviceOutcome {
    thrust::device_vector<Real> energy_error;
    thrust::device_vector<long long> newton_iterations, steps_completed;
    thrust::device_vector<std::uint8_t> status;

    explicit DeviceOutcome(std::size_t capacity)
        : energy_error(capacity), newton_iterations(capacity), steps_completed(capacity), status(capacity) {}

    OutcomeView<Real> view() {
        return {device_pointer(energy_error), device_pointer(newton_iterations), device_pointer(steps_completed),
                device_pointer(status)};
    }
    void download_to(const OutcomeView<Real>& host, std::size_t n) const {
        download(energy_error, n, host.energy_error);
        download(newton_iterations, n, host.newton_iterations);
        download(steps_completed, n, host.steps_completed);
        download(status, n, host.status);
    }
};

}  // namespace geomint
