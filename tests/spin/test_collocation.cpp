// Coll-4, -6, -8 (math §2.3): observed orders on the chain (exact spin wave) and the top (an
// independent Boost.Odeint reference, itself checked here), energy at round-off over 10^4 steps,
// unit length, and reported Newton failures.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/collocation.hpp"
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

// The top sampled every `interval` up to samples * interval, m steps per interval.
template <class Scheme>
std::vector<Vec3<double>> top_path(double interval, int samples, int m) {
    std::vector<double> s = paper_top_start();
    std::vector<Vec3<double>> path;
    for (int k = 0; k < samples; ++k) {
        run(Scheme{}, SpinningTop<double>{}, interval / m, m, s);
        path.push_back(Vec3<double>{s[0], s[1], s[2]});
    }
    return path;
}

// Per scheme: the step sizes of the order fits, chosen so the errors stay far above round-off
// (>= 1e-13) and in the asymptotic range (measured: local orders within 0.15 of 2 s). The
// expected order is the scheme's own `order`, pinned by NamesAndOrders below.
template <class Scheme>
struct Plan;
template <>
struct Plan<Coll4> {
    static constexpr int chain_steps[3] = {20, 40, 80};  // over T = 10: errors 8e-6 .. 3e-8
    static constexpr int top_steps[3] = {10, 20, 40};    // per interval 2: errors 1e-7 .. 3e-10
};
template <>
struct Plan<Coll6> {
    static constexpr int chain_steps[3] = {20, 40, 50};  // errors 3e-9 .. 7e-12
    static constexpr int top_steps[3] = {5, 8, 10};      // errors 2e-9 .. 3e-11
};
template <>
struct Plan<Coll8> {
    static constexpr int chain_steps[3] = {10, 20, 25};  // errors 1e-9 .. 7e-13
    static constexpr int top_steps[3] = {3, 4, 6};       // errors 1e-9 .. 4e-12
};

template <class Scheme>
class CollocationTest : public ::testing::Test {};
using Schemes = ::testing::Types<Coll4, Coll6, Coll8>;
TYPED_TEST_SUITE(CollocationTest, Schemes, geomint_test::SchemeNames);

TYPED_TEST(CollocationTest, OrderOnTheHeisenbergChainAgainstTheExactSpinWave) {
    using Scheme = TypeParam;
    const int d = 8;
    const double T = 10;
    const SpinWave<double> wave = paper_spin_wave<double>(d);
    std::vector<double> h, error;
    for (int n : Plan<Scheme>::chain_steps) {
        std::vector<double> s(3 * d);
        wave.fill(StridedSpins<double>{s.data(), 1, d}, 0.0);
        const ChainResult<double> r = run(Scheme{}, HeisenbergChain<double>{}, T / n, n, s);
        double e = 0;
        for (int i = 0; i < d; ++i)
            e = std::fmax(e, norm(Vec3<double>{s[3 * i], s[3 * i + 1], s[3 * i + 2]} - wave.spin(i, T)));
        h.push_back(T / n);
        error.push_back(e);
        EXPECT_GT(e, 1e-13) << "too close to round-off for an order fit";
        EXPECT_LE(r.max_energy_error, 1e-13) << Scheme::name;  // |H0| = 5.4
        EXPECT_LE(r.max_norm_error, 1e-13) << Scheme::name;
    }
    const double order = observed_order(h, error);
    ::testing::Test::RecordProperty("chain_order", sci(order));
    EXPECT_NEAR(order, Scheme::order, 0.2) << Scheme::name;
}

TYPED_TEST(CollocationTest, OrderOnTheTopAgainstAnIndependentReference) {
    using Scheme = TypeParam;
    // Error = max over t = 2, 4, ..., 24 (a single final time can sit near a zero of one error
    // component and bend the fit). Reference: the Boost.Odeint solution of top_reference.hpp,
    // accurate to ~1e-16 (TopReference tests below), so no collocation scheme checks itself.
    const double interval = 2;
    const int samples = 12;
    const std::vector<std::array<double, 3>> reference =
        geomint_test::top_reference_path(paper_top_start(), interval, samples);
    std::vector<double> h, error;
    for (int m : Plan<Scheme>::top_steps) {
        const std::vector<Vec3<double>> path = top_path<Scheme>(interval, samples, m);
        double e = 0;
        for (int k = 0; k < samples; ++k)
            e = std::fmax(e, norm(path[k] - Vec3<double>{reference[k][0], reference[k][1], reference[k][2]}));
        h.push_back(interval / m);
        error.push_back(e);
        EXPECT_GT(e, 1e-13) << "too close to round-off for an order fit";
    }
    const double order = observed_order(h, error);
    ::testing::Test::RecordProperty("top_order", sci(order));
    EXPECT_NEAR(order, Scheme::order, 0.2) << Scheme::name;
}

