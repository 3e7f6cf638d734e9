// Synchronous against overlapped (double-buffered) chunk loops on the CUDA backend: a pendulum
// ensemble in chunks, each chunk's inputs filled and its outputs formatted as CSV text on the
// host, as a run does. Wall time per loop (manual time); kernel time summed from CUDA events.
// Skips, with the reason, without a usable device.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <algorithm>
#include <cstdio>
#include <string>

#include "cuda_backend.hpp"
#include "lookahead_compute.hpp"
#include "skip_without_cuda_device.hpp"

namespace {

using Real = double;

struct Work {
    std::size_t total, chunk;
    long long steps;
};

Work work_for(const benchmark::State& state) {
    return {static_cast<std::size_t>(state.range(0)), static_cast<std::size_t>(state.range(1)), state.range(2)};
}

void fill(geomint::PendulumCudaRunner<Real>& runner, int slot, std::uint64_t begin, std::size_t n, std::size_t total) {
    const geomint::PendulumInputArrays<Real> in = runner.slot_inputs(slot);
    for (std::size_t i = 0; i < n; ++i) {
        const double u = double(begin + i) / double(total);
        in.q0[i] = 3.0 * u;
        in.p0[i] = 2.5 * double((begin + i) % 7) / 7.0;
        in.mass[i] = 1.0;
        in.omega[i] = 2 * M_PI;
    }
}

// What the pipeline does with a finished chunk: format each row (the CSV writer's cost).
std::size_t consume(const geomint::PendulumBatchView<Real>& out, std::size_t n, std::string& text) {
    text.clear();
    char line[96];
    for (std::size_t i = 0; i < n; ++i) {
        const int length =
            std::snprintf(line, sizeof line, "%.17g,%.17g,%u\n", out.q[i], out.p[i], unsigned(out.outcome.status[i]));
        text.append(line, static_cast<std::size_t>(length));
    }
    return text.size();
}

void BM_chunks_cuda_synchronous(benchmark::State& state) {
    if (geomint::skip_without_cuda_device(state)) return;
    const Work w = work_for(state);
    geomint::PendulumCudaRunner<Real> runner(geomint::make_pendulum_model("simpson"), {1e-3, w.steps, {}}, w.chunk);
    std::string text;
    double kernel_ms = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        kernel_ms = 0;
        for (std::uint64_t begin = 0; begin < w.total; begin += w.chunk) {
            const std::size_t n = std::min<std::size_t>(w.chunk, w.total - begin);
            fill(runner, 0, begin, n, w.total);
            runner.enqueue(0, n);
            kernel_ms += runner.wait(0);
            benchmark::DoNotOptimize(consume(runner.slot_view(0), n, text));
        }
        state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    state.counters["kernel_ms"] = kernel_ms;
    state.counters["traj_steps_per_s"] =
        benchmark::Counter(double(w.total) * double(w.steps), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_chunks_cuda_overlapped(benchmark::State& state) {
    if (geomint::skip_without_cuda_device(state)) return;
    const Work w = work_for(state);
    geomint::PendulumCudaRunner<Real> runner(geomint::make_pendulum_model("simpson"), {1e-3, w.steps, {}}, w.chunk);
    std::string text;
    double kernel_ms = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        geomint::ChunkLookahead schedule(w.total, w.chunk);
        kernel_ms = 0;
        for (std::uint64_t begin = 0; begin < w.total; begin += w.chunk) {
            const std::size_t n = std::min<std::size_t>(w.chunk, w.total - begin);
            const geomint::LookaheadResult r = geomint::compute_with_lookahead(
                schedule, runner, begin, n,
                [&](int s, std::uint64_t first, std::size_t count) { fill(runner, s, first, count, w.total); });
            kernel_ms += r.kernel_milliseconds;
            benchmark::DoNotOptimize(consume(runner.slot_view(r.slot), n, text));
        }
        state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    state.counters["kernel_ms"] = kernel_ms;
    state.counters["traj_steps_per_s"] =
        benchmark::Counter(double(w.total) * double(w.steps), benchmark::Counter::kIsIterationInvariantRate);
}

// (trajectories, chunk, steps): 2^22 trajectories in 16 chunks; few steps (output-bound, where
// overlap pays most) and more steps (compute-bound).
void sizes(benchmark::internal::Benchmark* b) {
    for (long steps : {100L, 1000L}) b->Args({1L << 22, 1L << 18, steps});
    b->UseManualTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_chunks_cuda_synchronous)->Apply(sizes);
BENCHMARK(BM_chunks_cuda_overlapped)->Apply(sizes);
