// The GPU's quasi-Newton for the symmetric-centre DRG stages (AVF, the Gonzalez midpoint, the
// symmetrised Itoh-Abe walk and the forward and adjoint walks of comp2 and comp4;
// DrgJacobian::midpoint_hessian, schemes/drg.hpp), run here on the host: it converges to the exact
// Newton's solution, in few more iterations, keeps the energy over long runs, and the team
// (block-per-chain) Newton agrees with the sequential one; and the stopping rule it needs
// (local_newton.hpp, NewtonStopRule). Also the GPU's choice for plain Itoh-Abe: its analytic
// blocks take dual numbers' Newton path.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <string>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/spin/team_newton.hpp"
#include "openmp_team.hpp"

namespace {

namespace gs = geomint::spin;
using geomint::NewtonOptions;
using geomint::SolveStatus;
using gs::DrgJacobian;

using Sia = gs::ItohAbeGradient<gs::IaDirection::symmetrised>;
using IaForward = gs::ItohAbeGradient<gs::IaDirection::forward>;  // comp2 and comp4's stages
using IaAdjoint = gs::ItohAbeGradient<gs::IaDirection::adjoint>;
using Mp = gs::MidpointGradient<double>;

template <DrgJacobian J, class Gradient, class System>
using Stage = gs::DrgStage<gs::Centre::symmetric, Gradient, System, double, J>;

// The GPU's choices (schemes/drg.hpp): the quasi-Newton for every symmetric-centre stage but
// mmp's; the analytic blocks for mmp and for ia, whose centre is u.
static_assert(gs::device_drg_jacobian<gs::Centre::symmetric, gs::AvfGradient> == DrgJacobian::midpoint_hessian);
static_assert(gs::device_drg_jacobian<gs::Centre::symmetric, Sia> == DrgJacobian::midpoint_hessian);
static_assert(gs::device_drg_jacobian<gs::Centre::symmetric, IaForward> == DrgJacobian::midpoint_hessian);
static_assert(gs::device_drg_jacobian<gs::Centre::symmetric, IaAdjoint> == DrgJacobian::midpoint_hessian);
static_assert(gs::device_drg_jacobian<gs::Centre::start, IaForward> == DrgJacobian::analytic);
static_assert(gs::device_drg_jacobian<gs::Centre::symmetric, gs::MidpointGradient<double>> ==
              DrgJacobian::midpoint_hessian);
static_assert(gs::device_drg_jacobian<gs::Centre::symmetric, gs::LocalMidpointGradient> == DrgJacobian::analytic);
static_assert(Stage<DrgJacobian::analytic, gs::AvfGradient, gs::HeisenbergChain<double>>::exact_jacobian);
static_assert(!Stage<DrgJacobian::midpoint_hessian, gs::AvfGradient, gs::HeisenbergChain<double>>::exact_jacobian);
static_assert(!Stage<DrgJacobian::midpoint_hessian, Sia, gs::SpinningTop<double>>::exact_jacobian);
static_assert(!Stage<DrgJacobian::midpoint_hessian, Mp, gs::HeisenbergChain<double>>::exact_jacobian);

gs::AnisotropicChain<double> anisotropic() { return {0.8, gs::Vec3<double>{0.3, -0.2, 0.45}, -0.6}; }

std::vector<double> random_state(int d, std::uint64_t seed) {
    std::vector<double> s(3 * static_cast<std::size_t>(d));
    gs::fill_random_spins(gs::StridedSpins<double>{s.data(), 1, d}, seed, 0);
    return s;
}

struct Solved {
    std::vector<double> x;
    gs::NewtonOutcome<double> outcome;
};

// One stage u -> v from the guess v = u by the GPU's Newton (local_newton_solve). The workspace
// has room for the rank-one term that mp's analytic stage adds (DrgStage::coupling).
template <class AnyStage>
Solved solve_from_u(AnyStage stage, const std::vector<double>& u, int d) {
    Solved s{u, {}};
    std::vector<double> work(gs::local_newton_workspace_reals<3, double>(d) + gs::rank_one_workspace_reals<3>(d));
    s.outcome = gs::local_newton_solve(stage, gs::StridedReals<double>{s.x.data(), 1},
                                       gs::StridedReals<double>{work.data(), 1}, NewtonOptions<double>{});
    return s;
}

// One stage u -> v from the guess v = u, as detail::drg_stage solves it.
template <DrgJacobian J, class Gradient, class System>
Solved solve_stage(const System& system, const std::vector<double>& u, int d, double h) {
    return solve_from_u(
        Stage<J, Gradient, System>{system, gs::StridedSpins<double>{const_cast<double*>(u.data()), 1, d}, h,
                                   Gradient{}},
        u, d);
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
    double worst = 0;
    for (std::size_t k = 0; k < a.size(); ++k) worst = std::fmax(worst, std::fabs(a[k] - b[k]));
    return worst;
}

// The quasi-Newton solves the same residual as Newton with the exact Jacobian, so both stop within
// about their tolerance (8 ulps of 1, 1.8e-15) of the same zero: 1e-14 allows for the
// conditioning of a 16-spin stage, not for a different point (the O(h^3) local error is 1e-4 at
// h = 0.05). Iterations: the midpoint Hessian misses O(h) of dg/dv, so the Jacobian is off by
// O(h^2) and Newton contracts linearly at a rate O(h^2), about 1e-2 at h = 0.05: from the guess
// (an O(h) error) that takes at most twice the iterations of Newton's quadratic convergence. At
// larger steps only convergence is asked (the rate grows like h^2; RESULTS has the counts).
template <class Gradient, class System>
void check_against_exact(const std::string& what, const System& system, int d) {
    for (const double h : {0.05, 0.2, 0.5})
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            SCOPED_TRACE(what + " h = " + std::to_string(h) + " seed " + std::to_string(seed));
            const std::vector<double> u = random_state(d, seed);
            const Solved exact = solve_stage<DrgJacobian::analytic, Gradient>(system, u, d, h);
            const Solved quasi = solve_stage<DrgJacobian::midpoint_hessian, Gradient>(system, u, d, h);
            ASSERT_EQ(exact.outcome.status, SolveStatus::ok);
            ASSERT_EQ(quasi.outcome.status, SolveStatus::ok);
            EXPECT_LE(max_difference(exact.x, quasi.x), 1e-14);
            EXPECT_GT(max_difference(u, quasi.x), 1e-4) << "the stage did not move";
            EXPECT_GE(quasi.outcome.iterations, exact.outcome.iterations);
            if (h == 0.05) {
                EXPECT_LE(quasi.outcome.iterations, 2 * exact.outcome.iterations);
            }
        }
}

