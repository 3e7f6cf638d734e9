// The host's DRG stage solve ends on the double nearest its root (local_simplified_newton_solve's
// last step, with the residual in WiderResidual, math §3.1): compared with the same stage solved
// in long double, almost every component of the double result is that root correctly rounded.
// A last residual rounded in double leaves the result an ulp off in a third to a half of them,
// to the same side step after step: the energy lean on chains (bench/RESULTS.md, "The energy
// lean of DRG steps on chains, removed"). The team solver of long chains (team_newton_solve) ends
// the same way.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "geomint/spin/explicit_guess.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/spin/team_newton.hpp"
#include "openmp_team.hpp"

namespace {

namespace gs = geomint::spin;
constexpr int spins = 8;
constexpr double steps[] = {0.05, 0.0676, -0.085, 0.1};  // h, compsia's 1.35 h and -1.70 h, 0.1

// One stage of `h` from `start` as the schemes solve it (detail::drg_stage: explicit first
// iterate, the stage's Newton), in Real; the unknowns x (3 spins reals) on return.
template <gs::Centre centre, class Gradient, class System, class Real>
std::vector<Real> solve_stage(const System& system, const Gradient& gradient, Real h, std::vector<Real> start) {
    const int d = static_cast<int>(start.size() / 3);
    std::vector<Real> x(start.size());
    std::vector<Real> work(gs::local_newton_workspace_reals<3, Real>(d) + gs::rank_one_workspace_reals<3>(d));
    const gs::StridedSpins<Real> from{start.data(), 1, d};
    const gs::StridedReals<Real> xs{x.data(), 1}, ws{work.data(), 1};
    gs::explicit_guess(system, h, from, xs, ws, gs::SequentialTeam{});
    gs::DrgStage<centre, Gradient, System, Real> stage{system, from, h, gradient};
    const auto out = gs::newton_solve(stage, xs, ws, geomint::NewtonOptions<Real>{}, gs::SequentialTeam{});
    EXPECT_EQ(out.status, geomint::SolveStatus::ok);
    return x;
}

// The share of components of 3 * spins * chains, over random chains and the step sizes of the
// schemes' stages (h = 0.05, compsia's 1.35 h and -1.70 h, 0.1), where the double solve equals
// the long double one rounded to double. The long double solve's own error, about 2^-11 of a
// double ulp, makes a few of them differ by rounding ties alone.
// Real: the precision under test (double, or float against double).
template <gs::Centre centre, class Real = double, class Wide = long double, class Gradient, class WideGradient>
double correctly_rounded_share(const Gradient& gradient, const WideGradient& wide_gradient, int chains) {
    int equal = 0, total = 0;
    for (const double h : steps) {
        for (int k = 0; k < chains; ++k) {
            std::vector<Real> start(3 * spins);
            gs::fill_random_spins(gs::StridedSpins<Real>{start.data(), 1, spins}, 20261205, static_cast<unsigned>(k));
            const std::vector<Real> x =
                solve_stage<centre>(gs::HeisenbergChain<Real>{}, gradient, static_cast<Real>(h), start);
            const std::vector<Wide> wide =
                solve_stage<centre>(gs::HeisenbergChain<Wide>{}, wide_gradient, static_cast<Wide>(static_cast<Real>(h)),
                                    std::vector<Wide>(start.begin(), start.end()));
            for (std::size_t j = 0; j < x.size(); ++j) {
                equal += x[j] == static_cast<Real>(wide[j]);
                ++total;
            }
        }
    }
    return static_cast<double>(equal) / total;
}

constexpr int chains = 100;
constexpr double at_least = 0.99;

TEST(DrgLastResidual, GonzalezMidpointEndsOnTheCorrectlyRoundedRoot) {
    const double share = correctly_rounded_share<gs::Centre::symmetric>(gs::MidpointGradient<double>{},
                                                                        gs::MidpointGradient<long double>{}, chains);
    ::testing::Test::RecordProperty("share", std::to_string(share));
    EXPECT_GE(share, at_least);
}

TEST(DrgLastResidual, AvfEndsOnTheCorrectlyRoundedRoot) {
    const double share = correctly_rounded_share<gs::Centre::symmetric>(gs::AvfGradient{}, gs::AvfGradient{}, chains);
    ::testing::Test::RecordProperty("share", std::to_string(share));
    EXPECT_GE(share, at_least);
}

TEST(DrgLastResidual, ItohAbeEndsOnTheCorrectlyRoundedRoot) {
    using Forward = gs::ItohAbeGradient<gs::IaDirection::forward>;
    using Adjoint = gs::ItohAbeGradient<gs::IaDirection::adjoint>;
    const double forward = correctly_rounded_share<gs::Centre::start>(Forward{}, Forward{}, chains);
    const double adjoint = correctly_rounded_share<gs::Centre::symmetric>(Adjoint{}, Adjoint{}, chains);
    const double comp2_forward = correctly_rounded_share<gs::Centre::symmetric>(Forward{}, Forward{}, chains);
    ::testing::Test::RecordProperty(
        "share", std::to_string(forward) + " " + std::to_string(adjoint) + " " + std::to_string(comp2_forward));
    EXPECT_GE(forward, at_least);
    EXPECT_GE(adjoint, at_least);
    EXPECT_GE(comp2_forward, at_least);
}

TEST(DrgLastResidual, SymmetrisedItohAbeEndsOnTheCorrectlyRoundedRoot) {
    using Symmetrised = gs::ItohAbeGradient<gs::IaDirection::symmetrised>;
    const double share = correctly_rounded_share<gs::Centre::symmetric>(Symmetrised{}, Symmetrised{}, chains);
    ::testing::Test::RecordProperty("share", std::to_string(share));
    EXPECT_GE(share, at_least);
}

TEST(DrgLastResidual, LocalMidpointEndsOnTheCorrectlyRoundedRoot) {
    const double share = correctly_rounded_share<gs::Centre::symmetric>(gs::LocalMidpointGradient{},
                                                                        gs::LocalMidpointGradient{}, chains);
    ::testing::Test::RecordProperty("share", std::to_string(share));
    EXPECT_GE(share, at_least);
}

// float, whose last residual is evaluated in double: the same against the stage solved in double.
TEST(DrgLastResidual, FloatEndsOnTheCorrectlyRoundedRoot) {
    using Symmetrised = gs::ItohAbeGradient<gs::IaDirection::symmetrised>;
    const double mp = correctly_rounded_share<gs::Centre::symmetric, float, double>(
        gs::MidpointGradient<float>{}, gs::MidpointGradient<double>{}, chains);
    const double avf =
        correctly_rounded_share<gs::Centre::symmetric, float, double>(gs::AvfGradient{}, gs::AvfGradient{}, chains);
    const double sia =
        correctly_rounded_share<gs::Centre::symmetric, float, double>(Symmetrised{}, Symmetrised{}, chains);
    ::testing::Test::RecordProperty("share",
                                    std::to_string(mp) + " " + std::to_string(avf) + " " + std::to_string(sia));
    EXPECT_GE(mp, at_least);
    EXPECT_GE(avf, at_least);
    EXPECT_GE(sia, at_least);
}

// The same stage solved by the team solver that runs chains of 2048 spins and more on the CPU
// (team_newton_solve, the partitioned linear solve): a chain of 64 spins has 4 parts. `workers`
// OpenMP threads share it; the unknowns x on return.
template <gs::Centre centre, class Gradient, class System>
std::vector<double> solve_stage_by_team(const System& system, const Gradient& gradient, double h,
                                        const std::vector<double>& start, int workers) {
    const int d = static_cast<int>(start.size() / 3);
    std::vector<double> x(start.size());
    std::vector<double> work(gs::local_newton_workspace_reals<3, double>(d));
    std::vector<double> scratch(gs::team_newton_scratch_reals<3, double>(d, workers));
    const gs::StridedSpins<double> from{const_cast<double*>(start.data()), 1, d};
    std::vector<gs::NewtonOutcome<double>> seen(static_cast<std::size_t>(workers));
    int got = 0;
#pragma omp parallel num_threads(workers)
    {
        const geomint::OpenMpTeam<double> team{omp_get_thread_num(), omp_get_num_threads(), {scratch.data(), 1}};
        if (team.rank() == 0) got = team.size();
        gs::DrgStage<centre, Gradient, System, double> stage{system, from, h, gradient};  // each worker's copy
        const gs::StridedReals<double> xs{x.data(), 1};
        const gs::StridedReals<double> ws{work.data(), 1};
        gs::explicit_guess(system, h, from, xs, ws, team);
        seen[static_cast<std::size_t>(team.rank())] =
            gs::team_newton_solve(stage, xs, ws, geomint::NewtonOptions<double>{}, team);
    }
    EXPECT_EQ(got, workers) << "OpenMP gave another number of threads";
    for (const auto& outcome : seen) EXPECT_EQ(outcome.status, geomint::SolveStatus::ok);
    return x;
}

// The share of components where the team's double solve equals the long double one rounded, over
// random 64-spin chains and the step sizes above; and the team's result does not depend on how
// many workers it has (one worker, two: equal bit for bit).
template <gs::Centre centre, class Gradient, class WideGradient>
double team_correctly_rounded_share(const Gradient& gradient, const WideGradient& wide_gradient, int chains) {
    constexpr int d = 64;
    static_assert(gs::partition_parts(d) >= 2, "the partitioned solve");
    int equal = 0, total = 0;
    for (const double h : steps) {
        for (int k = 0; k < chains; ++k) {
            std::vector<double> start(3 * d);
            gs::fill_random_spins(gs::StridedSpins<double>{start.data(), 1, d}, 20261206, static_cast<unsigned>(k));
            const std::vector<double> x =
                solve_stage_by_team<centre>(gs::HeisenbergChain<double>{}, gradient, h, start, 2);
            const std::vector<double> alone =
                solve_stage_by_team<centre>(gs::HeisenbergChain<double>{}, gradient, h, start, 1);
            EXPECT_EQ(x, alone) << "h " << h << ", chain " << k << ": the result depends on the team's size";
            const std::vector<long double> wide =
                solve_stage<centre>(gs::HeisenbergChain<long double>{}, wide_gradient, static_cast<long double>(h),
                                    std::vector<long double>(start.begin(), start.end()));
            for (std::size_t j = 0; j < x.size(); ++j) {
                equal += x[j] == static_cast<double>(wide[j]);
                ++total;
            }
        }
    }
    return static_cast<double>(equal) / total;
}

constexpr int team_chains = 13;  // 13 x 64 spins: about as many components as 100 x 8

TEST(DrgLastResidual, TeamSolveEndsOnTheCorrectlyRoundedRoot) {
    using Symmetrised = gs::ItohAbeGradient<gs::IaDirection::symmetrised>;
    using Forward = gs::ItohAbeGradient<gs::IaDirection::forward>;
    const double mp = team_correctly_rounded_share<gs::Centre::symmetric>(
        gs::MidpointGradient<double>{}, gs::MidpointGradient<long double>{}, team_chains);
    const double avf =
        team_correctly_rounded_share<gs::Centre::symmetric>(gs::AvfGradient{}, gs::AvfGradient{}, team_chains);
    const double sia = team_correctly_rounded_share<gs::Centre::symmetric>(Symmetrised{}, Symmetrised{}, team_chains);
    const double ia = team_correctly_rounded_share<gs::Centre::start>(Forward{}, Forward{}, team_chains);
    ::testing::Test::RecordProperty(
        "share", std::to_string(mp) + " " + std::to_string(avf) + " " + std::to_string(sia) + " " + std::to_string(ia));
    EXPECT_GE(mp, at_least);
    EXPECT_GE(avf, at_least);
    EXPECT_GE(sia, at_least);
    EXPECT_GE(ia, at_least);
}

}  // namespace
