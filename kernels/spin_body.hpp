// The per-chain body of a spin ensemble (a top is a chain of one spin) over structure-of-arrays
// storage: one functor, called for chain t by the CPU loop and by the CUDA kernel alike.
#pragma once

#include <cstddef>
#include <cstdint>

#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/spin/integrate_chain.hpp"

namespace geomint {

// Component c of spin i of chain t at state[(3 i + c) * chains + t]; the workspace likewise,
// so that neighbouring threads touch neighbouring addresses (INTERFACE.md).
template <class Real>
struct SpinBatchView {
    Real* state;
    Real* workspace;
    std::size_t chains;
    int spins;
    Real* energy_error;
    Real* norm_error;
    long long* newton_iterations;
    long long* steps_completed;
    std::uint8_t* status;  // SolveStatus values
};

template <class Real>
struct SpinStepSettings {
    Real h;
    long long steps;
    NewtonOptions<Real> newton;
};

template <class Scheme, class System, class Real>
struct SpinChainBody {
    Scheme scheme;
    System system;
    SpinBatchView<Real> view;
    SpinStepSettings<Real> settings;

    GEOMINT_HD void operator()(std::size_t t) const {
        const spin::StridedSpins<Real> state{view.state + t, view.chains, view.spins};
        const spin::StridedReals<Real> workspace{view.workspace + t, view.chains};
        const spin::ChainResult<Real> r =
            spin::integrate_chain(scheme, system, settings.h, settings.steps, state, workspace, settings.newton);
        view.energy_error[t] = r.max_energy_error;
        view.norm_error[t] = r.max_norm_error;
        view.newton_iterations[t] = r.newton_iterations;
        view.steps_completed[t] = r.steps_completed;
        view.status[t] = static_cast<std::uint8_t>(r.status);
    }
};

}  // namespace geomint
