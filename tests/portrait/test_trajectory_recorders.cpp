// The portrait recorders' observers (include/geomint/portrait/trajectory_recorders.hpp) on their
// own: which steps they hand to the sink, which plane point and which trajectory's energy code, and
// that an observer cannot be taken from a temporary recorder (it reads the recorder where it is).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "geomint/portrait/trajectory_recorders.hpp"
#include "geomint/spin/spin_view.hpp"
#include "observer_lifetime.hpp"

namespace {

using namespace geomint::portrait;

struct Call {
    PlanePoint point;
    std::uint32_t code;
};

// A sink that keeps what it is handed.
struct CaptureSink {
    std::vector<Call>* calls;
    void operator()(PlanePoint p, std::uint32_t code) const { calls->push_back({p, code}); }
};

static_assert(ObservesFromLvalue<SpinPortraitRecorder<CaptureSink>>);
static_assert(!ObservesFromTemporary<SpinPortraitRecorder<CaptureSink>>);
static_assert(ObservesFromLvalue<PendulumPortraitRecorder<CaptureSink>>);
static_assert(!ObservesFromTemporary<PendulumPortraitRecorder<CaptureSink>>);

TEST(SpinPortraitObserver, HandsTheScheduledStatesOfItsChainWithItsEnergyCode) {
    std::vector<Call> calls;
    const std::uint32_t codes[] = {7, 9, 11};
    // Two spins (stride 1): spin 1 is (0.6, 0, -0.8), spin 0 has z = 0.5 (not a unit vector: the
    // plane maps what it is given).
    std::vector<double> state = {0.0, 0.0, 0.5, 0.6, 0.0, -0.8};
    const geomint::spin::StridedSpins<double> view{state.data(), 1, 2};
    const SpinPortraitRecorder<CaptureSink> sphere{{&calls}, {1, 2}, {SpinPlaneKind::sphere, 1, 0}, codes};
    const auto observer = sphere.at(2);
    for (long long step = 0; step <= 5; ++step) observer(step, view);
    ASSERT_EQ(calls.size(), 3u);  // steps 1, 3, 5
    const PlanePoint expected = sphere_plane(0.6, 0.0, -0.8);
    for (const Call& c : calls) {
        EXPECT_EQ(c.code, 11u);
        EXPECT_EQ(c.point.x, expected.x);
        EXPECT_EQ(c.point.y, expected.y);
    }

    calls.clear();
    const SpinPortraitRecorder<CaptureSink> pair{{&calls}, {0, 1}, {SpinPlaneKind::z_pair, 1, 0}, nullptr};
    pair.at(1)(4LL, view);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].code, 0u);  // no codes: every code 0
    EXPECT_EQ(calls[0].point.x, -0.8);
    EXPECT_EQ(calls[0].point.y, 0.5);
}

TEST(PendulumPortraitObserver, HandsTheScheduledStatesOfItsTrajectoryWithItsEnergyCode) {
    std::vector<Call> calls;
    const std::uint32_t codes[] = {3, 5};
    const PendulumPortraitRecorder<CaptureSink> wrapped{{&calls}, {2, 1}, true, codes};
    const auto observer = wrapped.at(1);
    for (long long step = 0; step <= 3; ++step) observer(step, 4.0 + double(step), -double(step));
    ASSERT_EQ(calls.size(), 2u);  // steps 2 and 3
    for (std::size_t k = 0; k < 2; ++k) {
        const PlanePoint expected = pendulum_plane(6.0 + double(k), -2.0 - double(k));
        EXPECT_EQ(calls[k].code, 5u);
        EXPECT_EQ(calls[k].point.x, expected.x);
        EXPECT_EQ(calls[k].point.y, expected.y);
    }

    calls.clear();
    const PendulumPortraitRecorder<CaptureSink> plain{{&calls}, {0, 1}, false, nullptr};
    plain.at(0)(0LL, 4.0, 1.0);
    ASSERT_EQ(calls.size(), 1u);
    EXPECT_EQ(calls[0].code, 0u);
    EXPECT_EQ(calls[0].point.x, 4.0);  // not wrapped
    EXPECT_EQ(calls[0].point.y, 1.0);
}

}  // namespace
