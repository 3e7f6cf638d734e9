// The pendulum schemes in SIMD lanes (pendulum_lanes.hpp): integrate_trajectory, the schemes'
// increments and newton_scalar, rewritten over W lanes with masks instead of branches. Each lane
// performs the scalar body's floating-point operations in the same order (the comments name the
// scalar line each mirrors), so a lane's result depends only on its own inputs: the same for any
// width, thread count or chunk size. Included by one translation unit per instruction set
// (pendulum_lanes_avx512.cpp, ...), each with an `Isa` type of internal linkage, so that every
// function here is instantiated per instruction set and the linker never mixes them.
// Isa provides: static constexpr int width; static void sincos(const double* x, double* s, double* c)
// over `width` values (SLEEF's deterministic functions: the same bits at every width, and as
// the scalar body's sin_of and cos_of, geomint/elementary_functions.hpp).
// Uses only builtins, never an inline function of another header, for the same reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "geomint/pendulum/blanes_moan_rkn4.hpp"
#include "geomint/solve_status.hpp"
#include "pendulum_lanes.hpp"

namespace geomint::lanes {

template <class Isa, LanePotential kind>
struct Lanes {
    static constexpr int W = Isa::width;
    using Mask = long long[W];  // 1: the lane takes part, 0: it is masked

    // Per-lane constants of the potential: pendulum V = k (1 - cos q) with k = (m w) w as
    // PendulumPotential computes m * w * w; Duffing V = m (w2 q^2/2 + beta q^4/4) with w2 = w w.
    double m[W], k[W], w2[W];
    double beta;
    // Per-lane coefficients of the step, computed once per block from h and m (prepare): the
    // scalar body computes the same expressions every step, so hoisting them keeps its bits and
    // spares the lanes 1-4 divisions a step. Their meaning depends on the scheme (see increment).
    double step_a[W], step_b[W], step_c[W], step_d[W];
    double two_m[W];  // 2 m, the kinetic energy's denominator

    void prepare(LaneScheme scheme, double h) {
#pragma omp simd
        for (int l = 0; l < W; ++l) {
            two_m[l] = 2.0 * m[l];
            step_a[l] = step_b[l] = step_c[l] = step_d[l] = 0.0;
            switch (scheme) {
                case LaneScheme::newmark:
                    step_a[l] = h * h / (4.0 * m[l]);  // a = h^2 / (4 m)
                    step_b[l] = h / (2.0 * m[l]);      // rhs = (h / (2 m)) p
                    break;
                case LaneScheme::simpson:
                    step_a[l] = h * h / (24.0 * m[l]);  // a = h^2 / (24 m)
                    step_b[l] = h / (2.0 * m[l]);       // rhs = (h / (2 m)) p - (h^2 / (12 m)) V'(q)
                    step_c[l] = h * h / (12.0 * m[l]);
                    step_d[l] = h * h / (4.0 * m[l]);  // dq = 2 y - (h^2 / (4 m)) V'(q_m)
                    break;
                case LaneScheme::verlet:
                case LaneScheme::rkn4:
                    step_b[l] = h / m[l];  // the drift's h / m
                    break;
            }
        }
    }

    // V'(x) and V''(x) (PendulumPotential::slope, curvature; DuffingPotential::slope, curvature).
    void slope_curvature(const double* x, double* slope, double* curvature) const {
        if constexpr (kind == LanePotential::pendulum) {
            double s[W], c[W];
            Isa::sincos(x, s, c);
#pragma omp simd
            for (int l = 0; l < W; ++l) {
                slope[l] = k[l] * s[l];
                curvature[l] = k[l] * c[l];
            }
        } else {
#pragma omp simd
            for (int l = 0; l < W; ++l) {
                slope[l] = m[l] * (w2[l] * x[l] + beta * x[l] * x[l] * x[l]);
                curvature[l] = m[l] * (w2[l] + 3.0 * beta * x[l] * x[l]);
            }
        }
    }
    void slope(const double* x, double* out) const {
        double unused[W];
        slope_curvature(x, out, unused);
    }
    // V(q) and V'(q) together (one sincos for the energy and the next step's force).
    void value_slope(const double* q, double* value, double* slope) const {
        if constexpr (kind == LanePotential::pendulum) {
            double s[W], c[W];
            Isa::sincos(q, s, c);
#pragma omp simd
            for (int l = 0; l < W; ++l) {
                value[l] = k[l] * (1.0 - c[l]);
                slope[l] = k[l] * s[l];
            }
        } else {
#pragma omp simd
            for (int l = 0; l < W; ++l) {
                const double q2 = q[l] * q[l];
                value[l] = m[l] * (w2[l] * q2 / 2.0 + beta * q2 * q2 / 4.0);
                slope[l] = m[l] * (w2[l] * q[l] + beta * q[l] * q[l] * q[l]);
            }
        }
    }