TEST(DrgQuasiNewton, ConvergesToTheExactNewtonSolution) {
    check_against_exact<gs::AvfGradient>("avf top", gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7), 1);
    check_against_exact<gs::AvfGradient>("avf heisenberg", gs::HeisenbergChain<double>{}, 16);
    check_against_exact<gs::AvfGradient>("avf anisotropic", anisotropic(), 16);
    check_against_exact<Sia>("sia top", gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7), 1);
    check_against_exact<Sia>("sia heisenberg", gs::HeisenbergChain<double>{}, 16);
    check_against_exact<Sia>("sia anisotropic", anisotropic(), 16);
    check_against_exact<IaForward>("ia forward top", gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7), 1);
    check_against_exact<IaForward>("ia forward heisenberg", gs::HeisenbergChain<double>{}, 16);
    check_against_exact<IaForward>("ia forward anisotropic", anisotropic(), 16);
    check_against_exact<IaAdjoint>("ia adjoint top", gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7), 1);
    check_against_exact<IaAdjoint>("ia adjoint heisenberg", gs::HeisenbergChain<double>{}, 16);
    check_against_exact<IaAdjoint>("ia adjoint anisotropic", anisotropic(), 16);
    check_against_exact<Mp>("mp top", gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7), 1);
    check_against_exact<Mp>("mp heisenberg", gs::HeisenbergChain<double>{}, 16);
    check_against_exact<Mp>("mp anisotropic", anisotropic(), 16);
}

