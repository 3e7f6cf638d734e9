// Newton's stop when the error left is below round-off (local_newton.hpp,
// error_left_below_round_off; math §3, "When a solve stops"): the rule on step sequences traced
// from real solves, and on every local problem of the CPU (each DRG stage and both midpoint rules,
// by Newton and by the host's simplified Newton; collocation's simplified Newton) that a solve
// which stopped early left no more than round-off:
// one more Newton iteration from its result moves no unknown by more than the tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/collocation.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/schemes/midpoint_baselines.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/spin/team.hpp"
#include "geomint/spin/team_newton.hpp"
#include "spin_test_support.hpp"

namespace {

namespace gs = geomint::spin;
using geomint::NewtonOptions;
using geomint::SolveStatus;

constexpr double kTolerance = 8 * 2.220446049250313e-16;  // newton_tolerance's default, 8 eps

// The step at which a rule first says converged (0: none of them).
template <bool exact>
int stops_at(const std::vector<double>& steps) {
    gs::detail::NewtonStopRule<exact, double> rule{kTolerance};
    for (std::size_t k = 0; k < steps.size(); ++k)
        if (rule.converged(steps[k], static_cast<int>(k) + 1)) return static_cast<int>(k) + 1;
    return 0;
}

TEST(NewtonStop, BoundOnTheErrorLeft) {
    // theta/(1 - theta) step = step^2/(previous - step) against tolerance/64 = 2.8e-17.
    EXPECT_TRUE(gs::detail::error_left_below_round_off(1e-13, 1e-9, kTolerance));      // 1.0e-17
    EXPECT_FALSE(gs::detail::error_left_below_round_off(2e-13, 1e-9, kTolerance));     // 4.0e-17
    EXPECT_FALSE(gs::detail::error_left_below_round_off(1e-16, 1.5e-16, kTolerance));  // 2.0e-16
    EXPECT_FALSE(gs::detail::error_left_below_round_off(1e-20, 1e-20, kTolerance));    // no contraction
    EXPECT_FALSE(gs::detail::error_left_below_round_off(2e-20, 1e-20, kTolerance));    // growing
    EXPECT_TRUE(gs::detail::error_left_below_round_off(0.0, 1e-3, kTolerance));
}

// The step a solve stops on is the largest |dx|, and a NaN, once met, stays (std::fmax, which it
// replaced, dropped NaNs), so that the solve's isfinite check reports it.
TEST(NewtonStop, LargestStepKeepsANan) {
    const double nan = std::nan("");
    EXPECT_EQ(gs::detail::largest_step(1.0, -3.0), 3.0);
    EXPECT_EQ(gs::detail::largest_step(3.0, -1.0), 3.0);
    EXPECT_EQ(gs::detail::largest_step(0.0, 0.0), 0.0);
    EXPECT_TRUE(std::isnan(gs::detail::largest_step(1.0, nan)));
    EXPECT_TRUE(std::isnan(gs::detail::largest_step(nan, 2.0)));
    double step = 0.0;
    for (const double dx : {1e-3, nan, -2e-3, 5e-4}) step = gs::detail::largest_step(step, dx);
    EXPECT_TRUE(std::isnan(step));
    EXPECT_EQ(gs::detail::largest_step(1.0, -std::numeric_limits<double>::infinity()),
              std::numeric_limits<double>::infinity());
}

TEST(NewtonStop, SequencesOfRealSolves) {
    // The implicit midpoint rule on a 16-spin Heisenberg chain, h = 0.05 (RESULTS): the third step
    // leaves 7.1e-12^2/3.6e-5 = 1.4e-18, so the fourth, 6.0e-17, is not taken.
    EXPECT_EQ(stops_at<true>({6.9e-2, 3.6e-5, 7.1e-12, 6.0e-17}), 3);
    // AVF on the same chain: 1.1e-9 after 2.0e-4 bounds 6.1e-15, above the 2.8e-17: a fourth step.
    EXPECT_EQ(stops_at<true>({8.8e-2, 2.0e-4, 1.1e-9, 6.9e-17}), 4);
    // mp on a top whose second step, 1.2e-7 after 9.6e-3, bounds 1.6e-12 (the fourth iteration
    // there still moved v by 6e-15): the rule waits, and the third step's bound stops it.
    EXPECT_EQ(stops_at<true>({9.6e-3, 1.2e-7, 6.0e-15, 2.7e-17}), 3);
    // The simplified Newton in lambda (linear, by about 1e-3): 4.8e-12 after 6.0e-9 bounds 3.8e-15,
    // the error the next step then removed, so it is taken; 3.8e-15 after it bounds 3.0e-18.
    EXPECT_EQ(stops_at<true>({6.9e-2, 1.0e-4, 6.0e-9, 4.8e-12, 3.8e-15, 5.2e-17}), 5);
    // An approximate Jacobian takes the same bound (its linear rate is what the bound assumes).
    EXPECT_EQ(stops_at<false>({6.9e-2, 3.6e-5, 7.1e-12, 6.0e-17}), 3);
    EXPECT_EQ(stops_at<false>({1e-2, 1e-4, 1e-6, 1e-8, 1e-10, 1e-12, 1e-14, 1e-16}), 8);
}

std::vector<double> random_state(int d, std::uint64_t seed) {
    std::vector<double> s(3 * static_cast<std::size_t>(d));
    gs::fill_random_spins(gs::StridedSpins<double>{s.data(), 1, d}, seed, 0);
    return s;
}

// Solves `problem` from x (in place) with `solve`, then runs one more Newton iteration from the
// result: it must be within the tolerance (converged at once) and move no unknown by more.
template <class Problem, class Solve>
void check_no_more_than_round_off_left(Problem& problem, std::vector<double> x, Solve solve) {
    const int d = problem.blocks();
    constexpr int B = Problem::block_size;
    std::vector<double> work(gs::local_newton_workspace_reals<B, double>(d) + gs::rank_one_workspace_reals<B>(d));
    const auto first = solve(problem, gs::StridedReals<double>{x.data(), 1}, gs::StridedReals<double>{work.data(), 1});
    ASSERT_EQ(first.status, SolveStatus::ok);
    std::vector<double> again = x;
    NewtonOptions<double> one;
    one.max_iterations = 1;
    const auto next = gs::local_newton_solve(problem, gs::StridedReals<double>{again.data(), 1},
                                             gs::StridedReals<double>{work.data(), 1}, one);
    EXPECT_EQ(next.status, SolveStatus::ok) << "the step after the solve was above the tolerance";
    double moved = 0;
    for (std::size_t k = 0; k < x.size(); ++k) moved = std::fmax(moved, std::fabs(again[k] - x[k]));
    EXPECT_LE(moved, kTolerance) << "after " << first.iterations << " iterations";
}

const auto newton = [](auto& problem, gs::StridedReals<double> x, gs::StridedReals<double> work) {
    return gs::local_newton_solve(problem, x, work, NewtonOptions<double>{});
};
// What the schemes run on the host: the simplified Newton (jacobian_refresh, local_newton.hpp).
const auto host_solver = [](auto& problem, gs::StridedReals<double> x, gs::StridedReals<double> work) {
    return gs::newton_solve(problem, x, work, NewtonOptions<double>{}, gs::SequentialTeam{});
};

template <gs::Centre centre, class Gradient, class System>
void check_drg_stage(const std::string& what, const System& system, int d) {
    for (const double h : {0.05, 0.2, 0.5})
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            SCOPED_TRACE(what + ", h = " + std::to_string(h) + ", seed " + std::to_string(seed));
            const std::vector<double> u = random_state(d, seed);
            gs::DrgStage<centre, Gradient, System, double> stage{
                system, gs::StridedSpins<double>{const_cast<double*>(u.data()), 1, d}, h, Gradient{}};
            check_no_more_than_round_off_left(stage, u, newton);  // the guess: v = u
            check_no_more_than_round_off_left(stage, u, host_solver);
        }
}

