// The host's collocation Jacobian with dG from a smaller Gauss rule than the residual's 16 nodes
// (CollocationJacobian::reduced_quadrature, schemes/collocation.hpp): its residual rows are the
// exact linearise's, its blocks approach the exact ones at the order its rule gives, and the
// host's simplified Newton takes as many linear solves with it as with the exact blocks, to the
// same root.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/collocation.hpp"
#include "geomint/spin/systems.hpp"
#include "spin_test_support.hpp"

namespace {

namespace gs = geomint::spin;
using geomint::NewtonOptions;
using geomint::SolveStatus;
using geomint_test::Lcg;
using gs::CollocationJacobian;

static_assert(gs::collocation_jacobian<2, gs::HeisenbergChain<double>> == CollocationJacobian::reduced_quadrature,
              "the host runs the reduced rule");
static_assert(gs::CollocationTables<2>::jacobian_nodes == 3 && gs::CollocationTables<3>::jacobian_nodes == 4 &&
              gs::CollocationTables<4>::jacobian_nodes == 5);

gs::AnisotropicChain<double> anisotropic() { return {0.8, gs::Vec3<double>{0.3, -0.2, 0.45}, -0.6}; }
gs::SpinningTop<double> top() { return gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7); }

template <int S, class System, CollocationJacobian J>
using Step = gs::CollocationStep<S, System, double, J>;

// The largest |reduced - exact| over block row i's three blocks, and over its residual rows.
struct Defect {
    double blocks = 0, residual = 0;
};
template <int S, class System>
Defect defect(const System& system, const std::vector<double>& u, const std::vector<double>& z, int d, double h) {
    constexpr int B = 3 * S;
    const gs::StridedSpins<double> spins{const_cast<double*>(u.data()), 1, d};
    const Step<S, System, CollocationJacobian::analytic> exact{system, spins, h};
    const Step<S, System, CollocationJacobian::reduced_quadrature> reduced{system, spins, h};
    Defect e;
    for (int i = 0; i < d; ++i) {
        const double* xl = &z[B * ((i + d - 1) % d)];
        const double* xs = &z[B * i];
        const double* xr = &z[B * ((i + 1) % d)];
        gs::NeighbourBlocks<B, double> a, b;
        double ra[B], rb[B];
        exact.linearise(i, xl, xs, xr, ra, a);
        reduced.linearise(i, xl, xs, xr, rb, b);
        for (int row = 0; row < B; ++row) {
            e.residual = std::fmax(e.residual, std::fabs(ra[row] - rb[row]));
            for (int block = 0; block < 3; ++block)
                for (int col = 0; col < B; ++col)
                    e.blocks = std::fmax(e.blocks, std::fabs(a.m[block][row][col] - b.m[block][row][col]));
        }
    }
    return e;
}

// The blocks' defect falls as h^p: p = 3 for coll4's 3 nodes, 2 for coll6's 4 and coll8's 5 (the
// degrees in CollocationTables::jacobian_nodes' comment). Asked here: halving h from 0.1 to 0.05
// divides it by at least 2^(p - 1/2), an observed order within a half of p. A rule that lost an
// order (a wrong table, node or weight) leaves a defect one power of h larger, a factor 2 less.
// The residual rows are the exact linearise's to rounding (the same 16 nodes; only how the
// integrand is formed differs).
template <int S, class System>
void expect_defect_order(const std::string& what, const System& system, int d) {
    const double p = S == 2 ? 3 : 2;
    Lcg rng{0xc011ec7ULL + static_cast<std::uint64_t>(d) + 64 * S};
    for (int trial = 0; trial < 8; ++trial) {
        SCOPED_TRACE(what + " coll" + std::to_string(2 * S) + " trial " + std::to_string(trial));
        std::vector<double> u(3 * static_cast<std::size_t>(d)), z(3 * S * static_cast<std::size_t>(d));
        gs::fill_random_spins(gs::StridedSpins<double>{u.data(), 1, d}, 40 + static_cast<std::uint64_t>(trial), 0);
        for (double& v : z) v = 1.5 * rng.next();
        const Defect coarse = defect<S>(system, u, z, d, 0.1);
        const Defect fine = defect<S>(system, u, z, d, 0.05);
        EXPECT_GT(fine.blocks, 1e3 * 2.2e-16) << "the defect must stand above rounding for its ratio to mean much";
        EXPECT_GE(coarse.blocks / fine.blocks, std::pow(2.0, p - 0.5))
            << "defects " << coarse.blocks << " at h = 0.1, " << fine.blocks << " at h = 0.05";
        EXPECT_LE(coarse.residual, 1e-14);
        EXPECT_LE(fine.residual, 1e-14);
    }
}

