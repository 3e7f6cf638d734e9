// Checks the DRG schemes of math §2.2 (avf, mp, mmp, ia, sia, comp2, compsia, comp4): the DRG
// identity, observed orders (math §2.4), energy and unit length over long runs, failure
// reporting, and bitwise independence of the memory layout.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/spin_wave.hpp"
#include "geomint/spin/systems.hpp"
#include "spin_test_support.hpp"
#include "top_reference.hpp"

namespace {

namespace gs = geomint::spin;
using geomint::NewtonOptions;
using geomint::SolveStatus;
using V = gs::Vec3<double>;
using geomint_test::paper_top_start;
using geomint_test::run;
using geomint_test::run_unchecked;

constexpr std::uint64_t kSeed = 20240611;  // fixed, so every failure reproduces

std::vector<double> wave_start(int d) {
    std::vector<double> s(3 * d);
    gs::paper_spin_wave<double>(d).fill(gs::StridedSpins<double>{s.data(), 1, d}, 0.0);
    return s;
}

std::vector<double> random_chain(int d, std::uint64_t chain) {
    std::vector<double> s(3 * d);
    gs::fill_random_spins(gs::StridedSpins<double>{s.data(), 1, d}, kSeed, chain);
    return s;
}

double distance(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (std::size_t k = 0; k < a.size(); ++k) s += (a[k] - b[k]) * (a[k] - b[k]);
    return std::sqrt(s);
}

// ---------------------------------------------------------------------------------------------
// The DRG identity H(v) - H(u) = sum_i g_i . (phi_c^{-1}(v_i) - phi_c^{-1}(u_i)) for arbitrary u, v.

template <class Gradient, class System>
double identity_defect(const System& system, Gradient gradient, const std::vector<double>& u,
                       const std::vector<double>& v, bool symmetric) {
    const int d = static_cast<int>(u.size() / 3);
    std::vector<double> uu = u, vv = v;
    const gs::StridedSpins<double> us{uu.data(), 1, d}, vs{vv.data(), 1, d};
    if constexpr (requires { gradient.prepare(system, us, vs); }) gradient.prepare(system, us, vs);
    double sum = 0;
    for (int i = 0; i < d; ++i) {
        const int il = us.wrap(i - 1), ir = us.wrap(i + 1);
        const gs::Neighbourhood<double, double> n{i,          d,          us.get(il), us.get(i),
                                                  us.get(ir), vs.get(il), vs.get(i),  vs.get(ir)};
        const V c = symmetric ? gs::symmetric_centre(n.u, n.v) : n.u;
        const V g = gradient(system, n, c);
        sum += dot(g, gs::inverse_retract(c, n.v) - gs::inverse_retract(c, n.u));
    }
    return sum - (gs::total_energy(system, vs) - gs::total_energy(system, us));
}

template <class System>
void check_identities(const System& system, int d) {
    for (std::uint64_t k = 0; k < 5; ++k) {
        const std::vector<double> u = random_chain(d, 2 * k);
        std::vector<double> v = random_chain(d, 2 * k + 1);
        for (int i = 0; i < 3 * d; i += 3) {  // v near u, so that c.u > 0
            V w{u[i] + 0.4 * v[i], u[i + 1] + 0.4 * v[i + 1], u[i + 2] + 0.4 * v[i + 2]};
            w = w / norm(w);
            v[i] = w.x, v[i + 1] = w.y, v[i + 2] = w.z;
        }
        EXPECT_NEAR(identity_defect(system, gs::AvfGradient{}, u, v, true), 0.0, 1e-12) << "avf " << k;
        EXPECT_NEAR(identity_defect(system, gs::MidpointGradient<double>{}, u, v, true), 0.0, 1e-13) << "mp " << k;
        EXPECT_NEAR(identity_defect(system, gs::ItohAbeGradient<gs::IaDirection::forward>{}, u, v, false), 0.0, 1e-13)
            << "ia, c = u " << k;
        EXPECT_NEAR(identity_defect(system, gs::ItohAbeGradient<gs::IaDirection::forward>{}, u, v, true), 0.0, 1e-13)
            << "ia " << k;
        EXPECT_NEAR(identity_defect(system, gs::ItohAbeGradient<gs::IaDirection::adjoint>{}, u, v, true), 0.0, 1e-13)
            << "ia adjoint " << k;
        EXPECT_NEAR(identity_defect(system, gs::ItohAbeGradient<gs::IaDirection::symmetrised>{}, u, v, true), 0.0,
                    1e-13)
            << "sia " << k;
        if constexpr (System::is_chain) {
            EXPECT_NEAR(identity_defect(system, gs::LocalMidpointGradient{}, u, v, true), 0.0, 1e-13) << "mmp " << k;
        }
    }
}

TEST(DrgIdentity, HoldsForEveryGradient) {
    check_identities(gs::SpinningTop<double>{}, 1);
    check_identities(gs::HeisenbergChain<double>{}, 7);
    check_identities(gs::AnisotropicChain<double>{}, 5);
}

// The DRG equals the gradient's tangent part at u = v (consistency, math §2.2).
TEST(DrgIdentity, ReducesToTheGradientAtUEqualsV) {
    const gs::HeisenbergChain<double> chain;
    const int d = 5;
    std::vector<double> u = random_chain(d, 11);
    const gs::StridedSpins<double> us{u.data(), 1, d};
    for (int i = 0; i < d; ++i) {
        const gs::Neighbourhood<double, double> n{i,
                                                  d,
                                                  us.get(us.wrap(i - 1)),
                                                  us.get(i),
                                                  us.get(us.wrap(i + 1)),
                                                  us.get(us.wrap(i - 1)),
                                                  us.get(i),
                                                  us.get(us.wrap(i + 1))};
        const V grad = chain.gradient(n.ul, n.u, n.ur);
        const V tangential = grad - n.u * dot(n.u, grad);
        const V ia = gs::ItohAbeGradient<gs::IaDirection::forward>{}(chain, n, n.u);
        EXPECT_LT(norm(ia - tangential), 1e-14);
        const V avf = gs::AvfGradient{}(chain, n, n.u);
        EXPECT_LT(norm(avf - n.u * dot(n.u, avf) - tangential), 1e-14);
        const V mmp = gs::LocalMidpointGradient{}(chain, n, n.u);
        EXPECT_LT(norm(mmp - grad), 1e-14);
    }
}

// ---------------------------------------------------------------------------------------------
// Typed tests over the schemes.

// The typed order tests below compare with each scheme's own `order`; this pins those members to
// math §2.4 (and the README's table), so a wrong claim cannot make an order test pass.
TEST(DrgSchemes, NamesAndOrders) {
    static_assert(gs::Avf::order == 2 && gs::GonzalezMidpoint::order == 2 && gs::LocalMidpoint::order == 2);
    static_assert(gs::ItohAbe::order == 1 && gs::SymmetrisedItohAbe::order == 2 && gs::Comp2::order == 2);
    static_assert(gs::CompSia::order == 4 && gs::Comp4::order == 4);
    EXPECT_STREQ(gs::Avf::name, "avf");
    EXPECT_STREQ(gs::GonzalezMidpoint::name, "mp");
    EXPECT_STREQ(gs::LocalMidpoint::name, "mmp");
    EXPECT_STREQ(gs::ItohAbe::name, "ia");
    EXPECT_STREQ(gs::SymmetrisedItohAbe::name, "sia");
    EXPECT_STREQ(gs::Comp2::name, "comp2");
    EXPECT_STREQ(gs::CompSia::name, "compsia");
    EXPECT_STREQ(gs::Comp4::name, "comp4");
}

// Step counts for the two runs of an order estimate (errors well above round-off, well inside
// the asymptotic range).
template <class S>
void order_steps(int& coarse, int& fine) {
    constexpr int p = S::order;
    coarse = p == 1 ? 80 : (p == 2 ? 20 : 10);
    fine = 2 * coarse;
}

template <class S>
class ChainScheme : public ::testing::Test {};
template <class S>
class TopScheme : public ::testing::Test {};

using ChainSchemes = ::testing::Types<gs::Avf, gs::GonzalezMidpoint, gs::LocalMidpoint, gs::ItohAbe,
                                      gs::SymmetrisedItohAbe, gs::Comp2, gs::CompSia, gs::Comp4>;
using TopSchemes = ::testing::Types<gs::Avf, gs::GonzalezMidpoint, gs::ItohAbe, gs::SymmetrisedItohAbe, gs::Comp2,
                                    gs::CompSia, gs::Comp4>;
TYPED_TEST_SUITE(ChainScheme, ChainSchemes, geomint_test::SchemeNames);
TYPED_TEST_SUITE(TopScheme, TopSchemes, geomint_test::SchemeNames);

// Observed order on the d = 8 chain against the exact spin wave at T = 1 (math §2, §2.4).
TYPED_TEST(ChainScheme, ObservedOrderAgainstTheExactSpinWave) {
    const int d = 8;
    const gs::HeisenbergChain<double> chain;
    const auto wave = gs::paper_spin_wave<double>(d);
    std::vector<double> exact(3 * d);
    wave.fill(gs::StridedSpins<double>{exact.data(), 1, d}, 1.0);
    int coarse, fine;
    order_steps<TypeParam>(coarse, fine);
    double err[2];
    for (int k = 0; k < 2; ++k) {
        const int n = k == 0 ? coarse : fine;
        std::vector<double> s = wave_start(d);
        const auto r = run(TypeParam{}, chain, 1.0 / n, n, s);
        ASSERT_EQ(r.status, SolveStatus::ok);
        err[k] = distance(s, exact);
    }
    const double order = std::log2(err[0] / err[1]);
    EXPECT_NEAR(order, TypeParam::order, 0.2) << TypeParam::name << ": errors " << err[0] << ", " << err[1];
}

// Observed order on the top (math §2.5), s0 = (-1, -1, 1)/sqrt 3, T = 1, against the independent
// Boost.Odeint solution of top_reference.hpp (not against a DRG scheme, which could share a bug
// with the scheme under test).
TYPED_TEST(TopScheme, ObservedOrderAgainstAnIndependentReference) {
    const gs::SpinningTop<double> top;
    const std::array<double, 3> reference = geomint_test::top_reference(paper_top_start(), 1.0);
    int coarse, fine;
    order_steps<TypeParam>(coarse, fine);
    double err[2];
    for (int k = 0; k < 2; ++k) {
        const int n = k == 0 ? coarse : fine;
        std::vector<double> s = paper_top_start();
        ASSERT_EQ(run(TypeParam{}, top, 1.0 / n, n, s).status, SolveStatus::ok);
        err[k] = geomint_test::distance_to(s, reference);
    }
    const double order = std::log2(err[0] / err[1]);
    ::testing::Test::RecordProperty("top_order", geomint_test::sci(order));
    ::testing::Test::RecordProperty("top_errors", geomint_test::sci(err[0]) + " " + geomint_test::sci(err[1]));
    EXPECT_NEAR(order, TypeParam::order, 0.2) << TypeParam::name << ": errors " << err[0] << ", " << err[1];
}

// 10^4 steps of h = 0.1 on the top (the paper's setting, math §2.5): energy to round-off, unit
// length to round-off.
TYPED_TEST(TopScheme, PreservesEnergyAndUnitLengthOverTenThousandSteps) {
    const gs::SpinningTop<double> top;
    std::vector<double> s = paper_top_start();
    const double h0 = top.energy_density(V{s[0], s[1], s[2]}, V{s[0], s[1], s[2]}, V{s[0], s[1], s[2]});
    const auto r = run(TypeParam{}, top, 0.1, 10000, s);
    ASSERT_EQ(r.status, SolveStatus::ok);
    EXPECT_EQ(r.steps_completed, 10000);
    EXPECT_LE(r.max_energy_error, 1e-12 * std::fmax(1.0, std::fabs(h0))) << TypeParam::name;
    EXPECT_LE(r.max_norm_error, 1e-13) << TypeParam::name;
    EXPECT_GT(r.newton_iterations, 10000);  // every step did solve something
}

// A chain from random (seeded) spins: energy and unit length over a long run.
TYPED_TEST(ChainScheme, PreservesEnergyAndUnitLengthOnARandomChain) {
    const int d = 10;
    const gs::HeisenbergChain<double> chain;
    std::vector<double> s = random_chain(d, 0);
    const double h0 = gs::total_energy(chain, gs::StridedSpins<double>{s.data(), 1, d});
    const long long steps = 2000;
    const auto r = run(TypeParam{}, chain, 0.1, steps, s);
    ASSERT_EQ(r.status, SolveStatus::ok);
    EXPECT_LE(r.max_energy_error, 1e-12 * std::fmax(1.0, std::fabs(h0))) << TypeParam::name;
    EXPECT_LE(r.max_norm_error, 1e-13) << TypeParam::name;
}

// 10^4 steps on a random chain for a few schemes (one of each kind of DRG: global scalar,
// local midpoint, Itoh-Abe walk).
TEST(ChainEnergy, TenThousandStepsOnARandomChain) {
    const int d = 8;
    const gs::HeisenbergChain<double> chain;
    for (int k = 0; k < 3; ++k) {
        std::vector<double> s = random_chain(d, 9);
        const double h0 = gs::total_energy(chain, gs::StridedSpins<double>{s.data(), 1, d});
        gs::ChainResult<double> r{};
        if (k == 0) r = run(gs::GonzalezMidpoint{}, chain, 0.1, 10000, s);
        if (k == 1) r = run(gs::LocalMidpoint{}, chain, 0.1, 10000, s);
        if (k == 2) r = run(gs::SymmetrisedItohAbe{}, chain, 0.1, 10000, s);
        ASSERT_EQ(r.status, SolveStatus::ok) << "scheme " << k;
        EXPECT_LE(r.max_energy_error, 1e-12 * std::fmax(1.0, std::fabs(h0))) << "scheme " << k;
        EXPECT_LE(r.max_norm_error, 1e-13) << "scheme " << k;
    }
}

// One Newton iteration cannot converge a step that moves: the step must fail, say so, and leave
// the state as it was (finite).
TYPED_TEST(ChainScheme, ReportsNewtonFailureAndKeepsTheLastGoodState) {
    const int d = 6;
    const gs::HeisenbergChain<double> chain;
    std::vector<double> s = random_chain(d, 3);
    const std::vector<double> before = s;
    NewtonOptions<double> one;
    one.max_iterations = 1;
    const auto r = run_unchecked(TypeParam{}, chain, 0.1, 5, s, one);
    EXPECT_EQ(r.status, SolveStatus::newton_max_iterations);
    EXPECT_EQ(r.steps_completed, 0);
    EXPECT_EQ(s, before);
    // A non-finite state is reported, never integrated silently.
    s[4] = std::numeric_limits<double>::quiet_NaN();
    const auto bad = run_unchecked(TypeParam{}, chain, 0.1, 5, s);
    EXPECT_NE(bad.status, SolveStatus::ok);
    EXPECT_EQ(bad.steps_completed, 0);
}

// A step far too large for Newton (h = 50 on a random chain): a failure status, no step taken,
// the state as it was and finite.
TYPED_TEST(ChainScheme, ReportsAStepTooLargeForNewton) {
    const int d = 10;
    const gs::HeisenbergChain<double> chain;
    std::vector<double> s = random_chain(d, 1);
    const std::vector<double> before = s;
    const auto r = run_unchecked(TypeParam{}, chain, 50.0, 20, s);
    EXPECT_NE(r.status, SolveStatus::ok) << TypeParam::name;
    EXPECT_EQ(r.steps_completed, 0);
    EXPECT_EQ(s, before);
    for (double x : s) EXPECT_TRUE(std::isfinite(x));
}

// The same chain alone (stride 1) and as chain 1 of 3 side by side (stride 3, SoA, with a
// strided workspace) gives the same bits.
TYPED_TEST(ChainScheme, StrideDoesNotChangeTheBits) {
    const int d = 7, n_chains = 3;
    const gs::AnisotropicChain<double> chain;
    std::vector<double> alone = random_chain(d, 5);
    const auto r1 = run(TypeParam{}, chain, 0.05, 20, alone);
    ASSERT_EQ(r1.status, SolveStatus::ok);

    std::vector<double> soa(3 * d * n_chains);
    for (int t = 0; t < n_chains; ++t) {
        const std::vector<double> s = random_chain(d, t == 1 ? 5 : 40 + t);
        for (int k = 0; k < 3 * d; ++k) soa[k * n_chains + t] = s[k];
    }
    std::vector<double> work(gs::workspace_reals(TypeParam{}, d) * n_chains, 0.0);
    gs::ChainResult<double> r3{};
    for (int t = 0; t < n_chains; ++t) {
        const auto r =
            gs::integrate_chain(TypeParam{}, chain, 0.05, 20, gs::StridedSpins<double>{soa.data() + t, n_chains, d},
                                gs::StridedReals<double>{work.data() + t, n_chains}, NewtonOptions<double>{});
        if (t == 1) r3 = r;
    }
    ASSERT_EQ(r3.status, SolveStatus::ok);
    EXPECT_EQ(r3.newton_iterations, r1.newton_iterations);
    for (int k = 0; k < 3 * d; ++k) {
        const double a = alone[k], b = soa[k * n_chains + 1];
        EXPECT_EQ(std::memcmp(&a, &b, sizeof(double)), 0) << "component " << k;
    }
    EXPECT_EQ(std::memcmp(&r1.max_energy_error, &r3.max_energy_error, sizeof(double)), 0);
}

// The anisotropic chain (field and easy axis) conserves its energy too.
TEST(AnisotropicChain, EnergyIsConserved) {
    const int d = 9;
    const gs::AnisotropicChain<double> chain;
    for (int k = 0; k < 4; ++k) {
        std::vector<double> s = random_chain(d, 7);
        const double h0 = gs::total_energy(chain, gs::StridedSpins<double>{s.data(), 1, d});
        gs::ChainResult<double> r{};
        if (k == 0) r = run(gs::Avf{}, chain, 0.1, 2000, s);
        if (k == 1) r = run(gs::LocalMidpoint{}, chain, 0.1, 2000, s);
        if (k == 2) r = run(gs::SymmetrisedItohAbe{}, chain, 0.1, 2000, s);
        if (k == 3) r = run(gs::GonzalezMidpoint{}, chain, 0.1, 2000, s);
        ASSERT_EQ(r.status, SolveStatus::ok);
        EXPECT_LE(r.max_energy_error, 1e-12 * std::fmax(1.0, std::fabs(h0))) << "scheme " << k;
    }
}

// Float compiles and runs, on the host: the spin headers promise float (INTERFACE.md), and this
// is what keeps that promise compiling; no device code runs here.
TEST(DrgSchemes, FloatRuns) {
    const int d = 8;
    std::vector<float> s(3 * d);
    gs::paper_spin_wave<float>(d).fill(gs::StridedSpins<float>{s.data(), 1, d}, 0.0f);
    std::vector<float> work(gs::workspace_reals(gs::Avf{}, d));
    const auto r = gs::integrate_chain(gs::Avf{}, gs::HeisenbergChain<float>{}, 0.05f, 100,
                                       gs::StridedSpins<float>{s.data(), 1, d}, gs::StridedReals<float>{work.data(), 1},
                                       NewtonOptions<float>{});
    ASSERT_EQ(r.status, SolveStatus::ok);
    EXPECT_LT(r.max_energy_error, 1e-4f);
    EXPECT_LT(r.max_norm_error, 1e-6f);
}

}  // namespace
