// Density histograms: binning equals a direct count, per-thread histograms merge to the same bits
// for any thread count, the fixed-point energy and its per-visit mean, and the colour levels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "colour_map.hpp"
#include "density_histogram.hpp"
#include "energy_scale.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/plain_recorder.hpp"
#include "geomint/portrait/record_schedule.hpp"
#include "portrait/accumulate_cpu.hpp"

namespace {

using geomint::DensityHistogram;
using geomint::EnergyScale;
using geomint::portrait::HistogramCount;
using geomint::portrait::HistogramView;
using geomint::portrait::PixelGrid;
using geomint::portrait::PixelMapper;

// A grid with dyadic pixel edges (1/16 by 1/8), so the direct count's comparisons are exact.
const PixelGrid kGrid{64, 32, {-2.0, 2.0, -1.0, 3.0}};

struct Point {
    double x, y;
};

// Points of trajectory i: a deterministic pseudo-random walk, some exactly on pixel edges, some
// outside the extent, some NaN.
std::vector<Point> trajectory_points(std::size_t i) {
    std::mt19937_64 random(1000 + i);
    std::uniform_real_distribution<double> coordinate(-2.5, 3.5);
    std::uniform_int_distribution<int> edge(-40, 56);
    std::vector<Point> points;
    for (int k = 0; k < 200; ++k) {
        switch (k % 5) {
            case 0:
                points.push_back({edge(random) / 16.0, edge(random) / 8.0});
                break;  // on edges
            case 1:
                points.push_back({NAN, coordinate(random)});
                break;
            default:
                points.push_back({coordinate(random), coordinate(random)});
                break;
        }
    }
    return points;
}

std::uint32_t energy_code_of(std::size_t i) { return static_cast<std::uint32_t>((i * 7919u) % 1048577u); }

// The pixel by definition, independently of PixelMapper's arithmetic: the column c with
// xmin + c dx <= x < xmin + (c + 1) dx, or the last column for x == xmax; rows counted from the top.
long long direct_pixel(const PixelGrid& g, double x, double y) {
    const auto& e = g.extent;
    const double dx = (e.xmax - e.xmin) / g.width, dy = (e.ymax - e.ymin) / g.height;
    long long column = -1, up = -1;
    for (int c = 0; c < g.width; ++c) {
        if ((x >= e.xmin + c * dx && x < e.xmin + (c + 1) * dx) || (c == g.width - 1 && x == e.xmax)) column = c;
    }
    for (int r = 0; r < g.height; ++r) {
        if ((y >= e.ymin + r * dy && y < e.ymin + (r + 1) * dy) || (r == g.height - 1 && y == e.ymax)) up = r;
    }
    if (column < 0 || up < 0) return -1;
    return (g.height - 1 - up) * g.width + column;
}

TEST(PortraitHistogram, EqualsADirectCountOfTheSamePoints) {
    DensityHistogram histogram(kGrid, true);
    const PixelMapper mapper(kGrid);
    std::vector<HistogramCount> counts(histogram.pixels(), 0), sums(histogram.pixels(), 0);
    HistogramCount inside = 0;
    for (std::size_t i = 0; i < 50; ++i) {
        for (const Point& p : trajectory_points(i)) {
            histogram.view().add(mapper.pixel(p.x, p.y), energy_code_of(i));
            const long long pixel = direct_pixel(kGrid, p.x, p.y);
            if (pixel < 0) continue;
            ++counts[static_cast<std::size_t>(pixel)];
            sums[static_cast<std::size_t>(pixel)] += energy_code_of(i);
            ++inside;
        }
    }
    EXPECT_GT(inside, 3000u);  // most points are inside: the comparison is not vacuous
    EXPECT_EQ(histogram.total_count(), inside);
    EXPECT_EQ(std::vector<HistogramCount>(histogram.counts().begin(), histogram.counts().end()), counts);
    EXPECT_EQ(std::vector<HistogramCount>(histogram.energy_sums().begin(), histogram.energy_sums().end()), sums);
}

DensityHistogram serial_reference(std::size_t trajectories) {
    DensityHistogram histogram(kGrid, true);
    const PixelMapper mapper(kGrid);
    for (std::size_t i = 0; i < trajectories; ++i) {
        for (const Point& p : trajectory_points(i)) histogram.view().add(mapper.pixel(p.x, p.y), energy_code_of(i));
    }
    return histogram;
}

TEST(PortraitHistogram, PerThreadMergeIsBitIdenticalForAnyThreadCount) {
    constexpr std::size_t kTrajectories = 301;
    const DensityHistogram reference = serial_reference(kTrajectories);
    const PixelMapper mapper(kGrid);
    // Largest team first: libomp 14 under LeakSanitizer reports its own team memory as leaked when a
    // team grows after a smaller team of 2 or more (reproduced with a bare omp parallel, no geomint).
    for (const int threads : {7, 3, 2, 1}) {
        const DensityHistogram merged =
            geomint::accumulate_cpu(kGrid, true, kTrajectories, threads, [&](std::size_t i, const HistogramView& view) {
                const geomint::portrait::PlainRecorder record{mapper, view};
                for (const Point& p : trajectory_points(i)) record({p.x, p.y}, energy_code_of(i));
            });
        EXPECT_TRUE(std::equal(merged.counts().begin(), merged.counts().end(), reference.counts().begin()))
            << threads << " threads";
        EXPECT_TRUE(
            std::equal(merged.energy_sums().begin(), merged.energy_sums().end(), reference.energy_sums().begin()))
            << threads << " threads";
        EXPECT_EQ(merged.total_count(), reference.total_count());
    }
}

TEST(PortraitHistogram, PerThreadPartsAreSeparateAndMergeAddsThem) {
    geomint::PerThreadHistograms parts(kGrid, false, 3);
    ASSERT_EQ(parts.threads(), 3);
    parts.view(0).add(5, 0);
    parts.view(2).add(5, 0);
    parts.view(2).add(6, 0);
    EXPECT_EQ(parts.view(1).counts[5], 0u);
    EXPECT_EQ(parts.view(1).energy_sums, nullptr);
    const DensityHistogram merged = parts.merge();
    EXPECT_EQ(merged.counts()[5], 2u);
    EXPECT_EQ(merged.counts()[6], 1u);
    EXPECT_EQ(merged.total_count(), 3u);
    EXPECT_THROW(parts.view(3), std::out_of_range);
}

TEST(PortraitHistogram, AnExceptionInARecorderReachesTheCaller) {
    EXPECT_THROW(geomint::accumulate_cpu(kGrid, false, 100, 3,
                                         [](std::size_t i, const HistogramView&) {
                                             if (i == 17) throw std::runtime_error("trajectory 17");
                                         }),
                 std::runtime_error);
}

TEST(PortraitHistogram, GridsAreValidated) {
    const auto make = [](PixelGrid g) { DensityHistogram h(g, false); };
    EXPECT_THROW(make({0, 10, {0, 1, 0, 1}}), std::invalid_argument);
    EXPECT_THROW(make({10, 16385, {0, 1, 0, 1}}), std::invalid_argument);
    EXPECT_THROW(make({10, 10, {1, 1, 0, 1}}), std::invalid_argument);
    EXPECT_THROW(make({10, 10, {0, 1, 2, 1}}), std::invalid_argument);
    EXPECT_THROW(make({10, 10, {0, NAN, 0, 1}}), std::invalid_argument);
    EXPECT_THROW(make({10, 10, {-1e308, 1e308, 0, 1}}), std::invalid_argument);
    DensityHistogram a(kGrid, true), b(PixelGrid{64, 32, {-2.0, 2.0, -1.0, 3.5}}, true), c(kGrid, false);
    EXPECT_THROW(a.add(b), std::invalid_argument);
    EXPECT_THROW(a.add(c), std::invalid_argument);
}

TEST(PortraitSchedule, SkipThenEveryKth) {
    const geomint::portrait::RecordSchedule all{0, 1};
    EXPECT_TRUE(all.records(0));  // the initial state
    EXPECT_TRUE(all.records(1));
    EXPECT_EQ(all.recorded_states(10), 11);
    const geomint::portrait::RecordSchedule later{5, 3};
    EXPECT_FALSE(later.records(4));
    EXPECT_TRUE(later.records(5));
    EXPECT_FALSE(later.records(6));
    EXPECT_TRUE(later.records(8));
    // recorded_states agrees with counting records() one state at a time.
    for (long long skip = 0; skip < 6; ++skip) {
        for (long long every = 1; every < 5; ++every) {
            const geomint::portrait::RecordSchedule schedule{skip, every};
            long long counted = 0;
            for (long long steps = 0; steps < 40; ++steps) {
                counted += schedule.records(steps) ? 1 : 0;
                ASSERT_EQ(schedule.recorded_states(steps), counted) << skip << " " << every << " " << steps;
            }
        }
    }
}

TEST(PortraitEnergy, CodesSpanTheRange) {
    const EnergyScale scale(-2.0, 6.0);
    EXPECT_EQ(scale.code(-2.0), 0u);
    EXPECT_EQ(scale.code(6.0), geomint::portrait::kEnergyCodeMax);
    EXPECT_EQ(scale.code(2.0), geomint::portrait::kEnergyCodeMax / 2);
    EXPECT_EQ(scale.code(-3.0), 0u);
    EXPECT_EQ(scale.code(7.0), geomint::portrait::kEnergyCodeMax);
    EXPECT_EQ(scale.resolution(), 8.0 / 1048576.0);
    EXPECT_EQ(scale.energy(scale.code(2.0)), 2.0);
    EXPECT_LE(std::abs(scale.energy(scale.code(1.2345)) - 1.2345), scale.resolution() / 2);
    EXPECT_THROW(scale.code(NAN), std::invalid_argument);
    EXPECT_THROW(EnergyScale(1.0, 0.0), std::invalid_argument);
    EXPECT_EQ(EnergyScale(3.0, 3.0).code(3.0), 0u);
}

// "Mean initial energy of the trajectories that visit it" is per visit: a trajectory that visits a
// pixel three times weighs three times.
TEST(PortraitEnergy, MeanIsPerVisit) {
    DensityHistogram histogram(kGrid, true);
    const EnergyScale scale(0.0, 1.0);
    const auto view = histogram.view();
    for (int k = 0; k < 3; ++k) view.add(10, scale.code(0.25));
    view.add(10, scale.code(0.75));
    const double mean = EnergyScale::mean_code(histogram.energy_sums()[10], histogram.counts()[10]);
    EXPECT_EQ(scale.energy(mean), 0.375);  // (3 * 0.25 + 0.75) / 4, not (0.25 + 0.75) / 2
    EXPECT_EQ(geomint::energy_level(histogram.energy_sums()[10], histogram.counts()[10]), 96);  // 0.375 * 256
}

TEST(PortraitEnergy, OverflowOfTheSumIsRefused) {
    const HistogramCount limit = geomint::portrait::kMaxEnergyCount;
    EXPECT_NO_THROW(EnergyScale::mean_code(limit * 5, limit));
    EXPECT_THROW(EnergyScale::mean_code(0, limit + 1), std::overflow_error);
    EXPECT_THROW(geomint::energy_level(0, limit + 1), std::overflow_error);
    EXPECT_THROW(EnergyScale::mean_code(0, 0), std::invalid_argument);
    EXPECT_EQ(limit, (HistogramCount{1} << 44) - 1);                                // 2^20 * 2^44 would wrap to 0
    EXPECT_EQ(geomint::energy_level(HistogramCount{1048576} * limit, limit), 255);  // all codes at the top
}

// The published viridis anchors (#440154, #21918C, #FDE725).
TEST(PortraitColours, ViridisTable) {
    EXPECT_EQ(geomint::viridis(0), (geomint::Rgb8{68, 1, 84}));
    EXPECT_EQ(geomint::viridis(128), (geomint::Rgb8{33, 145, 140}));
    EXPECT_EQ(geomint::viridis(255), (geomint::Rgb8{253, 231, 37}));
    EXPECT_EQ(geomint::viridis(-5), geomint::viridis(0));
    EXPECT_EQ(geomint::viridis(300), geomint::viridis(255));
    for (int level = 0; level < 256; ++level) EXPECT_FALSE(geomint::viridis(level) == geomint::kEmptyPixel);
}

TEST(PortraitColours, LogDensityLevels) {
    EXPECT_EQ(geomint::log_density_level(0, 100), -1);
    EXPECT_EQ(geomint::log_density_level(1, 100), 0);
    EXPECT_EQ(geomint::log_density_level(100, 100), 255);
    EXPECT_EQ(geomint::log_density_level(1, 1), 255);
    EXPECT_EQ(geomint::log_density_level(31, 1000), 127);  // floor(256 ln 31 / ln 1000) = floor(127.26)
    // Over a large range the level is monotone, and it reaches every value from count 100 up (below,
    // consecutive integer counts are further apart than one level, a factor 1e12^(1/256) = 1.114).
    const HistogramCount max_count = 1000000000000ull;
    std::vector<bool> seen(256, false);
    int previous = 0;
    for (double c = 1; c <= double(max_count); c *= 1.01) {
        const int level = geomint::log_density_level(static_cast<HistogramCount>(c), max_count);
        ASSERT_GE(level, previous);
        seen[static_cast<std::size_t>(level)] = true;
        previous = level;
    }
    seen[255] = geomint::log_density_level(max_count, max_count) == 255;
    for (int level = geomint::log_density_level(100, max_count); level < 256; ++level) {
        EXPECT_TRUE(seen[static_cast<std::size_t>(level)]) << level;
    }
    EXPECT_EQ(geomint::density_alpha(-1), 0);
    EXPECT_EQ(geomint::density_alpha(0), 1);
    EXPECT_EQ(geomint::density_alpha(255), 255);
}

}  // namespace
