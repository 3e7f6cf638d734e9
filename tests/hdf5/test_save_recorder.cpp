// The save recorder (kernels/save_recorder.hpp) on its own: which steps it keeps, where each goes
// in the [save][trajectory][component] buffer, and that other steps leave the buffer untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "save_recorder.hpp"
#include "observer_lifetime.hpp"

namespace {

using geomint::save_count;
using geomint::save_step;
using geomint::SaveRecorder;

TEST(SaveRecorder, KeepsStepZeroEveryKthAndTheLastStep) {
    EXPECT_EQ(save_count(10, 3), 5);  // 0 3 6 9 10
    EXPECT_EQ(save_count(9, 3), 4);   // 0 3 6 9
    EXPECT_EQ(save_count(4, 10), 2);  // 0 4
    EXPECT_EQ(save_count(5, 1), 6);
    const std::vector<long long> expected = {0, 3, 6, 9, 10};
    for (long long s = 0; s < 5; ++s) EXPECT_EQ(save_step(s, 10, 3), expected[s]);
}

TEST(SaveRecorder, PendulumObserverWritesEachSavedStepToItsSlot) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::size_t chunk = 3;
    std::vector<double> buffer(5 * chunk * 2, nan);
    const SaveRecorder<double> recorder{buffer.data(), chunk, 2, 3, 10};
    const auto observer = recorder.at(1);
    for (long long n = 0; n <= 10; ++n) observer(n, 100.0 + n, -double(n));
    const std::vector<long long> steps = {0, 3, 6, 9, 10};
    for (std::size_t s = 0; s < 5; ++s)
        for (std::size_t t = 0; t < chunk; ++t) {
            const double q = buffer[(s * chunk + t) * 2], p = buffer[(s * chunk + t) * 2 + 1];
            if (t != 1) {
                EXPECT_TRUE(std::isnan(q) && std::isnan(p)) << "trajectory " << t << " was written";
            } else {
                EXPECT_EQ(q, 100.0 + steps[s]);
                EXPECT_EQ(p, -double(steps[s]));
            }
        }
}

// An observer reads its recorder where it is (save_recorder.hpp): taking one from a temporary,
// which would leave it dangling, does not compile.
static_assert(ObservesFromLvalue<SaveRecorder<double>>);
static_assert(!ObservesFromTemporary<SaveRecorder<double>>);

TEST(SaveRecorder, ChainObserverReadsAStridedChainAndHonoursStartingAt) {
    // Two spins of chain 0 in a one-chain view (stride 1), recorded as trajectory 2 of a chunk of 4.
    std::vector<double> state = {1, 2, 3, 4, 5, 6};
    const geomint::spin::StridedSpins<double> view{state.data(), 1, 2};
    std::vector<double> buffer(2 * 4 * 6, -1.0);
    const SaveRecorder<double> recorder{buffer.data(), 4, 6, 5, 5};
    const SaveRecorder<double> moved = recorder.starting_at(2);
    const auto observer = moved.at(0);
    observer(0LL, view);
    state[0] = 10;
    observer(3LL, view);  // not saved
    observer(5LL, view);  // the last step
    for (std::size_t k = 0; k < 6; ++k) {
        EXPECT_EQ(buffer[(0 * 4 + 2) * 6 + k], double(k + 1));
        EXPECT_EQ(buffer[(1 * 4 + 2) * 6 + k], k == 0 ? 10.0 : double(k + 1));
        EXPECT_EQ(buffer[(1 * 4 + 1) * 6 + k], -1.0);
    }
}

}  // namespace
