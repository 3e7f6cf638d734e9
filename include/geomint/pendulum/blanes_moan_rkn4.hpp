// Blanes–Moan optimized fourth-order symplectic Runge–Kutta–Nyström step (SRKN_6^b), math §1.5:
// the explicit order-4 yardstick for the implicit Simpson scheme. As increments (§1.6).
#pragma once

#include "geomint/pendulum/increment_step.hpp"
#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"

namespace geomint {

// Coefficients of S. Blanes and P. C. Moan, "Practical symplectic partitioned Runge–Kutta and
// Runge–Kutta–Nyström methods", J. Comput. Appl. Math. 142 (2002) 313–330, Table 3, method
// SRKN_6^b (order 4, 6 stages, error constant optimized among such methods):
//   b1 =  0.0829844064174052,  a1 = 0.245298957184271,
//   b2 =  0.396309801498368,   a2 = 0.604872665711080,
//   b3 = -0.0390563049223486,  a3 = 1/2 - (a1 + a2),
//   b4 = 1 - 2 (b1 + b2 + b3).
// a3 and b4 are not free: they make the drifts and the kicks each sum to one step (consistency).
// The step is the symmetric product (B = kick by -V', A = drift by p/m)
//   B(b1) A(a1) B(b2) A(a2) B(b3) A(a3) B(b4) A(a3) B(b3) A(a2) B(b2) A(a1) B(b1).
struct BlanesMoanRkn4Coefficients {
    static constexpr double a1 = 0.245298957184271;
    static constexpr double a2 = 0.604872665711080;
    static constexpr double a3 = 0.5 - (a1 + a2);
    static constexpr double b1 = 0.0829844064174052;
    static constexpr double b2 = 0.396309801498368;
    static constexpr double b3 = -0.0390563049223486;
    static constexpr double b4 = 1 - 2 * (b1 + b2 + b3);
};

struct BlanesMoanRkn4 : IncrementStep<BlanesMoanRkn4> {
    static constexpr const char* name = "rkn4";
    static constexpr const char* preserves = "symplectic form (energy bounded, no drift)";
    static constexpr const char* summary =
        "Blanes-Moan 2002 optimized 6-stage symplectic RKN (SRKN_6^b), explicit, no Newton solve";
    static constexpr int order = 4;
    // No implicit equation to solve: 0 tells the CLI there is no root-uniqueness bound to warn about.
    static constexpr double implicit_coefficient = 0;

    // Seven kicks and six drifts; the last kick's force V'(q_{j+1}) equals the next step's first,
    // but each step is kept self-contained (the body calls step alone), so 7 evaluations of V'
    // a step rather than the paper's 6 with first-same-as-last.
    // Explicit, so it always returns ok and adds no Newton iterations; a NaN or an infinity it
    // produces is caught by integrate_trajectory's finiteness check (status non_finite).
    // The stages run on the increments so far (§1.6): a kick adds to dp, a drift to dq, and each
    // stage sees (q + dq, p + dp), so dq and dp carry no rounding of the size of q and p.
    template <class Real, class Potential>
    GEOMINT_HD SolveStatus increment(const Potential& potential, Real h, Real q, Real p, Real& dq, Real& dp,
                                     const NewtonOptions<Real>&, long long&) const {
        using C = BlanesMoanRkn4Coefficients;
        const Real drift = h / potential.mass;
        dq = Real(0);
        dp = Real(0);
        const auto kick = [&](double b) { dp = dp - Real(b) * h * potential.slope(q + dq); };
        const auto move = [&](double a) { dq = dq + Real(a) * drift * (p + dp); };
        kick(C::b1);
        move(C::a1);
        kick(C::b2);
        move(C::a2);
        kick(C::b3);
        move(C::a3);
        kick(C::b4);
        move(C::a3);
        kick(C::b3);
        move(C::a2);
        kick(C::b2);
        move(C::a1);
        kick(C::b1);
        return SolveStatus::ok;
    }
};

}  // namespace geomint
