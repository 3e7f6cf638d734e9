// Whether a recorder gives an observer (recorder.at(i)) from a named recorder, and whether it
// refuses one from a temporary: an observer that reads its recorder where it is would dangle
// (kernels/save_recorder.hpp, include/geomint/portrait/trajectory_recorders.hpp).
#pragma once

#include <utility>

template <class Recorder>
concept ObservesFromLvalue = requires(const Recorder& r) {
    r.at(0ULL);
};

template <class Recorder>
concept ObservesFromTemporary = requires {
    std::declval<const Recorder>().at(0ULL);
};
