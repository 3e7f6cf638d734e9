// The host's DRG stage solve ends on the double nearest its root (local_simplified_newton_solve's
// last step, with the residual in WiderResidual, math §3.1): compared with the same stage solved
// in long double, almost every component of the double result is that root correctly rounded.
// A last residual rounded in double leaves the result an ulp off in a third to a half of them,
// to the same side step after step: the energy lean on chains (bench/RESULTS.md, "The energy
// lean of DRG steps on chains, removed").
#include <gtest/gtest.h>

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

namespace {

namespace gs = geomint::spin;
constexpr int spins = 8;

// One stage of `h` from `start` as the schemes solve it (detail::drg_stage: explicit first
// iterate, the stage's Newton), in Real; the unknowns x (3 spins reals) on return.
template <gs::Centre centre, class Gradient, class System, class Real>
std::vector<Real> solve_stage(const System& system, const Gradient& gradient, Real h, std::vector<Real> start) {
    const int d = static_cast<int>(start.size() / 3);
    std::vector<Real> x(start.size());
    std::vector<Real> work(gs::local_newton_workspace_reals<3, Real>(d) + gs::rank_one_workspace_reals<3>(d));
    const gs::StridedSpins<Real> from{start.data(), 1, d};
    const gs::StridedReals<Real> xs{x.data(), 1}, ws{work.data(), 1};
    gs::explicit_guess(system, h, from, xs, gs::SequentialTeam{});
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
    for (const double h : {0.05, 0.0676, -0.085, 0.1}) {
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

}  // namespace
