// Saved states from the CUDA backend (the same body and save recorder on the device) against the
// CPU backend: equal shapes, the same failures (NaN), values to round-off (nvcc fuses a*b+c).
// Skipped where no CUDA device is usable.
#include <gtest/gtest.h>

#include <cmath>

#include "cli_runner.hpp"
#include "cuda_backend.hpp"
#include "hdf5/hdf5_reader.hpp"

namespace {

using geomint_test::Hdf5File;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

void expect_close_states(const std::string& cpu_file, const std::string& gpu_file, double tolerance) {
    Hdf5File cpu(cpu_file), gpu(gpu_file);
    ASSERT_EQ(cpu.shape("/states"), gpu.shape("/states"));
    EXPECT_EQ(cpu.integers("/step"), gpu.integers("/step"));
    const auto a = cpu.reals("/states"), b = gpu.reals("/states");
    for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(std::isnan(a[i]), std::isnan(b[i])) << "element " << i;
        if (!std::isnan(a[i])) ASSERT_NEAR(a[i], b[i], tolerance * (1 + std::abs(a[i]))) << "element " << i;
    }
    EXPECT_EQ(gpu.text("/", "backend"), "cuda");
}

class Hdf5Cuda : public ::testing::Test {
protected:
    void SetUp() override {
        const auto device = geomint::cuda_device_info();
        if (!device.usable) GTEST_SKIP() << device.description;
    }
};

TEST_F(Hdf5Cuda, PendulumSavedStatesMatchTheCpu) {
    ScratchFolder scratch;
    const std::string run =
        "pendulum --q0 0.1:3.1:50 --p0 -1:1:21 --steps 100 --dt 0.05 --chunk-size 300 --quiet --save-every 7 --out ";
    const auto cpu = run_geomint(run + scratch.file("cpu.h5") + " --backend cpu", scratch);
    const auto gpu = run_geomint(run + scratch.file("gpu.h5") + " --backend cuda", scratch);
    ASSERT_EQ(cpu.exit_code, 0) << cpu.error_output;
    ASSERT_EQ(gpu.exit_code, 0) << gpu.error_output;
    expect_close_states(scratch.file("cpu.h5"), scratch.file("gpu.h5"), 1e-11);
}

TEST_F(Hdf5Cuda, SpinSavedStatesMatchTheCpu) {
    ScratchFolder scratch;
    const std::string run =
        "spin --system chain --spins 6 --random 40 --scheme comp2 --steps 20 --dt 0.05 --chunk-size 16 --quiet "
        "--save-every 3 --out ";
    const auto cpu = run_geomint(run + scratch.file("cpu.h5") + " --backend cpu", scratch);
    const auto gpu = run_geomint(run + scratch.file("gpu.h5") + " --backend cuda", scratch);
    ASSERT_EQ(cpu.exit_code, 0) << cpu.error_output;
    ASSERT_EQ(gpu.exit_code, 0) << gpu.error_output;
    expect_close_states(scratch.file("cpu.h5"), scratch.file("gpu.h5"), 1e-11);
}

}  // namespace
