// Checks the counter-based random unit spins: unit length, reproducible, seed-dependent, roughly uniform.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "geomint/spin/random_spins.hpp"

namespace {

using geomint::spin::random_spin;
using geomint::spin::Vec3;

constexpr std::uint64_t seed = 20240611;  // fixed and logged by name: failures are reproducible

TEST(RandomSpins, UnitLength) {
    for (std::uint64_t c = 0; c < 200; ++c)
        for (std::uint64_t i = 0; i < 50; ++i) {
            EXPECT_NEAR(norm(random_spin<double>(seed, c, i)), 1.0, 4e-16);
            EXPECT_NEAR(norm(random_spin<float>(seed, c, i)), 1.0f, 4e-7f);
        }
}

TEST(RandomSpins, DeterministicAndIndependentOfChunking) {
    // Filling chain 5 of a 7-chain ensemble and chain 5 alone gives the same spins.
    const int d = 11, n_chains = 7;
    std::vector<double> ensemble(3 * d * n_chains), alone(3 * d);
    for (int t = n_chains - 1; t >= 0; --t)  // any order
        geomint::spin::fill_random_spins(geomint::spin::StridedSpins<double>{ensemble.data() + t, n_chains, d}, seed,
                                         static_cast<std::uint64_t>(t));
    geomint::spin::fill_random_spins(geomint::spin::StridedSpins<double>{alone.data(), 1, d}, seed, 5);
    const geomint::spin::StridedSpins<double> view{ensemble.data() + 5, n_chains, d};
    for (int i = 0; i < d; ++i)
        EXPECT_EQ(norm(view.get(i) - Vec3<double>{alone[3 * i], alone[3 * i + 1], alone[3 * i + 2]}), 0.0);
    EXPECT_EQ(norm(random_spin<double>(seed, 3, 4) - random_spin<double>(seed, 3, 4)), 0.0);
}

TEST(RandomSpins, DifferentKeysDiffer) {
    const Vec3<double> s = random_spin<double>(seed, 3, 4);
    EXPECT_GT(norm(s - random_spin<double>(seed + 1, 3, 4)), 1e-6);
    EXPECT_GT(norm(s - random_spin<double>(seed, 4, 4)), 1e-6);
    EXPECT_GT(norm(s - random_spin<double>(seed, 3, 5)), 1e-6);
    // Chain and spin index are not interchangeable.
    EXPECT_GT(norm(s - random_spin<double>(seed, 4, 3)), 1e-6);
}

TEST(RandomSpins, RoughlyUniformOnTheSphere) {
    // Uniform on S^2: each component has mean 0 and variance 1/3, and z is uniform on [-1, 1]
    // (Archimedes). With n = 1e5 samples the standard error of a mean is sqrt(1/3/n) ~ 1.8e-3.
    const int n = 100000;
    double mean[3] = {0, 0, 0}, square[3] = {0, 0, 0};
    int upper = 0, z_bins[10] = {};
    for (int k = 0; k < n; ++k) {
        const Vec3<double> s = random_spin<double>(seed, static_cast<std::uint64_t>(k / 100), k % 100);
        for (int c = 0; c < 3; ++c) {
            mean[c] += s[c] / n;
            square[c] += s[c] * s[c] / n;
        }
        upper += s.z > 0;
        ++z_bins[std::min(9, static_cast<int>((s.z + 1) * 5))];
    }
    for (int c = 0; c < 3; ++c) {
        EXPECT_LT(std::fabs(mean[c]), 0.01) << "component " << c;  // > 5 standard errors
        EXPECT_NEAR(square[c], 1.0 / 3, 0.01) << "component " << c;
    }
    EXPECT_NEAR(upper, n / 2, 1000);
    for (int b = 0; b < 10; ++b) EXPECT_NEAR(z_bins[b], n / 10, 600) << "z bin " << b;  // sd ~ 95
}

}  // namespace
