// The GPU's quasi-Newton for collocation (CollocationJacobian::frozen_quadrature,
// schemes/collocation.hpp), run here on the host: every s and system converges to the exact
// Newton's stage vectors in few more iterations, and float converges over long runs.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/collocation.hpp"
#include "geomint/spin/systems.hpp"

namespace {

namespace gs = geomint::spin;
using geomint::NewtonOptions;
using geomint::SolveStatus;
using gs::CollocationJacobian;

template <int S, class System, class Real, CollocationJacobian J>
using Step = gs::CollocationStep<S, System, Real, J>;

static_assert(Step<2, gs::HeisenbergChain<double>, double, CollocationJacobian::analytic>::exact_jacobian);
static_assert(!Step<4, gs::HeisenbergChain<double>, double, CollocationJacobian::frozen_quadrature>::exact_jacobian);
// The GPU's choices (schemes/collocation.hpp): the quasi-Newton for coll6 and coll8 on chains.
static_assert(gs::device_collocation_jacobian<3, gs::HeisenbergChain<double>> ==
              CollocationJacobian::frozen_quadrature);
static_assert(gs::device_collocation_jacobian<4, gs::AnisotropicChain<double>> ==
              CollocationJacobian::frozen_quadrature);
static_assert(gs::device_collocation_jacobian<2, gs::HeisenbergChain<double>> == CollocationJacobian::dual_numbers);
static_assert(gs::device_collocation_jacobian<4, gs::SpinningTop<double>> == CollocationJacobian::dual_numbers);

gs::AnisotropicChain<double> anisotropic() { return {0.8, gs::Vec3<double>{0.3, -0.2, 0.45}, -0.6}; }

template <class Real>
struct Solved {
    std::vector<Real> x;
    gs::NewtonOutcome<Real> outcome;
};

// One step's Newton solve from Collocation::step's guess (every stage vector u_i x dH/ds_i(u)).
template <int S, CollocationJacobian J, class System, class Real>
Solved<Real> solve_step(const System& system, const std::vector<Real>& u, int d, Real h) {
    const gs::StridedSpins<Real> state{const_cast<Real*>(u.data()), 1, d};
    Solved<Real> s{std::vector<Real>(3 * S * static_cast<std::size_t>(d)), {}};
    gs::collocation_guess<S>(system, state, gs::StridedReals<Real>{s.x.data(), 1});
    std::vector<Real> work(gs::local_newton_workspace_reals<3 * S, Real>(d));
    Step<S, System, Real, J> step{system, state, h};
    s.outcome = gs::local_newton_solve(step, gs::StridedReals<Real>{s.x.data(), 1},
                                       gs::StridedReals<Real>{work.data(), 1}, NewtonOptions<Real>{});
    return s;
}

// Both stop within about their tolerance (8 ulps of 1) of the same zero; the stage vectors are of
// unit size, and 1e-14 allows for a 16-spin step's conditioning. Iterations: the frozen quadrature
// misses O(h) of dG/dZ, so the Jacobian is off by O(h^2) and Newton contracts linearly at a rate
// O(h^2): at h = 0.05 at most twice Newton's iterations; at h = 0.2 only convergence is asked.
// (At h = 0.5 Newton itself fails on the anisotropic chain for coll4 from some states; RESULTS
// has the quasi-Newton's counts there.)
template <int S, class System>
void check(const std::string& what, const System& system, int d) {
    for (const double h : {0.05, 0.2})
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            SCOPED_TRACE(what + " s = " + std::to_string(S) + " h = " + std::to_string(h) + " seed " +
                         std::to_string(seed));
            std::vector<double> u(3 * static_cast<std::size_t>(d));
            gs::fill_random_spins(gs::StridedSpins<double>{u.data(), 1, d}, seed, 0);
            const auto exact = solve_step<S, CollocationJacobian::analytic>(system, u, d, h);
            const auto quasi = solve_step<S, CollocationJacobian::frozen_quadrature>(system, u, d, h);
            ASSERT_EQ(exact.outcome.status, SolveStatus::ok);
            ASSERT_EQ(quasi.outcome.status, SolveStatus::ok);
            double worst = 0;
            for (std::size_t k = 0; k < exact.x.size(); ++k)
                worst = std::fmax(worst, std::fabs(exact.x[k] - quasi.x[k]));
            EXPECT_LE(worst, 1e-14);
            EXPECT_GE(quasi.outcome.iterations, exact.outcome.iterations);
            if (h == 0.05) {
                EXPECT_LE(quasi.outcome.iterations, 2 * exact.outcome.iterations);
            }
        }
}