// ia's stage as the GPU solves it: Newton (local_newton_solve) with the analytic blocks of its
// fixed-centre walk, where it took dual numbers before. Both Jacobians are exact, so Newton takes
// the same path to round-off: the same iterations and the same root to 1e-14 (the tolerance of
// check_against_exact), on random states of the top and both chains at h = 0.05, 0.2 and 0.5.
template <class System>
void check_ia_against_dual_numbers(const std::string& what, const System& system, int d) {
    using Analytic = gs::DrgStage<gs::Centre::start, IaForward, System, double, DrgJacobian::analytic>;
    using Dual = gs::DrgStage<gs::Centre::start, IaForward, System, double, DrgJacobian::dual_numbers>;
    static_assert(gs::detail::HasLineariseInto<Analytic, double>, "the analytic blocks, not a fallback");
    static_assert(!gs::detail::HasLineariseInto<Dual, double>, "dual numbers");
    for (const double h : {0.05, 0.2, 0.5})
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            SCOPED_TRACE(what + " h = " + std::to_string(h) + " seed " + std::to_string(seed));
            const std::vector<double> u = random_state(d, seed);
            const gs::StridedSpins<double> from{const_cast<double*>(u.data()), 1, d};
            const Solved analytic = solve_from_u(Analytic{system, from, h, IaForward{}}, u, d);
            const Solved dual = solve_from_u(Dual{system, from, h, IaForward{}}, u, d);
            ASSERT_EQ(analytic.outcome.status, SolveStatus::ok);
            ASSERT_EQ(dual.outcome.status, SolveStatus::ok);
            EXPECT_EQ(analytic.outcome.iterations, dual.outcome.iterations);
            EXPECT_LE(max_difference(analytic.x, dual.x), 1e-14);
            EXPECT_GT(max_difference(u, analytic.x), 1e-4) << "the stage did not move";
        }
}

TEST(DrgDeviceJacobian, ItohAbeAnalyticBlocksTakeTheDualNumbersNewtonPath) {
    static_assert(gs::device_drg_jacobian<gs::Centre::start, IaForward> == DrgJacobian::analytic);
    check_ia_against_dual_numbers("ia top", gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7), 1);
    check_ia_against_dual_numbers("ia heisenberg", gs::HeisenbergChain<double>{}, 16);
    check_ia_against_dual_numbers("ia anisotropic", anisotropic(), 16);
}

// A long run of stages, u <- v as SingleStageDrg::step does: the energy error after 4000 steps of
// h = 0.05 on an 8-spin anisotropic chain, against the same run with the exact Jacobian. Both
// solve the same energy-preserving equations, so both stay at round-off; the stopping rule of an
// approximate Jacobian must not leave a Newton error that drifts the energy. Bound: 2e-14, ten
// times what the exact runs measure here (about 2e-15) and far below one step's O(h^3) = 1e-4.
template <DrgJacobian J, class Gradient, class System>
double energy_drift(const System& system, int d, long long steps, long long& iterations) {
    std::vector<double> s = random_state(d, 11);
    const gs::StridedSpins<double> state{s.data(), 1, d};
    const double h0 = gs::total_energy(system, state);
    double worst = 0;
    iterations = 0;
    for (long long n = 0; n < steps; ++n) {
        const std::vector<double> u = s;
        const Solved v = solve_stage<J, Gradient>(system, u, d, 0.05);
        EXPECT_EQ(v.outcome.status, SolveStatus::ok);
        if (v.outcome.status != SolveStatus::ok) return INFINITY;
        iterations += v.outcome.iterations;
        s = v.x;
        worst = std::fmax(worst, std::fabs(gs::total_energy(system, state) - h0));
    }
    return worst;
}

