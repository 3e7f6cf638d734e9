// Pendulum phase portraits on the CPU (see pendulum_portrait.hpp).
#include "pendulum_portrait.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "geomint/pendulum/registry.hpp"
#include "geomint/portrait/plain_recorder.hpp"
#include "geomint/portrait/trajectory_recorders.hpp"
#include "geomint/solve_status.hpp"
#include "pendulum_batch.hpp"
#include "pendulum_portrait_cuda.hpp"
#include "portrait_cpu_accumulator.hpp"

namespace geomint {

namespace {

// Calls f(potential) with the model's potential in double, its parameters from the model.
template <class F>
void with_double_potential(const PendulumModel& model, F&& f) {
    with_type_at(PendulumPotentials{}, model.potential, [&](auto entry) {
        using Potential = typename decltype(entry)::template type<double>;
        f(Potential::from_parameters(model.potential_parameters.data()));
    });
}

// What the run's floating type makes of an input (the body sees the rounded value).
double rounded(double value, Precision precision) {
    return precision == Precision::float32 ? static_cast<double>(static_cast<float>(value)) : value;
}

template <class Potential>
double energy_of_row(Potential potential, const PendulumJob& job, Precision precision, std::uint64_t row) {
    potential.mass = rounded(job.value(row, kMassAxis), precision);
    potential.omega = rounded(job.value(row, kOmegaAxis), precision);
    return hamiltonian(potential, rounded(job.value(row, kQ0Axis), precision),
                       rounded(job.value(row, kP0Axis), precision));
}

// Chunk [begin, begin + n) of the ensemble into `batch`, and its energy codes (0 without energy).
template <class Real>
void fill_chunk(const PendulumJob& job, const RunConfig& config, const PortraitSettings& settings, std::uint64_t begin,
                std::size_t n, PendulumBatch<Real>& batch, std::vector<std::uint32_t>& codes) {
    batch.resize(n);
    codes.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        batch.mass[i] = static_cast<Real>(job.value(begin + i, kMassAxis));
        batch.omega[i] = static_cast<Real>(job.value(begin + i, kOmegaAxis));
        batch.q0[i] = static_cast<Real>(job.value(begin + i, kQ0Axis));
        batch.p0[i] = static_cast<Real>(job.value(begin + i, kP0Axis));
        if (settings.energy)
            codes[i] = settings.energy->code(pendulum_initial_energy(job, config.precision, begin + i));
    }
}

void count_statuses(const std::vector<std::uint8_t>& status, std::size_t n,
                    std::map<std::string, std::uint64_t>& statuses) {
    for (std::size_t i = 0; i < n; ++i) ++statuses[status_name(static_cast<SolveStatus>(status[i]))];
}

// The GPU: one thread per trajectory, atomic adds into one device histogram, downloaded at the end.
template <class Real>
PortraitResult run_portrait_cuda(const PendulumJob& job, const RunConfig& config, const PortraitSettings& settings,
                                 bool wrap, const ProgressCallback& progress) {
    PendulumStepSettings<Real> step{static_cast<Real>(config.time.dt), config.time.steps, {}};
    step.newton.max_iterations = config.newton_max_iterations;
    const std::uint64_t total = job.size();
    const std::uint64_t chunk = std::max<std::uint64_t>(1, std::min<std::uint64_t>(config.chunk_size, total));
    PendulumPortraitCudaRunner<Real> runner(job.model, step, static_cast<std::size_t>(chunk), settings.grid,
                                            settings.energy.has_value(), settings.schedule, wrap);
    PendulumBatch<Real> batch;
    std::vector<std::uint32_t> codes;
    std::map<std::string, std::uint64_t> statuses;
    for (std::uint64_t begin = 0; begin < total; begin += chunk) {
        const auto n = static_cast<std::size_t>(std::min(chunk, total - begin));
        fill_chunk(job, config, settings, begin, n, batch, codes);
        runner.run(batch.view(), settings.energy ? codes.data() : nullptr, n);
        if (progress) progress(n);
        count_statuses(batch.status, n, statuses);
    }
    DensityHistogram histogram(settings.grid, settings.energy.has_value());
    runner.download(histogram.counts().data(), settings.energy ? histogram.energy_sums().data() : nullptr);
    return {std::move(histogram), std::move(statuses)};
}

template <class Real>
PortraitResult run_portrait(const PendulumJob& job, const RunConfig& config, const PortraitSettings& settings,
                            bool wrap, const ProgressCallback& progress) {
    using Sink = portrait::PlainRecorder;
    using Recorder = portrait::PendulumPortraitRecorder<Sink>;
    const int threads = config.threads > 0 ? config.threads : omp_get_max_threads();
    PerThreadHistograms parts(settings.grid, settings.energy.has_value(), threads);
    std::vector<portrait::HistogramView> views;
    for (int t = 0; t < threads; ++t) views.push_back(parts.view(t));
    const portrait::PixelMapper mapper(settings.grid);

    PendulumStepSettings<Real> step{static_cast<Real>(config.time.dt), config.time.steps, {}};
    step.newton.max_iterations = config.newton_max_iterations;
    const std::uint64_t total = job.size();
    const std::uint64_t chunk = std::max<std::uint64_t>(1, std::min<std::uint64_t>(config.chunk_size, total));
    PendulumBatch<Real> batch;
    std::vector<std::uint32_t> codes;
    std::map<std::string, std::uint64_t> statuses;
    with_pendulum_types<Real>(job.model, [&](auto scheme, auto potential) {
        using Body = PendulumTrajectoryBody<decltype(scheme), decltype(potential), Real, Recorder>;
        for (std::uint64_t begin = 0; begin < total; begin += chunk) {
            const auto n = static_cast<std::size_t>(std::min(chunk, total - begin));
            fill_chunk(job, config, settings, begin, n, batch, codes);
            const PendulumBatchView<Real> view = batch.view();
            const auto count = static_cast<long long>(n);
#pragma omp parallel num_threads(threads)
            {
                // Each thread's body records into that thread's own histogram: plain adds.
                const Recorder recorder{Sink{mapper, views[static_cast<std::size_t>(omp_get_thread_num())]},
                                        settings.schedule, wrap, settings.energy ? codes.data() : nullptr};
                const Body body{scheme, potential, view, step, recorder};
                // Dynamic schedule: failed trajectories stop early and would unbalance a static split.
#pragma omp for schedule(dynamic, 16)
                for (long long i = 0; i < count; ++i) {
                    body(static_cast<std::size_t>(i));
                    if (progress) progress(1);
                }
            }
            count_statuses(batch.status, n, statuses);
        }
    });
    return {parts.merge(), std::move(statuses)};
}

}  // namespace

