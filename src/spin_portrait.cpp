// Spin phase portraits on the CPU (see spin_portrait.hpp).
#include "spin_portrait.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "geomint/portrait/plain_recorder.hpp"
#include "geomint/solve_status.hpp"
#include "portrait_cpu_accumulator.hpp"
#include "spin_batch.hpp"
#include "spin_portrait_cuda.hpp"

namespace geomint {

namespace {

// At most this many bytes of chunk state at once, as the CSV runs hold.
constexpr double kChunkBytes = 1 << 30;

// Chain `chain`'s spins as the body sees them: filled from the source, rounded to Real.
template <class Real>
void fill_chain(const SpinJob& job, std::uint64_t chain, std::vector<double>& spins) {
    spins.resize(3 * static_cast<std::size_t>(job.initial.spins));
    job.initial.fill(chain, spins.data());
    for (double& v : spins) v = static_cast<double>(static_cast<Real>(v));
}

// The energy of a chain's spins as fill_chain gives them.
double energy_of_spins(const SpinJob& job, std::vector<double>& spins) {  // StridedSpins holds a non-const pointer
    double energy = 0;
    with_spin_system<double>(job.model, [&](const auto& system) {
        energy = spin::total_energy(system, spin::StridedSpins<double>{spins.data(), 1, job.initial.spins});
    });
    return energy;
}

template <class Real>
double energy_of_chain(const SpinJob& job, std::uint64_t chain) {
    std::vector<double> spins;
    fill_chain<Real>(job, chain, spins);
    return energy_of_spins(job, spins);
}

// The GPU (double only, as the spin ensembles): one thread per chain, the same body with atomic
// adds into one device histogram, downloaded at the end.
PortraitResult run_portrait_cuda(const SpinJob& job, const RunConfig& config, const PortraitSettings& settings,
                                 const portrait::SpinPlaneChoice& plane, const ProgressCallback& progress) {
    using Real = double;
    SpinStepSettings<Real> step{static_cast<Real>(config.time.dt), config.time.steps, {}};
    step.newton.max_iterations = config.newton_max_iterations;
    const int d = job.initial.spins;
    const std::size_t state_reals = 3 * static_cast<std::size_t>(d);
    // The device holds the state and the Newton workspace of a chunk: keep both under the limit.
    const double chain_bytes = double(sizeof(Real)) * double(state_reals + spin_workspace_reals(job.model, d)) + 8;
    const std::uint64_t by_memory = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(kChunkBytes / chain_bytes));
    const std::uint64_t total = job.initial.chains;
    const std::uint64_t chunk = std::max<std::uint64_t>(1, std::min({config.chunk_size, by_memory, total}));
    SpinPortraitCudaRunner<Real> runner(job.model, step, d, static_cast<std::size_t>(chunk), settings.grid,
                                        settings.energy.has_value(), settings.schedule, plane);
    std::vector<Real> states;  // stride n: component k of chain t at states[k * n + t]
    std::vector<std::uint8_t> chunk_status;
    std::vector<std::uint32_t> codes;
    std::vector<double> chain;
    std::map<std::string, std::uint64_t> statuses;
    for (std::uint64_t begin = 0; begin < total; begin += chunk) {
        const auto n = static_cast<std::size_t>(std::min(chunk, total - begin));
        states.resize(state_reals * n);
        chunk_status.assign(n, 0);
        codes.assign(n, 0);
        for (std::size_t t = 0; t < n; ++t) {
            fill_chain<Real>(job, begin + t, chain);
            for (std::size_t k = 0; k < state_reals; ++k) states[k * n + t] = static_cast<Real>(chain[k]);
            if (settings.energy) codes[t] = settings.energy->code(energy_of_spins(job, chain));
        }
        runner.run(states.data(), settings.energy ? codes.data() : nullptr, n, chunk_status.data());
        if (progress) progress(n);
        for (std::size_t t = 0; t < n; ++t) ++statuses[status_name(static_cast<SolveStatus>(chunk_status[t]))];
    }
    DensityHistogram histogram(settings.grid, settings.energy.has_value());
    runner.download(histogram.counts().data(), settings.energy ? histogram.energy_sums().data() : nullptr);
    return {std::move(histogram), std::move(statuses)};
}

template <class Real>
PortraitResult run_portrait(const SpinJob& job, const RunConfig& config, const PortraitSettings& settings,
                            const portrait::SpinPlaneChoice& plane, const ProgressCallback& progress) {
    using Sink = portrait::PlainRecorder;
    using Recorder = portrait::SpinPortraitRecorder<Sink>;
    const int threads = config.threads > 0 ? config.threads : omp_get_max_threads();
    PerThreadHistograms parts(settings.grid, settings.energy.has_value(), threads);
    std::vector<portrait::HistogramView> views;
    for (int t = 0; t < threads; ++t) views.push_back(parts.view(t));
    const portrait::PixelMapper mapper(settings.grid);

    SpinStepSettings<Real> step{static_cast<Real>(config.time.dt), config.time.steps, {}};
    step.newton.max_iterations = config.newton_max_iterations;
    const int d = job.initial.spins;
    const std::size_t state_reals = 3 * static_cast<std::size_t>(d);
    const std::size_t work_reals = spin_workspace_reals(job.model, d);
    const double chain_bytes = double(sizeof(Real)) * double(state_reals) + 8;
    const std::uint64_t by_memory = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(kChunkBytes / chain_bytes));
    const std::uint64_t total = job.initial.chains;
    const std::uint64_t chunk = std::max<std::uint64_t>(1, std::min({config.chunk_size, by_memory, total}));
    // Every thread's contiguous chain and workspace, allocated before the parallel region, so that
    // an allocation failure is an ordinary std::bad_alloc rather than a terminate() inside OpenMP.
    const std::size_t per_thread = state_reals + work_reals;
    std::vector<Real> buffers(per_thread * static_cast<std::size_t>(threads));
    std::vector<Real> states;
    std::vector<std::uint8_t> chunk_status;
    std::vector<std::uint32_t> codes;
    std::vector<double> chain;
    std::map<std::string, std::uint64_t> statuses;
    with_spin_types<Real>(job.model, [&](auto scheme, auto system) {
        using Body = SpinChainBody<decltype(scheme), decltype(system), Real, Recorder>;
        for (std::uint64_t begin = 0; begin < total; begin += chunk) {
            const auto n = static_cast<std::size_t>(std::min(chunk, total - begin));
            states.resize(state_reals * n);  // chain-major: chain t at states[t * state_reals]
            chunk_status.assign(n, 0);
            codes.assign(n, 0);
            for (std::size_t t = 0; t < n; ++t) {
                fill_chain<Real>(job, begin + t, chain);
                for (std::size_t k = 0; k < state_reals; ++k) states[t * state_reals + k] = static_cast<Real>(chain[k]);
                if (settings.energy) codes[t] = settings.energy->code(energy_of_spins(job, chain));
            }
            const auto count = static_cast<long long>(n);
#pragma omp parallel num_threads(threads)
            {
                const int thread = omp_get_thread_num();
                Real* state = buffers.data() + per_thread * static_cast<std::size_t>(thread);
                Real* workspace = state + state_reals;
                Real energy_error = 0, norm_error = 0;
                long long iterations = 0, steps = 0;
                std::uint8_t status = 0;
                // One contiguous chain per thread: the body sees it as an ensemble of one (index 0),
                // so the recorder's code pointer is moved to the chain's own code below.
                const SpinBatchView<Real> local{
                    state, workspace,   1,
                    d,     &norm_error, OutcomeView<Real>{&energy_error, &iterations, &steps, &status}};
                const Sink sink{mapper, views[static_cast<std::size_t>(thread)]};
#pragma omp for schedule(dynamic, 4)
                for (long long t = 0; t < count; ++t) {
                    std::copy_n(states.data() + static_cast<std::size_t>(t) * state_reals, state_reals, state);
                    const Recorder recorder{sink, settings.schedule, plane,
                                            settings.energy ? codes.data() + t : nullptr};
                    const Body body{scheme, system, local, step, recorder};
                    body(0);
                    chunk_status[static_cast<std::size_t>(t)] = status;
                    if (progress) progress(1);
                }
            }
            for (std::size_t t = 0; t < n; ++t) ++statuses[status_name(static_cast<SolveStatus>(chunk_status[t]))];
        }
    });
    return {parts.merge(), std::move(statuses)};
}

}  // namespace

