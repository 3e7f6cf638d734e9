// The per-chain body of a spin ensemble (a top is a chain of one spin) over structure-of-arrays
// storage: one functor, called for chain t by the CPU loop and by the CUDA kernel alike.
#pragma once

#include <cstddef>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/step_observer.hpp"
#include "geomint/spin/integrate_chain.hpp"
#include "outcome_view.hpp"

namespace geomint {

// Component c of spin i of chain t at state[(3 i + c) * chains + t]; the workspace likewise,
// so that neighbouring threads touch neighbouring addresses (include/geomint/spin/INTERFACE.md).
template <class Real>
struct SpinBatchView {
    Real* state;
    Real* workspace;
    std::size_t chains;
    int spins;
    Real* norm_error;  // largest ||s_i| - 1| seen
    OutcomeView<Real> outcome;
};

template <class Real>
struct SpinStepSettings {
    Real h;
    long long steps;
    NewtonOptions<Real> newton;
};

// `recorder.at(t)` observes chain t's states (geomint/step_observer.hpp); the default records
// nothing.
template <class Scheme, class System, class Real, class Recorder = NoRecorder>
struct SpinChainBody {
    using real_type = Real;
    Scheme scheme;
    System system;
    SpinBatchView<Real> view;
    SpinStepSettings<Real> settings;
    Recorder recorder{};

    GEOMINT_HD void operator()(std::size_t t) const { run(t, spin::SequentialTeam{}); }

    // Chain t run by every worker of `team` (include/geomint/spin/team.hpp); worker 0 writes the
    // outcome. The block-per-chain paths call this; operator() is the team of one.
    template <class Team>
    GEOMINT_HD void run(std::size_t t, const Team& team) const {
        const spin::StridedSpins<Real> state{view.state + t, view.chains, view.spins};
        const spin::StridedReals<Real> workspace{view.workspace + t, view.chains};
        const spin::ChainResult<Real> r = spin::integrate_chain(scheme, system, settings.h, settings.steps, state,
                                                                workspace, settings.newton, recorder.at(t), team);
        if (team.rank() != 0) return;
        view.norm_error[t] = r.max_norm_error;
        view.outcome.set(t, r.max_energy_error, r.newton_iterations, r.steps_completed, r.status);
    }
};

}  // namespace geomint
