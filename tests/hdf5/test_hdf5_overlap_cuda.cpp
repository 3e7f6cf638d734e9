// HDF5 outputs of the double-buffered CUDA path: /summary and /states are the same values for
// chunk sizes 1, 7, 1000 and one chunk (NaN where they are NaN), and the states agree with the
// CPU to round-off as tests/hdf5/test_hdf5_cuda.cpp compares them. Skipped without a usable device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "cli_runner.hpp"
#include "cuda_backend.hpp"
#include "hdf5/hdf5_reader.hpp"

namespace {

using geomint_test::Hdf5File;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

// Bit for bit, so that NaN equals NaN.
bool same_reals(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

void expect_same_for_every_chunk_size(const std::string& run, const std::vector<std::string>& summary_reals) {
    const auto device = geomint::cuda_device_info();
    if (!device.usable) GTEST_SKIP() << device.description;
    ScratchFolder scratch;
    const auto cpu = run_geomint(run + " --backend cpu --out " + scratch.file("cpu.h5"), scratch);
    ASSERT_EQ(cpu.exit_code, 0) << cpu.error_output;
    for (const char* chunk : {"1", "7", "1000", "1000000"}) {
        const std::string out = scratch.file(std::string("gpu-") + chunk + ".h5");
        const auto result = run_geomint(run + " --backend cuda --chunk-size " + chunk + " --out " + out, scratch);
        ASSERT_EQ(result.exit_code, 0) << result.error_output;
    }
    Hdf5File reference(scratch.file("gpu-1.h5"));
    for (const char* chunk : {"7", "1000", "1000000"}) {
        Hdf5File other(scratch.file(std::string("gpu-") + chunk + ".h5"));
        EXPECT_EQ(other.shape("/states"), reference.shape("/states")) << chunk;
        EXPECT_TRUE(same_reals(other.reals("/states"), reference.reals("/states"))) << "--chunk-size " << chunk;
        for (const std::string& column : summary_reals)
            EXPECT_TRUE(same_reals(other.reals("/summary/" + column), reference.reals("/summary/" + column)))
                << column << ", --chunk-size " << chunk;
        EXPECT_EQ(other.integers("/summary/steps_completed"), reference.integers("/summary/steps_completed"));
    }
    Hdf5File host(scratch.file("cpu.h5"));
    const auto a = host.reals("/states"), b = reference.reals("/states");
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(std::isnan(a[i]), std::isnan(b[i])) << "element " << i;
        if (!std::isnan(a[i])) ASSERT_NEAR(a[i], b[i], 1e-11 * (1 + std::abs(a[i]))) << "element " << i;
    }
}

TEST(Hdf5OverlapCuda, PendulumStatesAreTheSameForEveryChunkSize) {
    expect_same_for_every_chunk_size(
        "pendulum --q0 0.1:3.1:50 --p0 -1:1:21 --steps 100 --dt 0.05 --quiet --save-every 7", {"q", "p"});
}

TEST(Hdf5OverlapCuda, SpinStatesAreTheSameForEveryChunkSize) {
    expect_same_for_every_chunk_size(
        "spin --system chain --spins 6 --random 1040 --scheme comp2 --steps 20 --dt 0.05 --quiet --save-every 3",
        {"x1", "z6", "energy_error"});
}

}  // namespace
