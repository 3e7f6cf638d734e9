// The pendulum's SIMD lanes (src/pendulum_lanes.hpp) against the scalar per-trajectory body the
// CUDA kernel also runs: bit for bit at every vector width this CPU has, with the same statuses, Newton iterations and
// steps, for every scheme and potential, ensembles whose size is not a multiple of the width, and failing lanes beside
// healthy ones; and bitwise independent of threads and chunks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "geomint/pendulum/registry.hpp"
#include "pendulum_batch.hpp"
#include "pendulum_batch_equality.hpp"
#include "pendulum_lanes.hpp"
#include "registry_lookup.hpp"
#include "save_recorder.hpp"

namespace {

using geomint::PendulumBatch;
using geomint::SolveStatus;
using geomint_test::bitwise_equal;
using geomint_test::expect_bitwise_equal;

const std::vector<std::string> kSchemes = geomint::registry_names(geomint::PendulumSchemes{});
const std::vector<std::string> kPotentials = geomint::registry_names(geomint::PendulumPotentials{});

// Librations and rotations with varied masses and frequencies; n need not be a multiple of 8.
PendulumBatch<double> make_batch(std::size_t n) {
    PendulumBatch<double> batch;
    batch.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        batch.q0[i] = -3.0 + 6.0 * double(i) / double(n);
        batch.p0[i] = 0.37 * double(i % 11) - 1.5;
        batch.mass[i] = 0.5 + 0.01 * double(i % 13);
        batch.omega[i] = 1.0 + 0.1 * double(i % 5);
    }
    return batch;
}

// Lanes that fail, each in its own way, between healthy ones.
void add_failures(PendulumBatch<double>& batch) {
    batch.q0[3] = std::numeric_limits<double>::quiet_NaN();  // non_finite before the first step
    batch.omega[9] = 1e200;                                  // w^2 overflows: non_finite
    batch.p0[12] = 1e150;                                    // p^2 overflows in the energy: non_finite at once
    // h^2 w^2 far past the bound of one root: the Newton derivative changes sign, root_not_unique
    // (implicit schemes; the explicit ones blow up to non_finite instead).
    batch.omega[17] = 120.0;
    batch.q0[17] = 3.0;
    batch.p0[17] = 30.0;
    batch.omega[20] = 80.0;
    batch.q0[20] = 2.0;
    batch.p0[20] = 1.0;
    batch.q0[18] = 40.0;  // Duffing: escapes to infinity within the run (non_finite mid-run)
    batch.p0[18] = 30.0;
}

geomint::PendulumModel model_of(const std::string& scheme, const std::string& potential) {
    return geomint::make_pendulum_model(scheme, potential);
}

// Runs `batch` through `runner` on one thread, as the batch loop does (blocks of its width).
void run_with(const geomint::PendulumLaneRunner& runner, const geomint::PendulumModel& model,
              const geomint::PendulumStepSettings<double>& step, PendulumBatch<double>& batch) {
    geomint::PendulumLaneTask task = geomint::pendulum_lane_task(model, step.h, step.steps, step.newton);
    const auto view = batch.view();
    task.q0 = view.q0, task.p0 = view.p0, task.mass = view.mass, task.omega = view.omega;
    task.q = view.q, task.p = view.p, task.energy_error = view.outcome.energy_error;
    task.newton_iterations = view.outcome.newton_iterations;
    task.steps_completed = view.outcome.steps_completed;
    task.status = view.outcome.status;
    task.observer = nullptr;
    const std::size_t n = batch.size();
    for (std::size_t first = 0; first < n; first += static_cast<std::size_t>(runner.width))
        runner.run_block(task, first, static_cast<int>(std::min<std::size_t>(runner.width, n - first)));
}

bool lanes_available() { return geomint::widest_pendulum_lanes().run_block != nullptr; }

// The lanes against the scalar body: the same operations with the same sin and cos
// (geomint/elementary_functions.hpp), so the same bits, statuses, Newton iterations and steps,
// for every scheme and potential, with lanes failing in every way beside healthy ones.
TEST(PendulumLanes, EqualTheScalarBodyBitForBit) {
    if (!lanes_available()) GTEST_SKIP() << "no SIMD lanes in this build (needs SLEEF and x86-64)";
    bool seen[5] = {};
    int compared = 0;
    for (const auto& potential : kPotentials) {
        for (const auto& scheme : kSchemes) {
            const auto model = model_of(scheme, potential);
            // A registry entry added later runs in the scalar body until it is given a lane form.
            if (geomint::pendulum_lanes_for(model).run_block == nullptr) continue;
            ++compared;
            for (std::size_t n : {1u, 13u, 37u}) {
                auto scalar = make_batch(n);
                if (n == 37) add_failures(scalar);
                const geomint::PendulumStepSettings<double> step{0.05, 400, {}};
                geomint::run_pendulum_batch_cpu<double>(model, step, scalar, 2, {}, nullptr, nullptr,
                                                        geomint::CpuLanes::scalar);
                // Every width this CPU has (AVX-512, AVX2, SSE2), not only the one runs choose.
                for (const auto& runner : geomint::pendulum_lanes_on_this_cpu()) {
                    SCOPED_TRACE(scheme + " " + potential + " n=" + std::to_string(n) + " " + runner.instruction_set);
                    auto lanes = make_batch(n);
                    if (n == 37) add_failures(lanes);
                    run_with(runner, model, step, lanes);
                    expect_bitwise_equal(lanes, scalar);
                    for (auto s : lanes.status) seen[s] = true;
                }
            }
        }
    }
    // Every scheme and potential geomint has today runs in lanes (4 schemes x 2 potentials).
    EXPECT_GE(compared, 8);
    // The failing lanes did fail, in each way the ensemble provokes.
    EXPECT_TRUE(seen[int(SolveStatus::ok)]);
    EXPECT_TRUE(seen[int(SolveStatus::non_finite)]);
    EXPECT_TRUE(seen[int(SolveStatus::root_not_unique)]);
}

