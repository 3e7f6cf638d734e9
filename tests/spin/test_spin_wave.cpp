// Checks that the spin wave of math §2 solves the periodic Heisenberg chain and stays on the spheres.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "geomint/spin/spin_wave.hpp"
#include "geomint/spin/systems.hpp"

namespace {

using geomint::spin::Vec3;

TEST(SpinWave, PaperVectorsAreOrthonormal) {
    const auto w = geomint::spin::paper_spin_wave<double>(8);
    EXPECT_NEAR(dot(w.a, w.b), 0.0, 4e-16);  // a few ulps of a sum of three products
    EXPECT_NEAR(norm(w.a), 1.0, 1e-15);
    EXPECT_NEAR(norm(w.b), 1.0, 1e-15);
    EXPECT_NEAR(norm(w.n), 1.0, 1e-15);
    EXPECT_NEAR(norm(cross(w.a, w.b) - w.n), 0.0, 4e-16);
}

TEST(SpinWave, SolvesTheHeisenbergChainAndKeepsUnitLength) {
    const geomint::spin::HeisenbergChain<double> chain;
    for (int d : {3, 8, 13}) {
        const auto w = geomint::spin::paper_spin_wave<double>(d);
        for (double t : {0.0, 0.37, 2.5}) {
            for (int i = 0; i < d; ++i) {
                const Vec3<double> s = w.spin(i, t);
                EXPECT_NEAR(norm(s), 1.0, 2e-16 * 4) << "d = " << d << " i = " << i;
                // ds_i/dt by a fourth-order central difference: truncation ~ dt^4, round-off ~ 1e-16/dt.
                const double dt = 1e-3;
                const Vec3<double> dsdt =
                    (8.0 * (w.spin(i, t + dt) - w.spin(i, t - dt)) - (w.spin(i, t + 2 * dt) - w.spin(i, t - 2 * dt))) /
                    (12.0 * dt);
                const Vec3<double> left = w.spin((i + d - 1) % d, t), right = w.spin((i + 1) % d, t);
                const Vec3<double> rhs = cross(s, chain.gradient(left, s, right));
                EXPECT_LT(norm(dsdt - rhs), 1e-11) << "d = " << d << " i = " << i << " t = " << t;
                // And it really moves (a wave that stands still would pass trivially).
                EXPECT_GT(norm(rhs), 0.05);  // speed cos(phi) 2 (1 - cos p) sin(phi): 0.099 at d = 13
            }
        }
    }
}

TEST(SpinWave, FillWritesTheStridedLayoutAndConservesEnergy) {
    const int d = 8, n_chains = 3, chain = 1;
    std::vector<double> storage(3 * d * n_chains, -7.0);
    const geomint::spin::StridedSpins<double> state{storage.data() + chain, n_chains, d};
    const auto w = geomint::spin::paper_spin_wave<double>(d);
    const geomint::spin::HeisenbergChain<double> system;
    w.fill(state, 0.0);
    const double h0 = geomint::spin::total_energy(system, state);
    for (int i = 0; i < d; ++i) EXPECT_EQ(norm(state.get(i) - w.spin(i, 0.0)), 0.0);
    EXPECT_EQ(storage[0], -7.0);  // other chains untouched
    w.fill(state, 3.0);
    EXPECT_NEAR(geomint::spin::total_energy(system, state), h0, 1e-14);
    // Energy of the wave: d cos^2(phi) cos p + d sin^2(phi), p = 2 pi/d.
    const double p = 2 * M_PI / d;
    EXPECT_NEAR(h0, d * (0.25 * std::cos(p) + 0.75), 1e-13);
}

}  // namespace
