// Throughput of pendulum ensembles (trajectory-steps per second) on the CPU backend and,
// when a device is usable, on the CUDA backend (kernel time from CUDA events).
#include <benchmark/benchmark.h>

#include <cmath>

#include "backends/cuda_backend.hpp"
#include "pendulum_batch.hpp"

namespace {

using geomint::PendulumBatch;
using geomint::PendulumRunSettings;
using geomint::PendulumScheme;

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

template <class Real>
PendulumRunSettings<Real> make_settings(PendulumScheme scheme, long long steps) {
    PendulumRunSettings<Real> s;
    s.scheme = scheme;
    s.step.h = Real(1e-3);
    s.step.steps = steps;
    return s;
}

template <class Real>
double checksum(const PendulumBatch<Real>& batch) {
    double sum = 0;
    for (std::size_t i = 0; i < batch.size(); ++i) sum += double(batch.q[i]);
    return sum;
}

template <class Real>
void BM_pendulum_cpu(benchmark::State& state) {
    const auto scheme = static_cast<PendulumScheme>(state.range(0));
    const auto n = static_cast<std::size_t>(state.range(1));
    const long long steps = 1000;
    auto batch = make_batch<Real>(n);
    const auto settings = make_settings<Real>(scheme, steps);
    for (auto _ : state) {
        geomint::run_pendulum_batch_cpu(settings, batch, 0);
        benchmark::DoNotOptimize(batch.q.data());
    }
    state.counters["checksum"] = checksum(batch);
    state.counters["traj_steps_per_s"] =
        benchmark::Counter(double(n) * double(steps), benchmark::Counter::kIsIterationInvariantRate);
}

template <class Real>
void BM_pendulum_cuda(benchmark::State& state) {
    if (!geomint::cuda_device_info().usable) {
        state.SkipWithError(("no CUDA device: " + geomint::cuda_device_info().description).c_str());
        for (auto _ : state) {
        }
        return;
    }
    const auto scheme = static_cast<PendulumScheme>(state.range(0));
    const auto n = static_cast<std::size_t>(state.range(1));
    const long long steps = 1000;
    auto batch = make_batch<Real>(n);
    const auto settings = make_settings<Real>(scheme, steps);
    geomint::run_pendulum_batch_cuda(settings, batch);  // warm-up: context creation, module load
    for (auto _ : state) state.SetIterationTime(geomint::run_pendulum_batch_cuda(settings, batch) / 1000.0);
    state.counters["checksum"] = checksum(batch);
    state.counters["traj_steps_per_s"] =
        benchmark::Counter(double(n) * double(steps), benchmark::Counter::kIsIterationInvariantRate);
}

void cpu_sizes(benchmark::internal::Benchmark* b) {
    for (int scheme : {0, 1}) b->Args({scheme, 4096});
    b->UseRealTime()->Unit(benchmark::kMillisecond);  // wall time: the work runs on OpenMP threads
}

void gpu_sizes(benchmark::internal::Benchmark* b) {
    for (int scheme : {0, 1})
        for (long n : {1L << 16, 1L << 20, 1L << 22}) b->Args({scheme, n});
    b->UseManualTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK_TEMPLATE(BM_pendulum_cpu, double)->Apply(cpu_sizes);
BENCHMARK_TEMPLATE(BM_pendulum_cpu, float)->Apply(cpu_sizes);
BENCHMARK_TEMPLATE(BM_pendulum_cuda, double)->Apply(gpu_sizes);
BENCHMARK_TEMPLATE(BM_pendulum_cuda, float)->Apply(gpu_sizes);
