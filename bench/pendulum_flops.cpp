// Floating-point operations of one pendulum step, per scheme (issue 9, item 5): the per-trajectory
// body (integrate_trajectory, the one the CUDA kernel runs) instantiated with a number type that
// counts each addition, multiplication, division and sin/cos call, over a fan of trajectories.
// Prints per step, in double and in float: additions and multiplications, divisions, sin and cos
// calls, Newton iterations, and the operations they amount to with each sin and cos weighted by the
// counts given on the command line (tools/pendulum-flops.sh derives them from the PTX of CUDA's).
//   pendulum_flops SIN64 COS64 SIN32 COS32
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "geomint/pendulum/blanes_moan_rkn4.hpp"
#include "geomint/pendulum/integrate_trajectory.hpp"
#include "geomint/pendulum/newmark.hpp"
#include "geomint/pendulum/potentials.hpp"
#include "geomint/pendulum/simpson.hpp"
#include "geomint/pendulum/stormer_verlet.hpp"

namespace counting {

struct Tally {
    long long add_mul = 0, div = 0, sin = 0, cos = 0;
};
inline Tally tally;

// A number of type T (double or float) that counts the arithmetic done with it. Comparisons, abs
// and isfinite are not counted (no floating-point operation on the GPU either: a compare or a mask).
template <class T>
struct Counted {
    T v = 0;
    Counted() = default;
    Counted(double x) : v(static_cast<T>(x)) {}  // NOLINT: literals and Real(k) convert implicitly
    Counted& operator+=(Counted o) { return ++tally.add_mul, v += o.v, *this; }
    Counted& operator-=(Counted o) { return ++tally.add_mul, v -= o.v, *this; }
    Counted& operator*=(Counted o) { return ++tally.add_mul, v *= o.v, *this; }
    Counted& operator/=(Counted o) { return ++tally.div, v /= o.v, *this; }
    Counted operator-() const { return Counted(-v); }  // a sign flip, not an operation
    friend Counted operator+(Counted a, Counted b) { return a += b; }
    friend Counted operator-(Counted a, Counted b) { return a -= b; }
    friend Counted operator*(Counted a, Counted b) { return a *= b; }
    friend Counted operator/(Counted a, Counted b) { return a /= b; }
    friend bool operator<(Counted a, Counted b) { return a.v < b.v; }
    friend bool operator>(Counted a, Counted b) { return a.v > b.v; }
    friend bool operator<=(Counted a, Counted b) { return a.v <= b.v; }
    friend bool operator>=(Counted a, Counted b) { return a.v >= b.v; }
    friend bool operator==(Counted a, Counted b) { return a.v == b.v; }
    friend bool operator!=(Counted a, Counted b) { return a.v != b.v; }
    friend Counted abs(Counted a) { return Counted(std::fabs(a.v)); }
    friend bool isfinite(Counted a) { return std::isfinite(a.v); }
    // Only ever of a constant (Newton's stagnation level), which the compilers fold: not counted.
    friend Counted sqrt(Counted a) { return Counted(std::sqrt(a.v)); }
    friend Counted sin_of(Counted a) { return ++tally.sin, Counted(std::sin(a.v)); }
    friend Counted cos_of(Counted a) { return ++tally.cos, Counted(std::cos(a.v)); }
};

}  // namespace counting

template <class T>
struct std::numeric_limits<counting::Counted<T>> {
    static constexpr bool is_specialized = true;
    static counting::Counted<T> epsilon() { return std::numeric_limits<T>::epsilon(); }
    static counting::Counted<T> infinity() { return std::numeric_limits<T>::infinity(); }
    static counting::Counted<T> max() { return std::numeric_limits<T>::max(); }
};

namespace {

// The fan of bench_pendulum (q0 = 3 i/n, p0 = 2.5 (i mod 7)/7, w = 2 pi, h = 1e-3, 1000 steps).
template <class Scheme, class T>
void count(const char* name, double sin_ops, double cos_ops) {
    using Counted = counting::Counted<T>;
    constexpr int n = 64;
    constexpr long long steps = 1000;
    counting::tally = {};
    long long iterations = 0, done = 0;
    for (int i = 0; i < n; ++i) {
        geomint::PendulumPotential<Counted> potential;
        potential.mass = 1.0;
        potential.omega = 2 * M_PI;
        const auto result =
            geomint::integrate_trajectory(Scheme{}, potential, Counted(3.0 * i / n), Counted(2.5 * (i % 7) / 7),
                                          Counted(1e-3), steps, geomint::NewtonOptions<Counted>{});
        iterations += result.newton_iterations;
        done += result.steps_completed;
    }
    const auto& t = counting::tally;
    const double per = 1.0 / double(done);
    const double ops = (double(t.add_mul) + double(t.div) + sin_ops * double(t.sin) + cos_ops * double(t.cos)) * per;
    std::printf("%-8s %-6s %8.2f %8.2f %8.2f %8.2f %8.2f %10.1f\n", name, sizeof(T) == 8 ? "double" : "float",
                double(t.add_mul) * per, double(t.div) * per, double(t.sin) * per, double(t.cos) * per,
                double(iterations) * per, ops);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: pendulum_flops SIN64 COS64 SIN32 COS32 (operations of one sin and one cos)\n");
        return 2;
    }
    const double sin64 = std::atof(argv[1]), cos64 = std::atof(argv[2]);
    const double sin32 = std::atof(argv[3]), cos32 = std::atof(argv[4]);
    std::printf("per step        add+mul      div      sin      cos   newton  operations\n");
    count<geomint::Newmark, double>("newmark", sin64, cos64);
    count<geomint::Simpson, double>("simpson", sin64, cos64);
    count<geomint::StormerVerlet, double>("verlet", sin64, cos64);
    count<geomint::BlanesMoanRkn4, double>("rkn4", sin64, cos64);
    count<geomint::Newmark, float>("newmark", sin32, cos32);
    count<geomint::Simpson, float>("simpson", sin32, cos32);
    count<geomint::StormerVerlet, float>("verlet", sin32, cos32);
    count<geomint::BlanesMoanRkn4, float>("rkn4", sin32, cos32);
    return 0;
}
