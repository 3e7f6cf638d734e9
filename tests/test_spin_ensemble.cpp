// The spin CPU backend runs the shared per-chain body: bitwise independent of the thread count,
// O(d) memory per chain, float as well as double; the CUDA backend equals it to 1e-11 for every
// registered system and scheme, and its block-per-chain kernels equal its thread-per-chain ones to
// 1e-12 (both skipped, with the reason, without a device).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "cuda_backend.hpp"
#include "geomint/spin/random_spins.hpp"
#include "registry_lookup.hpp"
#include "spin_batch.hpp"

namespace {

using geomint::SpinBatch;
using geomint::SpinModel;
using geomint::SpinStepSettings;

template <class Real = double>
SpinBatch<Real> random_batch(int spins, std::size_t chains, std::uint64_t seed) {
    SpinBatch<Real> batch;
    batch.resize(spins, chains);
    for (std::size_t t = 0; t < chains; ++t)
        for (int i = 0; i < spins; ++i) {
            const auto s = geomint::spin::random_spin<double>(seed, t, static_cast<std::uint64_t>(i));
            batch.component(t, i, 0) = Real(s.x), batch.component(t, i, 1) = Real(s.y),
                                  batch.component(t, i, 2) = Real(s.z);
        }
    return batch;
}

const SpinStepSettings<double> kChainStep{0.05, 40, {}};

TEST(SpinEnsembleCpu, BitwiseIndependentOfThreadCount) {
    for (const char* scheme : {"avf", "mp", "mmp", "ia", "coll4", "spherical_midpoint"}) {
        SCOPED_TRACE(scheme);
        const SpinModel model = geomint::make_spin_model("chain", scheme);
        auto one = random_batch(7, 13, 42), three = random_batch(7, 13, 42);
        geomint::run_spin_batch_cpu(model, kChainStep, one, 1);
        geomint::run_spin_batch_cpu(model, kChainStep, three, 3);
        EXPECT_EQ(std::memcmp(one.state.data(), three.state.data(), one.state.size() * sizeof(double)), 0);
        EXPECT_EQ(one.newton_iterations, three.newton_iterations);
        for (std::size_t t = 0; t < one.chains; ++t) EXPECT_EQ(one.status[t], 0);
    }
}

TEST(SpinEnsembleCpu, TopEnsembleKeepsEnergy) {
    auto batch = random_batch(1, 33, 5);
    geomint::run_spin_batch_cpu(geomint::make_spin_model("top", "comp4"), SpinStepSettings<double>{0.1, 2000, {}},
                                batch, 2);
    for (std::size_t t = 0; t < batch.chains; ++t) {
        EXPECT_EQ(batch.status[t], 0);
        EXPECT_LT(batch.energy_error[t], 1e-13);
        EXPECT_LT(batch.norm_error[t], 1e-13);
    }
}

// The pipeline is templated on the floating type down to the body: a float chain ensemble runs,
// keeps |s_i| = 1 and the energy to float round-off, and stays near the double run.
TEST(SpinEnsembleCpu, FloatRunsThroughTheSameBody) {
    const SpinModel model = geomint::make_spin_model("chain", "avf");
    auto single = random_batch<float>(8, 5, 3);
    auto reference = random_batch<double>(8, 5, 3);
    geomint::run_spin_batch_cpu(model, SpinStepSettings<float>{0.05f, 40, {}}, single, 2);
    geomint::run_spin_batch_cpu(model, kChainStep, reference, 2);
    for (std::size_t t = 0; t < single.chains; ++t) {
        EXPECT_EQ(single.status[t], 0);
        EXPECT_LT(single.norm_error[t], 1e-5f);
        EXPECT_LT(single.energy_error[t], 1e-4f);
    }
    for (std::size_t k = 0; k < single.state.size(); ++k) EXPECT_NEAR(single.state[k], reference.state[k], 1e-4);
}

// Memory per chain is O(d) for every scheme (no dense 3d x 3d matrix): 16 times the spins, 16
// times the memory.
TEST(SpinEnsembleCpu, WorkspaceGrowsLinearlyWithTheChain) {
    for (const std::string& scheme : geomint::registry_names(geomint::spin::SpinSchemes{})) {
        const SpinModel model = geomint::make_spin_model("chain", scheme);
        const std::size_t small = geomint::spin_workspace_reals(model, 64),
                          large = geomint::spin_workspace_reals(model, 1024);
        EXPECT_GT(small, 0u) << scheme;
        EXPECT_LE(large, 16 * small + 64) << scheme;
        EXPECT_GE(large, 15 * small) << scheme;
    }
}

TEST(SpinEnsembleCpu, LongChainOf1024Spins) {
    auto batch = random_batch(1024, 3, 11);
    geomint::run_spin_batch_cpu(geomint::make_spin_model("chain", "mmp"), SpinStepSettings<double>{0.05, 5, {}}, batch,
                                0);
    for (std::size_t t = 0; t < batch.chains; ++t) {
        EXPECT_EQ(batch.status[t], 0);
        EXPECT_LT(batch.energy_error[t], 1e-11);
        EXPECT_LT(batch.norm_error[t], 1e-13);
    }
}

// Every (system, scheme) pair of the registry that applies, as the CUDA tests run them.
struct SpinCase {
    std::string system, scheme;
    int spins;
};

std::vector<SpinCase> every_registered_pair() {
    std::vector<SpinCase> cases;
    const auto systems = geomint::registry_names(geomint::spin::SpinSystems{});
    const auto schemes = geomint::registry_names(geomint::spin::SpinSchemes{});
    for (std::size_t a = 0; a < systems.size(); ++a) {
        const SpinModel model = geomint::make_spin_model(systems[a], schemes[0]);
        bool chain = false;
        geomint::with_type_at(geomint::spin::SpinSystems{}, model.system,
                              [&](auto entry) { chain = decltype(entry)::is_chain; });
        for (std::size_t b = 0; b < schemes.size(); ++b)
            if (geomint::spin_scheme_applies(static_cast<int>(a), static_cast<int>(b)))
                cases.push_back({systems[a], schemes[b], chain ? 16 : 1});
    }
    return cases;
}

TEST(SpinRegistry, EveryPairRunsOnTheCpu) {
    const auto cases = every_registered_pair();
    EXPECT_EQ(cases.size(), 12u + 13u + 13u);  // mmp applies to the chains only
    for (const SpinCase& c : cases) {
        auto batch = random_batch(c.spins, 3, 21);
        geomint::run_spin_batch_cpu(geomint::make_spin_model(c.system, c.scheme), SpinStepSettings<double>{0.05, 4, {}},
                                    batch, 1);
        for (std::size_t t = 0; t < batch.chains; ++t) EXPECT_EQ(batch.status[t], 0) << c.system << " " << c.scheme;
    }
}

class SpinCuda : public ::testing::Test {
protected:
    void SetUp() override {
        const auto device = geomint::cuda_device_info();
        if (!device.usable) GTEST_SKIP() << device.description;
    }
};

// 101 chains: not a multiple of the block or warp size; run in chunks of 64 and 37 through one
// runner, as the pipeline does, so the runner's buffers are reused with a smaller chunk.
TEST_F(SpinCuda, EveryRegisteredPairMatchesCpuTo1e11) {
    for (const SpinCase& c : every_registered_pair()) {
        SCOPED_TRACE(c.system + " " + c.scheme);
        const SpinModel model = geomint::make_spin_model(c.system, c.scheme);
        const SpinStepSettings<double> step{c.spins == 1 ? 0.1 : 0.05, c.spins == 1 ? 200 : 40, {}};
        auto cpu = random_batch(c.spins, 101, 9);
        geomint::run_spin_batch_cpu(model, step, cpu, 0);
        geomint::SpinCudaRunner<double> runner(model, step, c.spins, 64);
        for (std::size_t begin = 0; begin < 101; begin += 64) {
            const std::size_t n = std::min<std::size_t>(64, 101 - begin);
            auto gpu = random_batch(c.spins, 101, 9), part = SpinBatch<double>{};
            part.resize(c.spins, n);
            for (std::size_t t = 0; t < n; ++t)
                for (int i = 0; i < c.spins; ++i)
                    for (int k = 0; k < 3; ++k) part.component(t, i, k) = gpu.component(begin + t, i, k);
            runner.run(part.view(), n);
            for (std::size_t t = 0; t < n; ++t) {
                ASSERT_EQ(part.status[t], cpu.status[begin + t]) << t;
                for (int i = 0; i < c.spins; ++i)
                    for (int k = 0; k < 3; ++k)
                        ASSERT_NEAR(part.component(t, i, k), cpu.component(begin + t, i, k), 1e-11) << t;
            }
        }
    }
}

// Issue 10 item 5: one thread block per chain (the partitioned Newton by a team of threads)
// against one thread per chain (the sequential Newton), forced both ways, for every scheme with a
// team step on both chain systems: equal to 1e-12 (the two solves round differently, so Newton's
// stagnation test may stop them an iteration apart; the count is not compared), both converged. d = 256 has 16 parts,
// so the block's 32 threads split the rows, and idle threads take part in every barrier; 3 chains, so blocks run side
// by side. Then d = 2048, where the automatic layout picks blocks, against the CPU, which solves such a chain by the
// same partitioned algorithm on one thread: equal to 1e-11.
TEST_F(SpinCuda, BlockPerChainMatchesThreadPerChainTo1e12) {
    using geomint::SpinChainLayout;
    const SpinStepSettings<double> step{0.05, 6, {}};
    constexpr int kSpins = 256;
    constexpr std::size_t kChains = 3;
    for (const char* system : {"chain", "anisotropic_chain"})
        for (const char* scheme : {"avf", "mp", "mmp", "ia", "sia", "comp2", "compsia", "comp4", "implicit_midpoint",
                                   "spherical_midpoint"}) {
            SCOPED_TRACE(std::string(system) + " " + scheme);
            const SpinModel model = geomint::make_spin_model(system, scheme);
            auto thread = random_batch(kSpins, kChains, 31), block = random_batch(kSpins, kChains, 31);
            geomint::SpinCudaRunner<double>(model, step, kSpins, kChains, 0, SpinChainLayout::thread_per_chain)
                .run(thread.view(), kChains);
            geomint::SpinCudaRunner<double>(model, step, kSpins, kChains, 0, SpinChainLayout::block_per_chain)
                .run(block.view(), kChains);
            for (std::size_t t = 0; t < kChains; ++t) {
                ASSERT_EQ(block.status[t], 0) << t;
                ASSERT_EQ(thread.status[t], 0) << t;
                EXPECT_EQ(block.steps_completed[t], step.steps) << t;
                for (int i = 0; i < kSpins; ++i)
                    for (int k = 0; k < 3; ++k)
                        ASSERT_NEAR(block.component(t, i, k), thread.component(t, i, k), 1e-12) << t << " " << i;
            }
        }
    const SpinModel model = geomint::make_spin_model("chain", "avf");
    const SpinStepSettings<double> two{0.05, 2, {}};
    auto cpu = random_batch(2048, 2, 37), gpu = random_batch(2048, 2, 37);
    ASSERT_TRUE(geomint::spin_block_per_chain(SpinChainLayout::automatic, 2048));
    geomint::run_spin_batch_cpu(model, two, cpu, 1);
    geomint::SpinCudaRunner<double>(model, two, 2048, 2).run(gpu.view(), 2);
    for (std::size_t t = 0; t < 2; ++t) {
        ASSERT_EQ(gpu.status[t], 0);
        for (int i = 0; i < 2048; ++i)
            for (int k = 0; k < 3; ++k) ASSERT_NEAR(gpu.component(t, i, k), cpu.component(t, i, k), 1e-11) << i;
    }
}

}  // namespace
