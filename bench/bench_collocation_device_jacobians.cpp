// The arithmetic of the GPU's Newton Jacobian choices for collocation (schemes/collocation.hpp,
// CollocationJacobian), counted on the CPU in one run: dual numbers with one Jacobian column per
// pass (what the GPU runs for coll4 and the top, and ran for coll6 and coll8 on chains), the
// frozen-quadrature quasi-Newton (what it runs now for coll6 and coll8 on chains), and the host's
// exact analytic blocks. A CPU proxy for the work per step, not a GPU throughput: the GPU figures
// wait for a device (tools/gpu-check.sh). One Newton solve of a step of h = 0.05 on a 16-spin
// Heisenberg chain from random spins and Collocation::step's guess, by local_newton_solve (the
// GPU's Newton); the time is the CPU time of one solve (one thread), "newton" the linear solves.
//   ./build/bench/bench_collocation_device_jacobians --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <vector>

#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/collocation.hpp"
#include "geomint/spin/systems.hpp"

namespace {

namespace gs = geomint::spin;
using gs::CollocationJacobian;

// A collocation step whose Newton Jacobian is built by dual numbers one column per pass, the
// device's ad_linearise<1>: the wrapped step supplies the residual (its dual_numbers choice has no
// linearise), and linearise_into runs ad_linearise<1> over it into the solver's workspace.
template <class Step>
struct OneColumnDual {
    static constexpr int block_size = Step::block_size;
    Step step;
    int blocks() const { return step.blocks(); }
    template <class T>
    void residual(int i, const T* left, const T* self, const T* right, T* out) const {
        step.residual(i, left, self, right, out);
    }
    template <class Sink>
    void linearise_into(int i, const double* left, const double* self, const double* right, double* out,
                        const Sink& sink) const {
        gs::ad_linearise<1>(step, i, step.blocks() == 1, left, self, right, out, sink);
    }
};

template <int S>
void run(benchmark::State& state, long choice) {
    constexpr int d = 16;
    const gs::HeisenbergChain<double> system{};
    std::vector<double> u(3 * d), guess(3 * S * d), x;
    const gs::StridedSpins<double> from{u.data(), 1, d};
    gs::fill_random_spins(from, 2026, 0);
    gs::collocation_guess<S>(system, from, gs::StridedReals<double>{guess.data(), 1});
    std::vector<double> work(gs::local_newton_workspace_reals<3 * S, double>(d));
    const double h = 0.05;
    long long solves = 0, steps = 0;
    const auto solve = [&](auto problem) {
        x = guess;
        const auto out =
            gs::local_newton_solve(problem, gs::StridedReals<double>{x.data(), 1},
                                   gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{});
        if (out.status != geomint::SolveStatus::ok) state.SkipWithError("Newton failed");
        solves += out.iterations;
        ++steps;
    };
    using System = gs::HeisenbergChain<double>;
    for (auto _ : state) {
        if (choice == 0) {
            using Dual = gs::CollocationStep<S, System, double, CollocationJacobian::dual_numbers>;
            solve(OneColumnDual<Dual>{Dual{system, from, h}});
        } else if (choice == 1) {
            solve(gs::CollocationStep<S, System, double, CollocationJacobian::frozen_quadrature>{system, from, h});
        } else {
            solve(gs::CollocationStep<S, System, double, CollocationJacobian::analytic>{system, from, h});
        }
        benchmark::DoNotOptimize(x.data());
    }
    state.counters["newton"] = double(solves) / double(steps);
}

// Arguments: stages s (2, 3, 4: coll4, coll6, coll8), choice (0 dual numbers one column per pass,
// 1 frozen-quadrature quasi-Newton, 2 analytic).
void BM_collocation_device_jacobians(benchmark::State& state) {
    const long stages = state.range(0), choice = state.range(1);
    if (stages == 2) run<2>(state, choice);
    if (stages == 3) run<3>(state, choice);
    if (stages == 4) run<4>(state, choice);
}
BENCHMARK(BM_collocation_device_jacobians)
    ->ArgsProduct({{2, 3, 4}, {0, 1, 2}})
    ->ArgNames({"stages", "jacobian"})
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