    // newton_scalar on y + a V'(base + y) = rhs (solve_node_displacement) for the lanes of
    // `active`, each lane's iteration masked once it has converged or failed: its y and
    // iteration count are never touched again. status[l] is set for the active lanes.
    // Branch-free per lane (selects instead of newton_scalar's early returns, in the same order of
    // tests), so that the compiler vectorizes it; finite(x) is |x| <= DBL_MAX (false for NaN, inf).
    void solve_node(const double* a, const double* base, const double* rhs, double* y, const Mask& active,
                    long long* status, long long* iterations, const PendulumLaneTask& task) const {
        constexpr long long ok = static_cast<long long>(SolveStatus::ok);
        constexpr long long non_finite = static_cast<long long>(SolveStatus::non_finite);
        constexpr long long not_unique = static_cast<long long>(SolveStatus::root_not_unique);
        constexpr long long singular = static_cast<long long>(SolveStatus::singular_jacobian);
        constexpr double largest = std::numeric_limits<double>::max();
        long long solving[W];
        double previous[W], first_derivative[W];
        long long any = 0;
#pragma omp simd reduction(| : any)
        for (int l = 0; l < W; ++l) {
            y[l] = rhs[l];  // y = rhs
            solving[l] = active[l];
            previous[l] = std::numeric_limits<double>::infinity();
            first_derivative[l] = 0.0;
            status[l] = static_cast<long long>(SolveStatus::newton_max_iterations);
            any |= solving[l];
        }
        const double tolerance = task.tolerance, stagnation = task.stagnation_level;
        for (int iteration = 0; iteration < task.max_iterations && any != 0; ++iteration) {
            double x[W], slope[W], curvature[W];
#pragma omp simd
            for (int l = 0; l < W; ++l) x[l] = base[l] + y[l];  // x = base + z
            slope_curvature(x, slope, curvature);
            any = 0;
#pragma omp simd reduction(| : any)
            for (int l = 0; l < W; ++l) {
                const double value = y[l] + a[l] * slope[l] - rhs[l];  // value = z + a V'(x) - rhs
                const double derivative = 1.0 + a[l] * curvature[l];   // derivative = 1 + a V''(x)
                // Bitwise & and | (no short-circuit): straight-line code the vectorizer accepts.
                const bool bad = !((__builtin_fabs(value) <= largest) & (__builtin_fabs(derivative) <= largest));
                const double first = iteration == 0 ? derivative : first_derivative[l];
                const bool flip = ((first > 0.0) & (derivative < 0.0)) | ((first < 0.0) & (derivative > 0.0));
                const bool zero_value = value == 0.0, zero_derivative = derivative == 0.0;
                const bool update = !(bad | flip | zero_value | zero_derivative);
                const double correction = value / derivative;
                const double y_new = y[l] - correction;  // x -= correction
                const double size = __builtin_fabs(correction);
                const double scale = 1.0 + __builtin_fabs(y_new);
                const bool y_bad = !(__builtin_fabs(y_new) <= largest);
                const bool converged =
                    (size <= tolerance * scale) | ((size >= previous[l]) & (size <= stagnation * scale));
                // newton_scalar's outcome, its tests taken in its order (the first that holds wins).
                long long code = y_bad ? non_finite : ok;
                code = zero_derivative ? singular : code;
                code = zero_value ? ok : code;
                code = flip ? not_unique : code;
                code = bad ? non_finite : code;
                const bool done = !update | y_bad | converged;
                const bool live = solving[l] != 0, step = live & update;
                first_derivative[l] = live ? first : first_derivative[l];
                y[l] = step ? y_new : y[l];
                iterations[l] += step ? 1 : 0;
                previous[l] = step ? size : previous[l];
                status[l] = (live & done) ? code : status[l];
                solving[l] = (live & !done) ? 1 : 0;
                any |= solving[l];
            }
        }
    }