TEST(CollocationReducedJacobian, BlocksApproachTheExactOnesAtTheRulesOrder) {
    expect_defect_order<2>("top", top(), 1);
    expect_defect_order<3>("top", top(), 1);
    expect_defect_order<4>("top", top(), 1);
    expect_defect_order<2>("Heisenberg", gs::HeisenbergChain<double>{}, 5);
    expect_defect_order<3>("Heisenberg", gs::HeisenbergChain<double>{}, 5);
    expect_defect_order<4>("Heisenberg", gs::HeisenbergChain<double>{}, 5);
    expect_defect_order<2>("anisotropic", anisotropic(), 5);
    expect_defect_order<3>("anisotropic", anisotropic(), 5);
    expect_defect_order<4>("anisotropic", anisotropic(), 5);
}

struct Solved {
    std::vector<double> x;
    gs::NewtonOutcome<double> outcome;
};

// One step's solve as Collocation::step runs it on the host (its guess, the simplified Newton
// with the host's refresh rule), with Jacobian J.
template <int S, CollocationJacobian J, class System>
Solved solve_step(const System& system, const std::vector<double>& u, int d, double h) {
    const gs::StridedSpins<double> state{const_cast<double*>(u.data()), 1, d};
    Solved s{std::vector<double>(3 * S * static_cast<std::size_t>(d)), {}};
    gs::collocation_guess<S>(system, state, gs::StridedReals<double>{s.x.data(), 1});
    std::vector<double> work(gs::local_newton_workspace_reals<3 * S, double>(d));
    Step<S, System, J> step{system, state, h};
    s.outcome = gs::local_simplified_newton_solve(step, gs::StridedReals<double>{s.x.data(), 1},
                                                  gs::StridedReals<double>{work.data(), 1}, NewtonOptions<double>{},
                                                  double(gs::collocation_jacobian_refresh));
    return s;
}

// Linear solves: in all at most 3% more than with the exact blocks (measured: within 2% at
// h = 0.05 and 0.2, bench/RESULTS.md), and at most one more in any solve. (coll4 with 2 nodes
// took 5 solves a step where the exact blocks take 4, and fails the first.) Both solves stop
// within 2 x 64 tolerances of the same zero (test_simplified_newton.cpp says why), here 1e-13.
template <int S, class System>
void expect_same_solves(const std::string& what, const System& system, int d) {
    for (const double h : {0.05, 0.2}) {
        long long exact_solves = 0, reduced_solves = 0;
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            SCOPED_TRACE(what + " coll" + std::to_string(2 * S) + " h = " + std::to_string(h) + " seed " +
                         std::to_string(seed));
            std::vector<double> u(3 * static_cast<std::size_t>(d));
            gs::fill_random_spins(gs::StridedSpins<double>{u.data(), 1, d}, seed, 0);
            const Solved exact = solve_step<S, CollocationJacobian::analytic>(system, u, d, h);
            const Solved reduced = solve_step<S, CollocationJacobian::reduced_quadrature>(system, u, d, h);
            ASSERT_EQ(exact.outcome.status, SolveStatus::ok);
            ASSERT_EQ(reduced.outcome.status, SolveStatus::ok);
            EXPECT_LE(reduced.outcome.iterations, exact.outcome.iterations + 1);
            exact_solves += exact.outcome.iterations;
            reduced_solves += reduced.outcome.iterations;
            double worst = 0;
            for (std::size_t k = 0; k < exact.x.size(); ++k)
                worst = std::fmax(worst, std::fabs(exact.x[k] - reduced.x[k]));
            EXPECT_LE(worst, 1e-13);
        }
        EXPECT_LE(double(reduced_solves), 1.03 * double(exact_solves))
            << what << " coll" << 2 * S << " h = " << h << ": " << reduced_solves << " against " << exact_solves;
    }
}

TEST(CollocationReducedJacobian, TakesTheExactBlocksSolvesToTheSameRoot) {
    expect_same_solves<2>("top", top(), 1);
    expect_same_solves<3>("top", top(), 1);
    expect_same_solves<4>("top", top(), 1);
    expect_same_solves<2>("Heisenberg", gs::HeisenbergChain<double>{}, 16);
    expect_same_solves<3>("Heisenberg", gs::HeisenbergChain<double>{}, 16);
    expect_same_solves<4>("Heisenberg", gs::HeisenbergChain<double>{}, 16);
    expect_same_solves<2>("anisotropic", anisotropic(), 16);
    expect_same_solves<3>("anisotropic", anisotropic(), 16);
    expect_same_solves<4>("anisotropic", anisotropic(), 16);
}

}  // namespace
