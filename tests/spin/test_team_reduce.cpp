// The site sums of a chain run by a team (include/geomint/spin/team_reduce.hpp): every site is
// folded once per team, not once per worker, and the result has the same bits for any team size.
// Checked on team_reduce itself, and on a whole run (integrate_chain with the Gonzalez midpoint's
// per-iteration H(v) - H(u) and the energy after each step) by counting the system's calls.
#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/spin/team_newton.hpp"
#include "geomint/spin/team_reduce.hpp"
#include "openmp_team.hpp"

namespace {

namespace gs = geomint::spin;

// Terms of very different sizes, so that a different summation order shows in the last bits.
double term(int i) { return std::ldexp(std::sin(1.0 + 0.7 * i), (i * 7) % 23 - 11); }

struct Reduced {
    double sum, largest;
    std::vector<int> visits;  // how often each site was folded
};

// team_reduce of (sum, max) over d sites by `workers` OpenMP threads (0: SequentialTeam; 1:
// SoloTeam, the partitioned order on one thread), as every worker sees it (checked equal).
Reduced reduce(int d, int workers) {
    Reduced out{0.0, 0.0, std::vector<int>(static_cast<std::size_t>(d), 0)};
    const auto site = [&](int i, double(&acc)[2]) {
        ++out.visits[static_cast<std::size_t>(i)];  // a site belongs to one part, one worker
        acc[0] += term(i);
        acc[1] = std::fmax(acc[1], std::fabs(term(i)));
    };
    const auto merge = [](double(&into)[2], const double(&part)[2]) {
        into[0] += part[0];
        into[1] = std::fmax(into[1], part[1]);
    };
    std::vector<double> scratch(gs::team_reduce_reals(d), -1.0);
    if (workers == 0) {
        double r[2] = {0.0, 0.0};
        gs::team_reduce(gs::SequentialTeam{}, d, r, site, merge);
        out.sum = r[0];
        out.largest = r[1];
    } else if (workers == 1) {
        double r[2] = {0.0, 0.0};
        gs::team_reduce(geomint::SoloTeam<double>{{scratch.data(), 1}}, d, r, site, merge);
        out.sum = r[0];
        out.largest = r[1];
    } else {
        std::vector<double> sums(static_cast<std::size_t>(workers)), largest(sums.size());
#pragma omp parallel num_threads(workers)
        {
            const geomint::OpenMpTeam<double> team{omp_get_thread_num(), omp_get_num_threads(), {scratch.data(), 1}};
            double r[2] = {0.0, 0.0};
            gs::team_reduce(team, d, r, site, merge);
            sums[static_cast<std::size_t>(team.rank())] = r[0];
            largest[static_cast<std::size_t>(team.rank())] = r[1];
        }
        for (std::size_t w = 1; w < sums.size(); ++w) {
            EXPECT_EQ(sums[w], sums[0]) << "worker " << w << " of " << workers;
            EXPECT_EQ(largest[w], largest[0]) << "worker " << w << " of " << workers;
        }
        out.sum = sums[0];
        out.largest = largest[0];
    }
    return out;
}

TEST(TeamReduce, EverySiteOnceAndTheSameBitsForAnyTeamSize) {
    // 1 part (d < 32), a few parts, parts of unequal length, and the 256-part cap.
    for (const int d : {1, 5, 31, 32, 47, 33 * 16 + 7, 5000}) {
        SCOPED_TRACE(d);
        long double exact = 0.0L;
        double largest = 0.0;
        for (int i = 0; i < d; ++i) {
            exact += static_cast<long double>(term(i));
            largest = std::fmax(largest, std::fabs(term(i)));
        }
        const Reduced sequential = reduce(d, 0);
        const Reduced solo = reduce(d, 1);
        for (const Reduced* r : {&sequential, &solo})
            for (int i = 0; i < d; ++i) ASSERT_EQ(r->visits[static_cast<std::size_t>(i)], 1) << "site " << i;
        // Either order is a plain sum of d terms of size at most 2^12: within d eps 2^12.
        EXPECT_LE(std::fabs(static_cast<long double>(solo.sum) - exact), d * 0x1p-52 * 0x1p12);
        EXPECT_LE(std::fabs(static_cast<long double>(sequential.sum) - exact), d * 0x1p-52 * 0x1p12);
        EXPECT_EQ(solo.largest, largest);
        EXPECT_EQ(sequential.largest, largest);
        for (const int workers : {2, 3, 5}) {
            SCOPED_TRACE(workers);
            const Reduced team = reduce(d, workers);
            for (int i = 0; i < d; ++i) ASSERT_EQ(team.visits[static_cast<std::size_t>(i)], 1) << "site " << i;
            EXPECT_EQ(std::memcmp(&team.sum, &solo.sum, sizeof(double)), 0);
            EXPECT_EQ(team.largest, solo.largest);
        }
    }
    // The partitioned order is not the sequential one (else this test could not tell them apart).
    EXPECT_NE(reduce(5000, 0).sum, reduce(5000, 1).sum);
}

// Reductions of different widths one after the other, as a run makes them (the Gonzalez
// midpoint's four sums, then the energy's two): the merged result of one must survive until every
// worker has read it, though a faster worker is already writing the next one's parts.
TEST(TeamReduce, ConsecutiveReductionsOfDifferentWidths) {
    constexpr int d = 40 * 16 + 3, workers = 4, rounds = 300;
    double exact = 0.0;
    for (int i = 0; i < d; ++i) exact += i;
    std::vector<double> scratch(gs::team_reduce_reals(d), -1.0);
    std::vector<int> wrong(workers, 0);
#pragma omp parallel num_threads(workers)
    {
        const geomint::OpenMpTeam<double> team{omp_get_thread_num(), omp_get_num_threads(), {scratch.data(), 1}};
        for (int round = 0; round < rounds; ++round) {
            double four[4] = {0.0, 0.0, 0.0, 0.0}, one[1] = {0.0};
            gs::team_reduce(
                team, d, four,
                [&](int i, double(&acc)[4]) {
                    for (int j = 0; j < 4; ++j) acc[j] += (j + 1) * double(i + round);
                },
                gs::AddParts{});
            gs::team_reduce(
                team, d, one, [&](int i, double(&acc)[1]) { acc[0] += double(i); }, gs::AddParts{});
            const double shift = double(round) * d;  // sums of integers below 2^53: exact
            for (int j = 0; j < 4; ++j) wrong[team.rank()] += four[j] != (j + 1) * (exact + shift);
            wrong[team.rank()] += one[0] != exact;
        }
    }
    for (int w = 0; w < workers; ++w) EXPECT_EQ(wrong[w], 0) << "worker " << w;
}

// A Heisenberg chain that counts the calls the O(d) sums make: energy_density (the energy after
// each step, integrate_chain) and site_discrete_gradient (the Gonzalez midpoint's H(v) - H(u) at
// every Newton iteration; mp's residual and Jacobian do not call it).
struct CountingChain : gs::HeisenbergChain<double> {
    std::atomic<long long>* energy_calls;
    std::atomic<long long>* discrete_gradient_calls;
    template <class T>
    GEOMINT_HD T energy_density(const gs::Vec3<T>& l, const gs::Vec3<T>& s, const gs::Vec3<T>& r) const {
        ++*energy_calls;
        return HeisenbergChain::energy_density(l, s, r);
    }
    template <class T>
    GEOMINT_HD gs::Vec3<T> site_discrete_gradient(const gs::Vec3<T>& l, const gs::Vec3<T>& a, const gs::Vec3<T>& b,
                                                  const gs::Vec3<T>& r) const {
        ++*discrete_gradient_calls;
        return HeisenbergChain::site_discrete_gradient(l, a, b, r);
    }
};

struct Counted {
    gs::ChainResult<double> result;
    long long energy_calls, discrete_gradient_calls;
    std::vector<double> state;
};

// `steps` steps of mp on a random chain of d spins by a team of `workers` OpenMP threads.
Counted run_mp(int d, int steps, int workers) {
    std::atomic<long long> energy{0}, discrete{0};
    const CountingChain system{{}, &energy, &discrete};
    const gs::GonzalezMidpoint scheme{};
    std::vector<double> state(3 * static_cast<std::size_t>(d));
    gs::fill_random_spins(gs::StridedSpins<double>{state.data(), 1, d}, 11, 0);
    std::vector<double> work(gs::workspace_reals(scheme, d));
    std::vector<double> scratch(gs::team_newton_scratch_reals<3, double>(d, workers));
    std::vector<gs::ChainResult<double>> seen(static_cast<std::size_t>(workers));
#pragma omp parallel num_threads(workers)
    {
        const geomint::OpenMpTeam<double> team{omp_get_thread_num(), omp_get_num_threads(), {scratch.data(), 1}};
        seen[static_cast<std::size_t>(team.rank())] =
            gs::integrate_chain(scheme, system, 0.05, steps, gs::StridedSpins<double>{state.data(), 1, d},
                                gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{},
                                geomint::NoStepObserver{}, team);
    }
    for (const auto& r : seen) {
        EXPECT_EQ(r.status, geomint::SolveStatus::ok);
        EXPECT_EQ(r.newton_iterations, seen[0].newton_iterations);
        EXPECT_EQ(r.max_energy_error, seen[0].max_energy_error);
    }
    return {seen[0], energy.load(), discrete.load(), state};
}

TEST(TeamReduce, ARunFoldsEverySiteOncePerTeamNotOncePerWorker) {
    constexpr int d = 256, steps = 3;  // 16 parts
    const Counted one = run_mp(d, steps, 1), three = run_mp(d, steps, 3);
    ASSERT_EQ(one.result.steps_completed, steps);
    ASSERT_EQ(three.result.steps_completed, steps);
    const long long iterations = three.result.newton_iterations;
    ASSERT_GT(iterations, steps);
    // The energy before the first step and after each; H(v) - H(u) once per Newton iteration, but
    // for the last of each solve, whose sums every worker takes in long double over the whole chain
    // (team_newton_solve): one solve a step.
    EXPECT_EQ(three.energy_calls, (steps + 1) * d);
    EXPECT_EQ(three.discrete_gradient_calls, (iterations - steps) * d + steps * 3 * d);
    EXPECT_EQ(one.energy_calls, three.energy_calls);
    EXPECT_EQ(one.discrete_gradient_calls, iterations * d);
    // And the run itself does not depend on the team's size.
    EXPECT_EQ(one.result.newton_iterations, iterations);
    EXPECT_EQ(one.result.max_energy_error, three.result.max_energy_error);
    EXPECT_EQ(one.result.max_norm_error, three.result.max_norm_error);
    EXPECT_EQ(std::memcmp(one.state.data(), three.state.data(), one.state.size() * sizeof(double)), 0);
}

}  // namespace