    // One step's increments (the schemes' `increment`) for the lanes of `active`. slope_q holds
    // V'(q) at the step's start (Simpson and the explicit schemes reuse it: the same value the
    // scalar body recomputes from the same q).
    void increment(const double* q, const double* p, const double* slope_q, double* dq, double* dp, const Mask& active,
                   long long* status, long long* iterations, const PendulumLaneTask& task) const {
        const double h = task.h;
        switch (task.scheme) {
            case LaneScheme::newmark: {
                double rhs[W], y[W], x[W], slope_x[W];
#pragma omp simd
                for (int l = 0; l < W; ++l) rhs[l] = step_b[l] * p[l];  // rhs = h / (2 m) p
                solve_node(step_a, q, rhs, y, active, status, iterations, task);
#pragma omp simd
                for (int l = 0; l < W; ++l) x[l] = q[l] + y[l];
                slope(x, slope_x);
#pragma omp simd
                for (int l = 0; l < W; ++l) {
                    dq[l] = 2.0 * y[l];       // dq = 2 y
                    dp[l] = -h * slope_x[l];  // dp = -h V'(q + y)
                }
                return;
            }
            case LaneScheme::simpson: {
                double rhs[W], y[W], x[W], slope_m[W], slope_end[W];
#pragma omp simd
                for (int l = 0; l < W; ++l) rhs[l] = step_b[l] * p[l] - step_c[l] * slope_q[l];
                solve_node(step_a, q, rhs, y, active, status, iterations, task);
#pragma omp simd
                for (int l = 0; l < W; ++l) x[l] = q[l] + y[l];
                slope(x, slope_m);
#pragma omp simd
                for (int l = 0; l < W; ++l) {
                    dq[l] = 2.0 * y[l] - step_d[l] * slope_m[l];
                    x[l] = q[l] + dq[l];
                }
                slope(x, slope_end);
#pragma omp simd
                for (int l = 0; l < W; ++l) dp[l] = -h / 6.0 * (slope_q[l] + 4.0 * slope_m[l] + slope_end[l]);
                return;
            }
            case LaneScheme::verlet: {
                const double half = h / 2.0;
                double x[W], slope_end[W];
#pragma omp simd
                for (int l = 0; l < W; ++l) {
                    dq[l] = step_b[l] * (p[l] - half * slope_q[l]);
                    x[l] = q[l] + dq[l];
                    status[l] = static_cast<long long>(SolveStatus::ok);
                }
                slope(x, slope_end);
#pragma omp simd
                for (int l = 0; l < W; ++l) dp[l] = -half * (slope_q[l] + slope_end[l]);
                return;
            }
            case LaneScheme::rkn4: {
                using C = BlanesMoanRkn4Coefficients;
                const double* drift = step_b;  // h / m
                double x[W], force[W];
#pragma omp simd
                for (int l = 0; l < W; ++l) {
                    dq[l] = 0.0;
                    dp[l] = 0.0;
                    status[l] = static_cast<long long>(SolveStatus::ok);
                }
                // kick: dp = dp - b h V'(q + dq); the first one's q + dq is q itself (dq = 0 exactly).
                const auto kick = [&](double b, bool first) {
                    if (first) {
#pragma omp simd
                        for (int l = 0; l < W; ++l) force[l] = slope_q[l];
                    } else {
#pragma omp simd
                        for (int l = 0; l < W; ++l) x[l] = q[l] + dq[l];
                        slope(x, force);
                    }
#pragma omp simd
                    for (int l = 0; l < W; ++l) dp[l] = dp[l] - b * h * force[l];
                };
                const auto move = [&](double coefficient) {
#pragma omp simd
                    for (int l = 0; l < W; ++l) dq[l] = dq[l] + coefficient * drift[l] * (p[l] + dp[l]);
                };
                kick(C::b1, true);
                move(C::a1);
                kick(C::b2, false);
                move(C::a2);
                kick(C::b3, false);
                move(C::a3);
                kick(C::b4, false);
                move(C::a3);
                kick(C::b3, false);
                move(C::a2);
                kick(C::b2, false);
                move(C::a1);
                kick(C::b1, false);
                return;
            }
        }
    }

