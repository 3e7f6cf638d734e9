// The spin CPU backend runs the shared per-chain body: bitwise independent of the thread count,
// equal to the body run on a contiguous chain; the CUDA backend equals it to 1e-11 (skipped,
// with the reason, without a device).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "backends/cuda_backend.hpp"
#include "geomint/spin/random_spins.hpp"
#include "spin_batch.hpp"

namespace {

using geomint::SpinBatch;
using geomint::SpinRunSettings;
using geomint::SpinSystemKind;

SpinBatch random_batch(int spins, std::size_t chains, std::uint64_t seed) {
    SpinBatch batch;
    batch.resize(spins, chains);
    for (std::size_t t = 0; t < chains; ++t)
        for (int i = 0; i < spins; ++i) {
            const auto s = geomint::spin::random_spin<double>(seed, t, static_cast<std::uint64_t>(i));
            batch.component(t, i, 0) = s.x, batch.component(t, i, 1) = s.y, batch.component(t, i, 2) = s.z;
        }
    return batch;
}

SpinRunSettings chain_settings(const char* scheme) {
    SpinRunSettings s;
    s.system.kind = SpinSystemKind::chain;
    s.scheme = scheme;
    s.step.h = 0.05;
    s.step.steps = 40;
    return s;
}

TEST(SpinEnsembleCpu, BitwiseIndependentOfThreadCount) {
    for (const char* scheme : {"avf", "mp", "mmp", "ia", "coll4", "spherical_midpoint"}) {
        SCOPED_TRACE(scheme);
        auto one = random_batch(7, 13, 42), three = random_batch(7, 13, 42);
        geomint::run_spin_batch_cpu(chain_settings(scheme), one, 1);
        geomint::run_spin_batch_cpu(chain_settings(scheme), three, 3);
        EXPECT_EQ(std::memcmp(one.state.data(), three.state.data(), one.state.size() * sizeof(double)), 0);
        EXPECT_EQ(one.newton_iterations, three.newton_iterations);
        for (std::size_t t = 0; t < one.chains; ++t) EXPECT_EQ(one.status[t], 0);
    }
}

TEST(SpinEnsembleCpu, TopEnsembleKeepsEnergy) {
    SpinRunSettings s;
    s.system.kind = SpinSystemKind::top;
    s.scheme = "comp4";
    s.step.h = 0.1;
    s.step.steps = 2000;
    auto batch = random_batch(1, 33, 5);
    geomint::run_spin_batch_cpu(s, batch, 2);
    for (std::size_t t = 0; t < batch.chains; ++t) {
        EXPECT_EQ(batch.status[t], 0);
        EXPECT_LT(batch.energy_error[t], 1e-13);
        EXPECT_LT(batch.norm_error[t], 1e-13);
    }
}

// Memory per chain is O(d) for every scheme (no dense 3d x 3d matrix): doubling d doubles it.
TEST(SpinEnsembleCpu, WorkspaceGrowsLinearlyWithTheChain) {
    for (const std::string& scheme : geomint::spin::spin_scheme_names(true)) {
        SpinRunSettings s = chain_settings(scheme.c_str());
        const std::size_t small = geomint::spin_workspace_reals(s, 64), large = geomint::spin_workspace_reals(s, 1024);
        EXPECT_GT(small, 0u) << scheme;
        EXPECT_LE(large, 16 * small + 64) << scheme;  // linear: 16 times the spins, 16 times the memory
        EXPECT_GE(large, 15 * small) << scheme;
    }
}

TEST(SpinEnsembleCpu, LongChainOf1024Spins) {
    auto batch = random_batch(1024, 3, 11);
    SpinRunSettings s = chain_settings("mmp");
    s.step.steps = 5;
    geomint::run_spin_batch_cpu(s, batch, 0);
    for (std::size_t t = 0; t < batch.chains; ++t) {
        EXPECT_EQ(batch.status[t], 0);
        EXPECT_LT(batch.energy_error[t], 1e-11);
        EXPECT_LT(batch.norm_error[t], 1e-13);
    }
}

class SpinCuda : public ::testing::Test {
protected:
    void SetUp() override {
        const auto device = geomint::cuda_device_info();
        if (!device.usable) GTEST_SKIP() << device.description;
    }
};

// 101 chains: not a multiple of the block or warp size.
TEST_F(SpinCuda, MatchesCpuTo1e11) {
    for (const char* scheme : {"avf", "mp", "mmp", "ia", "sia", "comp2", "compsia", "comp4", "coll4", "coll6",
                               "coll8", "implicit_midpoint", "spherical_midpoint"}) {
        SCOPED_TRACE(scheme);
        auto cpu = random_batch(16, 101, 9), gpu = random_batch(16, 101, 9);
        geomint::run_spin_batch_cpu(chain_settings(scheme), cpu, 0);
        geomint::run_spin_batch_cuda(chain_settings(scheme), gpu);
        for (std::size_t k = 0; k < cpu.state.size(); ++k) ASSERT_NEAR(gpu.state[k], cpu.state[k], 1e-11) << k;
        EXPECT_EQ(gpu.status, cpu.status);
    }
}

TEST_F(SpinCuda, TopMatchesCpuTo1e11) {
    SpinRunSettings s;
    s.system.kind = SpinSystemKind::top;
    s.scheme = "avf";
    s.step.h = 0.1;
    s.step.steps = 1000;
    auto cpu = random_batch(1, 1000, 3), gpu = random_batch(1, 1000, 3);
    geomint::run_spin_batch_cpu(s, cpu, 0);
    geomint::run_spin_batch_cuda(s, gpu);
    for (std::size_t k = 0; k < cpu.state.size(); ++k) ASSERT_NEAR(gpu.state[k], cpu.state[k], 1e-11) << k;
}

}  // namespace
