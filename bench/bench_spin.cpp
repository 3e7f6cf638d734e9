// Throughput of spin ensembles: tops (one thread per top) and periodic chains of d = 16 and 128
// spins (one thread per chain), on the CPU backend and, when a device is usable, on the CUDA
// backend (kernel time from CUDA events): there every registry scheme for 10^4 to 10^7 tops and
// for chains of d = 16, 128 and 1024 (issue 10, item 7). Counters: spin-steps and chain-steps per
// second.
// BM_spin_jacobians runs every scheme with the analytic Newton Jacobians (what the product runs)
// and with the dual-number ones (AutomaticJacobians, the former path) in the same run.
// BM_avf_jacobian_nodes runs AVF with its Newton Jacobian from 8 Gauss nodes (exact, as the
// residual) and from fewer, beside the implicit midpoint rule, in the same run.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cmath>
#include <exception>
#include <string>
#include <vector>

#include "cuda_backend.hpp"
#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/registry.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/type_list.hpp"
#include "registry_lookup.hpp"
#include "skip_without_cuda_device.hpp"
#include "spin_batch.hpp"

namespace {

using SpinBatch = geomint::SpinBatch<double>;
using geomint::SpinModel;
using geomint::SpinStepSettings;

const std::vector<std::string> kSchemes = {"avf", "mp", "sia", "comp4", "coll4", "implicit_midpoint"};

SpinBatch random_batch(int spins, std::size_t chains) {
    SpinBatch batch;
    batch.resize(spins, chains);
    for (std::size_t t = 0; t < chains; ++t)
        for (int i = 0; i < spins; ++i) {
            const auto s = geomint::spin::random_spin<double>(2026, t, static_cast<std::uint64_t>(i));
            batch.component(t, i, 0) = s.x, batch.component(t, i, 1) = s.y, batch.component(t, i, 2) = s.z;
        }
    return batch;
}

// Arguments: scheme index in kSchemes, spins (1 = top), chains, steps.
SpinModel model_for(const benchmark::State& state) {
    return geomint::make_spin_model(state.range(1) == 1 ? "top" : "chain",
                                    kSchemes[static_cast<std::size_t>(state.range(0))]);
}
SpinStepSettings<double> step_for(const benchmark::State& state) { return {0.05, state.range(3), {}}; }

// The counters of both backends' cases (arguments: scheme, spins, chains, steps), labelled `label`.
void report(benchmark::State& state, const SpinBatch& batch, const std::string& label) {
    double checksum = 0;
    for (double v : batch.state) checksum += v;
    state.SetLabel(label);
    state.counters["checksum"] = checksum;
    const double chain_steps = double(state.range(2)) * double(state.range(3));
    state.counters["chain_steps_per_s"] =
        benchmark::Counter(chain_steps, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["spin_steps_per_s"] =
        benchmark::Counter(chain_steps * double(state.range(1)), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_spin_cpu(benchmark::State& state) {
    const SpinModel model = model_for(state);
    SpinBatch batch;
    for (auto _ : state) {
        state.PauseTiming();
        batch = random_batch(static_cast<int>(state.range(1)), static_cast<std::size_t>(state.range(2)));
        state.ResumeTiming();
        geomint::run_spin_batch_cpu(model, step_for(state), batch, 0);
        benchmark::DoNotOptimize(batch.state.data());
    }
    report(state, batch, kSchemes[static_cast<std::size_t>(state.range(0))]);
}

// The GPU's cases name schemes by their registry index (every scheme), not by kSchemes.
const std::vector<std::string> kRegistrySchemes = geomint::registry_names(geomint::spin::SpinSchemes{});

// Arguments: scheme index in the registry, spins (1 = top, else a Heisenberg chain), chains, steps.
void BM_spin_cuda(benchmark::State& state) {
    if (geomint::skip_without_cuda_device(state)) return;
    const std::string& scheme = kRegistrySchemes[static_cast<std::size_t>(state.range(0))];
    const int spins = static_cast<int>(state.range(1));
    const auto chains = static_cast<std::size_t>(state.range(2));
    const SpinModel model = geomint::make_spin_model(spins == 1 ? "top" : "chain", scheme);
    SpinBatch batch = random_batch(spins, chains);
    try {
        // Device arrays allocated once, as in a run; the warm-up creates the context and loads the
        // module. 10^7 tops of coll8 need 96 GB of workspace, more than an H100 has: reported as
        // the case's error, and the other cases go on.
        geomint::SpinCudaRunner<double> runner(model, step_for(state), spins, chains);
        runner.run(batch.view(), chains);
        for (auto _ : state) {
            batch = random_batch(spins, chains);
            state.SetIterationTime(runner.run(batch.view(), chains) / 1000.0);
        }
    } catch (const std::exception& e) {
        state.SkipWithError(("not run: " + std::string(e.what())).c_str());
        return;
    }
    long long iterations = 0, failed = 0;
    for (std::size_t t = 0; t < chains; ++t) {
        iterations += batch.newton_iterations[t];
        failed += batch.status[t] != 0;
    }
    report(state, batch, scheme + (spins == 1 ? " top" : " chain"));
    state.counters["newton_per_step"] = double(iterations) / (double(chains) * double(state.range(3)));
    state.counters["failed_chains"] = double(failed);
}

// CPU: 256 tops x 200 steps; 16 chains of d = 16 and 4 chains of d = 128, 50 steps.
void cpu_cases(benchmark::internal::Benchmark* b) {
    for (long scheme = 0; scheme < long(kSchemes.size()); ++scheme) {
        b->Args({scheme, 1, 256, 200});
        b->Args({scheme, 16, 16, 50});
        b->Args({scheme, 128, 4, 50});
    }
    b->UseRealTime()->Unit(benchmark::kMillisecond);  // wall time: the work runs on OpenMP threads
}

// GPU (issue 10, item 7): every registry scheme on 10^4, 10^5, 10^6 and 10^7 tops (2 10^7 top
// steps each) and on Heisenberg chains of d = 16, 128 and 1024 (about 4 10^6 spin steps each, on
// 65536, 8192 and 2048 chains: one thread per chain, as the automatic layout runs them below
// 2048 spins; few long chains are bench_long_chains' case). Sizes that do not fit the device's
// memory (10^7 tops of coll8 on an H100) report why and are skipped. One timed
// run a case, whatever --benchmark_repetitions says: tools/gpu-check.sh has minutes of device
// time for every benchmark, and a run of 10^4 chains or more is its own average.
void gpu_cases(benchmark::internal::Benchmark* b) {
    namespace gs = geomint::spin;
    long scheme = 0;
    geomint::for_each_type(gs::SpinSchemes{}, [&](auto entry) {
        using Scheme = decltype(entry);
        if constexpr (gs::scheme_applies<Scheme, gs::SpinningTop<double>>())
            for (long tops = 10000; tops <= 10000000; tops *= 10) b->Args({scheme, 1, tops, 20000000 / tops});
        if constexpr (gs::scheme_applies<Scheme, gs::HeisenbergChain<double>>()) {
            b->Args({scheme, 16, 65536, 4});
            b->Args({scheme, 128, 8192, 4});
            b->Args({scheme, 1024, 2048, 2});
        }
        ++scheme;
    });
    b->UseManualTime()->Iterations(1)->Repetitions(1)->Unit(benchmark::kMillisecond);
}

// Arguments: scheme index in SpinSchemes, spins (1 = top, else a Heisenberg chain), chains,
// steps, Jacobians (0 analytic where the scheme has them, 1 dual numbers for every scheme).
// One contiguous chain per OpenMP iteration, as the CPU backend runs them; the counters are those
// of BM_spin_cpu (here per CPU-second), plus Newton iterations per step.
template <class System>
void run_jacobians(benchmark::State& state, const System& system) {
    namespace gs = geomint::spin;
    const int spins = static_cast<int>(state.range(1));
    const auto chains = static_cast<std::size_t>(state.range(2));
    const long long steps = state.range(3);
    const bool dual = state.range(4) != 0;
    const SpinBatch start = random_batch(spins, chains);
    std::vector<double> spins_out(3 * static_cast<std::size_t>(spins) * chains);
    long long iterations = 0;
    const auto run = [&](auto scheme, const auto& sys) {
        const std::size_t n = 3 * static_cast<std::size_t>(spins);
        const std::size_t work_reals = scheme.workspace_reals(spins);
        long long total = 0;
#pragma omp parallel reduction(+ : total)
        {
            std::vector<double> chain(n), work(work_reals);
#pragma omp for schedule(dynamic, 4)
            for (long long t = 0; t < static_cast<long long>(chains); ++t) {
                for (std::size_t k = 0; k < n; ++k) chain[k] = start.state[k * chains + static_cast<std::size_t>(t)];
                const auto r =
                    gs::integrate_chain(scheme, sys, 0.05, steps, gs::StridedSpins<double>{chain.data(), 1, spins},
                                        gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{});
                if (r.status != geomint::SolveStatus::ok) state.SkipWithError("Newton failed");
                total += r.newton_iterations;
                for (std::size_t k = 0; k < n; ++k) spins_out[k * chains + static_cast<std::size_t>(t)] = chain[k];
            }
        }
        iterations = total;
    };
    std::string label;
    for (auto _ : state) {
        geomint::with_type_at(gs::SpinSchemes{}, static_cast<int>(state.range(0)), [&](auto scheme) {
            label = std::string(decltype(scheme)::name) + (dual ? " dual" : " analytic");
            if constexpr (gs::scheme_applies<decltype(scheme), System>()) {
                if (dual)
                    run(scheme, gs::AutomaticJacobians<System>{system});
                else
                    run(scheme, system);
            } else {
                state.SkipWithError("the scheme does not run this system");
            }
        });
        benchmark::DoNotOptimize(spins_out.data());
    }
    double checksum = 0;
    for (double v : spins_out) checksum += v;
    state.SetLabel(label);
    state.counters["checksum"] = checksum;
    state.counters["newton_per_step"] = double(iterations) / (double(chains) * double(steps));
    const double chain_steps = double(chains) * double(steps);
    state.counters["chain_steps_per_s"] =
        benchmark::Counter(chain_steps, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["spin_steps_per_s"] =
        benchmark::Counter(chain_steps * double(spins), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_spin_jacobians(benchmark::State& state) {
    if (state.range(1) == 1)
        run_jacobians(state, geomint::spin::SpinningTop<double>{});
    else
        run_jacobians(state, geomint::spin::HeisenbergChain<double>{});
}

// Every scheme of the registry, each with both Jacobians: 64 tops x 50 steps, 4 chains of
// d = 16 and 2 of d = 128, 10 steps (smaller than BM_spin_cpu's cases, so that the dual-number
// coll8 at d = 128 stays within seconds).
void jacobian_cases(benchmark::internal::Benchmark* b) {
    for (long scheme = 0; scheme < long(geomint::spin::SpinSchemes::size); ++scheme)
        for (long dual = 0; dual < 2; ++dual) {
            b->Args({scheme, 1, 64, 50, dual});
            b->Args({scheme, 16, 4, 10, dual});
            b->Args({scheme, 128, 2, 10, dual});
        }
    // CPU time of the whole process (all OpenMP threads): on a shared machine a run's wall time
    // depends on the other jobs, its CPU time much less; the rates are then per CPU-second.
    b->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
}

// Issue 10 item 2: the collocation steps with Newton (variant 0, local_newton_solve), with the
// Jacobian of the first iterate kept for the whole step (1), and with it rebuilt when a step with
// kept factors contracts by less than one half (2, the host's choice; local_newton.hpp), and with
// Newton on dual-number Jacobians (3: the state before issue 10's items 1 and 2, its baseline).
// Arguments: stages s, spins (1 = top, else a Heisenberg chain), chains, steps, 100 h, variant.
// One thread, no OpenMP (run with OMP_NUM_THREADS=1 all the same): time is CPU time, counters are
// linear solves and Jacobians (built and factorised) per step, and CPU seconds per step.
template <int S, class System>
void run_coll_newton(benchmark::State& state, const System& system) {
    namespace gs = geomint::spin;
    const int spins = static_cast<int>(state.range(1));
    const auto chains = static_cast<std::size_t>(state.range(2));
    const long long steps = state.range(3);
    const double h = 0.01 * double(state.range(4));
    const long variant = state.range(5);
    const double refresh = variant == 1 ? std::numeric_limits<double>::infinity() : (variant == 2 ? 0.5 : -1.0);
    const gs::Collocation<S> scheme;
    std::vector<double> chain(3 * static_cast<std::size_t>(spins) * chains), work(scheme.workspace_reals(spins));
    long long solves = 0, jacobians = 0;
    for (auto _ : state) {
        solves = jacobians = 0;
        for (std::size_t t = 0; t < chains; ++t) {
            const gs::StridedSpins<double> u{chain.data() + 3 * static_cast<std::size_t>(spins) * t, 1, spins};
            gs::fill_random_spins(u, 2026, t);
            for (long long n = 0; n < steps; ++n) {
                int built = 0;
                const auto r = scheme.step(system, h, u, gs::StridedReals<double>{work.data(), 1},
                                           geomint::NewtonOptions<double>{}, refresh, &built);
                if (r.status != geomint::SolveStatus::ok) state.SkipWithError("Newton failed");
                solves += r.iterations;
                jacobians += refresh < 0 ? r.iterations : built;
            }
        }
        benchmark::DoNotOptimize(chain.data());
    }
    double checksum = 0;
    for (double v : chain) checksum += v;
    const double chain_steps = double(chains) * double(steps);
    state.SetLabel(
        std::string(gs::Collocation<S>::name) +
        (variant == 0 ? " newton" : (variant == 1 ? " frozen" : (variant == 2 ? " refresh_half" : " newton_dual"))));
    state.counters["checksum"] = checksum;
    state.counters["solves_per_step"] = double(solves) / chain_steps;
    state.counters["jacobians_per_step"] = double(jacobians) / chain_steps;
    state.counters["s_per_step"] =
        benchmark::Counter(chain_steps, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_coll_newton(benchmark::State& state) {
    const auto run = [&](const auto& system) {
        switch (state.range(0)) {
            case 2:
                run_coll_newton<2>(state, system);
                break;
            case 3:
                run_coll_newton<3>(state, system);
                break;
            default:
                run_coll_newton<4>(state, system);
                break;
        }
    };
    const auto with_jacobians = [&](const auto& system) {
        if (state.range(5) == 3)
            run(geomint::spin::AutomaticJacobians<std::decay_t<decltype(system)>>{system});
        else
            run(system);
    };
    if (state.range(1) == 1)
        with_jacobians(geomint::spin::SpinningTop<double>{});
    else
        with_jacobians(geomint::spin::HeisenbergChain<double>{});
}

// s = 2, 3, 4 x {top: 16 tops x 50 steps; d = 16: 2 chains x 10 steps; d = 128: 1 chain x 4
// steps} x h = 0.05, 0.2, 0.5 x the four variants, each case's variants next to each other.
void coll_newton_cases(benchmark::internal::Benchmark* b) {
    for (long s = 2; s <= 4; ++s)
        for (long h : {5L, 20L, 50L})
            for (const auto& shape : {std::vector<long>{1, 16, 50}, {16, 2, 10}, {128, 1, 4}})
                for (long variant = 0; variant < 4; ++variant) b->Args({s, shape[0], shape[1], shape[2], h, variant});
    b->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
}

// Arguments: Jacobian rule (8, 4, 3, 2 Gauss-Legendre nodes; 0: the implicit midpoint rule as
// the yardstick), spins (1 = top, else a Heisenberg chain), chains, steps, 1000 h. Counters as
// BM_spin_jacobians, plus the largest |H - H0| over the run (the residual is the same 8-node
// one for every rule, so it should not change in character) and a checksum of the states.
void BM_avf_jacobian_nodes(benchmark::State& state) {
    namespace gs = geomint::spin;
    const int spins = static_cast<int>(state.range(1));
    const auto chains = static_cast<std::size_t>(state.range(2));
    const long long steps = state.range(3);
    const double h = double(state.range(4)) / 1000.0;
    const SpinBatch start = random_batch(spins, chains);
    std::vector<double> spins_out(3 * static_cast<std::size_t>(spins) * chains);
    long long iterations = 0;
    double energy_error = 0;
    const auto run = [&](auto scheme, const auto& sys) {
        const std::size_t n = 3 * static_cast<std::size_t>(spins);
        long long total = 0;
        double worst = 0;
#pragma omp parallel reduction(+ : total) reduction(max : worst)
        {
            std::vector<double> chain(n), work(scheme.workspace_reals(spins));
#pragma omp for schedule(dynamic, 4)
            for (long long t = 0; t < static_cast<long long>(chains); ++t) {
                for (std::size_t k = 0; k < n; ++k) chain[k] = start.state[k * chains + static_cast<std::size_t>(t)];
                const auto r =
                    gs::integrate_chain(scheme, sys, h, steps, gs::StridedSpins<double>{chain.data(), 1, spins},
                                        gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{});
                if (r.status != geomint::SolveStatus::ok) state.SkipWithError("Newton failed");
                total += r.newton_iterations;
                worst = std::fmax(worst, r.max_energy_error);
                for (std::size_t k = 0; k < n; ++k) spins_out[k * chains + static_cast<std::size_t>(t)] = chain[k];
            }
        }
        iterations = total;
        energy_error = worst;
    };
    const auto dispatch = [&](const auto& system) {
        switch (state.range(0)) {
            case 8:
                run(gs::SingleStageDrg<gs::Centre::symmetric, gs::ExactAvfGradient>{}, system);
                break;
            case 4:
                run(gs::SingleStageDrg<gs::Centre::symmetric, gs::BasicAvfGradient<gs::GaussLegendre<4>>>{}, system);
                break;
            case 3:
                run(gs::SingleStageDrg<gs::Centre::symmetric, gs::BasicAvfGradient<gs::GaussLegendre<3>>>{}, system);
                break;
            case 2:
                run(gs::SingleStageDrg<gs::Centre::symmetric, gs::BasicAvfGradient<gs::GaussLegendre<2>>>{}, system);
                break;
            default:
                run(gs::ImplicitMidpoint{}, system);
                break;
        }
    };
    for (auto _ : state) {
        if (spins == 1)
            dispatch(gs::SpinningTop<double>{});
        else
            dispatch(gs::HeisenbergChain<double>{});
        benchmark::DoNotOptimize(spins_out.data());
    }
    double checksum = 0;
    for (double v : spins_out) checksum += v;
    state.SetLabel(state.range(0) == 0 ? "implicit_midpoint"
                                       : "avf jacobian " + std::to_string(state.range(0)) + " nodes");
    state.counters["checksum"] = checksum;
    state.counters["newton_per_step"] = double(iterations) / (double(chains) * double(steps));
    state.counters["max_energy_error"] = energy_error;
    const double chain_steps = double(chains) * double(steps);
    state.counters["chain_steps_per_s"] =
        benchmark::Counter(chain_steps, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["spin_steps_per_s"] =
        benchmark::Counter(chain_steps * double(spins), benchmark::Counter::kIsIterationInvariantRate);
}

// The cases of BM_spin_jacobians (64 tops x 50 steps, 4 chains of d = 16 and 2 of d = 128 x 10
// steps) at h = 0.05 and 0.2, every rule and the implicit midpoint rule.
void avf_node_cases(benchmark::internal::Benchmark* b) {
    for (long h : {50, 200})
        for (long rule : {8, 4, 3, 2, 0}) {
            b->Args({rule, 1, 64, 50, h});
            b->Args({rule, 16, 4, 10, h});
            b->Args({rule, 128, 2, 10, h});
        }
    b->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_spin_cpu)->Apply(cpu_cases);
BENCHMARK(BM_spin_jacobians)->Apply(jacobian_cases);
BENCHMARK(BM_spin_cuda)->Apply(gpu_cases);
BENCHMARK(BM_coll_newton)->Apply(coll_newton_cases);
BENCHMARK(BM_avf_jacobian_nodes)->Apply(avf_node_cases);