// A Newton iteration limit hit by some lanes only: they stop with newton_max_iterations at the
// same step as in the scalar body, while the lanes around them carry on.
TEST(PendulumLanes, IterationLimitEndsOnlyTheLanesThatReachIt) {
    if (!lanes_available()) GTEST_SKIP() << "no SIMD lanes in this build (needs SLEEF and x86-64)";
    for (const std::string scheme : {"newmark", "simpson"}) {
        SCOPED_TRACE(scheme);
        const auto model = model_of(scheme, "pendulum");
        auto lanes = make_batch(29), scalar = make_batch(29);
        for (std::size_t i = 0; i < 29; i += 3) lanes.omega[i] = scalar.omega[i] = 40.0;  // stiffer: more iterations
        const geomint::PendulumStepSettings<double> step{0.05, 200, {4, 0.0}};
        geomint::run_pendulum_batch_cpu(model, step, lanes, 1);
        geomint::run_pendulum_batch_cpu<double>(model, step, scalar, 1, {}, nullptr, nullptr,
                                                geomint::CpuLanes::scalar);
        expect_bitwise_equal(lanes, scalar);
        int limited = 0, ok = 0;
        for (auto s : lanes.status) {
            limited += s == std::uint8_t(SolveStatus::newton_max_iterations);
            ok += s == std::uint8_t(SolveStatus::ok);
        }
        EXPECT_GT(limited, 0);
        EXPECT_GT(ok, 0);
    }
}

// Determinism with the lanes on: any thread count, and any split of the ensemble into batches
// (a chunk boundary inside a block of lanes), give the same bits.
TEST(PendulumLanes, BitwiseIndependentOfThreadsAndChunks) {
    for (const auto& scheme : kSchemes) {
        SCOPED_TRACE(scheme);
        const auto model = model_of(scheme, "pendulum");
        const geomint::PendulumStepSettings<double> step{0.02, 300, {}};
        auto whole = make_batch(101);
        add_failures(whole);
        geomint::run_pendulum_batch_cpu(model, step, whole, 1);
        auto threaded = make_batch(101);
        add_failures(threaded);
        geomint::run_pendulum_batch_cpu(model, step, threaded, 3);
        EXPECT_TRUE(bitwise_equal(whole.q, threaded.q));
        EXPECT_TRUE(bitwise_equal(whole.p, threaded.p));
        EXPECT_TRUE(bitwise_equal(whole.energy_error, threaded.energy_error));
        auto all = make_batch(101);
        add_failures(all);
        for (std::size_t begin = 0; begin < 101; begin += 11) {  // 11: never a multiple of the width
            const std::size_t n = std::min<std::size_t>(11, 101 - begin);
            PendulumBatch<double> part;
            part.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                part.q0[i] = all.q0[begin + i], part.p0[i] = all.p0[begin + i];
                part.mass[i] = all.mass[begin + i], part.omega[i] = all.omega[begin + i];
            }
            geomint::run_pendulum_batch_cpu(model, step, part, 2);
            for (std::size_t i = 0; i < n; ++i) {
                ASSERT_EQ(std::memcmp(&part.q[i], &whole.q[begin + i], sizeof(double)), 0) << begin + i;
                ASSERT_EQ(std::memcmp(&part.p[i], &whole.p[begin + i], sizeof(double)), 0) << begin + i;
                ASSERT_EQ(part.status[i], whole.status[begin + i]);
            }
        }
    }
}

// Saved states through the lanes' observer equal the scalar body's bit for bit, NaN where the
// scalar body's are (a trajectory's saves after its failure are never written).
TEST(PendulumLanes, SavedStatesAgreeWithTheScalarBody) {
    if (!lanes_available()) GTEST_SKIP() << "no SIMD lanes in this build (needs SLEEF and x86-64)";
    const auto model = model_of("simpson", "pendulum");
    const geomint::PendulumStepSettings<double> step{0.05, 100, {}};
    const std::size_t n = 21;
    const long long every = 7;
    const long long saves = geomint::save_count(step.steps, every);
    const auto run = [&](geomint::CpuLanes lanes) {
        auto batch = make_batch(n);
        add_failures(batch);
        std::vector<double> out(static_cast<std::size_t>(saves) * n * 2, std::numeric_limits<double>::quiet_NaN());
        const geomint::SaveRecorder<double> recorder{out.data(), n, 2, every, step.steps};
        geomint::run_pendulum_batch_cpu<double>(model, step, batch, 2, {}, &recorder, nullptr, lanes);
        return out;
    };
    const auto lanes = run(geomint::CpuLanes::automatic), scalar = run(geomint::CpuLanes::scalar);
    ASSERT_EQ(lanes.size(), scalar.size());
    int written = 0;
    for (std::size_t k = 0; k < lanes.size(); ++k) {
        if (std::isnan(scalar[k])) {
            EXPECT_TRUE(std::isnan(lanes[k])) << k;
        } else {
            ++written;
            EXPECT_EQ(std::memcmp(&lanes[k], &scalar[k], sizeof(double)), 0) << k;
        }
    }
    EXPECT_GT(written, int(n));
}

}  // namespace
