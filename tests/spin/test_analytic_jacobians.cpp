// The analytic Newton Jacobians (math §3) against the forward-mode dual-number oracle
// (ad_linearise): every system x every problem (DRG, midpoint, collocation), on random states;
// which schemes use them; and whole runs with and without them (same states to round-off, no more iterations).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/collocation.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/schemes/midpoint_baselines.hpp"
#include "geomint/spin/systems.hpp"
#include "spin_test_support.hpp"

namespace {

namespace gs = geomint::spin;
using V = gs::Vec3<double>;
using M = gs::Mat3<double>;
using geomint_test::Lcg;

// Non-trivial parameters, so that every term of every Hessian block is exercised.
gs::SpinningTop<double> top() { return gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7); }
gs::AnisotropicChain<double> anisotropic() { return {0.8, V{0.3, -0.2, 0.45}, -0.6}; }

// The largest |analytic - AD| over the three blocks of block row i and the residual. For a single
// block (the top) the solver uses A + D + C, which is what the one-pass AD oracle returns as D.
template <class Problem>
double max_defect(const Problem& problem, int i, int d, const std::vector<double>& x, double& residual_defect) {
    const int il = (i + d - 1) % d, ir = (i + 1) % d;
    const double* xl = &x[3 * il];
    const double* xs = &x[3 * i];
    const double* xr = &x[3 * ir];
    gs::NeighbourJacobian<double> analytic;
    V r;
    if constexpr (gs::detail::HasCollectableLinearise<Problem, double>)
        r = gs::collect_linearise(problem, i, xl, xs, xr, analytic);
    else
        r = problem.linearise(i, xl, xs, xr, analytic);
    double ad[3][3][3] = {};
    double out[3];
    const bool single = d == 1;
    gs::ad_linearise(problem, i, single, xl, xs, xr, out,
                     [&](int block, int row, int col, double value) { ad[block][row][col] = value; });
    double e = 0;
    for (int row = 0; row < 3; ++row) {
        residual_defect = std::fmax(residual_defect, std::fabs(r[row] - out[row]));
        for (int col = 0; col < 3; ++col) {
            const double a[3] = {analytic.left.m[row][col], analytic.self.m[row][col], analytic.right.m[row][col]};
            if (single) {
                e = std::fmax(e, std::fabs(a[0] + a[1] + a[2] - ad[1][row][col]));
            } else {
                for (int b = 0; b < 3; ++b) e = std::fmax(e, std::fabs(a[b] - ad[b][row][col]));
            }
        }
    }
    return e;
}

// Random start u and iterate v: v is u moved by up to `spread` (a Newton iterate of a step of
// size h is within O(h) of u), so that the centres and retractions are defined (c.u > 0).
struct RandomStep {
    std::vector<double> u, v;
};
RandomStep random_step(Lcg& rng, int d, double spread) {
    RandomStep s{std::vector<double>(3 * d), std::vector<double>(3 * d)};
    for (int i = 0; i < d; ++i) {
        const V a = rng.unit();
        const V b = a + spread * rng.vec();
        const V bn = b / norm(b);
        for (int k = 0; k < 3; ++k) {
            s.u[3 * i + k] = a[k];
            s.v[3 * i + k] = bn[k];
        }
    }
    return s;
}

// Builds the problem with `make` for 40 random (u, v, h) and compares every block row with the
// oracle. The bound is absolute: the Jacobian entries are O(1) (identity plus O(h) terms, h up to
// 0.3 here); the residuals, the same formula evaluated in Real and in dual numbers, to 1e-14.
template <class System, class MakeProblem>
void expect_matches_oracle(const System& system, int d, const MakeProblem& make, const std::string& what) {
    Lcg rng{0x5eed0000ULL + static_cast<std::uint64_t>(d)};
    double worst = 0, worst_residual = 0;
    for (int trial = 0; trial < 40; ++trial) {
        const double spread = trial % 2 == 0 ? 0.05 : 0.5;
        const double h = trial % 4 < 2 ? 0.05 : 0.3;
        RandomStep s = random_step(rng, d, spread);
        const auto problem = make(system, gs::StridedSpins<double>{s.u.data(), 1, d}, h, s.v, rng);
        for (int i = 0; i < d; ++i) worst = std::fmax(worst, max_defect(problem, i, d, s.v, worst_residual));
    }
    EXPECT_LE(worst, 1e-12) << what << " on " << System::name << ", d = " << d;
    EXPECT_LE(worst_residual, 1e-14) << what << " residual on " << System::name << ", d = " << d;
    testing::Test::RecordProperty(std::string(System::name) + "_" + what + "_d" + std::to_string(d),
                                  geomint_test::sci(worst));
}

