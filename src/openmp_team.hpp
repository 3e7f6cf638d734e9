// CPU teams for the partitioned Newton (include/geomint/spin/team.hpp): the threads of the
// enclosing OpenMP parallel region, with which the CPU backend runs one long chain on all its
// threads, and a team of one thread, with which it runs a long chain on one thread by the same
// algorithm (so that a chain's result does not depend on how many threads share it).
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

// One worker: the partitioned solve's steps in order, no barrier. Not spin::SequentialTeam, which
// selects the sequential solver instead.
template <class Real>
struct SoloTeam {
    static constexpr bool sequential = false;
    spin::StridedReals<Real> scratch;  // spin::team_newton_scratch_reals(d, 1) reals
    int rank() const { return 0; }
    int size() const { return 1; }
    void barrier() const {}
    spin::StridedReals<Real> shared() const { return scratch; }
};

}  // namespace geomint
