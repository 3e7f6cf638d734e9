// The GPU benchmarks' guard: on a machine with no usable CUDA device the benchmark reports why
// and skips, rather than failing or timing nothing.
#pragma once

#include <benchmark/benchmark.h>

#include "cuda_backend.hpp"

namespace geomint {

// True (the benchmark skipped with "no CUDA device: <reason>") when no device is usable.
inline bool skip_without_cuda_device(benchmark::State& state) {
    const auto device = cuda_device_info();
    if (device.usable) return false;
    state.SkipWithError(("no CUDA device: " + device.description).c_str());
    for (auto _ : state) {
    }
    return true;
}

}  // namespace geomint
