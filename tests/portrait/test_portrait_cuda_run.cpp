// The CUDA pendulum portrait (one thread per trajectory, atomic adds) against the CPU's. The
// device's cos and sin may differ from the host's in the last bit, so trajectories may drift
// apart by round-off and a state near a pixel edge land next door: the totals and statuses must
// match exactly, the pixels up to a tiny fraction of moved visits. Skipped, with the reason, where
// no device is usable (or CUDA was not built).
#include <gtest/gtest.h>

#include <cstdlib>

#include "cuda_backend.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "pendulum_portrait.hpp"

namespace {

using geomint::DensityHistogram;

TEST(PendulumPortraitCuda, MatchesTheCpuForAnyChunkSize) {
    const auto device = geomint::cuda_device_info();
    if (!device.usable) GTEST_SKIP() << device.description;
    using geomint::ParameterAxis;
    const geomint::PendulumJob job{geomint::make_pendulum_model("newmark"),
                                   geomint::ParameterGrid({ParameterAxis{1, 1, 1}, ParameterAxis{1, 1, 1},
                                                           ParameterAxis{-3, 3, 31}, ParameterAxis{-2.5, 2.5, 41}},
                                                          "--q0"),
                                   std::nullopt, false};
    geomint::PortraitSettings settings;
    settings.grid = {200, 120, {geomint::portrait::kPendulumQMin, geomint::portrait::kPendulumQMax, -3, 3}};
    settings.schedule = {3, 2};
    settings.energy.emplace(0.0, 5.2);
    geomint::RunConfig config;
    config.time.steps = 500;
    config.time.dt = 0.05;
    config.chunk_size = job.size();
    const geomint::PortraitResult cpu = geomint::compute_pendulum_portrait(job, config, settings, true);
    config.backend.backend = geomint::Backend::cuda;
    for (const std::uint64_t chunk : {std::uint64_t{7}, job.size()}) {
        config.chunk_size = chunk;
        const geomint::PortraitResult gpu = geomint::compute_pendulum_portrait(job, config, settings, true);
        EXPECT_EQ(gpu.statuses, cpu.statuses);
        EXPECT_EQ(gpu.histogram.total_count(), cpu.histogram.total_count());
        unsigned long long moved = 0;
        for (std::size_t k = 0; k < cpu.histogram.pixels(); ++k)
            moved += static_cast<unsigned long long>(
                std::llabs(static_cast<long long>(gpu.histogram.counts()[k] - cpu.histogram.counts()[k])));
        EXPECT_LE(moved, cpu.histogram.total_count() / 1000) << "chunk " << chunk;
    }
}

}  // namespace