    // integrate_trajectory over the lanes [0, count) of trajectories first, first + 1, ...
    static void run(const PendulumLaneTask& task, std::size_t first, int count) {
        Lanes lanes;
        lanes.beta = task.beta;
        double q0[W], p0[W];
        for (int l = 0; l < W; ++l) {
            const std::size_t i = first + static_cast<std::size_t>(l < count ? l : count - 1);
            const double mass = task.mass[i], omega = task.omega[i];
            q0[l] = task.q0[i];
            p0[l] = task.p0[i];
            lanes.m[l] = mass;
            lanes.k[l] = mass * omega * omega;
            lanes.w2[l] = omega * omega;
        }
        lanes.prepare(task.scheme, task.h);
        const double* two_m = lanes.two_m;
        // Running state: compensated sums of q and p (CompensatedSum), the last good state, the
        // outcome, and V'(q) at the current q for the next step.
        double q_value[W], q_carry[W], p_value[W], p_carry[W], q_good[W], p_good[W];
        double energy0[W], max_error[W], value[W], slope_q[W];
        long long iterations[W], steps_done[W], status[W];
        Mask live;
        constexpr long long ok = static_cast<long long>(SolveStatus::ok);
        constexpr long long non_finite = static_cast<long long>(SolveStatus::non_finite);
        constexpr double largest = std::numeric_limits<double>::max();
        lanes.value_slope(q0, value, slope_q);
        long long any = 0;
        for (int l = 0; l < W; ++l) {
            energy0[l] = p0[l] * p0[l] / two_m[l] + value[l];  // hamiltonian(q0, p0)
            q_value[l] = q_good[l] = q0[l];
            p_value[l] = p_good[l] = p0[l];
            q_carry[l] = p_carry[l] = 0.0;
            max_error[l] = 0.0;
            iterations[l] = steps_done[l] = 0;
            const bool finite = __builtin_fabs(energy0[l]) <= largest;
            status[l] = finite ? ok : non_finite;
            live[l] = l < count && finite ? 1 : 0;
            any |= live[l];
            if (live[l] != 0 && task.observer != nullptr) task.observer->observe(first + l, 0, q0[l], p0[l]);
        }
        for (long long n = 0; n < task.steps && any != 0; ++n) {
            double dq[W], dp[W];
            long long step_status[W];
            lanes.increment(q_value, p_value, slope_q, dq, dp, live, step_status, iterations, task);
            // CompensatedSum::add of dq and dp, kept only where the step succeeded.
#pragma omp simd
            for (int l = 0; l < W; ++l) {
                const bool add = (live[l] != 0) & (step_status[l] == ok);
                const double yq = dq[l] + q_carry[l], yp = dp[l] + p_carry[l];
                const double q_total = q_value[l] + yq, p_total = p_value[l] + yp;
                const double yq_rounded = q_total - q_value[l], yp_rounded = p_total - p_value[l];
                const double q_lost = (q_value[l] - (q_total - yq_rounded)) + (yq - yq_rounded);
                const double p_lost = (p_value[l] - (p_total - yp_rounded)) + (yp - yp_rounded);
                q_carry[l] = add ? q_lost : q_carry[l];
                p_carry[l] = add ? p_lost : p_carry[l];
                q_value[l] = add ? q_total : q_value[l];
                p_value[l] = add ? p_total : p_value[l];
            }
            lanes.value_slope(q_value, value, slope_q);
            any = 0;
#pragma omp simd reduction(| : any)
            for (int l = 0; l < W; ++l) {
                const double q = q_value[l], p = p_value[l];
                const double energy = p * p / two_m[l] + value[l];
                const double error = __builtin_fabs(energy - energy0[l]);
                // Bitwise & (no short-circuit), as in solve_node: straight-line code that vectorizes.
                const bool finite = (__builtin_fabs(q) <= largest) & (__builtin_fabs(p) <= largest) &
                                    (__builtin_fabs(error) <= largest);
                const long long outcome = ((step_status[l] == ok) & !finite) ? non_finite : step_status[l];
                const bool was_live = live[l] != 0, good = was_live & (outcome == ok);
                status[l] = (was_live & !good) ? outcome : status[l];
                live[l] = good ? 1 : 0;
                q_good[l] = good ? q : q_good[l];
                p_good[l] = good ? p : p_good[l];
                max_error[l] = (good & (error > max_error[l])) ? error : max_error[l];
                steps_done[l] += good ? 1 : 0;
                any |= live[l];
            }
            if (task.observer != nullptr)
                for (int l = 0; l < W; ++l)
                    if (live[l] != 0) task.observer->observe(first + l, steps_done[l], q_good[l], p_good[l]);
        }
        for (int l = 0; l < count; ++l) {
            const std::size_t i = first + static_cast<std::size_t>(l);
            task.q[i] = q_good[l];
            task.p[i] = p_good[l];
            task.energy_error[i] = max_error[l];
            task.newton_iterations[i] = iterations[l];
            task.steps_completed[i] = steps_done[l];
            task.status[i] = static_cast<std::uint8_t>(status[l]);
        }
    }
};

// The block function of an instruction set: the potential chosen once per block.
template <class Isa>
void run_block(const PendulumLaneTask& task, std::size_t first, int count) {
    if (task.potential == LanePotential::pendulum)
        Lanes<Isa, LanePotential::pendulum>::run(task, first, count);
    else
        Lanes<Isa, LanePotential::duffing>::run(task, first, count);
}

}  // namespace geomint::lanes
