// Reproducible uniform random unit spins: a counter-based hash of (seed, chain, spin), so a chain's
// initial state never depends on how the ensemble is chunked or threaded. Host+device.
#pragma once

#include <cmath>
#include <cstdint>

#include "geomint/counter_random.hpp"
#include "geomint/platform.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

// 64 random bits for the key (seed, chain, spin, draw) (counter_random.hpp).
GEOMINT_HD inline std::uint64_t spin_hash(std::uint64_t seed, std::uint64_t chain, std::uint64_t spin,
                                          std::uint64_t draw) {
    return counter_hash(seed, chain, spin, draw);
}

// Uniform on the unit sphere (Archimedes: z uniform in [-1, 1], azimuth uniform), normalised
// once more so |s| = 1 to round-off in Real. Computed in double so float and double ensembles
// with the same seed start from the same spins (up to rounding).
template <class Real>
GEOMINT_HD Vec3<Real> random_spin(std::uint64_t seed, std::uint64_t chain, std::uint64_t spin) {
    const double z = 2.0 * unit_interval(spin_hash(seed, chain, spin, 0)) - 1.0;
    const double azimuth = 6.283185307179586477 * unit_interval(spin_hash(seed, chain, spin, 1));
    const double r = std::sqrt(1.0 - z * z > 0.0 ? 1.0 - z * z : 0.0);
    const double x = r * std::cos(azimuth), y = r * std::sin(azimuth);
    const double norm = std::sqrt(x * x + y * y + z * z);
    return Vec3<Real>{static_cast<Real>(x / norm), static_cast<Real>(y / norm), static_cast<Real>(z / norm)};
}

// Fills all d spins of one chain (index `chain` in the ensemble) from `seed`.
template <class Real>
GEOMINT_HD void fill_random_spins(StridedSpins<Real> state, std::uint64_t seed, std::uint64_t chain) {
    for (int i = 0; i < state.d; ++i) state.set(i, random_spin<Real>(seed, chain, static_cast<std::uint64_t>(i)));
}

}  // namespace geomint::spin
