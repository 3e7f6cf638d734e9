// Counter-based random numbers: a keyed hash of (seed, index, ...) instead of a generator state, so
// a value depends only on its key, never on how an ensemble is chunked or threaded. Host+device.
#pragma once

#include <cstdint>

#include "geomint/platform.hpp"

namespace geomint {

// splitmix64's finaliser (Steele, Lea, Flood 2014): a bijection of 64-bit words whose outputs
// pass BigCrush when fed a counter; chaining it over the key words gives a keyed hash.
GEOMINT_HD inline std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// 64 random bits for the key (seed, a, b, c); every word goes through a full mixing round, so
// neighbouring keys give unrelated bits.
GEOMINT_HD inline std::uint64_t counter_hash(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    std::uint64_t h = splitmix64(seed);
    h = splitmix64(h ^ a);
    h = splitmix64(h ^ b);
    return splitmix64(h ^ c);
}

// Uniform in [0, 1) with the top 53 bits (exactly representable in double).
GEOMINT_HD inline double unit_interval(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

}  // namespace geomint