// The reference of the top's order tests (top_reference.hpp) is itself checked: converged to
// double round-off (step halving; its 8th-order error drops 256-fold), on the sphere with the
// energy of the paper's top (invariants of the exact flow, computed here from the formula), moving,
// and agreeing with a fine Coll-8 run, which also confirms that both integrate the same equation
// with the same sign convention (ds/dt = s x grad H; the other sign gives an O(1) difference).
TEST(TopReference, IsConvergedAndKeepsTheInvariants) {
    const std::vector<double> s0 = paper_top_start();
    const auto path = geomint_test::top_reference_path(s0, 2, 12);
    const auto finer = geomint_test::top_reference_path(s0, 2, 12, 400);
    const auto energy = [](const std::array<double, 3>& s) {
        const double j[3] = {1, 0.5, 0.25};  // J = I^-1, I = diag(1, 2, 4)
        double e = 0;
        for (int k = 0; k < 3; ++k) e += j[k] * s[k] * s[k] / 2 + j[k] * s[k] * s[k] * s[k] / 3;
        return e;
    };
    const double e0 = energy({s0[0], s0[1], s0[2]});
    double halving = 0, norm_error = 0, energy_error = 0, moved = 0;
    for (std::size_t k = 0; k < path.size(); ++k) {
        halving = std::fmax(halving, geomint_test::distance_to({path[k][0], path[k][1], path[k][2]}, finer[k]));
        norm_error = std::fmax(norm_error, std::fabs(std::hypot(path[k][0], path[k][1], path[k][2]) - 1));
        energy_error = std::fmax(energy_error, std::fabs(energy(path[k]) - e0));
        moved = std::fmax(moved, geomint_test::distance_to(s0, path[k]));
    }
    ::testing::Test::RecordProperty("step_halving_difference", sci(halving));
    ::testing::Test::RecordProperty("norm_error", sci(norm_error));
    ::testing::Test::RecordProperty("energy_error", sci(energy_error));
    // 1e-15, a few ulps of these unit-size numbers, keeps the reference 100 times below the 1e-13
    // floor of the order fits. Measured: 1.9e-16, 2.2e-16, 5.6e-17 (rounding to double).
    EXPECT_LE(halving, 1e-15);
    EXPECT_LE(norm_error, 1e-15);
    EXPECT_LE(energy_error, 1e-15);
    EXPECT_GT(moved, 0.5);
}

TEST(TopReference, AgreesWithAFineColl8Run) {
    const auto reference = geomint_test::top_reference_path(paper_top_start(), 2, 12);
    const std::vector<Vec3<double>> coll8 = top_path<Coll8>(2, 12, 80);  // h = 1/40
    double e = 0;
    for (std::size_t k = 0; k < reference.size(); ++k)
        e = std::fmax(e, norm(coll8[k] - Vec3<double>{reference[k][0], reference[k][1], reference[k][2]}));
    ::testing::Test::RecordProperty("difference", sci(e));
    // Coll-8's truncation error at h = 1/40 is ~1e-18; what remains is its round-off over 960
    // steps, measured 4.2e-15. The bound is the 1e-13 floor of the order fits.
    EXPECT_LE(e, 1e-13);
}

TYPED_TEST(CollocationTest, TopEnergyAtRoundOffOverTenThousandSteps) {
    using Scheme = TypeParam;
    const SpinningTop<double> top;
    std::vector<double> s = paper_top_start();
    const double h0 = total_energy(top, StridedSpins<double>{s.data(), 1, 1});
    const ChainResult<double> r = run(Scheme{}, top, 0.1, 10000, s);
    ::testing::Test::RecordProperty("top_energy_error", sci(r.max_energy_error));
    EXPECT_LE(r.max_energy_error, 1e-12 * std::fmax(1.0, std::fabs(h0))) << Scheme::name;  // measured ~5e-16
    EXPECT_LE(r.max_norm_error, 1e-13) << Scheme::name;
    EXPECT_GT(r.newton_iterations, 10000);  // it really solved something
}

