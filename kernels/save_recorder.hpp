// Saved states through the step-observer hook: trajectory i of a chunk of n writes its state at
// step 0, every K-th step and the last step into a [saves][n][dim] buffer (host or device memory).
#pragma once

#include <cstddef>

#include "geomint/platform.hpp"
#include "geomint/spin/spin_view.hpp"

namespace geomint {

// Saves of a run of `steps` steps saving every `every`: steps 0, K, 2K, ... and `steps` itself.
GEOMINT_HD inline long long save_count(long long steps, long long every) {
    return steps / every + 1 + (steps % every != 0 ? 1 : 0);
}

// The step of save s (the inverse of the observer's choice below).
GEOMINT_HD inline long long save_step(long long save, long long steps, long long every) {
    const long long step = save * every;
    return step < steps ? step : steps;
}

template <class Real>
struct SaveRecorder {
    Real* saves;            // [save][trajectory][component], trajectory extent `chunk`
    std::size_t chunk;      // trajectories in the chunk
    int dim;                // components per state: 2 for a pendulum, 3 d for a chain of d spins
    long long every;        // K
    long long steps;        // the run's step count: its final state is always saved
    std::size_t first = 0;  // trajectory of at(0): the CPU spin loop runs chain t as chain 0

    struct Observer {
        Real* out;  // component 0 of save 0 of this trajectory
        std::size_t save_stride;
        long long every, steps;

        // Where step n goes, or null when it is not saved.
        GEOMINT_HD Real* slot(long long n) const {
            if (n % every == 0) return out + static_cast<std::size_t>(n / every) * save_stride;
            if (n == steps) return out + static_cast<std::size_t>(n / every + 1) * save_stride;
            return nullptr;
        }
        GEOMINT_HD void operator()(long long n, Real q, Real p) const {
            if (Real* s = slot(n)) {
                s[0] = q;
                s[1] = p;
            }
        }
        GEOMINT_HD void operator()(long long n, const spin::StridedSpins<Real>& state) const {
            if (Real* s = slot(n))
                for (int k = 0; k < 3 * state.d; ++k) s[k] = state.base[static_cast<std::size_t>(k) * state.stride];
        }
    };

    GEOMINT_HD Observer at(unsigned long long i) const {
        const std::size_t d = static_cast<std::size_t>(dim);
        return {saves + (first + static_cast<std::size_t>(i)) * d, chunk * d, every, steps};
    }
    // The recorder seen by a body that runs trajectory `t` as its trajectory 0.
    GEOMINT_HD SaveRecorder starting_at(std::size_t t) const {
        SaveRecorder r = *this;
        r.first = t;
        return r;
    }
};

}  // namespace geomint