template <gs::MidpointKind kind>
struct MakeMidpoint {
    template <class System>
    auto operator()(const System& system, gs::StridedSpins<double> u, double h, const std::vector<double>&,
                    Lcg&) const {
        return gs::MidpointStep<kind, System, double>{system, u, h};
    }
};

template <gs::Centre centre, class Gradient>
struct MakeDrg {
    template <class System>
    auto operator()(const System& system, gs::StridedSpins<double> u, double h, const std::vector<double>& v,
                    Lcg& rng) const {
        Gradient g{};
        if constexpr (requires { g.lambda; }) {
            // lambda as prepare() sets it from this iterate, plus noise so a wrong lambda term shows.
            std::vector<double> vv = v;
            g.prepare(system, u, gs::StridedSpins<double>{vv.data(), 1, u.d});
            g.lambda += 0.3 * rng.next();
        }
        return gs::DrgStage<centre, Gradient, System, double>{system, u, h, g};
    }
};

template <class System>
void check_all(const System& system, int d) {
    expect_matches_oracle(system, d, MakeMidpoint<gs::MidpointKind::embedded>{}, "implicit_midpoint");
    expect_matches_oracle(system, d, MakeMidpoint<gs::MidpointKind::spherical>{}, "spherical_midpoint");
    // The exact 8-node AVF Jacobian; the scheme's reduced one is held to its quadrature bound of
    // this one in test_avf_reduced_jacobian.cpp.
    expect_matches_oracle(system, d, MakeDrg<gs::Centre::symmetric, gs::ExactAvfGradient>{}, "avf");
    expect_matches_oracle(system, d, MakeDrg<gs::Centre::symmetric, gs::MidpointGradient<double>>{}, "mp");
    if constexpr (System::is_chain)
        expect_matches_oracle(system, d, MakeDrg<gs::Centre::symmetric, gs::LocalMidpointGradient>{}, "mmp");
    using gs::IaDirection;
    // ia; sia (and compsia's stages); comp2's (and comp4's) two stages.
    expect_matches_oracle(system, d, MakeDrg<gs::Centre::start, gs::ItohAbeGradient<IaDirection::forward>>{}, "ia");
    expect_matches_oracle(system, d, MakeDrg<gs::Centre::symmetric, gs::ItohAbeGradient<IaDirection::symmetrised>>{},
                          "sia");
    expect_matches_oracle(system, d, MakeDrg<gs::Centre::symmetric, gs::ItohAbeGradient<IaDirection::adjoint>>{},
                          "comp2_adjoint");
    expect_matches_oracle(system, d, MakeDrg<gs::Centre::symmetric, gs::ItohAbeGradient<IaDirection::forward>>{},
                          "comp2_forward");
}

