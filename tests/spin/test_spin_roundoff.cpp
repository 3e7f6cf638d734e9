// Round-off of long spin runs (math §2.6): every DRG scheme's energy error grows no faster than
// sqrt(n) (Brouwer's law), and the increment form of the retraction is the same map as the
// absolute form to round-off.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "geomint/spin/explicit_guess.hpp"
#include "geomint/spin/geometry.hpp"
#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/schemes/midpoint_baselines.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/spin/team.hpp"
#include "spin_test_support.hpp"

namespace {

namespace gs = geomint::spin;
using V = gs::Vec3<double>;
using LV = gs::Vec3<long double>;
constexpr double eps = std::numeric_limits<double>::epsilon();

// How many times one step rounds the state: once per stage that writes a state (Comp-2 two half
// stages, the triple jumps three stages of their base step).
template <class Scheme>
constexpr int roundings_per_step() {
    if constexpr (std::is_same_v<Scheme, gs::Comp2>) return 2;
    if constexpr (std::is_same_v<Scheme, gs::CompSia>) return 3;
    if constexpr (std::is_same_v<Scheme, gs::Comp4>) return 6;
    return 1;
}

// Euclidean norm of the whole gradient (dH/ds_1, ..., dH/ds_d) at a state.
template <class System>
double gradient_norm(const System& system, gs::StridedSpins<double> s) {
    double sum = 0;
    for (int i = 0; i < s.d; ++i) {
        const V g = system.gradient(s.get(s.wrap(i - 1)), s.get(i), s.get(s.wrap(i + 1)));
        sum += dot(g, g);
    }
    return std::sqrt(sum);
}

// The Brouwer bound. Each rounding of the state moves spin i by delta_i with every component
// within u = eps/2 of its own size, so |delta_i| <= u |s_i| = u, and the energy by
// dH.delta + O(u^2). Taken as independent and of mean zero (what the increment form is for),
// these steps have a standard deviation of at most G u per rounding, G = max |dH| along the run
// (sum over i of |dH/ds_i|^2 |delta_i|^2), so after n roundings the energy error is a random
// walk of deviation G u sqrt(n). By Levy's inequality its maximum over the run exceeds four
// deviations with probability below 2 P(|N(0,1)| > 4) = 1.3e-4: the bound is 4 G u sqrt(n).
// A drift b n, however small b is, exceeds it once n is large enough; the run lengths below
// are the shortest at which the former absolute form did for the top (math §2.6).
double brouwer_bound(double max_gradient, long long roundings) {
    return 4 * max_gradient * (eps / 2) * std::sqrt(static_cast<double>(roundings));
}

struct LongRun {
    double max_energy_error, max_gradient, max_norm_error;
};

template <class Scheme, class System>
LongRun long_run(const System& system, std::vector<double> spins, double h, long long steps) {
    const int d = static_cast<int>(spins.size() / 3);
    std::vector<double> work(gs::workspace_reals(Scheme{}, d));
    double max_gradient = 0;
    const auto r = gs::integrate_chain(Scheme{}, system, h, steps, gs::StridedSpins<double>{spins.data(), 1, d},
                                       gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{},
                                       [&](long long, const gs::StridedSpins<double>& s) {
                                           max_gradient = std::fmax(max_gradient, gradient_norm(system, s));
                                       });
    EXPECT_EQ(r.status, geomint::SolveStatus::ok) << Scheme::name;
    EXPECT_EQ(r.steps_completed, steps) << Scheme::name;
    return {r.max_energy_error, max_gradient, r.max_norm_error};
}

template <class Scheme>
class RoundoffTop : public ::testing::Test {};
template <class Scheme>
class RoundoffChain : public ::testing::Test {};
using TopSchemes = ::testing::Types<gs::Avf, gs::GonzalezMidpoint, gs::ItohAbe, gs::SymmetrisedItohAbe, gs::Comp2,
                                    gs::CompSia, gs::Comp4>;
using ChainSchemes = ::testing::Types<gs::Avf, gs::GonzalezMidpoint, gs::LocalMidpoint, gs::ItohAbe,
                                      gs::SymmetrisedItohAbe, gs::Comp2, gs::CompSia, gs::Comp4>;
TYPED_TEST_SUITE(RoundoffTop, TopSchemes, geomint_test::SchemeNames);
TYPED_TEST_SUITE(RoundoffChain, ChainSchemes, geomint_test::SchemeNames);

// The paper's top, h = 0.05 (max |dH| along the orbit 0.77). mp drifted most in the former form
// (absolute retraction, plainly rounded u.u): 9.2e-14 after 10^5 steps, just below that bound
// (1.07e-13), and 3.7e-13 after 4 10^5 steps, above it (2.1e-13); so mp runs 4 10^5 steps and
// the others, whose former drift was smaller, 10^5 (CI time).
TYPED_TEST(RoundoffTop, EnergyErrorGrowsLikeSquareRootOfSteps) {
    const long long steps = std::is_same_v<TypeParam, gs::GonzalezMidpoint> ? 400000 : 100000;
    const LongRun r = long_run<TypeParam>(gs::SpinningTop<double>{}, geomint_test::paper_top_start(), 0.05, steps);
    const double bound = brouwer_bound(r.max_gradient, roundings_per_step<TypeParam>() * steps);
    ::testing::Test::RecordProperty("energy_error", geomint_test::sci(r.max_energy_error));
    ::testing::Test::RecordProperty("bound", geomint_test::sci(bound));
    EXPECT_LE(r.max_energy_error, bound) << TypeParam::name;
    EXPECT_LE(r.max_norm_error, 2 * eps) << TypeParam::name;  // each step lands within an ulp or so
}

// A DRG scheme on the paper's top, 10^6 steps of h = 0.05, against the same random-walk bound with
// the deviation measured in the run instead of its worst case G u (math §2.6). Each step's energy
// change H(s_{n+1}) - H(s_n) is taken in long double (the double evaluation's own rounding would
// widen it); sigma is their root mean square over the run, which also counts any mean they have,
// so it is never below the true deviation. If the changes are independent and of mean zero (what
// Brouwer's law assumes), the largest |H(s_n) - H(s_0)| exceeds 4 sigma sqrt(n) with probability
// below 1.3e-4 (Levy's inequality, as above). The worst case G u (8.5e-17) is about 5 times
// sigma here, so the bound above would not see a drift of 2e-19 a step before 3 10^6 steps; this
// one does from a few 10^5.
// step(s) takes one step of h = 0.05 of the paper's top in place; false when it failed.
template <class Step>
void expect_within_measured_random_walk(const char* name, const Step& step) {
    const long long steps = 1000000;
    const gs::SpinningTop<long double> lsystem{};
    std::vector<double> spins = geomint_test::paper_top_start();
    const gs::StridedSpins<double> state{spins.data(), 1, 1};
    const auto energy = [&] { return lsystem.energy_density(LV{}, gs::vec3_cast<long double>(state.get(0)), LV{}); };
    const long double h0 = energy();
    long double previous = h0, sum_squares = 0, largest = 0;
    for (long long n = 1; n <= steps; ++n) {
        ASSERT_TRUE(step(state)) << name << " failed at step " << n;
        const long double e = energy();
        sum_squares += (e - previous) * (e - previous);
        largest = std::fmax(largest, std::fabs(e - h0));
        previous = e;
    }
    const double sigma = static_cast<double>(std::sqrt(sum_squares / steps));
    const double bound = 4 * sigma * std::sqrt(static_cast<double>(steps));
    ::testing::Test::RecordProperty("energy_error", geomint_test::sci(static_cast<double>(largest)));
    ::testing::Test::RecordProperty("sigma", geomint_test::sci(sigma));
    ::testing::Test::RecordProperty("bound", geomint_test::sci(bound));
    EXPECT_GT(sigma, 0.0);  // a run with no rounding at all would make the bound vacuous
    EXPECT_LE(static_cast<double>(largest), bound) << name << ", sigma " << sigma;
}

// A scheme's step, as the host runs it.
template <class Scheme>
void expect_scheme_within_measured_random_walk() {
    const gs::SpinningTop<double> system{};
    std::vector<double> work(gs::workspace_reals(Scheme{}, 1));
    expect_within_measured_random_walk(Scheme::name, [&](gs::StridedSpins<double> s) {
        return Scheme{}
                   .step(system, 0.05, s, gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{})
                   .status == geomint::SolveStatus::ok;
    });
}

// Gonzalez mp: at 10^6 steps the lambda of the iterate off the sphere (math §2.6) failed it,
// 1.9e-13 against 4 sigma sqrt(n) = 7.2e-14 (sigma 1.8e-17); the present code gives
// 1.5e-14 against 5.8e-14. About 1.5 s in a release build.
TEST(RoundoffTopMidpoint, EnergyErrorStaysWithinTheMeasuredRandomWalk) {
    expect_scheme_within_measured_random_walk<gs::GonzalezMidpoint>();
}

// The symmetrised Itoh-Abe scheme, whose energy drifted most of the one-stage schemes when the
// host's simplified Newton stopped on a step with kept factors without the step after it
// (local_simplified_newton_solve): 1.30e-13 against 7.2e-14 (sigma 1.8e-17); with it 4.8e-15.
// About 3 s in a release build.
TEST(RoundoffTopSymmetrisedItohAbe, EnergyErrorStaysWithinTheMeasuredRandomWalk) {
    expect_scheme_within_measured_random_walk<gs::SymmetrisedItohAbe>();
}

// The same stage as the GPU solves it (DrgJacobian::midpoint_hessian: a quasi-Newton, Newton's
// solver with an approximate Jacobian), run here on the host: its last step leaves the same kind
// of systematic error, and without the step after it (NewtonStopRule's finish) the energy drifted
// to 1.54e-13 after 10^6 steps.
TEST(RoundoffTopSymmetrisedItohAbe, DevicesQuasiNewtonStaysWithinTheMeasuredRandomWalk) {
    using Sia = gs::ItohAbeGradient<gs::IaDirection::symmetrised>;
    using Stage =
        gs::DrgStage<gs::Centre::symmetric, Sia, gs::SpinningTop<double>, double, gs::DrgJacobian::midpoint_hessian>;
    static_assert(gs::device_drg_jacobian<gs::Centre::symmetric, Sia> == gs::DrgJacobian::midpoint_hessian);
    const gs::SpinningTop<double> system{};
    std::vector<double> x(3), work(gs::local_newton_workspace_reals<3, double>(1));
    expect_within_measured_random_walk("sia, the device's quasi-Newton", [&](gs::StridedSpins<double> s) {
        gs::explicit_guess_by<gs::device_first_iterate<gs::SpinningTop<double>>>(
            system, 0.05, s, gs::StridedReals<double>{x.data(), 1}, gs::StridedReals<double>{work.data(), 1},
            gs::SequentialTeam{});
        Stage stage{system, s, 0.05, Sia{}};
        const auto out =
            gs::local_newton_solve(stage, gs::StridedReals<double>{x.data(), 1},
                                   gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{});
        if (out.status != geomint::SolveStatus::ok) return false;
        s.set(0, gs::Vec3<double>{x[0], x[1], x[2]});
        return true;
    });
}

// The spherical midpoint rule keeps |s_i| = 1 by itself (it is not renormalised): each step's
// rounding moves |s| by at most u = eps/2, so after n steps the unit-length error is a random walk
// of deviation at most u sqrt(n), and by Levy's inequality it exceeds 4 u sqrt(n) (1.4e-13 at
// 10^5 steps) with probability below 1.3e-4. The host's simplified Newton, stopping on a step with
// kept factors without the step after it, drifted: 4.3e-13 after 10^5 top steps of h = 0.1
// (bench/RESULTS.md, "A simplified Newton for every spin step"); with it 1.1e-14.
TEST(RoundoffTopSphericalMidpoint, UnitLengthErrorGrowsLikeSquareRootOfSteps) {
    const long long steps = 100000;
    const gs::SpinningTop<double> system{};
    std::vector<double> spins = geomint_test::paper_top_start();
    std::vector<double> work(gs::workspace_reals(gs::SphericalMidpoint{}, 1));
    const auto r =
        gs::integrate_chain(gs::SphericalMidpoint{}, system, 0.1, steps, gs::StridedSpins<double>{spins.data(), 1, 1},
                            gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{});
    ASSERT_EQ(r.status, geomint::SolveStatus::ok);
    ASSERT_EQ(r.steps_completed, steps);
    ::testing::Test::RecordProperty("norm_error", geomint_test::sci(r.max_norm_error));
    EXPECT_LE(r.max_norm_error, 4 * (eps / 2) * std::sqrt(static_cast<double>(steps)));
}

// A random 8-spin Heisenberg chain, 10^4 steps of h = 0.05. The chain's random walk is wider
// (its gradient is larger) so this length guards the chains rather than separating the forms.
TYPED_TEST(RoundoffChain, EnergyErrorGrowsLikeSquareRootOfSteps) {
    const int d = 8;
    const long long steps = 10000;
    std::vector<double> s(3 * d);
    gs::fill_random_spins(gs::StridedSpins<double>{s.data(), 1, d}, 20240611, 9);
    const LongRun r = long_run<TypeParam>(gs::HeisenbergChain<double>{}, s, 0.05, steps);
    const double bound = brouwer_bound(r.max_gradient, roundings_per_step<TypeParam>() * steps);
    ::testing::Test::RecordProperty("energy_error", geomint_test::sci(r.max_energy_error));
    EXPECT_LE(r.max_energy_error, bound) << TypeParam::name;
    EXPECT_LE(r.max_norm_error, 2 * eps) << TypeParam::name;
}

// The increment form u + retract_increment(c, u, x) equals the absolute form
// phi_c(phi_c^{-1}(u) + x) to round-off, for spins on the sphere and a few ulps off it (the
// increment form then lands back on the sphere). Both are within a few ulps of the long-double
// value: 8 eps allows the dozen roundings of either form.
TEST(RetractIncrement, EqualsTheAbsoluteRetraction) {
    geomint_test::Lcg rng{7};
    for (int k = 0; k < 1000; ++k) {
        V u = rng.unit();
        u = u * (1 + 4 * eps * rng.next());  // off the sphere by up to 4 ulps
        V cc = u + 0.1 * rng.vec();
        cc = cc / norm(cc);
        V x = 0.1 * rng.vec();
        x = x - cc * dot(cc, x);  // tangent at cc
        const LV ul = gs::vec3_cast<long double>(u), cl = gs::vec3_cast<long double>(cc),
                 xl = gs::vec3_cast<long double>(x);
        const LV exact = gs::retract(cl, gs::inverse_retract(cl, ul) + xl);
        const V incremental = u + gs::retract_increment(cc, u, x);
        const V absolute = gs::retract(cc, gs::inverse_retract(cc, u) + x);
        EXPECT_LE(static_cast<double>(norm(gs::vec3_cast<long double>(incremental) - exact)), 8 * eps) << k;
        EXPECT_LE(static_cast<double>(norm(gs::vec3_cast<long double>(absolute) - exact)), 8 * eps) << k;
        EXPECT_LE(std::fabs(norm(incremental) - 1), 2 * eps) << k;
    }
}

// length_defect gives u.u - 1 to about eps^2, where the plain dot product is off by up to an ulp
// of 1. The long-double reference rounds each of its five operations to 64 bits, so it is itself
// only within a few of its own ulps (LDBL_EPSILON, 1.1e-19) of u.u - 1: that is the tolerance.
TEST(RetractIncrement, LengthDefectIsAccurate) {
    geomint_test::Lcg rng{11};
    long double plain_worst = 0;
    for (int k = 0; k < 1000; ++k) {
        const V u = rng.unit();
        const LV ul = gs::vec3_cast<long double>(u);
        const long double exact = dot(ul, ul) - 1;
        const long double tolerance = 4 * std::numeric_limits<long double>::epsilon();
        EXPECT_LE(std::fabs(static_cast<long double>(gs::length_defect(u)) - exact), tolerance) << k;
        plain_worst = std::fmax(plain_worst, std::fabs(static_cast<long double>(dot(u, u) - 1) - exact));
    }
    EXPECT_GT(plain_worst, 100 * 4 * std::numeric_limits<long double>::epsilon());  // the test can tell
}

// A few steps of every DRG scheme in double against the same scheme in long double: the step map
// is the same as before up to round-off (Newton stops at 8 eps, plus a few ulps of rounding, per
// stage; 64 eps per step covers the six stages of comp4).
template <class Scheme, class System, class LSystem>
void check_against_long_double(const System& system, const LSystem& lsystem, std::vector<double> s) {
    const int d = static_cast<int>(s.size() / 3);
    std::vector<long double> sl(s.begin(), s.end());
    std::vector<double> work(gs::workspace_reals(Scheme{}, d));
    std::vector<long double> workl(gs::workspace_reals(Scheme{}, d));
    const int steps = 10;
    for (int n = 0; n < steps; ++n) {
        ASSERT_EQ(Scheme{}
                      .step(system, 0.05, gs::StridedSpins<double>{s.data(), 1, d},
                            gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{})
                      .status,
                  geomint::SolveStatus::ok);
        ASSERT_EQ(Scheme{}
                      .step(lsystem, 0.05L, gs::StridedSpins<long double>{sl.data(), 1, d},
                            gs::StridedReals<long double>{workl.data(), 1}, geomint::NewtonOptions<long double>{})
                      .status,
                  geomint::SolveStatus::ok);
    }
    double e = 0;
    for (std::size_t k = 0; k < s.size(); ++k) e = std::fmax(e, static_cast<double>(std::fabs(s[k] - sl[k])));
    EXPECT_LE(e, 64 * eps * steps) << Scheme::name;
}

TYPED_TEST(RoundoffTop, FewStepsMatchLongDouble) {
    check_against_long_double<TypeParam>(gs::SpinningTop<double>{}, gs::SpinningTop<long double>{},
                                         geomint_test::paper_top_start());
}

TYPED_TEST(RoundoffChain, FewStepsMatchLongDouble) {
    const int d = 8;
    std::vector<double> s(3 * d);
    gs::fill_random_spins(gs::StridedSpins<double>{s.data(), 1, d}, 20240611, 9);
    check_against_long_double<TypeParam>(gs::HeisenbergChain<double>{}, gs::HeisenbergChain<long double>{}, s);
}

}  // namespace
