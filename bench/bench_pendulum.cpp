// Throughput of pendulum ensembles (trajectory-steps per second) on the CPU backend and,
// when a device is usable, on the CUDA backend (kernel time from CUDA events).
#include <benchmark/benchmark.h>

#include <cmath>

#include "cuda_backend.hpp"
#include "geomint/pendulum/registry.hpp"
#include "pendulum_batch.hpp"
#include "registry_lookup.hpp"
#include "skip_without_cuda_device.hpp"

namespace {

using geomint::PendulumBatch;
using geomint::PendulumModel;
using geomint::PendulumStepSettings;

template <class Real>
PendulumBatch<Real> make_batch(std::size_t n) {
    PendulumBatch<Real> batch;
    batch.resize(n);
    for (std::size_t i = 0; i < n; ++i) {  // a fan of librations and rotations
        batch.q0[i] = Real(3.0) * Real(i) / Real(n);
        batch.p0[i] = Real(2.5) * Real(i % 7) / Real(7);
        batch.mass[i] = Real(1);
        batch.omega[i] = Real(2 * M_PI);
    }
    return batch;
}

// Benchmark argument 0: index in the pendulum scheme registry (0 newmark, 1 simpson, 2 verlet, 3 rkn4).
PendulumModel model_for(const benchmark::State& state) {
    PendulumModel model = geomint::make_pendulum_model("newmark");
    model.scheme = static_cast<int>(state.range(0));
    return model;
}

template <class Real>
double checksum(const PendulumBatch<Real>& batch) {
    double sum = 0;
    for (std::size_t i = 0; i < batch.size(); ++i) sum += double(batch.q[i]);
    return sum;
}

// Argument 2: CPU threads (0: all cores); argument 3: 1 for the widest SIMD lanes where the run has
// them (double), 0 for the scalar body, 2 and 3 for the AVX2 and SSE2 lanes (geomint::CpuLanes).
template <class Real>
void BM_pendulum_cpu(benchmark::State& state) {
    const PendulumModel model = model_for(state);
    const auto n = static_cast<std::size_t>(state.range(1));
    const int threads = static_cast<int>(state.range(2));
    constexpr geomint::CpuLanes by_argument[] = {geomint::CpuLanes::scalar, geomint::CpuLanes::automatic,
                                                 geomint::CpuLanes::avx2, geomint::CpuLanes::sse2};
    const geomint::CpuLanes lanes = by_argument[state.range(3)];
    const long long steps = 1000;
    auto batch = make_batch<Real>(n);
    const PendulumStepSettings<Real> step{Real(1e-3), steps, {}};
    state.SetLabel(geomint::cpu_pendulum_lanes<Real>(model, lanes).instruction_set);
    for (auto _ : state) {
        geomint::run_pendulum_batch_cpu<Real>(model, step, batch, threads, {}, nullptr, nullptr, lanes);
        benchmark::DoNotOptimize(batch.q.data());
    }
    state.counters["checksum"] = checksum(batch);
    state.counters["traj_steps_per_s"] =
        benchmark::Counter(double(n) * double(steps), benchmark::Counter::kIsIterationInvariantRate);
}

// The yardstick of the SIMD targets (issue 9): a plain single-threaded scalar loop of the
// Newmark step as anyone would first write it (the midpoint by Newton on x + h^2/(4m) V'(x) =
// q + h/(2m) p, to 4 eps; q, p updated in place; the C library's sin and cos; no energy,
// status or compensated sums), over the same ensemble and step as BM_pendulum_cpu.
void BM_pendulum_plain_scalar_loop(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const long long steps = 1000;
    const double h = 1e-3;
    auto batch = make_batch<double>(n);
    for (auto _ : state) {
        for (std::size_t i = 0; i < n; ++i) {
            const double m = batch.mass[i], k = m * batch.omega[i] * batch.omega[i];
            const double a = h * h / (4 * m);
            double q = batch.q0[i], p = batch.p0[i];
            for (long long j = 0; j < steps; ++j) {
                const double rhs = q + h / (2 * m) * p;
                double x = rhs;
                for (int it = 0; it < 50; ++it) {
                    const double correction = (x + a * k * std::sin(x) - rhs) / (1 + a * k * std::cos(x));
                    x -= correction;
                    if (std::abs(correction) <= 4 * 2.220446049250313e-16 * (1 + std::abs(x))) break;
                }
                p -= h * k * std::sin(x);
                q = 2 * x - q;
            }
            batch.q[i] = q;
            batch.p[i] = p;
        }
        benchmark::DoNotOptimize(batch.q.data());
    }
    state.counters["checksum"] = checksum(batch);
    state.counters["traj_steps_per_s"] =
        benchmark::Counter(double(n) * double(steps), benchmark::Counter::kIsIterationInvariantRate);
}

template <class Real>
void BM_pendulum_cuda(benchmark::State& state) {
    if (geomint::skip_without_cuda_device(state)) return;
    const auto n = static_cast<std::size_t>(state.range(1));
    const long long steps = 1000;
    auto batch = make_batch<Real>(n);
    // Device arrays allocated once, as in a run; the warm-up creates the context and loads the module.
    geomint::PendulumCudaRunner<Real> runner(model_for(state), PendulumStepSettings<Real>{Real(1e-3), steps, {}}, n);
    runner.run(batch.view(), n);
    for (auto _ : state) state.SetIterationTime(runner.run(batch.view(), n) / 1000.0);
    state.counters["checksum"] = checksum(batch);
    state.counters["traj_steps_per_s"] =
        benchmark::Counter(double(n) * double(steps), benchmark::Counter::kIsIterationInvariantRate);
}

// Every scheme of the registry, so that the explicit yardsticks are timed alongside the implicit ones.
int scheme_count() { return static_cast<int>(geomint::registry_names(geomint::PendulumSchemes{}).size()); }

// Every scheme on one thread and on all cores, with the SIMD lanes and with the scalar body; and
// Newmark on one thread in each narrower width (which width is fastest here).
void cpu_sizes(benchmark::internal::Benchmark* b) {
    for (int scheme = 0; scheme < scheme_count(); ++scheme)
        for (int threads : {1, 0})
            for (int lanes : {1, 0}) b->Args({scheme, 4096, threads, lanes});
    for (int lanes : {2, 3}) b->Args({0, 4096, 1, lanes});
    b->UseRealTime()->Unit(benchmark::kMillisecond);  // wall time: the work runs on OpenMP threads
}

// 10^5 to 10^7 trajectories for every scheme, and 10^8 for Newmark (issue 9, item 5: its targets
// are stated at 10^7; 10^8 shows whether the device is saturated there). 1000 steps each.
void gpu_sizes(benchmark::internal::Benchmark* b) {
    for (int scheme = 0; scheme < scheme_count(); ++scheme)
        for (long n : {100'000L, 1'000'000L, 10'000'000L}) b->Args({scheme, n});
    b->Args({0, 100'000'000L});
    b->UseManualTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_pendulum_plain_scalar_loop)->Arg(4096)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_pendulum_cpu, double)->Apply(cpu_sizes);
BENCHMARK_TEMPLATE(BM_pendulum_cpu, float)->Apply(cpu_sizes);
BENCHMARK_TEMPLATE(BM_pendulum_cuda, double)->Apply(gpu_sizes);
BENCHMARK_TEMPLATE(BM_pendulum_cuda, float)->Apply(gpu_sizes);
