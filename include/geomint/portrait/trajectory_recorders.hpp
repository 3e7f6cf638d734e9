// Recorders that the per-trajectory bodies take (their `Recorder` parameter): each trajectory's
// observer maps the recorded states to a plane point and hands it to a sink, PlainRecorder on the
// CPU or AtomicRecorder on the GPU, with the trajectory's initial-energy code. Host+device.
#pragma once

#include <cstdint>

#include "geomint/platform.hpp"
#include "geomint/portrait/plane.hpp"
#include "geomint/portrait/record_schedule.hpp"
#include "geomint/spin/spin_view.hpp"

namespace geomint::portrait {

// Pendulum: x is q wrapped to (-pi, pi] for an angle (periodic potential), q itself otherwise.
template <class Sink>
struct PendulumPortraitObserver {
    Sink sink;
    RecordSchedule schedule;
    bool wrap;
    std::uint32_t energy_code;

    template <class Real>
    GEOMINT_HD void operator()(long long step, Real q, Real p) const {
        if (!schedule.records(step)) return;
        const double x = static_cast<double>(q), y = static_cast<double>(p);
        sink(wrap ? pendulum_plane(x, y) : PlanePoint{x, y}, energy_code);
    }
};

// `energy_codes` (may be null: every code 0) is indexed like the body's trajectories.
template <class Sink>
struct PendulumPortraitRecorder {
    Sink sink;
    RecordSchedule schedule;
    bool wrap;
    const std::uint32_t* energy_codes;

    GEOMINT_HD PendulumPortraitObserver<Sink> at(unsigned long long i) const {
        return {sink, schedule, wrap, energy_codes != nullptr ? energy_codes[i] : 0u};
    }
};

// Spins: the Lambert plane of spin `spin`, or the plane (s_spin^z, s_next^z) (0-based indices).
enum class SpinPlaneKind : int { sphere, z_pair };

struct SpinPlaneChoice {
    SpinPlaneKind kind = SpinPlaneKind::sphere;
    int spin = 0;
    int next = 0;  // z_pair only: the neighbour, (spin + 1) mod d
};

template <class Sink>
struct SpinPortraitObserver {
    Sink sink;
    RecordSchedule schedule;
    SpinPlaneChoice plane;
    std::uint32_t energy_code;

    template <class Real>
    GEOMINT_HD void operator()(long long step, const spin::StridedSpins<Real>& state) const {
        if (!schedule.records(step)) return;
        const auto s = state.get(plane.spin);
        if (plane.kind == SpinPlaneKind::sphere) {
            sink(sphere_plane(static_cast<double>(s.x), static_cast<double>(s.y), static_cast<double>(s.z)),
                 energy_code);
        } else {
            const auto n = state.get(plane.next);
            sink(z_pair_plane(static_cast<double>(s.z), static_cast<double>(n.z)), energy_code);
        }
    }
};

template <class Sink>
struct SpinPortraitRecorder {
    Sink sink;
    RecordSchedule schedule;
    SpinPlaneChoice plane;
    const std::uint32_t* energy_codes;  // may be null: every code 0

    GEOMINT_HD SpinPortraitObserver<Sink> at(unsigned long long t) const {
        return {sink, schedule, plane, energy_codes != nullptr ? energy_codes[t] : 0u};
    }
};

}  // namespace geomint::portrait
