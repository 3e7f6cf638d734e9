// The CUDA backend equals the CPU reference (one body for both). Compiled in every build;
// skipped, with the reason, where no device is usable (or CUDA was not built).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cuda_backend.hpp"
#include "geomint/pendulum/registry.hpp"
#include "pendulum_batch.hpp"
#include "registry_lookup.hpp"

namespace {

using geomint::PendulumBatch;

// Runs `batch` on the device through a runner sized for it, as the pipeline does.
template <class Real>
float run_cuda(const geomint::PendulumModel& model, const geomint::PendulumStepSettings<Real>& step,
               PendulumBatch<Real>& batch) {
    geomint::PendulumCudaRunner<Real> runner(model, step, std::max<std::size_t>(1, batch.size()));
    return runner.run(batch.view(), batch.size());
}

class PendulumCuda : public ::testing::Test {
protected:
    void SetUp() override {
        const auto device = geomint::cuda_device_info();
        if (!device.usable) GTEST_SKIP() << device.description;
    }
};

template <class Real>
PendulumBatch<Real> make_batch(std::size_t n) {
    PendulumBatch<Real> batch;
    batch.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        batch.q0[i] = Real(-3.0 + 6.0 * double(i) / double(n));
        batch.p0[i] = Real(0.5 * double(i % 9) - 2.0);
        batch.mass[i] = Real(1.0 + 0.01 * double(i % 3));
        batch.omega[i] = Real(2.0);
    }
    return batch;
}

// 1000 trajectories: not a multiple of the block size (128) nor of the warp size.
TEST_F(PendulumCuda, DoubleMatchesCpuAfter1e4Steps) {
    for (const std::string& scheme : geomint::registry_names(geomint::PendulumSchemes{})) {  // every scheme
        SCOPED_TRACE(scheme);
        const auto model = geomint::make_pendulum_model(scheme);
        const geomint::PendulumStepSettings<double> step{1e-3, 10000, {}};
        auto cpu = make_batch<double>(1000), gpu = make_batch<double>(1000);
        geomint::run_pendulum_batch_cpu(model, step, cpu, 0);
        run_cuda(model, step, gpu);
        for (std::size_t i = 0; i < cpu.size(); ++i) {
            ASSERT_EQ(gpu.status[i], cpu.status[i]) << i;
            EXPECT_LE(std::abs(gpu.q[i] - cpu.q[i]), 1e-12 * std::max(1.0, std::abs(cpu.q[i]))) << i;
            EXPECT_LE(std::abs(gpu.p[i] - cpu.p[i]), 1e-12 * std::max(1.0, std::abs(cpu.p[i]))) << i;
        }
    }
}

TEST_F(PendulumCuda, FloatRunsAndAgreesRoughly) {
    const auto model = geomint::make_pendulum_model("newmark");
    const geomint::PendulumStepSettings<float> step{1e-2f, 1000, {}};
    auto cpu = make_batch<float>(777), gpu = make_batch<float>(777);
    geomint::run_pendulum_batch_cpu(model, step, cpu, 0);
    run_cuda(model, step, gpu);
    for (std::size_t i = 0; i < cpu.size(); ++i)
        EXPECT_NEAR(gpu.q[i], cpu.q[i], 1e-3f * std::max(1.0f, std::abs(cpu.q[i])));
}

TEST_F(PendulumCuda, EmptyBatchIsANoOp) {
    PendulumBatch<double> empty;
    EXPECT_EQ(
        run_cuda(geomint::make_pendulum_model("newmark"), geomint::PendulumStepSettings<double>{0.1, 1, {}}, empty),
        0.0f);
}

}  // namespace
