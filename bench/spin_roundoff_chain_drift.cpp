// The energy drift of double DRG steps on chains (math §2.6, bench/RESULTS.md): the mean over K
// random 8-spin Heisenberg chains of H(s_N) - H(s_0) after N steps, with its standard error, and
// that mean divided by N, the lean of one step. A random walk averages out over the chains; a
// lean does not. For the single-stage schemes it also runs each stage as DrgStage + newton_solve
// (the scheme's own step, bit for bit) and, as "+ fresh step", the same followed by one more
// Newton solve from the converged point: one Jacobian at the solution and one step, to see how
// much of a lean the end of the solve carries (bench/RESULTS.md: part of it, not all).
// "X (team)" runs scheme X's step through the team solver (team_newton_solve, a team of one
// thread: SoloTeam), the path of chains of 2048 spins and more on the CPU; on 8 spins it is not
// partitioned, which changes only the linear solve's rounding.
// "X (GPU's solve)" (path "device" only) runs a single-stage scheme's stage as the GPU solves it,
// emulated on the host (DeviceStageStep).
// Usage: spin_roundoff_chain_drift [steps N] [chains K] [h] [scheme|all] [team|thread|both|device]
// [first chain] (default both, 0): chain k starts from random spins of seed 100 + first + k, so
// that another first chain gives another K chains, independent of the first. Energies in long
// double.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "geomint/spin/explicit_guess.hpp"
#include "geomint/spin/integrate_chain.hpp"
#include "geomint/spin/random_spins.hpp"
#include "geomint/spin/schemes/drg.hpp"
#include "geomint/spin/systems.hpp"
#include "geomint/spin/team_newton.hpp"
#include "openmp_team.hpp"

namespace gs = geomint::spin;

namespace {

constexpr int spins = 8;
using Chain = gs::HeisenbergChain<double>;

long double energy(const std::vector<double>& s) {
    std::vector<long double> wide(s.begin(), s.end());
    return gs::total_energy(gs::HeisenbergChain<long double>{}, gs::StridedSpins<long double>{wide.data(), 1, spins});
}

// The random chains a run takes: first, first + 1, ..., first + count - 1 (so that runs with
// different firsts are independent sets).
struct ChainRange {
    int first, count;
};

// H(s_N) - H(s_0) of random chain k after `steps` calls of step(state); exits on a failed step.
template <class Step>
long double drift_of_chain(int k, long long steps, Step step) {
    std::vector<double> s(3 * spins);
    gs::fill_random_spins(gs::StridedSpins<double>{s.data(), 1, spins}, 20240611, 100 + static_cast<unsigned>(k));
    const long double h0 = energy(s);
    for (long long n = 0; n < steps; ++n) {
        if (!step(gs::StridedSpins<double>{s.data(), 1, spins})) {
            std::printf("failed at step %lld of chain %d\n", n + 1, k);
            std::exit(1);
        }
    }
    return energy(s) - h0;
}

template <class MakeStep>
void report(const char* label, ChainRange range, long long steps, double h, const MakeStep& make_step) {
    const int chains = range.count;
    std::vector<long double> drift(static_cast<std::size_t>(chains));
#pragma omp parallel for schedule(dynamic)
    for (int k = 0; k < chains; ++k)
        drift[static_cast<std::size_t>(k)] = drift_of_chain(range.first + k, steps, make_step());
    long double mean = 0, square = 0;
    for (const long double e : drift) {
        mean += e;
        square += e * e;
    }
    mean /= chains;
    const long double error = std::sqrt((square / chains - mean * mean) / (chains - 1));
    std::printf("%-22s h %.3g: mean H_N - H_0 %+.2Le (standard error %.1Le), lean a step %+.2Le (%.1Le)\n", label, h,
                mean, error, mean / steps, error / steps);
    std::fflush(stdout);
}

// One stage as the GPU runs it, emulated on the host: the GPU's Jacobian (device_drg_jacobian: the
// analytic blocks for ia; the midpoint-Hessian quasi-Newton for avf, mp and sia, and no rank-one
// term in mp's lambda) and Newton (local_newton_solve), with this host's rounding (no fused
// multiply-adds).
template <gs::Centre centre, class Gradient>
struct DeviceStageStep {
    double h;
    std::vector<double> x = std::vector<double>(3 * spins);
    std::vector<double> work = std::vector<double>(gs::local_newton_workspace_reals<3, double>(spins));

    bool operator()(gs::StridedSpins<double> state) {
        const gs::StridedReals<double> xs{x.data(), 1}, ws{work.data(), 1};
        gs::explicit_guess_by<gs::device_first_iterate<Chain>>(Chain{}, h, state, xs, ws, gs::SequentialTeam{});
        gs::DrgStage<centre, Gradient, Chain, double, gs::device_drg_jacobian<centre, Gradient>> stage{Chain{}, state,
                                                                                                       h, Gradient{}};
        if (gs::local_newton_solve(stage, xs, ws, geomint::NewtonOptions<double>{}).status != geomint::SolveStatus::ok)
            return false;
        for (int i = 0; i < spins; ++i) state.set(i, xs.spins(spins).get(i));
        return true;
    }
};

// One stage as the schemes run it (detail::drg_stage), optionally followed by a fresh solve.
template <gs::Centre centre, class Gradient>
struct StageStep {
    double h;
    bool fresh_step;
    std::vector<double> x = std::vector<double>(3 * spins);
    std::vector<double> work = std::vector<double>(gs::local_newton_workspace_reals<3, double>(spins) +
                                                   gs::rank_one_workspace_reals<3>(spins));