double spin_initial_energy(const SpinJob& job, Precision precision, std::uint64_t chain) {
    return precision == Precision::float32 ? energy_of_chain<float>(job, chain) : energy_of_chain<double>(job, chain);
}

EnergyScale scan_spin_energies(const SpinJob& job, Precision precision) {
    double emin = HUGE_VAL, emax = -HUGE_VAL;
    for (std::uint64_t t = 0; t < job.initial.chains; ++t) {
        const double e = spin_initial_energy(job, precision, t);
        emin = std::min(emin, e);
        emax = std::max(emax, e);
    }
    return EnergyScale(emin, emax);
}

PortraitResult compute_spin_portrait(const SpinJob& job, const RunConfig& config, const PortraitSettings& settings,
                                     const portrait::SpinPlaneChoice& plane, const ProgressCallback& progress) {
    // Float spin kernels are not instantiated for CUDA (spin ensembles run in double only): a
    // float portrait runs on the CPU whatever the backend.
    if (config.backend.backend == Backend::cuda && config.precision == Precision::float64)
        return run_portrait_cuda(job, config, settings, plane, progress);
    if (config.precision == Precision::float32) return run_portrait<float>(job, config, settings, plane, progress);
    return run_portrait<double>(job, config, settings, plane, progress);
}

}  // namespace geomint
