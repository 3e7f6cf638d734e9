// The threads of the enclosing OpenMP parallel region as a team (include/geomint/spin/team.hpp):
// the CPU backend runs one long chain on all its threads with it.
#pragma once

#include "geomint/spin/spin_view.hpp"

namespace geomint {

template <class Real>
struct OpenMpTeam {
    static constexpr bool sequential = false;
    int worker, workers;               // omp_get_thread_num(), omp_get_num_threads()
    spin::StridedReals<Real> scratch;  // spin::team_newton_scratch_reals(d, workers) reals
    int rank() const { return worker; }
    int size() const { return workers; }
    void barrier() const {
#pragma omp barrier
    } spin::StridedReals<Real> shared() const {
        return scratch;
    }
};

}  // namespace geomint
