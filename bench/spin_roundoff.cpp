// Energy round-off of long DRG runs (math §2.6, bench/RESULTS.md): the largest |H - H0| after
// 10^4, 10^5, 10^6 steps of the paper's top and after 10^4, 10^5 steps of a random 8-spin chain,
// h = 0.05, double, for every DRG scheme. Usage: spin_roundoff [steps of the top] [scheme|all].
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/systems.hpp"

namespace gs = geomint::spin;

namespace {

// Prints the running maximum of |H - H0| at every power of ten from 10^4 on, then the largest
// ||s_i| - 1| and the Newton iterations per step.
template <class Scheme, class System>
void run(const char* label, const System& system, std::vector<double> spins, double h, long long steps) {
    const int d = static_cast<int>(spins.size() / 3);
    std::vector<double> work(gs::workspace_reals(Scheme{}, d));
    const gs::StridedSpins<double> state{spins.data(), 1, d};
    const double h0 = gs::total_energy(system, state);
    double energy_error = 0, norm_error = 0;
    long long iterations = 0, next = 10000;
    std::printf("%-8s %-7s", Scheme::name, label);
    for (long long n = 1; n <= steps; ++n) {
        const auto out =
            Scheme{}.step(system, h, state, gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{});
        iterations += out.iterations;
        if (out.status != geomint::SolveStatus::ok) {
            std::printf(" failed at step %lld\n", n);
            return;
        }
        energy_error = std::fmax(energy_error, std::fabs(gs::total_energy(system, state) - h0));
        norm_error = std::fmax(norm_error, gs::max_norm_error(state));
        if (n == next) {
            std::printf(" %.2e", energy_error);
            std::fflush(stdout);
            next *= 10;
        }
    }
    std::printf("  | norm %.1e, Newton iterations/step %.2f\n", norm_error, double(iterations) / double(steps));
}

}  // namespace

int main(int argc, char** argv) {
    const long long steps = argc > 1 ? std::atoll(argv[1]) : 1000000;
    const char* which = argc > 2 ? argv[2] : "all";
    const double h = 0.05;
    const double a = 1 / std::sqrt(3.0);
    const std::vector<double> top{-a, -a, a};  // the paper's start (math §2.5)
    std::vector<double> chain(24);
    gs::fill_random_spins(gs::StridedSpins<double>{chain.data(), 1, 8}, 20240611, 9);
    const auto wanted = [&](const char* name) { return !std::strcmp(which, "all") || !std::strcmp(which, name); };
    const auto both = [&](auto scheme) {
        using S = decltype(scheme);
        if (!wanted(S::name)) return;
        run<S>("top", gs::SpinningTop<double>{}, top, h, steps);
        run<S>("chain8", gs::HeisenbergChain<double>{}, chain, h, steps / 10);
    };
    both(gs::GonzalezMidpoint{});
    both(gs::Avf{});
    both(gs::ItohAbe{});
    both(gs::SymmetrisedItohAbe{});
    both(gs::Comp2{});
    both(gs::CompSia{});
    both(gs::Comp4{});
    if (wanted("mmp")) run<gs::LocalMidpoint>("chain8", gs::HeisenbergChain<double>{}, chain, h, steps / 10);
}