// Collocation (blocks of B = 3 s): the largest |analytic - AD| over the three B x B blocks of
// block row i, and over the residual. Stage vectors Z_j random with components in [-1.5, 1.5)
// (the size of u x grad H for these systems, |grad H| <= 2 up to the parameters), not tangent:
// the residual and its Jacobian are defined for any Z, and the normal components exercise more
// terms.
template <class Problem>
double max_block_defect(const Problem& problem, int i, int d, const std::vector<double>& x, double& residual_defect) {
    constexpr int B = Problem::block_size;
    const int il = (i + d - 1) % d, ir = (i + 1) % d;
    const double* xl = &x[B * il];
    const double* xs = &x[B * i];
    const double* xr = &x[B * ir];
    gs::NeighbourBlocks<B, double> analytic;
    double r[B];
    problem.linearise(i, xl, xs, xr, r, analytic);
    double ad[3][B][B] = {};
    double out[B];
    const bool single = d == 1;
    gs::ad_linearise(problem, i, single, xl, xs, xr, out,
                     [&](int block, int row, int col, double value) { ad[block][row][col] = value; });
    double e = 0;
    for (int row = 0; row < B; ++row) {
        residual_defect = std::fmax(residual_defect, std::fabs(r[row] - out[row]));
        for (int col = 0; col < B; ++col) {
            const double a[3] = {analytic.m[0][row][col], analytic.m[1][row][col], analytic.m[2][row][col]};
            if (single) {
                e = std::fmax(e, std::fabs(a[0] + a[1] + a[2] - ad[1][row][col]));
            } else {
                for (int b = 0; b < 3; ++b) e = std::fmax(e, std::fabs(a[b] - ad[b][row][col]));
            }
        }
    }
    return e;
}

// 40 random (u, Z, h) per system and scheme, as expect_matches_oracle; the bound is the same (the
// blocks are identity plus O(h) terms of O(1) size, the AD and the formulas differ by rounding).
template <int S, class System>
double collocation_defect(const System& system, int d, double& worst_residual) {
    constexpr int B = 3 * S;
    Lcg rng{0xc0110000ULL + static_cast<std::uint64_t>(d) + 64 * S};
    double worst = 0;
    for (int trial = 0; trial < 40; ++trial) {
        const double h = trial % 4 < 2 ? 0.05 : 0.3;
        RandomStep s = random_step(rng, d, 0.05);
        std::vector<double> z(static_cast<std::size_t>(B) * d);
        for (double& v : z) v = 1.5 * rng.next();
        const gs::CollocationStep<S, System, double, gs::CollocationJacobian::analytic> problem{
            system, gs::StridedSpins<double>{s.u.data(), 1, d}, h};
        for (int i = 0; i < d; ++i) worst = std::fmax(worst, max_block_defect(problem, i, d, z, worst_residual));
    }
    return worst;
}

template <int S, class System>
void expect_collocation_matches_oracle(const System& system, int d) {
    double worst_residual = 0;
    const double worst = collocation_defect<S>(system, d, worst_residual);
    const std::string what = "coll" + std::to_string(2 * S);
    EXPECT_LE(worst, 1e-12) << what << " on " << System::name << ", d = " << d;
    EXPECT_LE(worst_residual, 1e-14) << what << " residual on " << System::name << ", d = " << d;
    testing::Test::RecordProperty(std::string(System::name) + "_" + what + "_d" + std::to_string(d),
                                  geomint_test::sci(worst));
}

template <class System>
void check_collocation(const System& system, int d) {
    expect_collocation_matches_oracle<2>(system, d);
    expect_collocation_matches_oracle<3>(system, d);
    expect_collocation_matches_oracle<4>(system, d);
}

TEST(AnalyticJacobians, TopMatchesDualNumbers) { check_all(top(), 1); }

TEST(AnalyticJacobians, CollocationMatchesDualNumbers) {
    check_collocation(top(), 1);
    for (int d : {1, 2, 3, 7}) {
        check_collocation(gs::HeisenbergChain<double>{}, d);
        check_collocation(anisotropic(), d);
    }
}

// The collocation comparison can fail: the anisotropy's Hessian block dropped, as above, moves
// coll4's blocks by O(h D) (here the own block of every stage).
TEST(AnalyticJacobians, CollocationOracleComparisonDetectsAWrongHessian) {
    struct WrongHessian : gs::AnisotropicChain<double> {
        gs::NeighbourJacobian<double> gradient_jacobian(const V& l, const V& s, const V& r) const {
            gs::NeighbourJacobian<double> j = gs::AnisotropicChain<double>::gradient_jacobian(l, s, r);
            j.self = M::zero();
            return j;
        }
    };
    double residual = 0;
    EXPECT_GT(collocation_defect<2>(WrongHessian{anisotropic()}, 4, residual), 1e-3);
}