template <gs::MidpointKind kind, class System>
void check_midpoint(const std::string& what, const System& system, int d) {
    for (const double h : {0.05, 0.2, 0.5})
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            SCOPED_TRACE(what + ", h = " + std::to_string(h) + ", seed " + std::to_string(seed));
            const std::vector<double> u = random_state(d, seed);
            gs::MidpointStep<kind, System, double> step{
                system, gs::StridedSpins<double>{const_cast<double*>(u.data()), 1, d}, h};
            check_no_more_than_round_off_left(step, u, newton);
            check_no_more_than_round_off_left(step, u, host_solver);
        }
}

// Collocation on the host: the simplified Newton (kept factors, refreshed below a halving), from
// the scheme's guess, every stage vector at u_i x dH/ds_i(u).
template <int S, class System>
void check_collocation(const std::string& what, const System& system, int d) {
    for (const double h : {0.05, 0.2})
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            SCOPED_TRACE(what + ", h = " + std::to_string(h) + ", seed " + std::to_string(seed));
            const std::vector<double> u = random_state(d, seed);
            const gs::StridedSpins<double> state{const_cast<double*>(u.data()), 1, d};
            std::vector<double> x(3 * S * static_cast<std::size_t>(d));
            gs::collocation_guess<S>(system, state, gs::StridedReals<double>{x.data(), 1});
            gs::CollocationStep<S, System, double> step{system, state, h};
            check_no_more_than_round_off_left(step, x, [](auto& problem, auto xs, auto work) {
                return gs::local_simplified_newton_solve(problem, xs, work, NewtonOptions<double>{},
                                                         double(gs::collocation_jacobian_refresh));
            });
        }
}

