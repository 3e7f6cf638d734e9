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

// Each trajectory's observer reads its recorder's fields where they are (a kernel's parameters, on
// the GPU) and loads the trajectory's energy code when it records, instead of carrying copies,
// which stay live in registers through every step: the spin portrait kernels took up to 22
// registers more than the plain ones (ptxas, sm_90: the implicit midpoint rule on the anisotropic
// chain 122 against 100; now 100; bench/RESULTS.md, "Recorders read where they are"). So an
// observer must not outlive its recorder: at() is refused on a temporary.
template <class Sink>
struct PendulumPortraitRecorder;
template <class Sink>
struct SpinPortraitRecorder;

// The energy code of trajectory t (`codes` may be null: every code 0).
GEOMINT_HD inline std::uint32_t energy_code_of(const std::uint32_t* codes, unsigned long long t) {
    return codes != nullptr ? codes[t] : 0u;
}

// Pendulum: x is q wrapped to (-pi, pi] for an angle (periodic potential), q itself otherwise.
template <class Sink>
struct PendulumPortraitObserver {
    const PendulumPortraitRecorder<Sink>* recorder;
    unsigned long long trajectory;

    template <class Real>
    GEOMINT_HD void operator()(long long step, Real q, Real p) const {
        const PendulumPortraitRecorder<Sink>& r = *recorder;
        if (!r.schedule.records(step)) return;
        const double x = static_cast<double>(q), y = static_cast<double>(p);
        r.sink(r.wrap ? pendulum_plane(x, y) : PlanePoint{x, y}, energy_code_of(r.energy_codes, trajectory));
    }
};

// `energy_codes` (may be null: every code 0) is indexed like the body's trajectories.
template <class Sink>
struct PendulumPortraitRecorder {
    Sink sink;
    RecordSchedule schedule;
    bool wrap;
    const std::uint32_t* energy_codes;

    GEOMINT_HD PendulumPortraitObserver<Sink> at(unsigned long long i) const& { return {this, i}; }
    PendulumPortraitObserver<Sink> at(unsigned long long) const&& = delete;
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
    const SpinPortraitRecorder<Sink>* recorder;
    unsigned long long chain;

    template <class Real>
    GEOMINT_HD void operator()(long long step, const spin::StridedSpins<Real>& state) const {
        const SpinPortraitRecorder<Sink>& r = *recorder;
        if (!r.schedule.records(step)) return;
        const std::uint32_t code = energy_code_of(r.energy_codes, chain);
        const auto s = state.get(r.plane.spin);
        if (r.plane.kind == SpinPlaneKind::sphere) {
            r.sink(sphere_plane(static_cast<double>(s.x), static_cast<double>(s.y), static_cast<double>(s.z)), code);
        } else {
            const auto n = state.get(r.plane.next);
            r.sink(z_pair_plane(static_cast<double>(s.z), static_cast<double>(n.z)), code);
        }
    }
};

template <class Sink>
struct SpinPortraitRecorder {
    Sink sink;
    RecordSchedule schedule;
    SpinPlaneChoice plane;
    const std::uint32_t* energy_codes;  // may be null: every code 0

    GEOMINT_HD SpinPortraitObserver<Sink> at(unsigned long long t) const& { return {this, t}; }
    SpinPortraitObserver<Sink> at(unsigned long long) const&& = delete;
};

}  // namespace geomint::portrait
