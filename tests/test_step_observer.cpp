// The step-observer hook (include/geomint/step_observer.hpp) that saved states and portraits use:
// it sees the initial state and every completed step, in order, each state equal to the state a
// run of that many steps ends in, and never a failed step.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "geomint/pendulum/integrate_trajectory.hpp"
#include "geomint/pendulum/newmark.hpp"
#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/schemes/midpoint_baselines.hpp"
#include "geomint/spin/systems.hpp"

namespace {

using geomint::NewtonOptions;
using geomint::SolveStatus;

struct PendulumState {
    long long step;
    double q, p;
};

TEST(StepObserver, PendulumSeesEveryStepAndTheStatesOfShorterRuns) {
    const geomint::PendulumPotential<double> pendulum{1.0, 2.0};
    const double h = 0.05;
    std::vector<PendulumState> seen;
    const auto full = geomint::integrate_trajectory(geomint::Newmark{}, pendulum, 2.0, 0.3, h, 40LL,
                                                    NewtonOptions<double>{}, [&](long long n, double q, double p) {
                                                        seen.push_back({n, q, p});
                                                    });
    ASSERT_EQ(full.status, SolveStatus::ok);
    ASSERT_EQ(seen.size(), 41u);
    for (long long n = 0; n <= 40; ++n) {
        EXPECT_EQ(seen[n].step, n);
        const auto shorter =
            geomint::integrate_trajectory(geomint::Newmark{}, pendulum, 2.0, 0.3, h, n, NewtonOptions<double>{});
        EXPECT_EQ(seen[n].q, shorter.q) << "step " << n;  // bitwise: the same operations
        EXPECT_EQ(seen[n].p, shorter.p) << "step " << n;
    }
}

TEST(StepObserver, PendulumNeverSeesAFailedStep) {
    const geomint::PendulumPotential<double> pendulum{1.0, 2.0};
    NewtonOptions<double> one_iteration{};
    one_iteration.max_iterations = 1;  // too few to converge: the first step fails
    long long calls = 0, last = -1;
    const auto r = geomint::integrate_trajectory(geomint::Newmark{}, pendulum, 2.0, 0.3, 0.05, 10LL, one_iteration,
                                                 [&](long long n, double, double) {
                                                     ++calls;
                                                     last = n;
                                                 });
    ASSERT_NE(r.status, SolveStatus::ok);
    EXPECT_EQ(calls, r.steps_completed + 1);
    EXPECT_EQ(last, r.steps_completed);
}

TEST(StepObserver, ChainSeesEveryStepAndTheStatesOfShorterRuns) {
    using namespace geomint::spin;
    const SpinningTop<double> top{};
    const double a = 1 / std::sqrt(3.0);
    const std::vector<double> start = {-a, -a, a};
    std::vector<double> spins = start, work(workspace_reals(ImplicitMidpoint{}, 1));
    std::vector<std::vector<double>> seen;
    const auto full = integrate_chain(ImplicitMidpoint{}, top, 0.1, 25LL, StridedSpins<double>{spins.data(), 1, 1},
                                      StridedReals<double>{work.data(), 1}, NewtonOptions<double>{},
                                      [&](long long n, const StridedSpins<double>& s) {
                                          EXPECT_EQ(n, static_cast<long long>(seen.size()));
                                          const Vec3<double> v = s.get(0);
                                          seen.push_back({v.x, v.y, v.z});
                                      });
    ASSERT_EQ(full.status, SolveStatus::ok);
    ASSERT_EQ(seen.size(), 26u);
    EXPECT_EQ(seen[0], start);
    for (long long n : {1LL, 7LL, 25LL}) {
        std::vector<double> shorter = start;
        integrate_chain(ImplicitMidpoint{}, top, 0.1, n, StridedSpins<double>{shorter.data(), 1, 1},
                        StridedReals<double>{work.data(), 1}, NewtonOptions<double>{});
        EXPECT_EQ(seen[n], shorter) << "step " << n;
    }
}

}  // namespace