TYPED_TEST(CollocationTest, FailuresAreReportedAndLeaveTheStateUntouched) {
    using Scheme = TypeParam;
    const SpinningTop<double> top;
    std::vector<double> s = paper_top_start(), work(workspace_reals(Scheme{}, 1));
    const std::vector<double> start = s;
    // One iteration cannot reach the tolerance from the h -> 0 guess at h = 0.5.
    NewtonOptions<double> tight;
    tight.max_iterations = 1;
    const ChainResult<double> r = integrate_chain(Scheme{}, top, 0.5, 3, StridedSpins<double>{s.data(), 1, 1},
                                                  StridedReals<double>{work.data(), 1}, tight);
    EXPECT_EQ(r.status, SolveStatus::newton_max_iterations);
    EXPECT_EQ(r.steps_completed, 0);
    EXPECT_EQ(s, start);
    // A non-finite state is reported, never integrated silently.
    s[1] = std::numeric_limits<double>::quiet_NaN();
    const ChainResult<double> bad = integrate_chain(Scheme{}, top, 0.1, 3, StridedSpins<double>{s.data(), 1, 1},
                                                    StridedReals<double>{work.data(), 1}, NewtonOptions<double>{});
    EXPECT_NE(bad.status, SolveStatus::ok);
    EXPECT_EQ(bad.steps_completed, 0);
}

TYPED_TEST(CollocationTest, EnergyAtRoundOffOnOtherChainsFromRandomSpins) {
    // math §2.4 runs random initial spins too; the anisotropic chain (field, easy axis) and the
    // degenerate periodic chains d = 1, 2 (neighbour blocks coincide) exercise the coupling.
    using Scheme = TypeParam;
    const std::uint64_t seed = 1234;  // fixed: failures reproduce
    for (int d : {1, 2, 7}) {
        std::vector<double> s(3 * d);
        fill_random_spins(StridedSpins<double>{s.data(), 1, d}, seed, static_cast<std::uint64_t>(d));
        std::vector<double> a = s;
        const ChainResult<double> heisenberg = run(Scheme{}, HeisenbergChain<double>{}, 0.1, 100, s);
        EXPECT_LE(heisenberg.max_energy_error, 1e-13) << "d = " << d;
        EXPECT_LE(heisenberg.max_norm_error, 1e-13) << "d = " << d;
        const ChainResult<double> anisotropic = run(Scheme{}, AnisotropicChain<double>{}, 0.1, 100, a);
        EXPECT_LE(anisotropic.max_energy_error, 1e-13) << "d = " << d;
    }
}

TEST(Collocation, NamesAndOrders) {
    EXPECT_STREQ(Coll4::name, "coll4");
    EXPECT_STREQ(Coll6::name, "coll6");
    EXPECT_STREQ(Coll8::name, "coll8");
    static_assert(Coll4::order == 4 && Coll6::order == 6 && Coll8::order == 8);
}

TEST(Collocation, TablesAreTheGaussRungeKuttaCoefficients) {
    // s = 2: the Gauss method's a_kj (Hairer-Wanner): 1/4, 1/4 - sqrt3/6; 1/4 + sqrt3/6, 1/4.
    constexpr CollocationTables<2> t = make_collocation_tables<2>();
    const double r = std::sqrt(3.0) / 6;
    EXPECT_NEAR(t.stage[0][0], 0.25, 1e-15);
    EXPECT_NEAR(t.stage[0][1], 0.25 - r, 1e-15);
    EXPECT_NEAR(t.stage[1][0], 0.25 + r, 1e-15);
    EXPECT_NEAR(t.stage[1][1], 0.25, 1e-15);
    // Every s: row sums of a are c_k (sigma is exact for constant Z), and the quadrature of
    // l_j / b_j integrates to 1.
    constexpr CollocationTables<4> t4 = make_collocation_tables<4>();
    for (int k = 0; k < 4; ++k) {
        double row = 0, integral = 0;
        for (int j = 0; j < 4; ++j) row += t4.stage[k][j];
        for (int q = 0; q < 16; ++q) integral += t4.integrand[q][k];
        EXPECT_NEAR(row, GaussLegendre<4>::node(k), 1e-15);
        EXPECT_NEAR(integral, 1.0, 1e-14);
    }
}

TEST(Collocation, FloatCompilesAndConservesEnergyToFloatRoundOff) {
    const SpinningTop<float> top;
    const float a = 1 / std::sqrt(3.0f);
    float s[3] = {-a, -a, a};
    std::vector<float> work(workspace_reals(Coll6{}, 1));
    const StridedSpins<float> state{s, 1, 1};
    const float h0 = total_energy(top, state);
    const ChainResult<float> r =
        integrate_chain(Coll6{}, top, 0.1f, 200, state, StridedReals<float>{work.data(), 1}, NewtonOptions<float>{});
    EXPECT_EQ(r.status, SolveStatus::ok);
    EXPECT_LE(r.max_energy_error, 1e-5f * std::fmax(1.0f, std::fabs(h0)));
}

}  // namespace
