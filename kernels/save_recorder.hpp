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

    // Trajectory i's observer. It reads the recorder's fields where they are (a kernel's
    // parameters, on the GPU) instead of carrying copies, which stay live in registers through
    // every step: the saving spin kernels took up to 20 registers more than the plain ones (ptxas,
    // sm_90: the implicit midpoint rule on the anisotropic chain 120 against 100; now 100;
    // bench/RESULTS.md, "Recorders read where they are"). So an observer must not outlive its
    // recorder: at() is refused on a temporary.
    struct Observer {
        const SaveRecorder* recorder;
        std::size_t i;

        // Where step n goes, or null when it is not saved.
        GEOMINT_HD Real* slot(long long n) const {
            const SaveRecorder& r = *recorder;
            const std::size_t d = static_cast<std::size_t>(r.dim);
            Real* const out = r.saves + (r.first + i) * d;  // component 0 of save 0
            const std::size_t save_stride = r.chunk * d;
            if (n % r.every == 0) return out + static_cast<std::size_t>(n / r.every) * save_stride;
            if (n == r.steps) return out + static_cast<std::size_t>(n / r.every + 1) * save_stride;
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

    GEOMINT_HD Observer at(unsigned long long i) const& { return {this, static_cast<std::size_t>(i)}; }
    Observer at(unsigned long long) const&& = delete;
    // The recorder seen by a body that runs trajectory `t` as its trajectory 0.
    GEOMINT_HD SaveRecorder starting_at(std::size_t t) const {
        SaveRecorder r = *this;
        r.first = t;
        return r;
    }
};

}  // namespace geomint
