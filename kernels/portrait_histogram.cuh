// Recording into a device density histogram from CUDA threads: atomicAdd on 64-bit counters.
// Integer atomics commute, so the result equals the CPU's per-thread histograms merged, bit for bit.
#pragma once

#include <cstdint>

#include "geomint/portrait/histogram_view.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/plane.hpp"

namespace geomint::portrait {

// One visit of `pixel` (-1: no pixel, ignored), as HistogramView::add but safe for many threads.
__device__ inline void atomic_add(const HistogramView& view, long long pixel, std::uint32_t energy_code) {
    if (pixel < 0) return;
    atomicAdd(view.counts + pixel, HistogramCount{1});
    if (view.energy_sums != nullptr) atomicAdd(view.energy_sums + pixel, HistogramCount{energy_code});
}

// The device twin of PlainRecorder (geomint/portrait/plain_recorder.hpp): the same call, atomic adds.
struct AtomicRecorder {
    PixelMapper mapper;
    HistogramView view;

    __device__ void operator()(PlanePoint p, std::uint32_t energy_code) const {
        atomic_add(view, mapper.pixel(p), energy_code);
    }
};

}  // namespace geomint::portrait
