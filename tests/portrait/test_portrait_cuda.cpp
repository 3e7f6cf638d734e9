// The device density histogram (kernels/portrait_histogram.cu) equals the CPU's, counts and
// energy sums bit for bit. Compiled in every build; skipped, with the reason, where no device is
// usable (or CUDA was not built).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuda_backend.hpp"
#include "density_histogram.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/plane.hpp"
#include "portrait/accumulate_cpu.hpp"
#include "portrait_cuda.hpp"

namespace {

using geomint::portrait::HistogramCount;
using geomint::portrait::PixelGrid;

class PortraitCuda : public ::testing::Test {
protected:
    void SetUp() override {
        const auto device = geomint::cuda_device_info();
        if (!device.usable) GTEST_SKIP() << device.description;
    }
};

// 1e6 points of a pendulum-like cloud, many in few pixels (contended atomics), some outside, on
// edges and NaN; the CPU bins the same points with 3 threads.
TEST_F(PortraitCuda, EqualsTheCpuHistogram) {
    const PixelGrid grid{301, 157, {-geomint::portrait::kPi, geomint::portrait::kPi, -2.0, 2.0}};
    const std::size_t n = 1000000;
    std::vector<double> x(n), y(n);
    std::vector<std::uint32_t> codes(n);
    std::mt19937_64 random(11);
    std::normal_distribution<double> normal(0.0, 0.7);
    for (std::size_t k = 0; k < n; ++k) {
        const geomint::portrait::PlanePoint p = geomint::portrait::pendulum_plane(5 * normal(random), normal(random));
        x[k] = k % 97 == 0 ? NAN : (k % 89 == 0 ? geomint::portrait::kPi : p.x);
        y[k] = k % 13 == 0 ? 0.01 * (k % 7) : p.y;  // a few rows receive many visits
        codes[k] = static_cast<std::uint32_t>(random() % (geomint::portrait::kEnergyCodeMax + 1));
    }
    const std::size_t chunk = 1000;
    const geomint::portrait::PixelMapper mapper(grid);
    const geomint::DensityHistogram cpu =
        geomint::accumulate_cpu(grid, true, n / chunk, 3, [&](std::size_t c, const auto& view) {
            for (std::size_t k = c * chunk; k < (c + 1) * chunk; ++k) view.add(mapper.pixel(x[k], y[k]), codes[k]);
        });
    geomint::PortraitCudaHistogram gpu(grid, true);
    gpu.record_points(x.data(), y.data(), codes.data(), n / 2);  // two launches add up
    gpu.record_points(x.data() + n / 2, y.data() + n / 2, codes.data() + n / 2, n - n / 2);
    std::vector<HistogramCount> counts(cpu.pixels()), sums(cpu.pixels());
    gpu.download(counts.data(), sums.data());
    EXPECT_EQ(counts, std::vector<HistogramCount>(cpu.counts().begin(), cpu.counts().end()));
    EXPECT_EQ(sums, std::vector<HistogramCount>(cpu.energy_sums().begin(), cpu.energy_sums().end()));
    EXPECT_GT(cpu.total_count(), n / 2);
}

TEST_F(PortraitCuda, CountsOnlyWithoutEnergy) {
    const PixelGrid grid{4, 2, {0.0, 4.0, 0.0, 2.0}};
    geomint::PortraitCudaHistogram gpu(grid, false);
    const std::vector<double> x{0.0, 4.0, 4.0, 1.0, 9.0}, y{0.0, 2.0, 2.0, 1.0, 1.0};
    gpu.record_points(x.data(), y.data(), nullptr, x.size());
    std::vector<HistogramCount> counts(8);
    gpu.download(counts.data(), nullptr);
    EXPECT_EQ(counts, (std::vector<HistogramCount>{0, 1, 0, 2, 1, 0, 0, 0}));
    EXPECT_EQ(gpu.device_view().energy_sums, nullptr);
}

}  // namespace
