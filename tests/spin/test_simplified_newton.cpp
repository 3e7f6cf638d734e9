// The simplified Newton of the collocation steps (math §3.1): the block solver's factorise() +
// substitute() against a dense solve, for several right-hand sides on one factorisation, and the
// simplified Newton against Newton on random collocation steps of every scheme x system.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "geomint/spin/block_cyclic_tridiagonal.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/collocation.hpp"
#include "geomint/spin/systems.hpp"
#include "block_system_oracle.hpp"
#include "spin_test_support.hpp"

namespace {

namespace gs = geomint::spin;
using geomint::SolveStatus;
using geomint_test::Lcg;

// The data of block_system_oracle.hpp's fill_pivoting_system (its comment derives it): a
// strictly column diagonally dominant matrix whose block rows are cyclically permuted so that
// every pivot block needs B - gcd(shift_i, B) row exchanges, and 1e-12 (1 + |x|) as the bound
// there (dominance keeps the condition number O(1)). Here the factors of one factorise() serve
// three right-hand sides in turn, each compared with the dense solve.
template <int B>
void check_factorise_substitute(int d, std::size_t stride, std::uint64_t seed) {
    Lcg rng{seed};
    const int n = B * d;
    std::vector<double> dense(static_cast<std::size_t>(n) * n, 0.0);
    std::vector<double> storage(gs::BlockCyclicTridiagonal<B, double>::workspace_reals(d) * stride, -7.0);
    int row_swaps = 0;
    const gs::BlockCyclicTridiagonal<B, double> sys{gs::StridedReals<double>{storage.data(), stride}, d, &row_swaps};
    geomint_test::fill_pivoting_system<B>(sys, d, rng, dense);
    ASSERT_EQ(sys.factorise(), SolveStatus::ok) << "B = " << B << " d = " << d;
    EXPECT_EQ(row_swaps, geomint_test::expected_row_swaps(B, d)) << "B = " << B << " d = " << d;
    for (int trial = 0; trial < 3; ++trial) {
        std::vector<double> rhs(n);
        for (int k = 0; k < n; ++k) sys.rhs(k / B, k % B) = rhs[k] = rng.next();
        ASSERT_EQ(sys.substitute(), SolveStatus::ok) << "B = " << B << " d = " << d;
        const std::vector<double> x = geomint_test::dense_solve(dense, rhs, n);
        double err = 0, scale = 0;
        for (int k = 0; k < n; ++k) {
            err = std::fmax(err, std::fabs(sys.solution(k / B, k % B) - x[k]));
            scale = std::fmax(scale, std::fabs(x[k]));
        }
        EXPECT_LT(err, 1e-12 * (1 + scale)) << "B = " << B << " d = " << d << " right-hand side " << trial;
    }
}

TEST(SpinSimplifiedNewton, FactoriseThenSubstituteMatchesDenseSolve) {
    for (int d : {1, 2, 3, 4, 5, 9}) {
        check_factorise_substitute<3>(d, 1, 0x5eed0 + static_cast<std::uint64_t>(d));
        check_factorise_substitute<6>(d, 3, 0x5eed1 + static_cast<std::uint64_t>(d));
        check_factorise_substitute<12>(d, 1, 0x5eed2 + static_cast<std::uint64_t>(d));
    }
}

// One collocation Newton solve from Collocation::step's guess, with Newton (refresh < 0) or the
// simplified Newton, on the spins u; the stage vectors come back in x.
struct Solve {
    gs::NewtonOutcome<double> outcome;
    int jacobians = 0;
    std::vector<double> x;
};

template <int S, class System>
Solve solve_stages(const System& system, std::vector<double>& u, int d, double h, double refresh) {
    const gs::StridedSpins<double> spins{u.data(), 1, d};
    Solve s;
    s.x.resize(static_cast<std::size_t>(3 * S * d));
    gs::collocation_guess<S>(system, spins, gs::StridedReals<double>{s.x.data(), 1});
    std::vector<double> work(gs::local_newton_workspace_reals<3 * S, double>(d));
    gs::CollocationStep<S, System, double> problem{system, spins, h};
    const gs::StridedReals<double> x{s.x.data(), 1}, w{work.data(), 1};
    const geomint::NewtonOptions<double> options{};
    if (refresh < 0) {
        s.outcome = gs::local_newton_solve(problem, x, w, options);
        s.jacobians = s.outcome.iterations;
    } else {
        s.outcome = gs::local_simplified_newton_solve(problem, x, w, options, refresh, &s.jacobians);
    }
    return s;
}

// Both solves stop on a step of at most the tolerance tol (Newton's error is then far below it,
// quadratic convergence; the simplified Newton's at most theta/(1 - theta) |dx| <= tol, since it
// stops only on a step that halved), or on the round-off stagnation rule, a Newton step within 64
// tol. So the two stage vectors differ by at most 2 x 64 tol; any larger difference means the
// simplified Newton stopped early or solved another equation. Random spins (random_spins.hpp) and
// h = 0.05 (the CLI's) and 0.3 (where Newton needs 4 or more iterations on these systems).
template <int S, class System>
void expect_same_stages(const System& system, int d, const char* what) {
    const double tol = gs::newton_tolerance(geomint::NewtonOptions<double>{});
    for (std::uint64_t trial = 0; trial < 6; ++trial) {
        const double h = trial < 3 ? 0.05 : 0.3;
        std::vector<double> u(3 * static_cast<std::size_t>(d));
        gs::fill_random_spins(gs::StridedSpins<double>{u.data(), 1, d}, 0xc011 + 16 * S, trial);
        const Solve newton = solve_stages<S>(system, u, d, h, -1.0);
        ASSERT_EQ(newton.outcome.status, SolveStatus::ok) << what << " S = " << S << " h = " << h;
        for (double refresh : {0.5, std::numeric_limits<double>::infinity()}) {
            const Solve simple = solve_stages<S>(system, u, d, h, refresh);
            ASSERT_EQ(simple.outcome.status, SolveStatus::ok) << what << " S = " << S << " h = " << h;
            double diff = 0;
            for (std::size_t k = 0; k < newton.x.size(); ++k)
                diff = std::fmax(diff, std::fabs(newton.x[k] - simple.x[k]));
            EXPECT_LE(diff, 2 * 64 * tol) << what << " S = " << S << " h = " << h << " refresh = " << refresh;
            // Fewer Jacobians than Newton's (one per iteration), never more.
            EXPECT_LE(simple.jacobians, newton.jacobians) << what << " S = " << S << " h = " << h;
        }
    }
}

template <class System>
void expect_same_stages_all(const System& system, int d, const char* what) {
    expect_same_stages<2>(system, d, what);
    expect_same_stages<3>(system, d, what);
    expect_same_stages<4>(system, d, what);
}

TEST(SpinSimplifiedNewton, ConvergesToTheNewtonSolution) {
    expect_same_stages_all(gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7), 1, "top");
    for (int d : {2, 3, 16}) {
        expect_same_stages_all(gs::HeisenbergChain<double>{}, d, "heisenberg");
        expect_same_stages_all(gs::AnisotropicChain<double>{0.8, gs::Vec3<double>{0.3, -0.2, 0.45}, -0.6}, d,
                               "anisotropic");
    }
}

// The host's collocation step runs the simplified Newton (collocation_jacobian_refresh), and the
// Newton iterations it reports are its linear solves.
TEST(SpinSimplifiedNewton, IsTheCollocationChoiceOnTheHost) {
    static_assert(gs::collocation_jacobian_refresh == 0.5);
    const gs::HeisenbergChain<double> chain{};
    const int d = 16;
    std::vector<double> a(3 * d);
    gs::fill_random_spins(gs::StridedSpins<double>{a.data(), 1, d}, 99, 1);
    std::vector<double> b = a;
    std::vector<double> work(gs::Coll8{}.workspace_reals(d));
    const gs::StridedReals<double> w{work.data(), 1};
    const auto ra = gs::Coll8{}.step(chain, 0.3, gs::StridedSpins<double>{a.data(), 1, d}, w, {});
    int jacobians = 0;
    const auto rb = gs::Coll8{}.step(chain, 0.3, gs::StridedSpins<double>{b.data(), 1, d}, w, {}, 0.5, &jacobians);
    ASSERT_EQ(ra.status, SolveStatus::ok);
    EXPECT_EQ(ra.iterations, rb.iterations);
    EXPECT_EQ(a, b);
    EXPECT_LT(jacobians, rb.iterations);
}

}  // namespace
