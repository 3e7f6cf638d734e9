// Issue 10 item 5, the crossover of few long chains: one chain of d spins run by one thread (the
// thread-per-chain path, sequential Newton) against the same chain run by a team of all the
// OpenMP threads (team-parallel Newton, partitioned solve), in the same run; and, for the cost of
// the partitioned solve itself, the same chain by it on one thread (a team of one: what a thread
// does with a long chain beside other chains, spin_partitioned_newton). The rule in
// src/spin_batch_cpu.cpp (spin_chains_share_threads) comes from these ratios; bench/RESULTS.md has
// the figures and the command. Wall time: the point is using the idle cores.
// BM_long_chain_cuda, for a machine with a device, does the same on the GPU: one thread per chain
// against one thread block per chain (kernels/spin_chain_layout.hpp), kernel time by CUDA events.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <string>
#include <vector>

#include "cuda_backend.hpp"
#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/registry.hpp"
#include "geomint/spin/team_newton.hpp"
#include "geomint/type_list.hpp"
#include "openmp_team.hpp"
#include "skip_without_cuda_device.hpp"
#include "spin_batch.hpp"

namespace {

namespace gs = geomint::spin;

const std::vector<std::string> kSchemes = {"avf", "mp", "sia", "comp4", "implicit_midpoint"};

// Arguments: scheme index in kSchemes, spins, steps, path (0: one thread, sequential Newton; 1: team
// of all threads; 2: one thread, partitioned Newton).
void BM_long_chain_cpu(benchmark::State& state) {
    const int spins = static_cast<int>(state.range(1));
    const long long steps = state.range(2);
    const int path = static_cast<int>(state.range(3));
    const geomint::SpinModel model =
        geomint::make_spin_model("chain", kSchemes[static_cast<std::size_t>(state.range(0))]);
    const int threads = omp_get_max_threads();
    std::vector<double> start(3 * static_cast<std::size_t>(spins)), chain;
    gs::fill_random_spins(gs::StridedSpins<double>{start.data(), 1, spins}, 2026, 0);
    long long iterations = 0;
    geomint::with_spin_types<double>(model, [&](auto scheme, auto system) {
        if constexpr (gs::TeamStep<decltype(scheme), decltype(system), double>) {
            std::vector<double> work(scheme.workspace_reals(spins));
            std::vector<double> scratch(gs::team_newton_scratch_reals<3, double>(spins, threads));
            for (auto _ : state) {
                chain = start;
                const gs::StridedSpins<double> s{chain.data(), 1, spins};
                const gs::StridedReals<double> w{work.data(), 1};
                if (path == 1) {
#pragma omp parallel num_threads(threads)
                    {
                        const auto r =
                            gs::integrate_chain(scheme, system, 0.05, steps, s, w, geomint::NewtonOptions<double>{},
                                                geomint::NoStepObserver{},
                                                geomint::OpenMpTeam<double>{
                                                    omp_get_thread_num(), omp_get_num_threads(), {scratch.data(), 1}});
                        if (omp_get_thread_num() == 0) iterations = r.newton_iterations;
                    }
                } else if (path == 2) {
                    iterations =
                        gs::integrate_chain(scheme, system, 0.05, steps, s, w, geomint::NewtonOptions<double>{},
                                            geomint::NoStepObserver{}, geomint::SoloTeam<double>{{scratch.data(), 1}})
                            .newton_iterations;
                } else {
                    iterations =
                        gs::integrate_chain(scheme, system, 0.05, steps, s, w, geomint::NewtonOptions<double>{})
                            .newton_iterations;
                }
                benchmark::DoNotOptimize(chain.data());
            }
        }
    });
    state.SetLabel(
        kSchemes[static_cast<std::size_t>(state.range(0))] +
        (path == 1 ? " team of " + std::to_string(threads) : (path == 2 ? " one thread, partitioned" : " one thread")));
    state.counters["newton"] = double(iterations);
    state.counters["spin_steps_per_s"] =
        benchmark::Counter(double(steps) * double(spins), benchmark::Counter::kIsIterationInvariantRate);
}

// d from 16 to 4096, steps so that each case is about the same work; the paths one after the other.
void cpu_cases(benchmark::internal::Benchmark* b) {
    for (long scheme = 0; scheme < long(kSchemes.size()); ++scheme)
        for (long d : {16, 32, 64, 128, 256, 512, 1024, 4096})
            for (long path = 0; path < 3; ++path) b->Args({scheme, d, std::max(2L, 8192 / d), path});
    b->UseRealTime()->Unit(benchmark::kMillisecond);
}

// Arguments: scheme index in kSchemes, spins, chains, steps, layout (0: one thread per chain, 1: one
// block per chain). The crossover is where layout 1 becomes faster at a given d and chain count.
void BM_long_chain_cuda(benchmark::State& state) {
    if (geomint::skip_without_cuda_device(state)) return;
    const int spins = static_cast<int>(state.range(1));
    const auto chains = static_cast<std::size_t>(state.range(2));
    const geomint::SpinStepSettings<double> step{0.05, state.range(3), {}};
    const auto layout =
        state.range(4) == 1 ? geomint::SpinChainLayout::block_per_chain : geomint::SpinChainLayout::thread_per_chain;
    const geomint::SpinModel model =
        geomint::make_spin_model("chain", kSchemes[static_cast<std::size_t>(state.range(0))]);
    geomint::SpinBatch<double> start, batch;
    start.resize(spins, chains);
    for (std::size_t t = 0; t < chains; ++t) {
        std::vector<double> s(3 * static_cast<std::size_t>(spins));
        gs::fill_random_spins(gs::StridedSpins<double>{s.data(), 1, spins}, 2026, t);
        for (int i = 0; i < spins; ++i)
            for (int c = 0; c < 3; ++c) start.component(t, i, c) = s[3 * static_cast<std::size_t>(i) + c];
    }
    geomint::SpinCudaRunner<double> runner(model, step, spins, chains, 0, layout);
    batch = start;
    runner.run(batch.view(), chains);  // warm-up: context, module
    for (auto _ : state) {
        batch = start;
        state.SetIterationTime(runner.run(batch.view(), chains) / 1000.0);
    }
    long long iterations = 0, failed = 0;
    for (std::size_t t = 0; t < chains; ++t) {
        iterations += batch.newton_iterations[t];
        failed += batch.status[t] != 0;
    }
    state.SetLabel(kSchemes[static_cast<std::size_t>(state.range(0))] +
                   (state.range(4) == 1 ? " block per chain" : " thread per chain"));
    state.counters["newton_per_chain"] = double(iterations) / double(chains);
    state.counters["failed_chains"] = double(failed);
    state.counters["spin_steps_per_s"] = benchmark::Counter(double(step.steps) * double(spins) * double(chains),
                                                            benchmark::Counter::kIsIterationInvariantRate);
}

// Few chains (10, the case) and enough to give each of an H200's 132 SMs ten (1320), d
// from 64 to 4096 (one GPU thread needs seconds for a longer chain, and tools/gpu-check.sh has
// minutes); the same work per case at each d; both layouts one after the other.
void gpu_cases(benchmark::internal::Benchmark* b) {
    for (long scheme : {0L, 1L, 4L})  // avf, mp, implicit_midpoint
        for (long chains : {10L, 1320L})
            for (long d : {64L, 256L, 1024L, 4096L})
                for (long layout = 0; layout < 2; ++layout)
                    b->Args({scheme, d, chains, std::max(2L, 1024 / d), layout});
    b->UseManualTime()->Iterations(2)->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_long_chain_cpu)->Apply(cpu_cases);
BENCHMARK(BM_long_chain_cuda)->Apply(gpu_cases);