template <class Gradient>
void check_energy(const std::string& what) {
    SCOPED_TRACE(what);
    long long exact_iterations = 0, quasi_iterations = 0;
    const double exact = energy_drift<DrgJacobian::analytic, Gradient>(anisotropic(), 8, 4000, exact_iterations);
    const double quasi =
        energy_drift<DrgJacobian::midpoint_hessian, Gradient>(anisotropic(), 8, 4000, quasi_iterations);
    EXPECT_LE(exact, 2e-14);
    EXPECT_LE(quasi, 2e-14);
    EXPECT_GT(quasi_iterations, exact_iterations) << "the quasi-Newton did not run";
}

TEST(DrgQuasiNewton, KeepsTheEnergyOverLongRuns) {
    check_energy<gs::AvfGradient>("avf");
    check_energy<Sia>("sia");
    check_energy<IaForward>("ia forward");
    check_energy<IaAdjoint>("ia adjoint");
    check_energy<Mp>("mp");
}

// Float (--precision float on the GPU runs the same quasi-Newton): 2000 stages of a 16-spin
// Heisenberg chain converge at every step size, and single stages agree with the exact Jacobian's
// to 1e-5 (the float tolerance is 8 ulps of 1, 9.5e-7, times the stage's conditioning).
template <class Gradient>
void check_float(const std::string& what) {
    constexpr int d = 16;
    const gs::HeisenbergChain<float> system{};
    for (const float h : {0.05f, 0.2f, 0.5f}) {
        SCOPED_TRACE(what + " h = " + std::to_string(h));
        std::vector<float> s(3 * d);
        gs::fill_random_spins(gs::StridedSpins<float>{s.data(), 1, d}, 3, 0);
        // Room for the rank-one term of mp's analytic stage, as in solve_from_u.
        std::vector<float> work(gs::local_newton_workspace_reals<3, float>(d) + gs::rank_one_workspace_reals<3>(d));
        const auto solve = [&](auto stage, std::vector<float>& x) {
            return gs::local_newton_solve(stage, gs::StridedReals<float>{x.data(), 1},
                                          gs::StridedReals<float>{work.data(), 1}, NewtonOptions<float>{});
        };
        for (int n = 0; n < 2000; ++n) {
            std::vector<float> u = s, quasi = s, exact = s;
            const gs::StridedSpins<float> from{u.data(), 1, d};
            using Quasi = gs::DrgStage<gs::Centre::symmetric, Gradient, gs::HeisenbergChain<float>, float,
                                       DrgJacobian::midpoint_hessian>;
            using Exact =
                gs::DrgStage<gs::Centre::symmetric, Gradient, gs::HeisenbergChain<float>, float, DrgJacobian::analytic>;
            ASSERT_EQ(solve(Quasi{system, from, h, Gradient{}}, quasi).status, SolveStatus::ok) << "stage " << n;
            if (n % 500 == 0) {
                ASSERT_EQ(solve(Exact{system, from, h, Gradient{}}, exact).status, SolveStatus::ok);
                float worst = 0;
                for (std::size_t k = 0; k < s.size(); ++k) worst = std::fmax(worst, std::fabs(quasi[k] - exact[k]));
                EXPECT_LE(worst, 1e-5f) << "stage " << n;
            }
            s = quasi;
        }
    }
}

TEST(DrgQuasiNewton, FloatConverges) {
    check_float<gs::AvfGradient>("avf");
    check_float<Sia>("sia");
    check_float<IaForward>("ia forward");
    check_float<gs::MidpointGradient<float>>("mp");
}

