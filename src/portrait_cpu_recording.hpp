// A phase portrait's recording inside the CPU batch loops (run_pendulum_batch_cpu,
// run_spin_batch_cpu): each OpenMP thread's bodies add their recorded states into that thread's own
// histogram (plain adds, no sharing), with each trajectory's energy code. The portrait sink owns
// the histograms and adds them up at the end (integer sums: any thread count gives the same).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "geomint/portrait/histogram_view.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/plain_recorder.hpp"
#include "geomint/portrait/record_schedule.hpp"
#include "geomint/portrait/trajectory_recorders.hpp"
#include "portrait_run.hpp"

namespace geomint {

struct CpuPortraitRecording {
    portrait::PixelMapper mapper;
    portrait::RecordSchedule schedule;
    const portrait::HistogramView* views;  // views[t]: thread t's histogram
    int threads;                           // entries of views: the batch may use no more threads
    bool wrap;                             // pendulum: x = q wrapped to (-pi, pi]
    portrait::SpinPlaneChoice plane;       // spins: the plane of the points
    const std::uint32_t* energy_codes;     // one per trajectory of the batch; null: every code 0

    // The recorder of thread `thread`'s pendulum bodies (trajectory i's code at energy_codes[i]).
    portrait::PendulumPortraitRecorder<portrait::PlainRecorder> pendulum(int thread) const {
        return {{mapper, views[thread]}, schedule, wrap, energy_codes};
    }
    // The recorder of chain `chain` run as chain 0 of a one-chain view (the CPU spin loop).
    portrait::SpinPortraitRecorder<portrait::PlainRecorder> spin(int thread, std::size_t chain) const {
        return {{mapper, views[thread]}, schedule, plane, energy_codes != nullptr ? energy_codes + chain : nullptr};
    }
};

// The recording of a chunk into a target's per-thread histograms, with the chunk's energy codes
// (empty: every code 0).
inline CpuPortraitRecording cpu_recording(const PortraitTarget& target, const std::vector<std::uint32_t>& codes) {
    return {portrait::PixelMapper(target.settings.grid),
            target.settings.schedule,
            target.thread_views.data(),
            static_cast<int>(target.thread_views.size()),
            target.wrap,
            target.plane,
            codes.empty() ? nullptr : codes.data()};
}

}  // namespace geomint
