// Helpers shared by the spin tests: running a scheme on one contiguous chain, distances between
// chains, the paper's top, and number text for RecordProperty.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "geomint/solve_status.hpp"
#include "geomint/spin/integrate_chain.hpp"

namespace geomint_test {

// Scientific notation for RecordProperty (std::to_string prints 5e-16 as 0.000000).
inline std::string sci(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3e", x);
    return buffer;
}

// Runs `steps` steps of h on one contiguous chain (3 values a spin); fails the test on any
// Newton failure.
template <class Scheme, class System>
geomint::spin::ChainResult<double> run(const Scheme& scheme, const System& system, double h, long long steps,
                                       std::vector<double>& spins) {
    using namespace geomint::spin;
    const int d = static_cast<int>(spins.size() / 3);
    std::vector<double> work(workspace_reals(scheme, d));
    const ChainResult<double> r = integrate_chain(scheme, system, h, steps, StridedSpins<double>{spins.data(), 1, d},
                                                  StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{});
    EXPECT_EQ(r.status, geomint::SolveStatus::ok) << Scheme::name << " h = " << h;
    EXPECT_EQ(r.steps_completed, steps);
    return r;
}

inline std::vector<double> paper_top_start() {  // s0 = (-1, -1, 1)/sqrt 3 (SPEC §2.5)
    const double a = 1 / std::sqrt(3.0);
    return {-a, -a, a};
}

// Largest distance between corresponding spins of two chains.
inline double max_spin_distance(const std::vector<double>& a, const std::vector<double>& b) {
    double e = 0;
    for (std::size_t i = 0; i + 2 < a.size(); i += 3) {
        const double x = a[i] - b[i], y = a[i + 1] - b[i + 1], z = a[i + 2] - b[i + 2];
        e = std::fmax(e, std::sqrt(x * x + y * y + z * z));
    }
    return e;
}

}  // namespace geomint_test
