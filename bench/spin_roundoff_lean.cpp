// The lean of one double DRG step on the paper's top (math §2.6, bench/RESULTS.md): each step from
// the double state s_n is also taken in long double and rounded to double, and the mean of
// H(double step) - H(rounded long-double step), both in long double, is the double step's own
// energy lean per step (a drift of N times it), with its standard error. Also the lean of that
// rounding alone and the energy error H(s_n) - H(s_0) at every power of ten from 10^4 on.
// With "float", the same for float steps against double ones; a further argument then sets the
// float Newton tolerance in float ulps (0: the default).
// Usage: spin_roundoff_lean [steps] [scheme|all] [float [tolerance in ulps]].
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/systems.hpp"

namespace gs = geomint::spin;

namespace {

template <class T>
long double energy(const T* s) {  // in long double, whatever the state's precision
    using L = long double;
    const gs::Vec3<L> v{L(s[0]), L(s[1]), L(s[2])};
    return gs::SpinningTop<L>{}.energy_density(v, v, v);
}

// Real: the precision measured; LD: the reference, one precision up.
template <class Scheme, class Real = double, class LD = long double>
void run(long long steps, Real tolerance = 0) {
    const double a = 1 / std::sqrt(3.0);
    Real s[3] = {Real(-a), Real(-a), Real(a)};  // the paper's start (math §2.5)
    std::vector<Real> work(gs::workspace_reals(Scheme{}, 1));
    std::vector<LD> workl(gs::workspace_reals(Scheme{}, 1));
    geomint::NewtonOptions<Real> options{};
    options.tolerance = tolerance;
    const auto h0 = energy(s);
    long double lean = 0, lean2 = 0, rounding = 0, largest = 0;
    long long iterations = 0, next = 10000;
    std::printf("%-8s", Scheme::name);
    for (long long n = 1; n <= steps; ++n) {
        LD sl[3] = {s[0], s[1], s[2]};
        const auto outl = Scheme{}.step(gs::SpinningTop<LD>{}, LD(0.05), gs::StridedSpins<LD>{sl, 1, 1},
                                        gs::StridedReals<LD>{workl.data(), 1}, geomint::NewtonOptions<LD>{});
        const auto out = Scheme{}.step(gs::SpinningTop<Real>{}, Real(0.05), gs::StridedSpins<Real>{s, 1, 1},
                                       gs::StridedReals<Real>{work.data(), 1}, options);
        if (out.status != geomint::SolveStatus::ok || outl.status != geomint::SolveStatus::ok) {
            std::printf(" failed at step %lld\n", n);
            return;
        }
        iterations += out.iterations;
        const Real rounded[3] = {Real(sl[0]), Real(sl[1]), Real(sl[2])};
        const auto e = energy(s) - energy(rounded);
        lean += e;
        lean2 += e * e;
        rounding += energy(rounded) - energy(sl);
        largest = std::fmax(largest, std::fabs(energy(s) - h0));
        if (n == next) {
            std::printf(" %.2Le", largest);
            std::fflush(stdout);
            next *= 10;
        }
    }
    const long double mean = lean / steps, deviation = std::sqrt(lean2 / steps - mean * mean);
    std::printf("  | lean %+.2Le a step (standard error %.1Le), rounding alone %+.1Le, Newton iterations/step %.2f\n",
                mean, deviation / std::sqrt((long double)steps), rounding / steps, double(iterations) / double(steps));
}

}  // namespace

int main(int argc, char** argv) {
    const long long steps = argc > 1 ? std::atoll(argv[1]) : 1000000;
    const char* which = argc > 2 ? argv[2] : "all";
    const bool single = argc > 3 && !std::strcmp(argv[3], "float");
    const float tolerance = argc > 4 ? float(std::atof(argv[4])) * std::numeric_limits<float>::epsilon() : 0.0f;
    const auto wanted = [&](const char* name) { return !std::strcmp(which, "all") || !std::strcmp(which, name); };
    const auto one = [&](auto scheme) {
        if (!wanted(decltype(scheme)::name)) return;
        if (single) {
            run<decltype(scheme), float, double>(steps, tolerance);
        } else {
            run<decltype(scheme)>(steps);
        }
    };
    one(gs::GonzalezMidpoint{});
    one(gs::Avf{});
    one(gs::ItohAbe{});
    one(gs::SymmetrisedItohAbe{});
    one(gs::Comp2{});
    one(gs::CompSia{});
    one(gs::Comp4{});
}