// The block-per-chain kernels run the same stage through team_newton_solve: with the quasi-Newton
// it must stop where the sequential solve stops (same rule, same steps up to the partitioned
// solve's rounding). A chain of 64 spins has 4 parts; a team of 2 OpenMP threads. mp's team also
// shares lambda's sums over the chain (MidpointGradient::prepare).
template <class Gradient>
void check_team(const std::string& what) {
    SCOPED_TRACE(what);
    constexpr int d = 64, workers = 2;
    ASSERT_GE(gs::partition_parts(d), 2);
    const auto system = anisotropic();
    const std::vector<double> u = random_state(d, 5);
    const Solved sequential = solve_stage<DrgJacobian::midpoint_hessian, Gradient>(system, u, d, 0.05);
    ASSERT_EQ(sequential.outcome.status, SolveStatus::ok);

    std::vector<double> x = u;
    std::vector<double> work(gs::local_newton_workspace_reals<3, double>(d));
    std::vector<double> scratch(gs::team_newton_scratch_reals<3, double>(d, workers));
    std::vector<gs::NewtonOutcome<double>> seen(workers);
    Stage<DrgJacobian::midpoint_hessian, Gradient, gs::AnisotropicChain<double>> stage{
        system, gs::StridedSpins<double>{const_cast<double*>(u.data()), 1, d}, 0.05, Gradient{}};
#pragma omp parallel num_threads(workers)
    {
        const geomint::OpenMpTeam<double> team{omp_get_thread_num(), omp_get_num_threads(), {scratch.data(), 1}};
        seen[static_cast<std::size_t>(team.rank())] =
            gs::team_newton_solve(stage, gs::StridedReals<double>{x.data(), 1},
                                  gs::StridedReals<double>{work.data(), 1}, NewtonOptions<double>{}, team);
    }
    for (const auto& outcome : seen) {
        EXPECT_EQ(outcome.status, SolveStatus::ok);
        EXPECT_EQ(outcome.iterations, sequential.outcome.iterations);
    }
    EXPECT_LE(max_difference(x, sequential.x), 1e-14);
}

TEST(DrgQuasiNewton, TeamNewtonMatchesTheSequentialOne) {
    check_team<gs::AvfGradient>("avf");
    check_team<Mp>("mp");
}

// The stopping rule on made-up step sequences (tolerance 1): the exact rule stops at the first step
// within the tolerance; the approximate one only once the steps halve, or after two in a row.
template <bool exact>
int stop_at(const std::vector<double>& steps) {
    gs::detail::NewtonStopRule<exact, double> rule{1.0};
    for (std::size_t k = 0; k < steps.size(); ++k)
        if (rule.converged(steps[k], static_cast<int>(k) + 1)) return static_cast<int>(k) + 1;
    return 0;
}

TEST(DrgQuasiNewton, StopRuleAsksAnApproximateJacobianForContraction) {
    // Contracting by 0.8 a step: a step of 0.9 leaves up to 3.6 of error behind. The exact rule
    // reads the second step (within 64 tolerances, not halving) as round-off stagnation; the
    // approximate one waits for two steps in a row within the tolerance.
    const std::vector<double> slow{2.0, 1.6, 1.28, 0.9, 0.72, 0.5};
    EXPECT_EQ(stop_at<true>(slow), 2);
    EXPECT_EQ(stop_at<false>(slow), 5);
    // Halving: the first step within the tolerance ends it for both.
    const std::vector<double> fast{8.0, 3.0, 0.9, 0.1};
    EXPECT_EQ(stop_at<true>(fast), 3);
    EXPECT_EQ(stop_at<false>(fast), 3);
    // Stagnation within 64 tolerances right after a halving step: both stop.
    const std::vector<double> floor{1000.0, 40.0, 30.0, 25.0, 12.0, 11.0};
    EXPECT_EQ(stop_at<true>(floor), 3);
    EXPECT_EQ(stop_at<false>(floor), 3);
    // Slow contraction all the way down: the approximate rule goes on until a halving step within
    // the tolerance (or two in a row), never on stagnation.
    const std::vector<double> drifting{100.0, 60.0, 40.0, 30.0, 20.0, 11.0, 9.0, 0.9};
    EXPECT_EQ(stop_at<true>(drifting), 2);
    EXPECT_EQ(stop_at<false>(drifting), 8);
    // A guess already within the tolerance: both stop at once.
    EXPECT_EQ(stop_at<true>({0.5}), 1);
    EXPECT_EQ(stop_at<false>({0.5}), 1);
}

}  // namespace
