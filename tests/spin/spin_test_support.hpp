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
#include "geomint/spin/explicit_guess.hpp"
#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/team.hpp"
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

// Where a test's Newton solve starts: the schemes' explicit guess on this host (explicit_guess.hpp),
// one explicit midpoint or Euler step on the sphere (both first iterates of explicit_guess.hpp), or
// the previous state, v = u.
enum class Start { guess, midpoint, euler, previous };

// Which solver counts: Newton with a Jacobian every iteration (local_newton_solve, the GPU's), or
// what the schemes run on the host (newton_solve with one worker: the simplified Newton).
enum class Solver { newton, host };

// Mean linear solves of one solve of the problem make(u) at random states u (fill_random_spins,
// seed 2026, state t).
template <class System, class Make>
double newton_iterations(const System& system, int d, double h, int states, const Make& make,
                         Start start = Start::guess, Solver solver = Solver::newton) {
    using namespace geomint::spin;
    long long total = 0;
    for (int t = 0; t < states; ++t) {
        std::vector<double> u(3 * static_cast<std::size_t>(d)), x(u.size());
        fill_random_spins(StridedSpins<double>{u.data(), 1, d}, 2026, static_cast<std::uint64_t>(t));
        const StridedSpins<double> from{u.data(), 1, d};
        std::vector<double> work(local_newton_workspace_reals<3, double>(d) + rank_one_workspace_reals<3>(d));
        const StridedReals<double> xs{x.data(), 1}, ws{work.data(), 1};
        switch (start) {
            case Start::guess:
                explicit_guess(system, h, from, xs, ws, SequentialTeam{});
                break;
            case Start::midpoint:
                explicit_guess_by<FirstIterate::midpoint>(system, h, from, xs, ws, SequentialTeam{});
                break;
            case Start::euler:
                explicit_guess_by<FirstIterate::euler>(system, h, from, xs, ws, SequentialTeam{});
                break;
            case Start::previous:
                x = u;
                break;
        }
        auto problem = make(from);
        const auto out = solver == Solver::newton
                             ? local_newton_solve(problem, xs, ws, geomint::NewtonOptions<double>{})
                             : newton_solve(problem, xs, ws, geomint::NewtonOptions<double>{}, SequentialTeam{});
        EXPECT_EQ(out.status, geomint::SolveStatus::ok);
        total += out.iterations;
    }
    return static_cast<double>(total) / states;
}

// Calls f.template operator()<centre, Gradient>(name) for every DRG stage the schemes solve: avf,
// mp, ia, sia, both walks of comp2 (and of comp4), and mmp on chains.
template <class System, class F>
void for_each_drg_stage(const F& f) {
    using namespace geomint::spin;
    constexpr auto symmetric = Centre::symmetric;
    f.template operator()<symmetric, AvfGradient>("avf");
    f.template operator()<symmetric, MidpointGradient<double>>("mp");
    f.template operator()<Centre::start, ItohAbeGradient<IaDirection::forward>>("ia");
    f.template operator()<symmetric, ItohAbeGradient<IaDirection::symmetrised>>("sia");
    f.template operator()<symmetric, ItohAbeGradient<IaDirection::forward>>("comp2's forward walk");
    f.template operator()<symmetric, ItohAbeGradient<IaDirection::adjoint>>("comp2's adjoint walk");
    if constexpr (System::is_chain) f.template operator()<symmetric, LocalMidpointGradient>("mmp");
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