bool pendulum_potential_is_periodic(const PendulumModel& model) {
    bool periodic = false;
    with_type_at(PendulumPotentials{}, model.potential,
                 [&](auto entry) { periodic = decltype(entry)::template type<double>::periodic; });
    return periodic;
}

double pendulum_initial_energy(const PendulumJob& job, Precision precision, std::uint64_t row) {
    double energy = 0;
    with_double_potential(job.model, [&](auto potential) { energy = energy_of_row(potential, job, precision, row); });
    return energy;
}

PendulumEnsembleBounds scan_pendulum_ensemble(const PendulumJob& job, Precision precision, double qmin, double qmax) {
    PendulumEnsembleBounds bounds{HUGE_VAL, -HUGE_VAL, 0};
    with_double_potential(job.model, [&](auto base) {
        constexpr int kSamples = 256;
        for (std::uint64_t row = 0; row < job.size(); ++row) {
            auto potential = base;
            potential.mass = rounded(job.value(row, kMassAxis), precision);
            potential.omega = rounded(job.value(row, kOmegaAxis), precision);
            const double q0 = rounded(job.value(row, kQ0Axis), precision);
            const double p0 = rounded(job.value(row, kP0Axis), precision);
            const double energy = hamiltonian(potential, q0, p0);
            bounds.emin = std::min(bounds.emin, energy);
            bounds.emax = std::max(bounds.emax, energy);
            // The lowest potential the trajectory could pass: sampled, so p may be slightly larger
            // than this bound (the caller leaves a margin).
            double lowest = potential.value(q0);
            for (int k = 0; k <= kSamples; ++k)
                lowest = std::min(lowest, potential.value(qmin + (qmax - qmin) * k / kSamples));
            const double reach = std::sqrt(std::max(0.0, 2 * potential.mass * (energy - lowest)));
            bounds.pmax = std::max({bounds.pmax, reach, std::fabs(p0)});
        }
    });
    return bounds;
}

PortraitResult compute_pendulum_portrait(const PendulumJob& job, const RunConfig& config,
                                         const PortraitSettings& settings, bool wrap,
                                         const ProgressCallback& progress) {
    if (config.backend.backend == Backend::cuda) {
        if (config.precision == Precision::float32)
            return run_portrait_cuda<float>(job, config, settings, wrap, progress);
        return run_portrait_cuda<double>(job, config, settings, wrap, progress);
    }
    if (config.precision == Precision::float32) return run_portrait<float>(job, config, settings, wrap, progress);
    return run_portrait<double>(job, config, settings, wrap, progress);
}

}  // namespace geomint
