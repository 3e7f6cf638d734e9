// The CUDA spin portrait (one thread per chain, the same per-chain body, atomic adds) against the
// CPU's, for a top on the sphere plane and a chain on the z-pair plane. nvcc fuses a*b+c, so a
// state near a pixel edge may land next door: the totals, statuses and energy-sum totals must
// match exactly, the pixels up to a tiny fraction of moved visits (as the pendulum's,
// test_portrait_cuda_run.cpp). Skipped, with the reason, where no device is usable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>

#include "cuda_backend.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "spin_portrait.hpp"

namespace {

using geomint::DensityHistogram;

geomint::SpinJob random_job(const char* system, const char* scheme, int spins, std::uint64_t chains) {
    geomint::SpinJob job;
    job.model = geomint::make_spin_model(system, scheme);
    job.initial.source = geomint::SpinInitialConditions::Source::random;
    job.initial.spins = spins;
    job.initial.chains = chains;
    job.initial.seed = 11;
    return job;
}

unsigned long long moved_visits(const DensityHistogram& a, const DensityHistogram& b) {
    unsigned long long moved = 0;
    for (std::size_t k = 0; k < a.pixels(); ++k)
        moved += static_cast<unsigned long long>(std::llabs(static_cast<long long>(a.counts()[k] - b.counts()[k])));
    return moved;
}

void expect_cuda_matches_cpu(const geomint::SpinJob& job, geomint::portrait::SpinPlaneChoice plane,
                             geomint::portrait::PlaneExtent extent, long long steps, double dt) {
    geomint::PortraitSettings settings;
    settings.grid = {160, 90, extent};
    settings.schedule = {2, 3};
    settings.energy = geomint::scan_spin_energies(job, geomint::Precision::float64);
    geomint::RunConfig config;
    config.time.steps = steps;
    config.time.dt = dt;
    config.chunk_size = job.initial.chains;
    const geomint::PortraitResult cpu = geomint::compute_spin_portrait(job, config, settings, plane);
    EXPECT_EQ(cpu.histogram.total_count(), job.initial.chains * settings.schedule.recorded_states(steps));
    config.backend.backend = geomint::Backend::cuda;
    for (const std::uint64_t chunk : {std::uint64_t{7}, job.initial.chains}) {
        config.chunk_size = chunk;
        const geomint::PortraitResult gpu = geomint::compute_spin_portrait(job, config, settings, plane);
        EXPECT_EQ(gpu.statuses, cpu.statuses) << "chunk " << chunk;
        EXPECT_EQ(gpu.histogram.total_count(), cpu.histogram.total_count()) << "chunk " << chunk;
        const auto sum = [](const DensityHistogram& h) {
            return std::accumulate(h.energy_sums().begin(), h.energy_sums().end(), 0ull);
        };
        EXPECT_EQ(sum(gpu.histogram), sum(cpu.histogram)) << "chunk " << chunk;
        EXPECT_LE(moved_visits(gpu.histogram, cpu.histogram), cpu.histogram.total_count() / 1000) << "chunk " << chunk;
    }
}

class SpinPortraitCuda : public ::testing::Test {
protected:
    void SetUp() override {
        const auto device = geomint::cuda_device_info();
        if (!device.usable) GTEST_SKIP() << device.description;
    }
};

TEST_F(SpinPortraitCuda, TopOnTheSphereMatchesTheCpu) {
    expect_cuda_matches_cpu(random_job("top", "avf", 1, 300), {geomint::portrait::SpinPlaneKind::sphere, 0, 0},
                            geomint::portrait::kSpherePlaneExtent, 400, 0.05);
}

TEST_F(SpinPortraitCuda, ChainOnTheZPairPlaneMatchesTheCpu) {
    expect_cuda_matches_cpu(random_job("chain", "coll4", 5, 120), {geomint::portrait::SpinPlaneKind::z_pair, 1, 2},
                            geomint::portrait::kZPairPlaneExtent, 100, 0.05);
}

}  // namespace
