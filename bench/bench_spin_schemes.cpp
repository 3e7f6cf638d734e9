// Every spin scheme on the CPU at issue 10's sizes (256 tops x 200 steps; 16 chains of d = 16 and
// 4 of d = 128, 50 steps; h = 0.05), written against only the API that this tree and the commits
// before issue 10 share (make_spin_model, run_spin_batch_cpu, SpinBatch, random_spin).
// bench/spin_speedup_since.sh compiles this same file against an earlier commit's library, so that
// the two binaries differ in the library alone, and runs them in alternation: the speed-ups of
// item 2 measured, not multiplied across runs.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "geomint/spin/random_spins.hpp"
#include "spin_batch.hpp"

namespace {

// By name, not by registry index: the registry's order may differ between commits.
const std::vector<std::string> kSchemes = {"avf",
                                           "mp",
                                           "mmp",
                                           "ia",
                                           "sia",
                                           "comp2",
                                           "compsia",
                                           "comp4",
                                           "coll4",
                                           "coll6",
                                           "coll8",
                                           "implicit_midpoint",
                                           "spherical_midpoint"};

// bench_spin.cpp's spins (seed 2026), written out again: this file also builds against commits
// that lack any helper added since.
geomint::SpinBatch<double> random_batch(int spins, std::size_t chains) {
    geomint::SpinBatch<double> batch;
    batch.resize(spins, chains);
    for (std::size_t t = 0; t < chains; ++t)
        for (int i = 0; i < spins; ++i) {
            const auto s = geomint::spin::random_spin<double>(2026, t, static_cast<std::uint64_t>(i));
            batch.component(t, i, 0) = s.x, batch.component(t, i, 1) = s.y, batch.component(t, i, 2) = s.z;
        }
    return batch;
}

// Arguments: scheme index in kSchemes, spins (1 = top, else a Heisenberg chain), chains, steps.
void BM_spin_scheme_cpu(benchmark::State& state) {
    const std::string& scheme = kSchemes[static_cast<std::size_t>(state.range(0))];
    const int spins = static_cast<int>(state.range(1));
    const auto chains = static_cast<std::size_t>(state.range(2));
    const long long steps = state.range(3);
    const geomint::SpinModel model = geomint::make_spin_model(spins == 1 ? "top" : "chain", scheme);
    const geomint::SpinStepSettings<double> step{0.05, steps, {}};
    geomint::SpinBatch<double> batch;
    for (auto _ : state) {
        state.PauseTiming();
        batch = random_batch(spins, chains);
        state.ResumeTiming();
        geomint::run_spin_batch_cpu(model, step, batch, 0);
        benchmark::DoNotOptimize(batch.state.data());
    }
    double checksum = 0;
    long long iterations = 0, failed = 0;
    for (double v : batch.state) checksum += v;
    for (std::size_t t = 0; t < chains; ++t) {
        iterations += batch.newton_iterations[t];
        failed += batch.status[t] != 0;
    }
    const double chain_steps = double(chains) * double(steps);
    state.SetLabel(scheme + (spins == 1 ? std::string(" top") : " d=" + std::to_string(spins)));
    state.counters["checksum"] = checksum;
    state.counters["chain_steps_per_s"] =
        benchmark::Counter(chain_steps, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["newton_per_step"] = double(iterations) / chain_steps;
    state.counters["failed_chains"] = double(failed);
}

void cases(benchmark::internal::Benchmark* b) {
    for (long scheme = 0; scheme < long(kSchemes.size()); ++scheme) {
        if (kSchemes[static_cast<std::size_t>(scheme)] != "mmp") b->Args({scheme, 1, 256, 200});  // mmp: chains only
        b->Args({scheme, 16, 16, 50});
        b->Args({scheme, 128, 4, 50});
    }
    // CPU time of the process: bench/spin_speedup_since.sh runs it on one thread
    // (OMP_NUM_THREADS=1), where a shared machine's other jobs move wall time more than CPU time.
    b->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_spin_scheme_cpu)->Apply(cases);
