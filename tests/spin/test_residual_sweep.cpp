// The rows of the host's Newton systems in one sweep, for AVF and the Gonzalez midpoint: what the
// gradient reads of each spin is formed once for the three rows that read it.
// - The residual rows (DrgStage::residual_sweep; AVF's path at the 8 Gauss nodes, the midpoint's
//   symmetric centre and eta) must be those of the per-row residual (DrgStage::residual) bit for
//   bit, in double and in the wider type of the last residual of a solve, for the top and for
//   every chain length (the first and last rows read paths formed for earlier rows).
// - The Gonzalez midpoint's rows finished from what its lambda sums kept
//   (DrgStage::prepared_residual_sweep: prepare() in double, prepare_wide() in the wider type)
//   must be those of residual() bit for bit, with lambda as prepare() (prepare_wide()) sets it.
// - The fresh rows with their Jacobian blocks (DrgStage::linearise_sweep, chains; the centre and
//   dc/dv, and AVF's path with dp/dv and its unit points at the nodes) must be those of the
//   per-row linearise_into bit for bit, in the Newton system's workspace as the solver fills it.
// So the host's simplified Newton, which takes its rows this way, steps exactly as before.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/systems.hpp"

namespace {

namespace gs = geomint::spin;

// Random spins u and an iterate v near them (u + 0.2 w, normalised, then moved off the sphere by
// up to 1e-3, as a Newton iterate may be), as 3 d reals each.
struct StageInput {
    std::vector<double> u, v;
};
StageInput random_input(int d, std::uint64_t seed) {
    StageInput in{std::vector<double>(3 * d), std::vector<double>(3 * d)};
    std::vector<double> w(3 * d);
    gs::fill_random_spins(gs::StridedSpins<double>{in.u.data(), 1, d}, seed, 0);
    gs::fill_random_spins(gs::StridedSpins<double>{w.data(), 1, d}, seed, 1);
    for (int i = 0; i < d; ++i) {
        gs::Vec3<double> v{in.u[3 * i] + 0.2 * w[3 * i], in.u[3 * i + 1] + 0.2 * w[3 * i + 1],
                           in.u[3 * i + 2] + 0.2 * w[3 * i + 2]};
        v = (1.0 + 1e-3 * (i % 3 - 1)) / gs::norm(v) * v;
        in.v[3 * i] = v.x;
        in.v[3 * i + 1] = v.y;
        in.v[3 * i + 2] = v.z;
    }
    return in;
}

// A stage u -> v from random_input, with the Gonzalez midpoint's lambda from this iterate, as
// Newton sets it before a residual (a gradient without prepare() has nothing to set).
template <class Gradient, class System>
struct PreparedStage {
    StageInput in;
    gs::StridedReals<double> x;
    gs::DrgStage<gs::Centre::symmetric, Gradient, System, double> stage;
    PreparedStage(const System& system, int d, std::uint64_t seed, double h)
        : in(random_input(d, seed)),
          x{in.v.data(), 1},
          stage{system, gs::StridedSpins<double>{in.u.data(), 1, d}, h, Gradient{}} {
        stage.prepare(x);
        if constexpr (std::is_same_v<Gradient, gs::MidpointGradient<double>>) EXPECT_NE(stage.gradient.lambda, 0.0);
    }
    PreparedStage(const PreparedStage&) = delete;  // x and stage point into in
};

// A sweep's rows in T, as its emit(i, row) hands them on, and how many of their components
// differ from residual()'s rows of `stage` in T; every row must come once, in order.
template <class T>
struct SweptRows {
    int d, rows = 0, in_order = 0;
    std::vector<T> values;
    explicit SweptRows(int spins) : d(spins), values(3 * spins, T(-7)) {}
    auto emit() {
        return [this](int i, const T* row) {
            in_order += i == rows++;
            for (int k = 0; k < 3; ++k) values[3 * i + k] = row[k];
        };
    }
    template <class Stage>
    int differing_from_residuals(const Stage& stage, gs::StridedReals<double> x) const {
        EXPECT_EQ(rows, d);
        EXPECT_EQ(in_order, d);
        int differing = 0;
        for (int i = 0; i < d; ++i) {
            T row[3];
            gs::detail::residual_block<T>(stage, x, d, i, row);
            for (int k = 0; k < 3; ++k) {
                EXPECT_TRUE(std::isfinite(static_cast<double>(row[k])));
                differing += !(values[3 * i + k] == row[k]);
            }
        }
        return differing;
    }
};

// The number of components, over every row, where the sweep's row differs from residual()'s in T.
template <class T, class Gradient, class System>
int rows_differing(const System& system, int d, std::uint64_t seed, double h) {
    PreparedStage<Gradient, System> prepared(system, d, seed, h);
    const auto& stage = prepared.stage;
    const gs::StridedReals<double> x = prepared.x;
    SweptRows<T> swept(d);
    stage.template residual_sweep<T>(x, swept.emit());
    return swept.differing_from_residuals(stage, x);
}

// check(d, seed, h) for every chain length (the top: its one spin) and four seeds, h = 0.05 seed.
template <class System, class Check>
void for_each_stage(const System&, const Check& check) {
    for (const int d : System::is_chain ? std::vector<int>{1, 2, 3, 4, 5, 16} : std::vector<int>{1})
        for (std::uint64_t seed = 1; seed <= 4; ++seed) check(d, seed, 0.05 * static_cast<double>(seed));
}

template <class Gradient, class System>
void expect_rows_equal(const System& system) {
    for_each_stage(system, [&](int d, std::uint64_t seed, double h) {
        EXPECT_EQ((rows_differing<double, Gradient>(system, d, seed, h)), 0) << "double, d = " << d;
        EXPECT_EQ((rows_differing<long double, Gradient>(system, d, seed, h)), 0) << "long double, d = " << d;
    });
}

TEST(ResidualSweep, AvfRowsAreResidualsRowsBitForBitOnTheHeisenbergChain) {
    expect_rows_equal<gs::AvfGradient>(gs::HeisenbergChain<double>{});
    expect_rows_equal<gs::ExactAvfGradient>(gs::HeisenbergChain<double>{});
}

TEST(ResidualSweep, AvfRowsAreResidualsRowsBitForBitOnTheAnisotropicChain) {
    expect_rows_equal<gs::AvfGradient>(gs::AnisotropicChain<double>{});
}

TEST(ResidualSweep, AvfRowsAreResidualsRowsBitForBitOnTheTop) {
    expect_rows_equal<gs::AvfGradient>(gs::SpinningTop<double>{});
}

TEST(ResidualSweep, GonzalezMidpointRowsAreResidualsRowsBitForBitOnTheChains) {
    expect_rows_equal<gs::MidpointGradient<double>>(gs::HeisenbergChain<double>{});
    expect_rows_equal<gs::MidpointGradient<double>>(gs::AnisotropicChain<double>{});
}

TEST(ResidualSweep, GonzalezMidpointRowsAreResidualsRowsBitForBitOnTheTop) {
    expect_rows_equal<gs::MidpointGradient<double>>(gs::SpinningTop<double>{});
}

// The number of components, over every row, where the Gonzalez midpoint's prepared sweep in T
// differs from residual()'s with lambda from prepare() (T = double) or prepare_wide<T>(); the
// two lambdas must be the same bits.
template <class T, class System>
int prepared_rows_differing(const System& system, int d, std::uint64_t seed, double h) {
    using Stage = gs::DrgStage<gs::Centre::symmetric, gs::MidpointGradient<double>, System, double>;
    StageInput in = random_input(d, seed);
    const gs::StridedReals<double> x{in.v.data(), 1};
    const gs::StridedSpins<double> u{in.u.data(), 1, d};
    Stage reference{system, u, h, gs::MidpointGradient<double>{}};
    if constexpr (std::is_same_v<T, double>)
        reference.prepare(x);
    else
        reference.template prepare_wide<T>(x);
    EXPECT_NE(reference.gradient.lambda, 0.0);
    Stage prepared{system, u, h, gs::MidpointGradient<double>{}};
    std::vector<double> kept(gs::kept_row_reals * static_cast<std::size_t>(d), -7.0);
    SweptRows<T> swept(d);
    prepared.template prepared_residual_sweep<T>(x, gs::StridedReals<double>{kept.data(), 1}, swept.emit());
    EXPECT_EQ(prepared.gradient.lambda, reference.gradient.lambda);
    return swept.differing_from_residuals(reference, x);
}

template <class System>
void expect_prepared_rows_equal(const System& system) {
    for_each_stage(system, [&](int d, std::uint64_t seed, double h) {
        EXPECT_EQ((prepared_rows_differing<double>(system, d, seed, h)), 0) << "double, d = " << d;
        EXPECT_EQ((prepared_rows_differing<long double>(system, d, seed, h)), 0) << "long double, d = " << d;
    });
}

TEST(PreparedResidualSweep, GonzalezMidpointRowsAreResidualsRowsBitForBitOnTheChains) {
    expect_prepared_rows_equal(gs::HeisenbergChain<double>{});
    expect_prepared_rows_equal(gs::AnisotropicChain<double>{});
}

TEST(PreparedResidualSweep, GonzalezMidpointRowsAreResidualsRowsBitForBitOnTheTop) {
    expect_prepared_rows_equal(gs::SpinningTop<double>{});
}

// The number of workspace reals (every residual row and Jacobian block) where the linearise sweep's
// Newton system differs from the one built row by row (residual_row<true>, linearise_into).
template <class Gradient, class System>
int jacobian_rows_differing(const System& system, int d, std::uint64_t seed, double h) {
    PreparedStage<Gradient, System> prepared(system, d, seed, h);
    const auto& stage = prepared.stage;
    const gs::StridedReals<double> x = prepared.x;
    using Solver = gs::BlockCyclicTridiagonal<3, double>;
    std::vector<double> swept_work(Solver::workspace_reals(d), -7.0), row_work(Solver::workspace_reals(d), -7.0);
    const Solver swept{gs::StridedReals<double>{swept_work.data(), 1}, d};
    const Solver by_row{gs::StridedReals<double>{row_work.data(), 1}, d};
    EXPECT_TRUE(gs::detail::linearise_sweep_into(stage, swept, x));
    for (int i = 0; i < d; ++i) {
        double out[3];
        gs::detail::residual_row<true>(stage, by_row, x, d, i, out);
        EXPECT_TRUE(gs::detail::store_residual_row(by_row, i, out));
    }
    int differing = 0;
    for (std::size_t k = 0; k < swept_work.size(); ++k) {
        EXPECT_TRUE(std::isfinite(row_work[k]));
        differing += !(swept_work[k] == row_work[k]);
    }
    return differing;
}

template <class Gradient, class System>
void expect_jacobian_rows_equal(const System& system) {
    for (const int d : {1, 2, 3, 4, 5, 16})
        for (std::uint64_t seed = 1; seed <= 4; ++seed)
            EXPECT_EQ((jacobian_rows_differing<Gradient>(system, d, seed, 0.05 * static_cast<double>(seed))), 0)
                << "d = " << d << ", seed " << seed;
}

TEST(LineariseSweep, AvfRowsAreLineariseIntosBitForBitOnTheChains) {
    expect_jacobian_rows_equal<gs::AvfGradient>(gs::HeisenbergChain<double>{});
    expect_jacobian_rows_equal<gs::AvfGradient>(gs::AnisotropicChain<double>{});
    expect_jacobian_rows_equal<gs::ExactAvfGradient>(gs::HeisenbergChain<double>{});
}

TEST(LineariseSweep, GonzalezMidpointRowsAreLineariseIntosBitForBitOnTheChains) {
    expect_jacobian_rows_equal<gs::MidpointGradient<double>>(gs::HeisenbergChain<double>{});
    expect_jacobian_rows_equal<gs::MidpointGradient<double>>(gs::AnisotropicChain<double>{});
}

// The host's simplified Newton sweeps AVF's and the Gonzalez midpoint's rows; the other schemes
// and the GPU keep residual() per row.
using Chain = gs::HeisenbergChain<double>;
template <class Gradient, class System = Chain>
constexpr bool sweeps =
    gs::detail::SweepsResidualRows<gs::DrgStage<gs::Centre::symmetric, Gradient, System, double>, double>;
static_assert(sweeps<gs::AvfGradient>);
static_assert(sweeps<gs::AvfGradient, gs::SpinningTop<double>>);
static_assert(sweeps<gs::MidpointGradient<double>>);
static_assert(sweeps<gs::MidpointGradient<double>, gs::SpinningTop<double>>);
static_assert(!sweeps<gs::ItohAbeGradient<gs::IaDirection::symmetrised>>);
static_assert(!sweeps<gs::LocalMidpointGradient>);
// Fresh Jacobian rows: AVF and the Gonzalez midpoint on chains; the top has one row, nothing to share.
template <class Gradient, class System = Chain>
constexpr bool sweeps_jacobians =
    gs::detail::SweepsJacobianRows<gs::DrgStage<gs::Centre::symmetric, Gradient, System, double>, double>;
static_assert(sweeps_jacobians<gs::AvfGradient>);
static_assert(sweeps_jacobians<gs::AvfGradient, gs::AnisotropicChain<double>>);
static_assert(sweeps_jacobians<gs::MidpointGradient<double>>);
static_assert(!sweeps_jacobians<gs::AvfGradient, gs::SpinningTop<double>>);
static_assert(!sweeps_jacobians<gs::MidpointGradient<double>, gs::SpinningTop<double>>);
static_assert(!sweeps_jacobians<gs::ItohAbeGradient<gs::IaDirection::symmetrised>>);
static_assert(!sweeps_jacobians<gs::LocalMidpointGradient>);

}  // namespace
