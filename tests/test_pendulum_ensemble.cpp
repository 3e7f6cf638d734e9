// The CPU backend runs the per-trajectory body over a batch: results equal the body's own,
// bitwise for any thread count and batch size; a failing trajectory does not stop the others.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "geomint/pendulum/integrate_trajectory.hpp"
#include "geomint/pendulum/registry.hpp"
#include "pendulum_batch.hpp"
#include "pendulum_batch_equality.hpp"
#include "registry_lookup.hpp"

namespace {

using geomint::PendulumBatch;
using geomint::SolveStatus;
using geomint_test::bitwise_equal;
using geomint_test::expect_bitwise_equal;

// A run's model (registry entries by name) and step settings.
struct RunSettings {
    geomint::PendulumModel model;
    geomint::PendulumStepSettings<double> step;
};

PendulumBatch<double> make_batch(std::size_t n) {
    PendulumBatch<double> batch;
    batch.resize(n);
    for (std::size_t i = 0; i < n; ++i) {  // librations, rotations and varied parameters
        batch.q0[i] = -3.0 + 6.0 * double(i) / double(n);
        batch.p0[i] = 0.37 * double(i % 11) - 1.5;
        batch.mass[i] = 0.5 + 0.01 * double(i % 13);
        batch.omega[i] = 1.0 + 0.1 * double(i % 5);
    }
    return batch;
}

RunSettings settings_for(const std::string& scheme) { return {geomint::make_pendulum_model(scheme), {0.01, 300, {}}}; }

void run_cpu(const RunSettings& s, PendulumBatch<double>& batch, int threads) {
    geomint::run_pendulum_batch_cpu(s.model, s.step, batch, threads);
}

// Every scheme of the registry, so that a new one is covered without touching this test.
const std::vector<std::string> kSchemes = geomint::registry_names(geomint::PendulumSchemes{});

TEST(PendulumEnsembleCpu, BitwiseIndependentOfThreadCount) {
    for (const std::string& scheme : kSchemes) {
        for (std::size_t n : {1u, 7u, 1001u}) {
            auto one = make_batch(n), two = make_batch(n), three = make_batch(n);
            run_cpu(settings_for(scheme), one, 1);
            run_cpu(settings_for(scheme), two, 2);
            run_cpu(settings_for(scheme), three, 3);
            SCOPED_TRACE(scheme + " n=" + std::to_string(n));
            expect_bitwise_equal(one, two);
            expect_bitwise_equal(one, three);
        }
    }
}

TEST(PendulumEnsembleCpu, EqualsThePerTrajectoryBody) {
    // The scalar path runs the body itself (the SIMD lanes differ in sin and cos only:
    // test_pendulum_lanes.cpp).
    auto batch = make_batch(101);
    const auto settings = settings_for("simpson");
    geomint::run_pendulum_batch_cpu<double>(settings.model, settings.step, batch, 2, {}, nullptr, nullptr,
                                            geomint::CpuLanes::scalar);
    for (std::size_t i = 0; i < batch.size(); ++i) {
        const geomint::PendulumPotential<double> potential{batch.mass[i], batch.omega[i]};
        const auto r = geomint::integrate_trajectory(geomint::Simpson{}, potential, batch.q0[i], batch.p0[i],
                                                     settings.step.h, settings.step.steps, settings.step.newton);
        ASSERT_EQ(r.q, batch.q[i]);
        ASSERT_EQ(r.p, batch.p[i]);
        ASSERT_EQ(r.newton_iterations, batch.newton_iterations[i]);
    }
}

TEST(PendulumEnsembleCpu, SplittingTheEnsembleChangesNothing) {
    for (const std::string& scheme : kSchemes) {
        SCOPED_TRACE(scheme);
        auto whole = make_batch(250);
        const auto settings = settings_for(scheme);
        run_cpu(settings, whole, 2);
        auto all = make_batch(250);
        PendulumBatch<double> part;
        for (std::size_t begin = 0; begin < 250; begin += 33) {  // chunks of 33, the last one shorter
            const std::size_t n = std::min<std::size_t>(33, 250 - begin);
            part.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                part.q0[i] = all.q0[begin + i], part.p0[i] = all.p0[begin + i];
                part.mass[i] = all.mass[begin + i], part.omega[i] = all.omega[begin + i];
            }
            run_cpu(settings, part, 3);
            for (std::size_t i = 0; i < n; ++i) {
                ASSERT_EQ(part.q[i], whole.q[begin + i]);
                ASSERT_EQ(part.p[i], whole.p[begin + i]);
            }
        }
    }
}

TEST(PendulumEnsembleCpu, FailedTrajectoryDoesNotStopOthers) {
    for (const std::string& scheme : kSchemes) {
        SCOPED_TRACE(scheme);
        auto batch = make_batch(64);
        batch.omega[10] = 1e200;  // w^2 overflows: this trajectory cannot be integrated
        run_cpu(settings_for(scheme), batch, 2);
        for (std::size_t i = 0; i < batch.size(); ++i) {
            if (i == 10) {
                EXPECT_EQ(batch.status[i], std::uint8_t(SolveStatus::non_finite));
            } else {
                EXPECT_EQ(batch.status[i], std::uint8_t(SolveStatus::ok)) << i;
                EXPECT_EQ(batch.steps_completed[i], 300);
            }
        }
    }
}

}  // namespace
