// Spin schemes in float (--precision float), every scheme of the registry: observed orders while
// the error stays well above float round-off, energy and unit length over long runs within float's
// own bounds, failures still reported, and the CPU ensemble bitwise independent of the threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/registry.hpp"
#include "geomint/spin/spin_wave.hpp"
#include "cuda_backend.hpp"
#include "registry_lookup.hpp"
#include "spin_batch.hpp"
#include "spin_test_support.hpp"
#include "top_reference.hpp"

namespace {

namespace gs = geomint::spin;
using geomint::NewtonOptions;
using geomint::SolveStatus;

constexpr std::uint64_t kSeed = 20240611;  // fixed, so every failure reproduces

// The double suites' invariant bounds (test_drg_schemes.cpp, test_collocation.cpp) are round-off
// budgets: 1e-12 |H0| is ~4500 ulps of double, 1e-13 ~450. A float run rounds the same operations
// to float, so its budget is the same number of ulps of float: the double bound times
// eps_float / eps_double = 2^29 (1e-12 -> 5.4e-4, 1e-13 -> 5.4e-5). Derived, not fitted.
constexpr double kUlpRatio = double(std::numeric_limits<float>::epsilon()) / std::numeric_limits<double>::epsilon();
static_assert(kUlpRatio == 536870912.0);
constexpr double in_float_ulps(double double_bound) { return double_bound * kUlpRatio; }

// Every scheme of the registry; the static_assert keeps the list complete.
using AllSchemes = ::testing::Types<gs::Avf, gs::GonzalezMidpoint, gs::LocalMidpoint, gs::ItohAbe,
                                    gs::SymmetrisedItohAbe, gs::Comp2, gs::CompSia, gs::Comp4, gs::Coll4, gs::Coll6,
                                    gs::Coll8, gs::ImplicitMidpoint, gs::SphericalMidpoint>;
static_assert(gs::SpinSchemes::size == 13, "a new spin scheme: add it to AllSchemes");

// The midpoint baselines conserve no energy in general (math §2.5): their energy is not checked.
template <class Scheme>
constexpr bool conserves_energy() {
    return !std::is_same_v<Scheme, gs::ImplicitMidpoint> && !std::is_same_v<Scheme, gs::SphericalMidpoint>;
}

template <class Scheme, class System>
constexpr bool applies() {
    return gs::scheme_applies<Scheme, System>();
}

// Runs `steps` steps of h in Real from `start` (3 values a spin, exactly representable in float)
// and returns the result, the final spins widened to double.
template <class Real, class Scheme, template <class> class System>
gs::ChainResult<Real> run_in(const Scheme& scheme, double h, long long steps, const std::vector<double>& start,
                             std::vector<double>& end, const NewtonOptions<Real>& options = {}) {
    const int d = static_cast<int>(start.size() / 3);
    std::vector<Real> s(start.begin(), start.end()), work(gs::workspace_reals(scheme, d));
    const auto r =
        gs::integrate_chain(scheme, System<Real>{}, static_cast<Real>(h), steps, gs::StridedSpins<Real>{s.data(), 1, d},
                            gs::StridedReals<Real>{work.data(), 1}, options);
    end.assign(s.begin(), s.end());
    return r;
}

// A start both precisions hold exactly: the spins rounded to float (|s_i| = 1 to float round-off).
std::vector<double> rounded_to_float(std::vector<double> s) {
    for (double& v : s) v = static_cast<float>(v);
    return s;
}

std::vector<double> wave_start(int d) {
    std::vector<double> s(3 * d);
    gs::paper_spin_wave<double>(d).fill(gs::StridedSpins<double>{s.data(), 1, d}, 0.0);
    return rounded_to_float(s);
}

std::vector<double> random_chain(int d, std::uint64_t chain) {
    std::vector<double> s(3 * d);
    gs::fill_random_spins(gs::StridedSpins<double>{s.data(), 1, d}, kSeed, chain);
    return rounded_to_float(s);
}

double distance(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (std::size_t k = 0; k < a.size(); ++k) s += (a[k] - b[k]) * (a[k] - b[k]);
    return std::sqrt(s);
}

template <class S>
class FloatScheme : public ::testing::Test {};
TYPED_TEST_SUITE(FloatScheme, AllSchemes, geomint_test::SchemeNames);

// Where a scheme's order shows in float: over `span`, `coarse` steps and twice as many. The
// truncation error must dwarf float's round-off (1e-7 .. 1e-5 at the end of these runs, measured
// as the float-double gap) while the steps stay in the asymptotic range. Per error constant
// (measured with the double runs of the CLI, 2026-12-03): the top's slow rotation gives small
// constants, so its order-2 runs take T = 10, h = 0.5, 0.25 (errors 1e-4 against gaps under 4e-6);
// the wave chain's, T = 1 as in the double tests; coll4 on the chain T = 10, h = 1, 0.5 (3.5e-4,
// 2.3e-5 against 7e-7). coarse = 0: no such steps exist in float (order 4 and up on the top, coll6
// and coll8 on the chain: their errors reach float round-off at the largest steps whose Newton
// solve still converges), and the float run is checked to reach its round-off floor instead.
struct OrderPlan {
    double span;
    int coarse;
};

template <class S>
OrderPlan chain_plan() {
    // mp's discrete gradient divides H(v) - H(u) by |v - u|^2, which amplifies float's round-off:
    // its gap at h = 0.05 measured 4.3e-6 against a truncation error of 3.8e-5, more than the tenth
    // the check allows, so it takes steps twice as long as the other order-2 schemes (h = 0.2, 0.1).
    if constexpr (std::is_same_v<S, gs::GonzalezMidpoint>) return {1.0, 5};
    if constexpr (S::order == 1) return {1.0, 40};
    if constexpr (S::order == 2) return {1.0, 10};
    if constexpr (std::is_same_v<S, gs::Coll4>) return {10.0, 10};
    // compsia's gap at h = 1/8 (3.5e-7) exceeded the tenth of its truncation error (3.1e-6) by 10%
    // once Newton stopped an iteration sooner (a different rounding, not a larger one:
    // the gaps of the order-4 runs are 2-5e-7 either way), so it takes h = 1/3, 1/6 (errors 1.5e-4,
    // 9.7e-6, order 3.95); comp4 is not yet asymptotic there (3.72) and keeps 1/4, 1/8.
    if constexpr (std::is_same_v<S, gs::CompSia>) return {1.0, 3};
    if constexpr (S::order == 4) return {1.0, 4};  // comp4
    return {1.0, 0};
}

template <class S>
OrderPlan top_plan() {
    if constexpr (S::order <= 2) return {10.0, 20};
    return {1.0, 0};
}

// Errors of the two runs of an order estimate (coarse, then twice as many steps), in float and
// in double from the same start, and the float-double gap at the end.
struct OrderRuns {
    double float_error[2], double_error[2], gap[2];
};

// The order check in float. The float run's error is the double run's error e plus at most the
// gap r (triangle inequality), so log2 of the error ratio moves by at most -log2(1 - r/e) at each
// step size: that is the allowance on top of the double tests' 0.2 (pre-asymptotic terms). The
// steps must keep r <= e/10 at both, which bounds the allowance by 0.5; a larger r means the steps
// are too fine for float (or a float solve is wrong), and is reported as such.
void expect_float_order(int expected, const OrderRuns& runs, const char* property) {
    double allowance = 0.2;
    for (int k = 0; k < 2; ++k) {
        EXPECT_LE(runs.gap[k], 0.1 * runs.double_error[k])
            << "float round-off is not well under the truncation error at run " << k;
        allowance -= std::log2(1 - std::fmin(runs.gap[k] / runs.double_error[k], 0.5));
    }
    const double order = std::log2(runs.float_error[0] / runs.float_error[1]);
    ::testing::Test::RecordProperty(
        property, geomint_test::sci(order) + " errors " + geomint_test::sci(runs.float_error[0]) + " " +
                      geomint_test::sci(runs.float_error[1]) + " gaps " + geomint_test::sci(runs.gap[0]) + " " +
                      geomint_test::sci(runs.gap[1]));
    EXPECT_NEAR(order, expected, allowance) << "errors " << runs.float_error[0] << ", " << runs.float_error[1]
                                            << "; gaps " << runs.gap[0] << ", " << runs.gap[1];
}

// Where no step shows the order in float: the float run is as good as float allows, within the
// double suites' floor of the order fits (1e-13, test_collocation.cpp) in float ulps, 5.4e-5.
void expect_float_floor(const OrderRuns& runs, const char* property) {
    for (int k = 0; k < 2; ++k) {
        EXPECT_LE(runs.float_error[k], in_float_ulps(1e-13)) << "run " << k;
        EXPECT_LE(runs.gap[k], in_float_ulps(1e-13)) << "run " << k;
    }
    ::testing::Test::RecordProperty(property, "floor: errors " + geomint_test::sci(runs.float_error[0]) + " " +
                                                  geomint_test::sci(runs.float_error[1]));
}

// The two runs of an order estimate, in float and in double, of `System` from `start` over
// plan.span (`unplanned` steps and twice as many when the plan has none), with `error_of` the
// distance of a final state from the exact or reference solution; then the check that applies.
template <class Scheme, template <class> class System, class ErrorOf>
void check_order_in_float(const OrderPlan& plan, int unplanned, const std::vector<double>& start, ErrorOf error_of,
                          const char* property) {
    OrderRuns runs{};
    for (int k = 0; k < 2; ++k) {
        const int n = (plan.coarse > 0 ? plan.coarse : unplanned) << k;
        std::vector<double> in_float, in_double;
        const double h = plan.span / n;
        const auto rf = run_in<float, Scheme, System>(Scheme{}, h, n, start, in_float);
        const auto rd = run_in<double, Scheme, System>(Scheme{}, h, n, start, in_double);
        ASSERT_EQ(rf.status, SolveStatus::ok);
        ASSERT_EQ(rd.status, SolveStatus::ok);
        runs.float_error[k] = error_of(in_float);
        runs.double_error[k] = error_of(in_double);
        runs.gap[k] = distance(in_float, in_double);
    }
    if (plan.coarse > 0)
        expect_float_order(Scheme::order, runs, property);
    else
        expect_float_floor(runs, property);
}

// Observed order in float on the d = 8 chain against the exact spin wave (math §2.4).
TYPED_TEST(FloatScheme, OrderOnTheChainAgainstTheExactSpinWave) {
    const int d = 8;
    std::vector<double> exact(3 * d);
    const OrderPlan plan = chain_plan<TypeParam>();
    gs::paper_spin_wave<double>(d).fill(gs::StridedSpins<double>{exact.data(), 1, d}, plan.span);
    check_order_in_float<TypeParam, gs::HeisenbergChain>(
        plan, 2, wave_start(d), [&](const std::vector<double>& end) { return distance(end, exact); },
        "float_chain_order");
}

// Observed order in float on the top (math §2.5) against the independent Boost.Odeint
// reference (top_reference.hpp) from the same float-rounded start.
TYPED_TEST(FloatScheme, OrderOnTheTopAgainstAnIndependentReference) {
    if constexpr (!applies<TypeParam, gs::SpinningTop<double>>()) {
        GTEST_SKIP() << "does not apply to the top";
    } else {
        const std::vector<double> start = rounded_to_float(geomint_test::paper_top_start());
        const OrderPlan plan = top_plan<TypeParam>();
        const std::array<double, 3> reference = geomint_test::top_reference(start, plan.span);
        check_order_in_float<TypeParam, gs::SpinningTop>(
            plan, 10, start, [&](const std::vector<double>& end) { return geomint_test::distance_to(end, reference); },
            "float_top_order");
    }
}

// 10^4 steps of h = 0.1 on the top (the double suites' run, math §2.5): energy and unit length
// within the double bounds' ulps in float; every step solved something.
TYPED_TEST(FloatScheme, TopKeepsEnergyAndUnitLengthOverTenThousandSteps) {
    if constexpr (!applies<TypeParam, gs::SpinningTop<double>>()) {
        GTEST_SKIP() << "does not apply to the top";
    } else {
        const std::vector<double> start = rounded_to_float(geomint_test::paper_top_start());
        const gs::SpinningTop<double> top;
        const gs::Vec3<double> s0{start[0], start[1], start[2]};
        const double h0 = top.energy_density(s0, s0, s0);
        std::vector<double> end;
        const auto r = run_in<float, TypeParam, gs::SpinningTop>(TypeParam{}, 0.1, 10000, start, end);
        ASSERT_EQ(r.status, SolveStatus::ok);
        EXPECT_EQ(r.steps_completed, 10000);
        EXPECT_GT(r.newton_iterations, 10000);
        ::testing::Test::RecordProperty(
            "float_top_invariants", geomint_test::sci(r.max_energy_error) + " " + geomint_test::sci(r.max_norm_error));
        if constexpr (conserves_energy<TypeParam>())
            EXPECT_LE(r.max_energy_error, in_float_ulps(1e-12) * std::fmax(1.0, std::fabs(h0)));
        EXPECT_LE(r.max_norm_error, in_float_ulps(1e-13));
    }
}

// A random chain of 10 spins, 2000 steps of h = 0.1 (the double suites' run), every scheme.
TYPED_TEST(FloatScheme, ChainKeepsEnergyAndUnitLength) {
    const int d = 10;
    const std::vector<double> start = random_chain(d, 0);
    std::vector<double> copy = start;
    const double h0 = gs::total_energy(gs::HeisenbergChain<double>{}, gs::StridedSpins<double>{copy.data(), 1, d});
    std::vector<double> end;
    const auto r = run_in<float, TypeParam, gs::HeisenbergChain>(TypeParam{}, 0.1, 2000, start, end);
    ASSERT_EQ(r.status, SolveStatus::ok);
    EXPECT_EQ(r.steps_completed, 2000);
    ::testing::Test::RecordProperty("float_chain_invariants",
                                    geomint_test::sci(r.max_energy_error) + " " + geomint_test::sci(r.max_norm_error));
    if constexpr (conserves_energy<TypeParam>())
        EXPECT_LE(r.max_energy_error, in_float_ulps(1e-12) * std::fmax(1.0, std::fabs(h0)));
    EXPECT_LE(r.max_norm_error, in_float_ulps(1e-13));
}

// Failures are reported in float as in double: an iteration limit of 1 ends the run at step 0
// with newton_max_iterations and the state untouched; a NaN spin and a step far too large for
// Newton end it with a failure status, no step taken.
TYPED_TEST(FloatScheme, FailuresAreReported) {
    const int d = 6;
    const std::vector<double> start = random_chain(d, 3);
    std::vector<double> end;
    NewtonOptions<float> one;
    one.max_iterations = 1;
    const auto limited = run_in<float, TypeParam, gs::HeisenbergChain>(TypeParam{}, 0.1, 5, start, end, one);
    EXPECT_EQ(limited.status, SolveStatus::newton_max_iterations);
    EXPECT_EQ(limited.steps_completed, 0);
    EXPECT_EQ(end, start);
    std::vector<double> bad = start;
    bad[4] = std::numeric_limits<double>::quiet_NaN();
    const auto nan = run_in<float, TypeParam, gs::HeisenbergChain>(TypeParam{}, 0.1, 5, bad, end);
    EXPECT_NE(nan.status, SolveStatus::ok);
    EXPECT_EQ(nan.steps_completed, 0);
    const auto large = run_in<float, TypeParam, gs::HeisenbergChain>(TypeParam{}, 50.0, 20, start, end);
    EXPECT_NE(large.status, SolveStatus::ok);
    EXPECT_EQ(large.steps_completed, 0);
    for (double x : end) EXPECT_TRUE(std::isfinite(x));
}

// The float CPU ensemble (the --precision float path) gives the same bits on 1 and 3 threads for
// every registered (system, scheme) pair, as the double one does (test_spin_ensemble.cpp).
TEST(FloatEnsembleCpu, BitwiseIndependentOfThreadCount) {
    const auto systems = geomint::registry_names(gs::SpinSystems{});
    const auto schemes = geomint::registry_names(gs::SpinSchemes{});
    int pairs = 0;
    for (std::size_t a = 0; a < systems.size(); ++a)
        for (std::size_t b = 0; b < schemes.size(); ++b) {
            if (!geomint::spin_scheme_applies(static_cast<int>(a), static_cast<int>(b))) continue;
            SCOPED_TRACE(systems[a] + " " + schemes[b]);
            const geomint::SpinModel model = geomint::make_spin_model(systems[a], schemes[b]);
            const int d = systems[a] == "top" ? 1 : 7;
            geomint::SpinBatch<float> one, three;
            for (auto* batch : {&one, &three}) {
                batch->resize(d, 13);
                for (std::size_t t = 0; t < 13; ++t) {
                    const std::vector<double> s = random_chain(d, t);
                    for (int i = 0; i < d; ++i)
                        for (int c = 0; c < 3; ++c) batch->component(t, i, c) = static_cast<float>(s[3 * i + c]);
                }
            }
            const geomint::SpinStepSettings<float> step{0.05f, 20, {}};
            geomint::run_spin_batch_cpu(model, step, one, 1);
            geomint::run_spin_batch_cpu(model, step, three, 3);
            EXPECT_EQ(std::memcmp(one.state.data(), three.state.data(), one.state.size() * sizeof(float)), 0);
            EXPECT_EQ(one.newton_iterations, three.newton_iterations);
            EXPECT_EQ(one.energy_error, three.energy_error);
            for (std::size_t t = 0; t < one.chains; ++t) EXPECT_EQ(one.status[t], 0);
            ++pairs;
        }
    EXPECT_EQ(pairs, 12 + 13 + 13);  // mmp applies to the chains only
}

// The float CUDA kernels against the float CPU backend, every registered pair, 101 chains in chunks
// of 64 and 37 (as test_spin_ensemble.cpp does in double; skipped without a device). CPU and GPU
// differ by nvcc's fused multiply-adds: the double test's 1e-11 (45000 ulps of double) becomes
// 45000 ulps of float.
TEST(FloatEnsembleCuda, EveryRegisteredPairMatchesTheCpu) {
    const auto device = geomint::cuda_device_info();
    if (!device.usable) GTEST_SKIP() << device.description;
    const auto systems = geomint::registry_names(gs::SpinSystems{});
    const auto schemes = geomint::registry_names(gs::SpinSchemes{});
    const double tolerance = in_float_ulps(1e-11);
    for (std::size_t a = 0; a < systems.size(); ++a)
        for (std::size_t b = 0; b < schemes.size(); ++b) {
            if (!geomint::spin_scheme_applies(static_cast<int>(a), static_cast<int>(b))) continue;
            SCOPED_TRACE(systems[a] + " " + schemes[b]);
            const geomint::SpinModel model = geomint::make_spin_model(systems[a], schemes[b]);
            const bool top = systems[a] == "top";
            const int d = top ? 1 : 16;
            const geomint::SpinStepSettings<float> step{top ? 0.1f : 0.05f, top ? 200 : 40, {}};
            geomint::SpinBatch<float> cpu;
            cpu.resize(d, 101);
            for (std::size_t t = 0; t < 101; ++t) {
                const std::vector<double> s = random_chain(d, t);
                for (int i = 0; i < d; ++i)
                    for (int c = 0; c < 3; ++c) cpu.component(t, i, c) = static_cast<float>(s[3 * i + c]);
            }
            const geomint::SpinBatch<float> initial = cpu;
            geomint::run_spin_batch_cpu(model, step, cpu, 0);
            geomint::SpinCudaRunner<float> runner(model, step, d, 64);
            for (std::size_t begin = 0; begin < 101; begin += 64) {
                const std::size_t n = std::min<std::size_t>(64, 101 - begin);
                geomint::SpinBatch<float> part;
                part.resize(d, n);
                for (std::size_t t = 0; t < n; ++t)
                    for (int i = 0; i < d; ++i)
                        for (int c = 0; c < 3; ++c)
                            part.component(t, i, c) = initial.state[(3 * i + c) * 101 + begin + t];
                runner.run(part.view(), n);
                for (std::size_t t = 0; t < n; ++t) {
                    ASSERT_EQ(part.status[t], cpu.status[begin + t]) << t;
                    for (int i = 0; i < d; ++i)
                        for (int c = 0; c < 3; ++c)
                            ASSERT_NEAR(part.component(t, i, c), cpu.component(begin + t, i, c), tolerance) << t;
                }
            }
        }
}

}  // namespace
