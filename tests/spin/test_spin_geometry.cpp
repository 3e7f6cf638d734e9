// Checks the sphere geometry of math §2.1, the dual numbers, and the systems' gradients and exact
// discrete gradients against finite differences and direct evaluation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "geomint/spin/dual.hpp"
#include "geomint/spin/geometry.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/spin/vec3.hpp"
#include "spin_test_support.hpp"

namespace {

using geomint::spin::Dual;
using geomint::spin::Vec3;
using V = Vec3<double>;

using geomint_test::Lcg;  // fixed seeds below, so failures reproduce

V tangent_at(const V& c, const V& a) { return a - c * dot(c, a); }

TEST(SpinGeometry, InverseRetractionUndoesRetraction) {
    Lcg rng{1};
    for (int k = 0; k < 200; ++k) {
        const V c = rng.unit();
        const V x = 0.8 * tangent_at(c, rng.vec());
        const V y = geomint::spin::retract(c, x);
        EXPECT_NEAR(norm(y), 1.0, 4e-16);
        const V back = geomint::spin::inverse_retract(c, y);
        EXPECT_LT(norm(back - x), 1e-14 * (1 + norm(x))) << "sample " << k;
        // The other way round, for u with c.u > 0.
        V u = rng.unit();
        if (dot(c, u) < 0.1) u = geomint::spin::retract(c, 0.5 * tangent_at(c, u));
        EXPECT_LT(norm(geomint::spin::retract(c, geomint::spin::inverse_retract(c, u)) - u), 1e-14);
        EXPECT_NEAR(dot(c, geomint::spin::inverse_retract(c, u)), 0.0, 1e-14);  // lands in T_c
    }
}

TEST(SpinGeometry, TangentMapsMatchFiniteDifferences) {
    Lcg rng{2};
    const double eps = 1e-6;
    for (int k = 0; k < 100; ++k) {
        const V c = rng.unit();
        const V x = 0.7 * tangent_at(c, rng.vec());
        const V a = tangent_at(c, rng.vec());
        const V fd = (geomint::spin::retract(c, x + eps * a) - geomint::spin::retract(c, x - eps * a)) / (2 * eps);
        EXPECT_LT(norm(geomint::spin::tangent_retract(c, x, a) - fd), 1e-8) << "sample " << k;

        const V u = geomint::spin::retract(c, x);
        const V b = tangent_at(u, rng.vec());  // a tangent direction at u
        const V fdi = (geomint::spin::inverse_retract(c, geomint::spin::retract(u, eps * b)) -
                       geomint::spin::inverse_retract(c, geomint::spin::retract(u, -eps * b))) /
                      (2 * eps);
        EXPECT_LT(norm(geomint::spin::tangent_inverse_retract(c, u, b) - fdi), 1e-8) << "sample " << k;
        // The transpose really is the transpose: <T^T a, b> = <a, T b>.
        const V z = rng.vec();
        EXPECT_NEAR(dot(geomint::spin::tangent_inverse_retract_transpose(c, u, z), b),
                    dot(z, geomint::spin::tangent_inverse_retract(c, u, b)), 1e-13);
        // T phi_c^{-1} inverts T phi_c on T_c.
        EXPECT_LT(norm(geomint::spin::tangent_inverse_retract(c, u, geomint::spin::tangent_retract(c, x, a)) - a),
                  1e-13);
    }
}

TEST(SpinGeometry, TangentBasisIsOrthonormalAndTangent) {
    Lcg rng{3};
    for (int k = 0; k < 200; ++k) {
        const V c = rng.unit();
        V e1, e2;
        geomint::spin::tangent_basis(c, c.z, e1, e2);
        EXPECT_NEAR(norm(e1), 1.0, 1e-15);
        EXPECT_NEAR(norm(e2), 1.0, 1e-15);
        EXPECT_NEAR(dot(e1, e2), 0.0, 1e-15);
        EXPECT_NEAR(dot(e1, c), 0.0, 1e-15);
        EXPECT_NEAR(dot(e2, c), 0.0, 1e-15);
    }
}

TEST(SpinGeometry, DualDerivativesMatchFiniteDifferences) {
    using D = Dual<double, 3>;
    Lcg rng{4};
    const V c = rng.unit();
    // f(x) = phi_c(x) . a / (1 + |x|^2) + sqrt(x . x + 2): exercises +, -, *, /, sqrt.
    const V a = rng.vec();
    auto f = [&](const auto& x) {
        using T = std::decay_t<decltype(x.x)>;
        const auto y = geomint::spin::retract(Vec3<T>{T(c.x), T(c.y), T(c.z)}, x);
        using std::sqrt;
        return dot(y, a) / (T(1) + dot(x, x)) + sqrt(dot(x, x) + T(2)) - T(3) * x.y * x.z;
    };
    for (int k = 0; k < 50; ++k) {
        const V x = 0.5 * rng.vec();
        const Vec3<D> xd{D::variable(x.x, 0), D::variable(x.y, 1), D::variable(x.z, 2)};
        const D fx = f(xd);
        EXPECT_DOUBLE_EQ(fx.v, f(x));
        for (int j = 0; j < 3; ++j) {
            const double h = 1e-6;
            V xp = x, xm = x;
            xp[j] += h;
            xm[j] -= h;
            EXPECT_NEAR(fx.d[j], (f(xp) - f(xm)) / (2 * h), 1e-8) << "component " << j;
        }
    }
}

// Each system's gradient is the derivative of its energy, and its exact discrete gradients satisfy
// their identities to round-off (math §2; these identities carry energy conservation).
template <class System>
void check_system(const System& system, std::uint64_t seed) {
    Lcg rng{seed};
    for (int k = 0; k < 50; ++k) {
        const V l = rng.unit(), s = rng.unit(), r = rng.unit(), t = rng.unit(), l2 = rng.unit(), r2 = rng.unit();
        using D = Dual<double, 3>;
        const Vec3<D> sd{D::variable(s.x, 0), D::variable(s.y, 1), D::variable(s.z, 2)};
        const Vec3<D> ld = geomint::spin::vec3_cast<D>(l), rd = geomint::spin::vec3_cast<D>(r);
        const D e = system.site_energy(ld, sd, rd);
        const V g = system.gradient(l, s, r);
        for (int j = 0; j < 3; ++j) EXPECT_NEAR(e.d[j], g[j], 1e-13);
        // site_energy: every term containing s. The density sum of a 3-spin periodic chain
        // (left, s, right) changes by exactly the site energy's change when s moves.
        const double ds = system.site_energy(l, t, r) - system.site_energy(l, s, r);
        EXPECT_NEAR(dot(system.site_discrete_gradient(l, s, t, r), t - s), ds, 1e-14);
        if constexpr (System::is_chain) {
            auto h3 = [&](const V& a, const V& b, const V& cc) {
                return system.energy_density(cc, a, b) + system.energy_density(a, b, cc) +
                       system.energy_density(b, cc, a);
            };
            EXPECT_NEAR(h3(l, t, r) - h3(l, s, r), ds, 1e-13);
            // midpoint_drg: sum_i gbar_i . (v_i - u_i) = H(v) - H(u) on a 3-spin chain.
            const V u[3] = {l, s, r}, v[3] = {l2, t, r2};
            double sum = 0;
            for (int i = 0; i < 3; ++i) {
                const int il = (i + 2) % 3, ir = (i + 1) % 3;
                sum += dot(system.midpoint_drg(u[il], v[il], u[i], v[i], u[ir], v[ir]), v[i] - u[i]);
            }
            EXPECT_NEAR(sum, h3(v[0], v[1], v[2]) - h3(u[0], u[1], u[2]), 1e-13);
        }
    }
}

TEST(SpinSystems, GradientsAndDiscreteGradients) {
    check_system(geomint::spin::SpinningTop<double>{}, 5);
    check_system(geomint::spin::SpinningTop<double>::with_inertia(1.5, 0.7, 3.0), 6);
    check_system(geomint::spin::HeisenbergChain<double>{}, 7);
    check_system(geomint::spin::AnisotropicChain<double>{}, 8);
}

TEST(SpinSystems, TopEnergyIsThePapers) {
    // H = 1/2 s^T J s + 1/3 sum J_k s_k^3 with J = diag(1, 1/2, 1/4) (math §2).
    const geomint::spin::SpinningTop<double> top;
    const V s{0.6, -0.8, 0.0};
    const double expected = 0.5 * (0.36 + 0.5 * 0.64) + (0.216 - 0.5 * 0.512) / 3.0;
    EXPECT_NEAR(top.energy_density(s, s, s), expected, 1e-16);
}

}  // namespace
