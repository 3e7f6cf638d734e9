// The arithmetic of the GPU's Newton Jacobian choices for the symmetric-centre DRG stages
// (schemes/drg.hpp, DrgJacobian: avf, mp, sia, and the walks of comp2, compsia and comp4),
// counted on the CPU in one run: dual numbers with one Jacobian column per pass (what the GPU ran
// before: kernels take ad_columns_per_pass = 1), the midpoint-Hessian quasi-Newton (what it runs now),
// and the host's exact analytic blocks (mp's with its rank-one term in lambda, the host's Newton;
// without one, as on the GPU, lambda lags an iterate behind and Newton converges linearly). A
// CPU proxy for the work per stage, not a GPU throughput: the GPU figures wait for a device
// (tools/gpu-check.sh). One stage u -> v of h = 0.05 from random spins, solved by
// local_newton_solve as detail::drg_stage solves it; the time is the CPU time of one stage (one
// thread), the counter "newton" the linear solves per stage.
//   ./build/bench/bench_drg_device_jacobians --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/systems.hpp"

namespace {

namespace gs = geomint::spin;
using gs::DrgJacobian;
using Sia = gs::ItohAbeGradient<gs::IaDirection::symmetrised>;
using IaForward = gs::ItohAbeGradient<gs::IaDirection::forward>;  // comp2's and comp4's second stage

// A DRG stage whose Newton Jacobian is built by dual numbers one column per pass, the device's
// ad_linearise: the wrapped stage (DrgJacobian::dual_numbers, no linearise of its own) supplies
// the residual; linearise runs ad_linearise<1> over it.
template <class Stage>
struct OneColumnDual {
    static constexpr int block_size = 3;
    Stage stage;
    int blocks() const { return stage.blocks(); }
    template <class T>
    void residual(int i, const T* left, const T* self, const T* right, T* out) const {
        stage.residual(i, left, self, right, out);
    }
    // mp's lambda, refreshed from each iterate as the wrapped stage's solve would.
    void prepare(gs::StridedReals<double> x) requires requires(Stage& s) { s.prepare(x); }
    { stage.prepare(x); }
    // Its stopping rule (local_newton.hpp, NewtonStopRuleFor): mp's lagged lambda makes it linear.
    static constexpr bool global_scalar = Stage::global_scalar;
    static constexpr bool exact_conservation = Stage::exact_conservation;
    gs::Vec3<double> linearise(int i, const double* left, const double* self, const double* right,
                               gs::NeighbourJacobian<double>& jac) const {
        double out[3];
        gs::ad_linearise<1>(stage, i, stage.blocks() == 1, left, self, right, out, [&](int b, int r, int c, double v) {
            (b == 0 ? jac.left : (b == 1 ? jac.self : jac.right)).m[r][c] = v;
        });
        return gs::Vec3<double>{out[0], out[1], out[2]};
    }
};

template <class Gradient, class System>
void run(benchmark::State& state, const System& system, int d, long choice) {
    std::vector<double> u(3 * static_cast<std::size_t>(d)), x(u.size());
    gs::fill_random_spins(gs::StridedSpins<double>{u.data(), 1, d}, 2026, 0);
    std::vector<double> work(gs::local_newton_workspace_reals<3, double>(d) + gs::rank_one_workspace_reals<3>(d));
    const gs::StridedSpins<double> from{u.data(), 1, d};
    const double h = 0.05;
    long long solves = 0, stages = 0;
    const auto solve = [&](auto problem) {
        x = u;
        const auto out =
            gs::local_newton_solve(problem, gs::StridedReals<double>{x.data(), 1},
                                   gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{});
        if (out.status != geomint::SolveStatus::ok) state.SkipWithError("Newton failed");
        solves += out.iterations;
        ++stages;
    };
    for (auto _ : state) {
        if (choice == 0) {
            using Dual = gs::DrgStage<gs::Centre::symmetric, Gradient, System, double, DrgJacobian::dual_numbers>;
            solve(OneColumnDual<Dual>{Dual{system, from, h, Gradient{}}});
        } else if (choice == 1) {
            solve(gs::DrgStage<gs::Centre::symmetric, Gradient, System, double, DrgJacobian::midpoint_hessian>{
                system, from, h, Gradient{}});
        } else {
            solve(gs::DrgStage<gs::Centre::symmetric, Gradient, System, double, DrgJacobian::analytic>{system, from, h,
                                                                                                       Gradient{}});
        }
        benchmark::DoNotOptimize(x.data());
    }
    state.counters["newton"] = double(solves) / double(stages);
}

// Arguments: gradient (0 AVF, 1 SIA, 2 the forward Itoh-Abe walk with the symmetric centre, 3 the
// Gonzalez midpoint), system (0 top, 1 Heisenberg d = 16, 2 anisotropic d = 16), choice (0 dual
// numbers one column per pass, 1 midpoint-Hessian quasi-Newton, 2 analytic).
void BM_drg_device_jacobians(benchmark::State& state) {
    const long gradient = state.range(0), system = state.range(1), choice = state.range(2);
    const gs::AnisotropicChain<double> anisotropic{0.8, gs::Vec3<double>{0.3, -0.2, 0.45}, -0.6};
    const auto with = [&](auto g) {
        using G = decltype(g);
        if (system == 0) run<G>(state, gs::SpinningTop<double>{}, 1, choice);
        if (system == 1) run<G>(state, gs::HeisenbergChain<double>{}, 16, choice);
        if (system == 2) run<G>(state, anisotropic, 16, choice);
    };
    if (gradient == 0) with(gs::AvfGradient{});
    if (gradient == 1) with(Sia{});
    if (gradient == 2) with(IaForward{});
    if (gradient == 3) with(gs::MidpointGradient<double>{});
}
BENCHMARK(BM_drg_device_jacobians)
    ->ArgsProduct({{0, 1, 2, 3}, {0, 1, 2}, {0, 1, 2}})
    ->ArgNames({"gradient", "system", "jacobian"})
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