// Spin i's neighbourhood in random steps of a system of d spins (h = 0.05 and 0.5 in turn), each
// handed to check(n) for every i.
template <class Check>
void for_random_neighbourhoods(std::uint64_t seed, int d, const Check& check) {
    Lcg rng{seed};
    for (int trial = 0; trial < 20; ++trial) {
        RandomStep s = random_step(rng, d, trial % 2 == 0 ? 0.05 : 0.5);
        const gs::StridedSpins<double> u{s.u.data(), 1, d}, v{s.v.data(), 1, d};
        for (int i = 0; i < d; ++i) {
            const int il = u.wrap(i - 1), ir = u.wrap(i + 1);
            check(gs::Neighbourhood<double, double>{i, d, u.get(il), u.get(i), u.get(ir), v.get(il), v.get(i),
                                                    v.get(ir)});
        }
    }
}

// Plain Itoh-Abe's centre is u, so its Jacobian leaves out the terms through dc (FixedCentre):
// they were products with a zero dc, and the blocks must be the same bits as with dc = 0 given
// (and so the oracle comparison above, which takes the FixedCentre form for ia, covers both).
template <class System>
void expect_fixed_centre_is_zero_dc(const System& system, int d) {
    const gs::ItohAbeGradient<gs::IaDirection::forward> gradient{};
    for_random_neighbourhoods(0xfc00ULL + static_cast<std::uint64_t>(d), d, [&](const auto& n) {
        gs::NeighbourJacobian<double> fixed, zero;
        const V g_fixed = gradient.linearise(system, n, n.u, gs::FixedCentre{}, fixed);
        const V g_zero = gradient.linearise(system, n, n.u, M::zero(), zero);
        for (int r = 0; r < 3; ++r) {
            EXPECT_EQ(g_fixed[r], g_zero[r]) << System::name;
            for (int c = 0; c < 3; ++c) {
                EXPECT_EQ(fixed.left.m[r][c], zero.left.m[r][c]) << System::name << " spin " << n.i;
                EXPECT_EQ(fixed.self.m[r][c], zero.self.m[r][c]) << System::name << " spin " << n.i;
                EXPECT_EQ(fixed.right.m[r][c], zero.right.m[r][c]) << System::name << " spin " << n.i;
            }
        }
    });
}

TEST(AnalyticJacobians, FixedCentreFormIsTheZeroDcFormBitForBit) {
    expect_fixed_centre_is_zero_dc(top(), 1);
    expect_fixed_centre_is_zero_dc(gs::HeisenbergChain<double>{}, 7);
    expect_fixed_centre_is_zero_dc(anisotropic(), 7);
}

// sia's two walks are pulled back together (itoh_abe_pair_linearised): its gradient and blocks
// must be the mean of the forward and adjoint walks' (each its own linearise, the form comp2's
// stages take), to rounding: a bound 100 times tighter than the dual-number comparison's.
template <class System>
void expect_pair_is_the_two_walks(const System& system, int d) {
    const gs::ItohAbeGradient<gs::IaDirection::symmetrised> pair{};
    const gs::ItohAbeGradient<gs::IaDirection::forward> forward{};
    const gs::ItohAbeGradient<gs::IaDirection::adjoint> adjoint{};
    const auto close = [](double a, double b) {
        return std::fabs(a - b) <= 1e-14 * (1 + std::fmax(std::fabs(a), std::fabs(b)));
    };
    for_random_neighbourhoods(0x5a00ULL + static_cast<std::uint64_t>(d), d, [&](const auto& n) {
        const V c = gs::symmetric_centre(n.u, n.v);
        const M dc = gs::normalise_jacobian(n.u + n.v);
        gs::NeighbourJacobian<double> both, f, a;
        const V g = pair.linearise(system, n, c, dc, both);
        const V gf = forward.linearise(system, n, c, dc, f), ga = adjoint.linearise(system, n, c, dc, a);
        for (int r = 0; r < 3; ++r) {
            EXPECT_PRED2(close, g[r], 0.5 * (gf[r] + ga[r])) << System::name << " spin " << n.i;
            for (int k = 0; k < 3; ++k) {
                EXPECT_PRED2(close, both.left.m[r][k], 0.5 * (f.left.m[r][k] + a.left.m[r][k])) << System::name;
                EXPECT_PRED2(close, both.self.m[r][k], 0.5 * (f.self.m[r][k] + a.self.m[r][k])) << System::name;
                EXPECT_PRED2(close, both.right.m[r][k], 0.5 * (f.right.m[r][k] + a.right.m[r][k])) << System::name;
            }
        }
    });
}