gs::AnisotropicChain<double> anisotropic() { return {0.8, gs::Vec3<double>{0.3, -0.2, 0.45}, -0.6}; }
gs::SpinningTop<double> top() { return gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7); }

using Mp = gs::MidpointGradient<double>;
using IaForward = gs::ItohAbeGradient<gs::IaDirection::forward>;
using Sia = gs::ItohAbeGradient<gs::IaDirection::symmetrised>;
constexpr auto symmetric = gs::Centre::symmetric;

template <class System>
void check_every_drg_stage(const std::string& name, const System& system, int d) {
    geomint_test::for_each_drg_stage<System>([&]<gs::Centre centre, class Gradient>(const char* stage) {
        check_drg_stage<centre, Gradient>(stage + (" " + name), system, d);
    });
}

TEST(NewtonStop, DrgStagesLeaveNoMoreThanRoundOff) {
    check_every_drg_stage("top", top(), 1);
    check_every_drg_stage("heisenberg", gs::HeisenbergChain<double>{}, 16);
    check_every_drg_stage("anisotropic", anisotropic(), 16);
    check_every_drg_stage("anisotropic d = 2", anisotropic(), 2);
}

TEST(NewtonStop, MidpointRulesLeaveNoMoreThanRoundOff) {
    check_midpoint<gs::MidpointKind::embedded>("implicit midpoint top", top(), 1);
    check_midpoint<gs::MidpointKind::embedded>("implicit midpoint anisotropic", anisotropic(), 16);
    check_midpoint<gs::MidpointKind::spherical>("spherical midpoint top", top(), 1);
    check_midpoint<gs::MidpointKind::spherical>("spherical midpoint heisenberg", gs::HeisenbergChain<double>{}, 16);
}

TEST(NewtonStop, CollocationLeavesNoMoreThanRoundOff) {
    check_collocation<2>("coll4 top", top(), 1);
    check_collocation<2>("coll4 anisotropic", anisotropic(), 8);
    check_collocation<4>("coll8 heisenberg", gs::HeisenbergChain<double>{}, 8);
}

// What the rule is for: most solves of a top's step at h = 0.05 end after three Newton iterations,
// where the tolerance alone took 3.5-3.6 on average (RESULTS, "Newton stops when the error left is
// below round-off": 3.49-3.60 before, 3.00-3.02 with the rule, 64 tops x 200 steps). Stage solves
// from the guess v = u, as the schemes started before their explicit guess (explicit_guess.hpp).
template <class Problem>
double mean_iterations_from_u(const std::function<Problem(const std::vector<double>&)>& make) {
    long long iterations = 0;
    constexpr int states = 64;
    for (std::uint64_t seed = 1; seed <= states; ++seed) {
        const std::vector<double> u = random_state(1, seed);
        std::vector<double> x = u,
                            work(gs::local_newton_workspace_reals<3, double>(1) + gs::rank_one_workspace_reals<3>(1));
        Problem problem = make(u);
        const auto out = gs::local_newton_solve(problem, gs::StridedReals<double>{x.data(), 1},
                                                gs::StridedReals<double>{work.data(), 1}, NewtonOptions<double>{});
        EXPECT_EQ(out.status, SolveStatus::ok);
        iterations += out.iterations;
    }
    return double(iterations) / states;
}

template <gs::Centre centre, class Gradient>
double drg_iterations_on_the_top() {
    using Stage = gs::DrgStage<centre, Gradient, gs::SpinningTop<double>, double>;
    static const gs::SpinningTop<double> system{};
    return mean_iterations_from_u<Stage>([](const std::vector<double>& u) {
        return Stage{system, gs::StridedSpins<double>{const_cast<double*>(u.data()), 1, 1}, 0.05, Gradient{}};
    });
}

TEST(NewtonStop, SavesAnIterationOnTheTop) {
    EXPECT_LT((drg_iterations_on_the_top<symmetric, gs::AvfGradient>()), 3.25);
    EXPECT_LT((drg_iterations_on_the_top<symmetric, Mp>()), 3.25);
    EXPECT_LT((drg_iterations_on_the_top<gs::Centre::start, IaForward>()), 3.25);
    EXPECT_LT((drg_iterations_on_the_top<symmetric, Sia>()), 3.25);
    using Im = gs::MidpointStep<gs::MidpointKind::embedded, gs::SpinningTop<double>, double>;
    static const gs::SpinningTop<double> system{};
    EXPECT_LT(mean_iterations_from_u<Im>([](const std::vector<double>& u) {
                  return Im{system, gs::StridedSpins<double>{const_cast<double*>(u.data()), 1, 1}, 0.05};
              }),
              3.25);
}

}  // namespace
