// Checks the device-usable Gauss-Legendre tables against Boost.Math and against exactness on polynomials.
#include <gtest/gtest.h>

#include <boost/math/quadrature/gauss.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "geomint/spin/gauss_legendre.hpp"

namespace {

using geomint::spin::GaussLegendre;

// Boost's rule on [-1, 1] (non-negative abscissae only) mapped to [0, 1], ascending nodes.
template <int N>
std::vector<std::pair<long double, long double>> boost_rule_on_unit_interval() {
    using Rule = boost::math::quadrature::gauss<long double, N>;
    const auto& x = Rule::abscissa();
    const auto& w = Rule::weights();
    std::vector<std::pair<long double, long double>> rule;
    for (std::size_t i = 0; i < x.size(); ++i) {
        rule.push_back({(1.0L - x[i]) / 2, w[i] / 2});
        if (x[i] != 0) rule.push_back({(1.0L + x[i]) / 2, w[i] / 2});
    }
    std::sort(rule.begin(), rule.end());
    return rule;
}

template <int N>
void expect_matches_boost() {
    const auto rule = boost_rule_on_unit_interval<N>();
    ASSERT_EQ(rule.size(), static_cast<std::size_t>(N));
    for (int i = 0; i < N; ++i) {
        // The tables are the correctly rounded doubles: within half an ulp, allow one.
        const long double x = rule[i].first, w = rule[i].second;
        EXPECT_LE(std::fabs(GaussLegendre<N>::node(i) - x), std::nextafter(double(x), 2.0) - double(x))
            << "N = " << N << " node " << i;
        EXPECT_LE(std::fabs(GaussLegendre<N>::weight(i) - w), std::nextafter(double(w), 2.0) - double(w))
            << "N = " << N << " weight " << i;
    }
}

template <int N>
void expect_exact_on_polynomials() {
    // Exact for x^k, k <= 2N-1: int_0^1 x^k = 1/(k+1).
    for (int k = 0; k <= 2 * N; ++k) {
        double sum = 0;
        for (int i = 0; i < N; ++i) sum += GaussLegendre<N>::weight(i) * std::pow(GaussLegendre<N>::node(i), k);
        const double error = 1.0 / (k + 1) - sum;
        if (k < 2 * N) {
            EXPECT_LT(std::fabs(error), 1e-15) << "N = " << N << " k = " << k;
        } else {
            // x^(2N) is the first miss, by (N!)^4 / ((2N+1) ((2N)!)^2) on [0, 1]; this catches a
            // table whose nodes are right but ordered or paired with the wrong weights.
            const double expected =
                std::pow(std::tgamma(N + 1.0), 4) / ((2 * N + 1) * std::pow(std::tgamma(2 * N + 1.0), 2));
            EXPECT_NEAR(error, expected, 1e-15 + 1e-9 * expected) << "N = " << N;
        }
    }
}

TEST(GaussLegendre, MatchesBoostToTheLastBit) {
    expect_matches_boost<2>();
    expect_matches_boost<3>();
    expect_matches_boost<4>();
    expect_matches_boost<5>();
    expect_matches_boost<8>();
    expect_matches_boost<16>();
}

TEST(GaussLegendre, ExactForPolynomialsOfDegreeBelowTwoN) {
    expect_exact_on_polynomials<2>();
    expect_exact_on_polynomials<3>();
    expect_exact_on_polynomials<4>();
    expect_exact_on_polynomials<5>();
    expect_exact_on_polynomials<8>();
    expect_exact_on_polynomials<16>();
}

TEST(GaussLegendre, UsableInConstantExpressions) {
    static_assert(GaussLegendre<3>::node(1) == 0.5);
    static_assert(GaussLegendre<16>::size == 16);
    constexpr double sum = [] {
        double s = 0;
        for (int i = 0; i < 16; ++i) s += GaussLegendre<16>::weight(i);
        return s;
    }();
    EXPECT_NEAR(sum, 1.0, 1e-15);
}

}  // namespace
