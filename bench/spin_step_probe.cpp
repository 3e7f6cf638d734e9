// The spin schemes' step, alone, for counting its instructions and timing header changes against
// each other (bench/RESULTS.md): integrate_chain of one registry scheme on one registry system,
// over `chains` chains of random spins (seed 2026, chain c), h = 0.05, one thread. Prints a
// checksum of the final states and errors, the Newton iterations, and the best wall time of
// `repeats` runs; the same input gives the same checksum and iterations on every build.
//   spin_step_probe SYSTEM SCHEME SPINS STEPS CHAINS [REPEATS]
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null build/bench/spin_step_probe top sia 1 2000 10
// Another tree's headers (an A/B of a change), built the same way:
//   g++ -std=c++20 -O3 -DNDEBUG -IOTHER/include -Ikernels bench/spin_step_probe.cpp -o probe_other
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/random_spins.hpp"
#include "spin_dispatch.hpp"

namespace gs = geomint::spin;

namespace {

struct ProbeRun {
    double checksum = 0;
    long long iterations = 0;
    long long failed_chains = 0;
};

template <class Scheme, class System>
ProbeRun run_once(const Scheme& scheme, const System& system, int spins, long long steps, int chains) {
    ProbeRun out;
    std::vector<double> state(3 * static_cast<std::size_t>(spins));
    std::vector<double> work(gs::workspace_reals(scheme, spins));
    for (int c = 0; c < chains; ++c) {
        const gs::StridedSpins<double> view{state.data(), 1, spins};
        gs::fill_random_spins(view, 2026, static_cast<std::uint64_t>(c));
        const gs::ChainResult<double> r =
            gs::integrate_chain(scheme, system, 0.05, steps, view, gs::StridedReals<double>{work.data(), 1},
                                geomint::NewtonOptions<double>{});
        out.iterations += r.newton_iterations;
        if (r.status != geomint::SolveStatus::ok) ++out.failed_chains;
        out.checksum += r.max_energy_error * 1e10 + r.max_norm_error * 1e10 + double(r.steps_completed);
        for (double v : state) out.checksum += v;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6 || argc > 7) {
        std::fprintf(stderr, "usage: spin_step_probe SYSTEM SCHEME SPINS STEPS CHAINS [REPEATS]\n");
        return 2;
    }
    const int spins = std::atoi(argv[3]);
    const long long steps = std::atoll(argv[4]);
    const int chains = std::atoi(argv[5]);
    const int repeats = argc > 6 ? std::atoi(argv[6]) : 1;
    if (spins < 1 || steps < 0 || chains < 1 || repeats < 1) {
        std::fprintf(stderr, "spin_step_probe: SPINS, CHAINS and REPEATS must be positive, STEPS not negative\n");
        return 2;
    }
    try {
        const geomint::SpinModel model = geomint::make_spin_model(argv[1], argv[2]);
        geomint::with_spin_types<double>(model, [&](auto scheme, const auto& system) {
            if (!std::decay_t<decltype(system)>::is_chain && spins != 1)
                throw std::invalid_argument("a top has one spin: SPINS must be 1");
            ProbeRun run;
            double best = 0;
            for (int k = 0; k < repeats; ++k) {
                const auto start = std::chrono::steady_clock::now();
                run = run_once(scheme, system, spins, steps, chains);
                const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                best = k == 0 ? seconds : std::min(best, seconds);
            }
            std::printf("checksum %.17g iterations %lld failed_chains %lld best_seconds %.6f\n", run.checksum,
                        run.iterations, run.failed_chains, best);
        });
    } catch (const std::exception& e) {
        std::fprintf(stderr, "spin_step_probe: %s\n", e.what());
        return 2;
    }
    return 0;
}