template <int S>
void check_all() {
    check<S>("top", gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7), 1);
    check<S>("heisenberg", gs::HeisenbergChain<double>{}, 16);
    check<S>("anisotropic", anisotropic(), 16);
}

TEST(CollocationQuasiNewton, ConvergesToTheExactNewtonSolution) {
    check_all<2>();
    check_all<3>();
    check_all<4>();
}

// A long run, each step as Collocation::step completes it (v_i = phi_{u_i}(h sum_j b_j Z_j)):
// coll6 on an 8-spin anisotropic chain, 2000 steps of h = 0.05, with the exact and the quasi-Newton
// Jacobian. Collocation keeps the energy to round-off (math §2.3), and the stopping rule of the
// approximate Jacobian must not leave a Newton error that drifts it: both within 2e-14 (the exact
// run measures a few 1e-15), and the quasi-Newton took more iterations (it did run).
template <CollocationJacobian J>
double energy_drift(long long steps, long long& iterations) {
    constexpr int S = 3, d = 8;
    const auto system = anisotropic();
    std::vector<double> s(3 * d);
    const gs::StridedSpins<double> state{s.data(), 1, d};
    gs::fill_random_spins(state, 21, 0);
    const double h = 0.05, h0 = gs::total_energy(system, state);
    const gs::CollocationTables<S>& tab = gs::collocation_table<S>();
    double worst = 0;
    iterations = 0;
    for (long long n = 0; n < steps; ++n) {
        const auto solved = solve_step<S, J>(system, s, d, h);
        EXPECT_EQ(solved.outcome.status, SolveStatus::ok);
        if (solved.outcome.status != SolveStatus::ok) return INFINITY;
        iterations += solved.outcome.iterations;
        for (int i = 0; i < d; ++i) {
            gs::Vec3<double> sum{0, 0, 0};
            for (int j = 0; j < S; ++j) {
                const double* z = &solved.x[3 * S * i + 3 * j];
                sum += (h * tab.weight[j]) * gs::Vec3<double>{z[0], z[1], z[2]};
            }
            state.set(i, gs::retract(state.get(i), sum));
        }
        worst = std::fmax(worst, std::fabs(gs::total_energy(system, state) - h0));
    }
    return worst;
}

TEST(CollocationQuasiNewton, KeepsTheEnergyOverLongRuns) {
    long long exact_iterations = 0, quasi_iterations = 0;
    EXPECT_LE(energy_drift<CollocationJacobian::analytic>(2000, exact_iterations), 2e-14);
    EXPECT_LE(energy_drift<CollocationJacobian::frozen_quadrature>(2000, quasi_iterations), 2e-14);
    EXPECT_GT(quasi_iterations, exact_iterations) << "the quasi-Newton did not run";
}

// Float (--precision float on the GPU): coll8 on a 16-spin Heisenberg chain converges with the
// quasi-Newton at h = 0.05 and 0.2 and agrees with the exact Jacobian's stage vectors to 1e-5
// (8 ulps of 1 in float, 9.5e-7, times the step's conditioning).
TEST(CollocationQuasiNewton, FloatConverges) {
    constexpr int d = 16;
    const gs::HeisenbergChain<float> system{};
    for (const float h : {0.05f, 0.2f})
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            std::vector<float> u(3 * d);
            gs::fill_random_spins(gs::StridedSpins<float>{u.data(), 1, d}, seed, 0);
            const auto exact = solve_step<4, CollocationJacobian::analytic>(system, u, d, h);
            const auto quasi = solve_step<4, CollocationJacobian::frozen_quadrature>(system, u, d, h);
            ASSERT_EQ(exact.outcome.status, SolveStatus::ok);
            ASSERT_EQ(quasi.outcome.status, SolveStatus::ok);
            float worst = 0;
            for (std::size_t k = 0; k < exact.x.size(); ++k)
                worst = std::fmax(worst, std::fabs(exact.x[k] - quasi.x[k]));
            EXPECT_LE(worst, 1e-5f) << "h = " << h << " seed " << seed;
        }
}

}  // namespace