TEST(AnalyticJacobians, SymmetrisedPairIsTheMeanOfItsTwoWalks) {
    expect_pair_is_the_two_walks(top(), 1);
    expect_pair_is_the_two_walks(gs::HeisenbergChain<double>{}, 7);
    expect_pair_is_the_two_walks(anisotropic(), 7);
}

TEST(AnalyticJacobians, HeisenbergChainMatchesDualNumbers) {
    for (int d : {2, 3, 7}) check_all(gs::HeisenbergChain<double>{}, d);
}

TEST(AnalyticJacobians, AnisotropicChainMatchesDualNumbers) {
    for (int d : {2, 3, 7}) check_all(anisotropic(), d);
}

// The oracle comparison can fail: a Jacobian with one Hessian block dropped (the anisotropy's)
// is caught by the same bound.
TEST(AnalyticJacobians, OracleComparisonDetectsAWrongHessian) {
    struct WrongHessian : gs::AnisotropicChain<double> {
        gs::NeighbourJacobian<double> gradient_jacobian(const V& l, const V& s, const V& r) const {
            gs::NeighbourJacobian<double> j = gs::AnisotropicChain<double>::gradient_jacobian(l, s, r);
            j.self = M::zero();
            return j;
        }
    };
    const WrongHessian system{anisotropic()};
    Lcg rng{7};
    RandomStep s = random_step(rng, 4, 0.3);
    const gs::MidpointStep<gs::MidpointKind::embedded, WrongHessian, double> problem{
        system, gs::StridedSpins<double>{s.u.data(), 1, 4}, 0.3};
    double residual = 0;
    EXPECT_GT(max_defect(problem, 1, 4, s.v, residual), 1e-3);
}

// Which problems take the analytic path: every system for the midpoint baselines, every DRG
// (mmp: chains only) and collocation (in blocks of 3 s); the AutomaticJacobians view of a system
// forces dual numbers for every scheme. The B = 3 problems provide it streamed only
// (linearise_into: block by block into the workspace), which max_defect collects
// (collect_linearise).
template <class Problem>
constexpr bool analytic =
    gs::detail::HasLinearise<Problem, double> || gs::detail::HasCollectableLinearise<Problem, double>;
template <class Problem>
constexpr bool block_analytic = gs::detail::HasBlockLinearise<Problem, double>;
template <class Problem>
constexpr bool streamed = gs::detail::HasLineariseInto<Problem, double>;

