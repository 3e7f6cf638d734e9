// The portrait drivers' counts against a direct histogram of the same points, collected by running
// integrate_trajectory / integrate_chain with an observer that keeps every state; and the counts'
// independence of the thread count and the chunk size.
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <vector>

#include "geomint/pendulum/integrate_trajectory.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/plane.hpp"
#include "pendulum_portrait.hpp"
#include "spin_portrait.hpp"

namespace {

using geomint::DensityHistogram;
using geomint::PortraitSettings;
using geomint::RunConfig;
using geomint::portrait::HistogramCount;

// q0 over a full turn and beyond (wrapping), p0 from librations to rotations.
geomint::PendulumJob small_pendulum_job() {
    using geomint::ParameterAxis;
    return geomint::PendulumJob{geomint::make_pendulum_model("newmark"),
                                geomint::ParameterGrid({ParameterAxis{1, 1, 1}, ParameterAxis{1.5, 1.5, 1},
                                                        ParameterAxis{-4, 4, 9}, ParameterAxis{-2.5, 2.5, 7}},
                                                       "--q0"),
                                std::nullopt, false};
}

RunConfig config_with(int threads, std::uint64_t chunk, long long steps = 300, double dt = 0.07) {
    RunConfig config;
    config.time.steps = steps;
    config.time.dt = dt;
    config.threads = threads;
    config.chunk_size = chunk;
    return config;
}

PortraitSettings pendulum_settings(bool energy) {
    PortraitSettings s;
    s.grid = {37, 23, {geomint::portrait::kPendulumQMin, geomint::portrait::kPendulumQMax, -4.5, 4.5}};
    s.schedule = {5, 3};
    if (energy) s.energy.emplace(-1.0, 8.0);
    return s;
}

// The reference: every state of every row from integrate_trajectory, recorded per the schedule
// and binned one by one.
DensityHistogram direct_pendulum_histogram(const geomint::PendulumJob& job, const RunConfig& config,
                                           const PortraitSettings& settings) {
    DensityHistogram h(settings.grid, settings.energy.has_value());
    const geomint::portrait::PixelMapper mapper(settings.grid);
    geomint::with_pendulum_types<double>(job.model, [&](auto scheme, auto potential) {
        for (std::uint64_t row = 0; row < job.size(); ++row) {
            auto p = potential;
            p.mass = job.value(row, geomint::kMassAxis);
            p.omega = job.value(row, geomint::kOmegaAxis);
            std::vector<std::pair<double, double>> states;
            geomint::NewtonOptions<double> newton;
            newton.max_iterations = config.newton_max_iterations;
            geomint::integrate_trajectory(scheme, p, job.value(row, geomint::kQ0Axis), job.value(row, geomint::kP0Axis),
                                          config.time.dt, config.time.steps, newton,
                                          [&](long long, double q, double pp) { states.emplace_back(q, pp); });
            ASSERT_EQ(states.size(), static_cast<std::size_t>(config.time.steps + 1));
            const std::uint32_t code =
                settings.energy ? settings.energy->code(geomint::pendulum_initial_energy(job, config.precision, row))
                                : 0;
            for (std::size_t n = 0; n < states.size(); ++n) {
                if (!settings.schedule.records(static_cast<long long>(n))) continue;
                const long long pixel =
                    mapper.pixel(geomint::portrait::pendulum_plane(states[n].first, states[n].second));
                ASSERT_GE(pixel, 0) << "the test's extent holds every state";
                h.counts()[static_cast<std::size_t>(pixel)] += 1;
                if (settings.energy) h.energy_sums()[static_cast<std::size_t>(pixel)] += code;
            }
        }
    });
    return h;
}

bool same(const DensityHistogram& a, const DensityHistogram& b) {
    return std::equal(a.counts().begin(), a.counts().end(), b.counts().begin(), b.counts().end()) &&
           std::equal(a.energy_sums().begin(), a.energy_sums().end(), b.energy_sums().begin(), b.energy_sums().end());
}

TEST(PendulumPortrait, CountsEqualADirectHistogramOfTheIntegratedStates) {
    const geomint::PendulumJob job = small_pendulum_job();
    const RunConfig config = config_with(1, 1000);
    for (const bool energy : {false, true}) {
        const PortraitSettings settings = pendulum_settings(energy);
        const geomint::PortraitResult r = geomint::compute_pendulum_portrait(job, config, settings, true);
        const DensityHistogram reference = direct_pendulum_histogram(job, config, settings);
        EXPECT_TRUE(same(r.histogram, reference)) << "energy " << energy;
        EXPECT_EQ(r.histogram.total_count(), job.size() * settings.schedule.recorded_states(config.time.steps));
        EXPECT_GT(r.histogram.max_count(), 1u);
        EXPECT_EQ(r.statuses.at("ok"), job.size());
    }
}

TEST(PendulumPortrait, CountsDoNotDependOnThreadsOrChunkSize) {
    const geomint::PendulumJob job = small_pendulum_job();
    const PortraitSettings settings = pendulum_settings(true);
    const DensityHistogram first = geomint::compute_pendulum_portrait(job, config_with(1, 1), settings, true).histogram;
    for (const int threads : {1, 2})
        for (const std::uint64_t chunk : {std::uint64_t{1}, std::uint64_t{7}, job.size()}) {
            const DensityHistogram h =
                geomint::compute_pendulum_portrait(job, config_with(threads, chunk), settings, true).histogram;
            EXPECT_TRUE(same(h, first)) << threads << " threads, chunk " << chunk;
        }
}

TEST(PendulumPortrait, EnergyCodesAreTheScanRangeEnds) {
    const geomint::PendulumJob job = small_pendulum_job();
    const geomint::PendulumEnsembleBounds b = geomint::scan_pendulum_ensemble(
        job, geomint::Precision::float64, -geomint::portrait::kPi, geomint::portrait::kPi);
    // H = p^2/2 + 2.25 (1 - cos q): lowest at (0, 0), highest at (pi-ish, +-2.5).
    EXPECT_DOUBLE_EQ(b.emin, 0.0);
    EXPECT_DOUBLE_EQ(b.emax, 2.5 * 2.5 / 2 + 2.25 * (1 - std::cos(3.0)));
    // |p| reachable: sqrt(2 (emax - 0)).
    EXPECT_NEAR(b.pmax, std::sqrt(2 * b.emax), 1e-12);
}

// Spins: a chain of 4 random spins, z-pair and sphere planes.
geomint::SpinJob small_spin_job() {
    geomint::SpinJob job;
    job.model = geomint::make_spin_model("chain", "avf");
    job.initial.source = geomint::SpinInitialConditions::Source::random;
    job.initial.spins = 4;
    job.initial.chains = 11;
    job.initial.seed = 3;
    return job;
}

struct SpinCase {
    geomint::portrait::SpinPlaneChoice plane;
    geomint::portrait::PlaneExtent extent;
};

void PrintTo(const SpinCase& c, std::ostream* os) {
    *os << (c.plane.kind == geomint::portrait::SpinPlaneKind::sphere ? "sphere" : "z-pair") << " of spin "
        << c.plane.spin;
}

class SpinPortrait : public testing::TestWithParam<SpinCase> {};

DensityHistogram direct_spin_histogram(const geomint::SpinJob& job, const RunConfig& config,
                                       const PortraitSettings& settings,
                                       const geomint::portrait::SpinPlaneChoice& plane) {
    DensityHistogram h(settings.grid, settings.energy.has_value());
    const geomint::portrait::PixelMapper mapper(settings.grid);
    const int d = job.initial.spins;
    geomint::with_spin_types<double>(job.model, [&](auto scheme, auto system) {
        for (std::uint64_t t = 0; t < job.initial.chains; ++t) {
            std::vector<double> state(3 * static_cast<std::size_t>(d)),
                work(geomint::spin_workspace_reals(job.model, d));
            job.initial.fill(t, state.data());
            std::vector<std::vector<double>> states;
            geomint::NewtonOptions<double> newton;
            newton.max_iterations = config.newton_max_iterations;
            geomint::spin::integrate_chain(scheme, system, config.time.dt, config.time.steps,
                                           geomint::spin::StridedSpins<double>{state.data(), 1, d},
                                           geomint::spin::StridedReals<double>{work.data(), 1}, newton,
                                           [&](long long, const geomint::spin::StridedSpins<double>& s) {
                                               states.emplace_back(s.base, s.base + 3 * d);
                                           });
            ASSERT_EQ(states.size(), static_cast<std::size_t>(config.time.steps + 1));
            const std::uint32_t code =
                settings.energy ? settings.energy->code(geomint::spin_initial_energy(job, config.precision, t)) : 0;
            for (std::size_t n = 0; n < states.size(); ++n) {
                if (!settings.schedule.records(static_cast<long long>(n))) continue;
                const double* s = states[n].data() + 3 * plane.spin;
                const double* next = states[n].data() + 3 * plane.next;
                const geomint::portrait::PlanePoint point = plane.kind == geomint::portrait::SpinPlaneKind::sphere
                                                                ? geomint::portrait::sphere_plane(s[0], s[1], s[2])
                                                                : geomint::portrait::z_pair_plane(s[2], next[2]);
                const long long pixel = mapper.pixel(point);
                ASSERT_GE(pixel, 0);
                h.counts()[static_cast<std::size_t>(pixel)] += 1;
                if (settings.energy) h.energy_sums()[static_cast<std::size_t>(pixel)] += code;
            }
        }
    });
    return h;
}

TEST_P(SpinPortrait, CountsEqualADirectHistogramForAnyThreadsAndChunks) {
    const geomint::SpinJob job = small_spin_job();
    PortraitSettings settings;
    settings.grid = {29, 17, GetParam().extent};
    settings.schedule = {2, 2};
    settings.energy = geomint::scan_spin_energies(job, geomint::Precision::float64);
    const RunConfig reference_config = config_with(1, 1, 120, 0.05);
    const DensityHistogram reference = direct_spin_histogram(job, reference_config, settings, GetParam().plane);
    EXPECT_EQ(reference.total_count(), job.initial.chains * settings.schedule.recorded_states(120));
    for (const int threads : {1, 2})
        for (const std::uint64_t chunk : {std::uint64_t{1}, std::uint64_t{7}, job.initial.chains}) {
            const geomint::PortraitResult r =
                geomint::compute_spin_portrait(job, config_with(threads, chunk, 120, 0.05), settings, GetParam().plane);
            EXPECT_TRUE(same(r.histogram, reference)) << threads << " threads, chunk " << chunk;
            EXPECT_EQ(r.statuses.at("ok"), job.initial.chains);
        }
}

INSTANTIATE_TEST_SUITE_P(
    Planes, SpinPortrait,
    testing::Values(SpinCase{{geomint::portrait::SpinPlaneKind::sphere, 2, 3}, geomint::portrait::kSpherePlaneExtent},
                    SpinCase{{geomint::portrait::SpinPlaneKind::z_pair, 3, 0}, geomint::portrait::kZPairPlaneExtent}));

}  // namespace
