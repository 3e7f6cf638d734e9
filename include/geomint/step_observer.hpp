// The hook through which a per-trajectory driver shows its state after each completed step (and
// the initial state, as step 0) to whatever records it: saved states, portrait histograms. The
// default observes nothing and compiles away, so a run that records nothing pays nothing.
#pragma once

#include "geomint/platform.hpp"

namespace geomint {

// Observer concept, called by integrate_trajectory (pendulum: observer(step, q, p)) and
// integrate_chain (spins: observer(step, state)) with step = 0 for the initial state and
// step = n after the n-th completed step. A failed step is never shown.
struct NoStepObserver {
    template <class... Args>
    GEOMINT_HD void operator()(const Args&...) const {}
};

// What a body holds: recorder.at(i) gives the observer of trajectory (or chain) i.
struct NoRecorder {
    GEOMINT_HD NoStepObserver at(unsigned long long) const { return {}; }
};

}  // namespace geomint
