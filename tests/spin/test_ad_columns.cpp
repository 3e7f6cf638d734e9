// ad_linearise with one Jacobian column per pass (what the GPU uses, to keep its dual numbers in
// registers) gives exactly the Jacobian and residual of all B columns at once (the host's choice):
// each derivative is computed by the same operations either way. Checked on the collocation
// problems, the ones that take dual numbers, on every system, for a top (d = 1), d = 2 and d = 5.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/schemes/collocation.hpp"
#include "geomint/spin/systems.hpp"
#include "spin_test_support.hpp"

namespace {

namespace gs = geomint::spin;
using V = gs::Vec3<double>;
using geomint_test::Lcg;

// Jacobian blocks [3][B][B] and residual [B] of block row i, by passes of `Columns` columns.
template <int Columns, class Problem>
std::vector<double> linearise(const Problem& problem, int i, int d, const std::vector<double>& x) {
    constexpr int B = Problem::block_size;
    const int il = (i + d - 1) % d, ir = (i + 1) % d;
    std::vector<double> result(3 * B * B + B, -1.0);  // -1: an entry ad_linearise failed to write
    gs::ad_linearise<Columns>(problem, i, d == 1, &x[B * il], &x[B * i], &x[B * ir], &result[3 * B * B],
                              [&](int block, int r, int c, double value) { result[(block * B + r) * B + c] = value; });
    return result;
}

template <int S, class System>
void expect_columns_agree(const System& system, int d) {
    constexpr int B = 3 * S;
    Lcg rng{0xad01ULL + static_cast<unsigned>(d)};
    std::vector<double> u(3 * d), x(B * d);
    for (int i = 0; i < d; ++i) {
        const V a = rng.unit();
        for (int k = 0; k < 3; ++k) u[3 * i + k] = a[k];
    }
    for (double& value : x) value = rng.next();  // stage vectors of size O(1)
    const gs::CollocationStep<S, System, double> problem{system, gs::StridedSpins<double>{u.data(), 1, d}, 0.2};
    for (int i = 0; i < d; ++i) {
        const std::vector<double> one = linearise<1>(problem, i, d, x);
        const std::vector<double> all = linearise<B>(problem, i, d, x);
        ASSERT_EQ(one.size(), all.size());
        for (std::size_t k = 0; k < one.size(); ++k)
            ASSERT_EQ(one[k], all[k]) << "coll" << 2 * S << " on " << System::name << ", d = " << d << ", row " << i
                                      << ", entry " << k;
    }
}

template <int S>
void expect_columns_agree_on_every_system() {
    expect_columns_agree<S>(gs::SpinningTop<double>::with_inertia(1.3, 2.1, 3.7), 1);
    for (int d : {2, 5}) {
        expect_columns_agree<S>(gs::HeisenbergChain<double>{}, d);
        expect_columns_agree<S>(gs::AnisotropicChain<double>{0.8, V{0.3, -0.2, 0.45}, -0.6}, d);
    }
}

TEST(AdColumnsPerPass, OneColumnEqualsAllColumnsColl4) { expect_columns_agree_on_every_system<2>(); }
TEST(AdColumnsPerPass, OneColumnEqualsAllColumnsColl6) { expect_columns_agree_on_every_system<3>(); }
TEST(AdColumnsPerPass, OneColumnEqualsAllColumnsColl8) { expect_columns_agree_on_every_system<4>(); }

}  // namespace
