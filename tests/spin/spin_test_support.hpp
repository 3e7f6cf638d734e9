// Helpers shared by the spin tests: running a scheme on one contiguous chain, distances between
// chains, the paper's top, typed-test names, deterministic random numbers, and number text for
// RecordProperty.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "geomint/solve_status.hpp"
#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/vec3.hpp"
#include "test_support_print.hpp"

namespace geomint_test {

// Scientific notation for RecordProperty (std::to_string prints 5e-16 as 0.000000).
inline std::string sci(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3e", x);
    return buffer;
}

// Runs `steps` steps of h on one contiguous chain held in `spins` (3 values a spin) and returns
// what happened, failures included: for the tests of failure reporting.
template <class Scheme, class System>
geomint::spin::ChainResult<double> run_unchecked(const Scheme& scheme, const System& system, double h, long long steps,
                                                 std::vector<double>& spins,
                                                 const geomint::NewtonOptions<double>& options = {}) {
    using namespace geomint::spin;
    const int d = static_cast<int>(spins.size() / 3);
    std::vector<double> work(workspace_reals(scheme, d));
    return integrate_chain(scheme, system, h, steps, StridedSpins<double>{spins.data(), 1, d},
                           StridedReals<double>{work.data(), 1}, options);
}

// The same, failing the test on any Newton failure.
template <class Scheme, class System>
geomint::spin::ChainResult<double> run(const Scheme& scheme, const System& system, double h, long long steps,
                                       std::vector<double>& spins) {
    const geomint::spin::ChainResult<double> r = run_unchecked(scheme, system, h, steps, spins);
    EXPECT_EQ(r.status, geomint::SolveStatus::ok) << Scheme::name << " h = " << h;
    EXPECT_EQ(r.steps_completed, steps) << Scheme::name << " h = " << h;
    return r;
}

// Newton iterations per step over `runs` runs of `steps` steps of h, run t from random spins
// (fill_random_spins with seed 2026, chain t), failing the test on any Newton failure.
template <class Scheme, class System>
double iterations_per_step(const System& system, int d, double h, long long steps, int runs) {
    long long total = 0;
    for (int t = 0; t < runs; ++t) {
        std::vector<double> spins(3 * static_cast<std::size_t>(d));
        geomint::spin::fill_random_spins(geomint::spin::StridedSpins<double>{spins.data(), 1, d}, 2026,
                                         static_cast<std::uint64_t>(t));
        total += run(Scheme{}, system, h, steps, spins).newton_iterations;
    }
    return static_cast<double>(total) / (static_cast<double>(runs) * static_cast<double>(steps));
}

inline std::vector<double> paper_top_start() {  // s0 = (-1, -1, 1)/sqrt 3 (math §2.5)
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

// Names the instances of a typed test over schemes by the scheme's CLI name (TopScheme/comp4
// rather than TopScheme/6), so a failure names the scheme.
struct SchemeNames {
    template <class Scheme>
    static std::string GetName(int) {
        return Scheme::name;
    }
};

// Deterministic pseudo-random numbers in [-1, 1) (a 64-bit LCG; fixed seeds, so failures
// reproduce), with random vectors and unit vectors for the geometry tests.
struct Lcg {
    std::uint64_t state;
    double next() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) * 0x1.0p-52 - 1.0;
    }
    geomint::spin::Vec3<double> vec() { return {next(), next(), next()}; }
    geomint::spin::Vec3<double> unit() {
        const geomint::spin::Vec3<double> v = vec();
        return v / norm(v);
    }
};

}  // namespace geomint_test