    bool operator()(gs::StridedSpins<double> state) {
        const gs::StridedReals<double> xs{x.data(), 1}, ws{work.data(), 1};
        gs::explicit_guess(Chain{}, h, state, xs, ws, gs::SequentialTeam{});
        gs::DrgStage<centre, Gradient, Chain, double> stage{Chain{}, state, h, Gradient{}};
        if (gs::newton_solve(stage, xs, ws, geomint::NewtonOptions<double>{}, gs::SequentialTeam{}).status !=
            geomint::SolveStatus::ok)
            return false;
        if (fresh_step &&
            gs::newton_solve(stage, xs, ws, geomint::NewtonOptions<double>{}, gs::SequentialTeam{}).status !=
                geomint::SolveStatus::ok)
            return false;
        for (int i = 0; i < spins; ++i) state.set(i, xs.spins(spins).get(i));
        return true;
    }
};

template <class Scheme>
struct SchemeStep {
    double h;
    std::vector<double> work = std::vector<double>(gs::workspace_reals(Scheme{}, spins));
    bool operator()(gs::StridedSpins<double> state) {
        return Scheme{}
                   .step(Chain{}, h, state, gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{})
                   .status == geomint::SolveStatus::ok;
    }
};

// The scheme's step by a team of one thread (the CPU's long chains, src/spin_batch_cpu.cpp).
template <class Scheme>
struct TeamSchemeStep {
    double h;
    std::vector<double> work = std::vector<double>(gs::workspace_reals(Scheme{}, spins));
    std::vector<double> scratch = std::vector<double>(gs::team_newton_scratch_reals<3, double>(spins, 1));
    bool operator()(gs::StridedSpins<double> state) {
        return Scheme{}
                   .step(Chain{}, h, state, gs::StridedReals<double>{work.data(), 1}, geomint::NewtonOptions<double>{},
                         geomint::SoloTeam<double>{{scratch.data(), 1}})
                   .status == geomint::SolveStatus::ok;
    }
};

}  // namespace

int main(int argc, char** argv) {
    const long long steps = argc > 1 ? std::atoll(argv[1]) : 100000;
    const int chains = argc > 2 ? std::atoi(argv[2]) : 16;
    const double h = argc > 3 ? std::atof(argv[3]) : 0.05;
    const char* which = argc > 4 ? argv[4] : "all";
    const char* path = argc > 5 ? argv[5] : "both";
    const bool thread = !std::strcmp(path, "thread") || !std::strcmp(path, "both");
    const bool team = !std::strcmp(path, "team") || !std::strcmp(path, "both");
    const bool device = !std::strcmp(path, "device");
    const int first_chain = argc > 6 ? std::atoi(argv[6]) : 0;
    if (steps < 1 || chains < 2 || !(std::fabs(h) > 0) || !(thread || team || device) || first_chain < 0) {
        std::fprintf(stderr,
                     "usage: spin_roundoff_chain_drift [steps >= 1] [chains >= 2] [h != 0] [scheme|all] "
                     "[team|thread|both|device] [first chain >= 0]\n");
        return 2;
    }
    const ChainRange range{first_chain, chains};
    const auto wanted = [&](const char* name) { return !std::strcmp(which, "all") || !std::strcmp(which, name); };
    const auto stage = [&]<gs::Centre centre, class Gradient>(const char* name) {
        if (wanted(name) && device) {
            const std::string label = std::string(name) + " (GPU's solve)";
            report(label.c_str(), range, steps, h, [&] { return DeviceStageStep<centre, Gradient>{h}; });
        }
        if (!wanted(name) || !thread) return;
        report(name, range, steps, h, [&] { return StageStep<centre, Gradient>{h, false}; });
        const std::string fresh = std::string(name) + " + fresh step";
        report(fresh.c_str(), range, steps, h, [&] { return StageStep<centre, Gradient>{h, true}; });
    };
    const auto team_scheme = [&]<class Scheme>() {
        const std::string label = std::string(Scheme::name) + " (team)";
        if (wanted(Scheme::name) && team)
            report(label.c_str(), range, steps, h, [&] { return TeamSchemeStep<Scheme>{h}; });
    };
    const auto scheme = [&]<class Scheme>() {
        if (wanted(Scheme::name) && thread)
            report(Scheme::name, range, steps, h, [&] { return SchemeStep<Scheme>{h}; });
        team_scheme.template operator()<Scheme>();
    };
    stage.template operator()<gs::Centre::symmetric, gs::MidpointGradient<double>>("mp");
    stage.template operator()<gs::Centre::symmetric, gs::AvfGradient>("avf");
    stage.template operator()<gs::Centre::start, gs::ItohAbeGradient<gs::IaDirection::forward>>("ia");
    stage.template operator()<gs::Centre::symmetric, gs::ItohAbeGradient<gs::IaDirection::symmetrised>>("sia");
    // The single-stage schemes' thread path is the stage above, bit for bit: their team path only.
    team_scheme.template operator()<gs::GonzalezMidpoint>();
    team_scheme.template operator()<gs::Avf>();
    team_scheme.template operator()<gs::ItohAbe>();
    team_scheme.template operator()<gs::SymmetrisedItohAbe>();
    scheme.template operator()<gs::Comp2>();
    scheme.template operator()<gs::CompSia>();
    scheme.template operator()<gs::Comp4>();
}
