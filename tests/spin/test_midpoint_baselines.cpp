// The baselines of math §2.5: implicit midpoint (embedding) and spherical midpoint (McLachlan-
// Modin-Verdier): order 2, unit length, and the midpoint rule's visible energy error on the top.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/schemes/collocation.hpp"
#include "geomint/spin/schemes/midpoint_baselines.hpp"
#include "geomint/spin/spin_wave.hpp"
#include "geomint/spin/systems.hpp"
#include "order_fit.hpp"
#include "spin_test_support.hpp"
#include "top_reference.hpp"

namespace {

using geomint_test::observed_order;
using geomint_test::paper_top_start;
using geomint_test::run;
using geomint_test::sci;

using namespace geomint::spin;
using geomint::NewtonOptions;
using geomint::SolveStatus;

template <class Scheme>
class MidpointTest : public ::testing::Test {};
using Schemes = ::testing::Types<ImplicitMidpoint, SphericalMidpoint>;
TYPED_TEST_SUITE(MidpointTest, Schemes, geomint_test::SchemeNames);

TYPED_TEST(MidpointTest, OrderTwoOnTheChainAgainstTheExactSpinWave) {
    using Scheme = TypeParam;
    const int d = 8;
    const double T = 10;
    const SpinWave<double> wave = paper_spin_wave<double>(d);
    std::vector<double> h, error;
    for (int n : {50, 100, 200}) {
        std::vector<double> s(3 * d);
        wave.fill(StridedSpins<double>{s.data(), 1, d}, 0.0);
        const ChainResult<double> r = run(Scheme{}, HeisenbergChain<double>{}, T / n, n, s);
        double e = 0;
        for (int i = 0; i < d; ++i)
            e = std::fmax(e, norm(Vec3<double>{s[3 * i], s[3 * i + 1], s[3 * i + 2]} - wave.spin(i, T)));
        h.push_back(T / n);
        error.push_back(e);
        EXPECT_LE(r.max_norm_error, 1e-13) << Scheme::name;
    }
    const double order = observed_order(h, error);
    ::testing::Test::RecordProperty("chain_order", sci(order));
    EXPECT_NEAR(order, 2.0, 0.1) << Scheme::name;
}

TYPED_TEST(MidpointTest, OrderTwoOnTheTopAgainstAnIndependentReference) {
    using Scheme = TypeParam;
    const double T = 10;
    // The Boost.Odeint solution of top_reference.hpp, accurate to ~1e-16 (test_collocation.cpp).
    const std::array<double, 3> reference = geomint_test::top_reference(paper_top_start(), T);
    std::vector<double> h, error;
    for (int n : {100, 200, 400}) {
        std::vector<double> s = paper_top_start();
        run(Scheme{}, SpinningTop<double>{}, T / n, n, s);
        h.push_back(T / n);
        error.push_back(geomint_test::distance_to(s, reference));
    }
    const double order = observed_order(h, error);
    ::testing::Test::RecordProperty("top_order", sci(order));
    EXPECT_NEAR(order, 2.0, 0.1) << Scheme::name;
}

TEST(Midpoint, ImplicitMidpointVisiblyMissesTheTopEnergyWhereCollocationDoesNot) {
    // math §2.5: the midpoint rule in R^3 preserves quadratic invariants only; the top's H is
    // cubic. Measured at h = 0.1 over 10^4 steps: 1.7e-4 (midpoint) vs ~5e-16 (collocation).
    const SpinningTop<double> top;
    std::vector<double> s = paper_top_start();
    const ChainResult<double> midpoint = run(ImplicitMidpoint{}, top, 0.1, 10000, s);
    ::testing::Test::RecordProperty("implicit_midpoint_energy_error", sci(midpoint.max_energy_error));
    EXPECT_GT(midpoint.max_energy_error, 1e-5);
    EXPECT_LE(midpoint.max_norm_error, 1e-13);
    std::vector<double> c = paper_top_start();
    const ChainResult<double> coll = run(Coll4{}, top, 0.1, 10000, c);
    EXPECT_LE(coll.max_energy_error, 1e-14);
}

TEST(Midpoint, SphericalMidpointKeepsUnitLengthWithoutRenormalising) {
    // |v_i| = |u_i| is a property of the rule, not of a normalisation (midpoint_baselines.hpp);
    // over 10^4 steps only the Newton tolerance can move it. Its energy error is bounded
    // (symplectic) but not round-off: 7.5e-5 measured.
    const SpinningTop<double> top;
    std::vector<double> s = paper_top_start();
    const ChainResult<double> r = run(SphericalMidpoint{}, top, 0.1, 10000, s);
    ::testing::Test::RecordProperty("spherical_midpoint_energy_error", sci(r.max_energy_error));
    EXPECT_LE(r.max_norm_error, 1e-13);
    EXPECT_GT(r.max_energy_error, 1e-6);
    EXPECT_LT(r.max_energy_error, 1e-3);
    // And on the chain (the spin wave): unit length to round-off as well.
    const int d = 8;
    std::vector<double> chain(3 * d);
    paper_spin_wave<double>(d).fill(StridedSpins<double>{chain.data(), 1, d}, 0.0);
    EXPECT_LE(run(SphericalMidpoint{}, HeisenbergChain<double>{}, 0.2, 2000, chain).max_norm_error, 1e-13);
}

TEST(Midpoint, FloatCompilesAndRuns) {
    const int d = 5;
    std::vector<float> s(3 * d), work(workspace_reals(SphericalMidpoint{}, d));
    paper_spin_wave<float>(d).fill(StridedSpins<float>{s.data(), 1, d}, 0.0f);
    const ChainResult<float> r =
        integrate_chain(ImplicitMidpoint{}, HeisenbergChain<float>{}, 0.05f, 100, StridedSpins<float>{s.data(), 1, d},
                        StridedReals<float>{work.data(), 1}, NewtonOptions<float>{});
    EXPECT_EQ(r.status, SolveStatus::ok);
    EXPECT_LE(r.max_norm_error, 1e-6f);
}

TEST(Midpoint, Names) {
    EXPECT_STREQ(ImplicitMidpoint::name, "implicit_midpoint");
    EXPECT_STREQ(SphericalMidpoint::name, "spherical_midpoint");
}

}  // namespace