template <class System>
constexpr void static_checks() {
    using u = System;
    using Ad = gs::AutomaticJacobians<System>;
    static_assert(analytic<gs::MidpointStep<gs::MidpointKind::embedded, u, double>>);
    static_assert(analytic<gs::MidpointStep<gs::MidpointKind::spherical, u, double>>);
    static_assert(analytic<gs::DrgStage<gs::Centre::symmetric, gs::AvfGradient, u, double>>);
    static_assert(analytic<gs::DrgStage<gs::Centre::symmetric, gs::ExactAvfGradient, u, double>>);
    static_assert(analytic<gs::DrgStage<gs::Centre::symmetric, gs::MidpointGradient<double>, u, double>>);
    static_assert(analytic<gs::DrgStage<gs::Centre::start, gs::ItohAbeGradient<gs::IaDirection::forward>, u, double>>);
    static_assert(
        analytic<gs::DrgStage<gs::Centre::symmetric, gs::ItohAbeGradient<gs::IaDirection::symmetrised>, u, double>>);
    static_assert(streamed<gs::MidpointStep<gs::MidpointKind::spherical, u, double>>);
    static_assert(streamed<gs::DrgStage<gs::Centre::symmetric, gs::AvfGradient, u, double>>);
    static_assert(streamed<gs::DrgStage<gs::Centre::start, gs::ItohAbeGradient<gs::IaDirection::forward>, u, double>>);
    static_assert(!analytic<gs::CollocationStep<2, u, double>>);  // not the B = 3 form, but:
    static_assert(block_analytic<gs::CollocationStep<2, u, double>>);
    static_assert(block_analytic<gs::CollocationStep<3, u, double>>);
    static_assert(block_analytic<gs::CollocationStep<4, u, double>>);
    static_assert(!block_analytic<gs::CollocationStep<4, Ad, double>>);
    static_assert(!analytic<gs::MidpointStep<gs::MidpointKind::embedded, Ad, double>>);
    static_assert(!analytic<gs::DrgStage<gs::Centre::symmetric, gs::AvfGradient, Ad, double>>);
}
TEST(AnalyticJacobians, PathsAreTheDocumentedOnes) {
    static_checks<gs::SpinningTop<double>>();
    static_checks<gs::HeisenbergChain<double>>();
    static_checks<gs::AnisotropicChain<double>>();
    static_assert(
        analytic<gs::DrgStage<gs::Centre::symmetric, gs::LocalMidpointGradient, gs::HeisenbergChain<double>, double>>);
    static_assert(!analytic<gs::DrgStage<gs::Centre::symmetric, gs::LocalMidpointGradient,
                                         gs::AutomaticJacobians<gs::HeisenbergChain<double>>, double>>);
    SUCCEED();
}

// Whole runs: the analytic and the dual-number Jacobians give the same states to round-off and
// no more Newton iterations (both are exact Jacobians; only their rounding differs).
template <class Scheme, class System>
void expect_same_run(const Scheme& scheme, const System& system, int d, double h, long long steps) {
    std::vector<double> a(3 * d);
    gs::fill_random_spins(gs::StridedSpins<double>{a.data(), 1, d}, 1234, 5);
    std::vector<double> b = a;
    const auto ra = geomint_test::run(scheme, system, h, steps, a);
    const auto rb = geomint_test::run(scheme, gs::AutomaticJacobians<System>{system}, h, steps, b);
    EXPECT_LE(geomint_test::max_spin_distance(a, b), 1e-12) << Scheme::name << " on " << System::name;
    EXPECT_LE(ra.newton_iterations, rb.newton_iterations) << Scheme::name << " on " << System::name;
    EXPECT_NEAR(ra.max_energy_error, rb.max_energy_error, 1e-13) << Scheme::name << " on " << System::name;
}

template <class System>
void same_runs(const System& system, int d) {
    expect_same_run(gs::ImplicitMidpoint{}, system, d, 0.05, 40);
    expect_same_run(gs::SphericalMidpoint{}, system, d, 0.05, 40);
    expect_same_run(gs::Avf{}, system, d, 0.05, 40);
    expect_same_run(gs::GonzalezMidpoint{}, system, d, 0.05, 40);
    if constexpr (System::is_chain) expect_same_run(gs::LocalMidpoint{}, system, d, 0.05, 40);
    expect_same_run(gs::ItohAbe{}, system, d, 0.05, 40);
    expect_same_run(gs::SymmetrisedItohAbe{}, system, d, 0.05, 40);
    expect_same_run(gs::Comp2{}, system, d, 0.05, 40);
    expect_same_run(gs::CompSia{}, system, d, 0.05, 20);
    expect_same_run(gs::Comp4{}, system, d, 0.05, 20);
    expect_same_run(gs::Coll4{}, system, d, 0.05, 20);
    expect_same_run(gs::Coll6{}, system, d, 0.05, 20);
    expect_same_run(gs::Coll8{}, system, d, 0.05, 20);
}

TEST(AnalyticJacobians, RunsMatchDualNumberRuns) {
    same_runs(top(), 1);
    same_runs(gs::HeisenbergChain<double>{}, 9);
    same_runs(anisotropic(), 9);
}

}  // namespace
