// A density histogram as a kernel or a CPU thread sees it: per-pixel visit counts and, for energy
// colouring, per-pixel sums of fixed-point initial energies. Host+device; the plain add() is for a
// histogram one thread owns (the CPU's per-thread histograms); the CUDA accumulator adds with
// atomics instead (kernels/portrait_histogram.cuh).
#pragma once

#include <cstdint>

#include "geomint/platform.hpp"

namespace geomint::portrait {

// 64-bit counters as CUDA's atomicAdd takes them (unsigned long long, not std::uint64_t, which is
// unsigned long on Linux). Unsigned arithmetic wraps modulo 2^64 and is associative, so sums are
// bit-identical in any order: whatever the thread count, schedule or backend.
using HistogramCount = unsigned long long;
static_assert(sizeof(HistogramCount) == 8, "64-bit histogram counters");

// A trajectory's initial energy as an integer code in [0, 2^20] over the run's energy range
// (EnergyScale in src/). A pixel's energy sum is at most count * 2^20, so it cannot wrap (2^64)
// while count < 2^44 (1.8e13 visits of one pixel); kMaxEnergyCount is checked before any mean is used.
inline constexpr int kEnergyCodeBits = 20;
inline constexpr std::uint32_t kEnergyCodeMax = std::uint32_t{1} << kEnergyCodeBits;
inline constexpr HistogramCount kMaxEnergyCount = (HistogramCount{1} << (64 - kEnergyCodeBits)) - 1;

struct HistogramView {
    HistogramCount* counts;       // pixels entries: visits of each pixel
    HistogramCount* energy_sums;  // pixels entries, or nullptr when energy is not recorded
    long long pixels;

    // One visit of `pixel` (-1: no pixel, ignored) by a trajectory of initial energy code `energy_code`.
    GEOMINT_HD void add(long long pixel, std::uint32_t energy_code) const {
        if (pixel < 0) return;
        counts[pixel] += 1;
        if (energy_sums != nullptr) energy_sums[pixel] += energy_code;
    }
};

}  // namespace geomint::portrait
