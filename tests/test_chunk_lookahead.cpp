// The look-ahead schedule of the double-buffered CUDA path (src/chunk_lookahead.hpp), on the CPU:
// which chunk is launched ahead and where, and that any other request falls back safely.
#include <gtest/gtest.h>

#include "chunk_lookahead.hpp"

namespace {

using geomint::ChunkLookahead;
using geomint::ChunkRange;

TEST(ChunkLookahead, ConsecutiveChunksAreLaunchedOneAheadInAlternatingSlots) {
    ChunkLookahead schedule(25, 10);  // chunks [0, 10), [10, 20), [20, 25)
    const auto first = schedule.step(0, 10);
    EXPECT_FALSE(first.ready);
    EXPECT_EQ(first.slot, 0);
    EXPECT_FALSE(first.discard_slot);
    ASSERT_TRUE(first.next);
    EXPECT_EQ(*first.next, (ChunkRange{10, 10}));
    EXPECT_EQ(first.next_slot, 1);

    const auto second = schedule.step(10, 10);
    EXPECT_TRUE(second.ready);
    EXPECT_EQ(second.slot, 1);
    ASSERT_TRUE(second.next);
    EXPECT_EQ(*second.next, (ChunkRange{20, 5}));  // the last chunk is shorter
    EXPECT_EQ(second.next_slot, 0);

    const auto last = schedule.step(20, 5);
    EXPECT_TRUE(last.ready);
    EXPECT_EQ(last.slot, 0);
    EXPECT_FALSE(last.next);  // nothing after the end
    EXPECT_FALSE(schedule.pending());
}

TEST(ChunkLookahead, AResumedRunStartsSynchronouslyThenOverlaps) {
    ChunkLookahead schedule(100, 30);
    const auto resumed = schedule.step(60, 30);
    EXPECT_FALSE(resumed.ready);
    ASSERT_TRUE(resumed.next);
    EXPECT_EQ(*resumed.next, (ChunkRange{90, 10}));
    EXPECT_TRUE(schedule.step(90, 10).ready);
}

TEST(ChunkLookahead, AnUnexpectedChunkDiscardsTheOneLaunchedAhead) {
    ChunkLookahead schedule(100, 10);
    schedule.step(0, 10);  // launches [10, 20) in slot 1
    const auto jump = schedule.step(50, 10);
    EXPECT_FALSE(jump.ready);
    ASSERT_TRUE(jump.discard_slot);
    EXPECT_EQ(*jump.discard_slot, 1);
    EXPECT_EQ(jump.slot, 0);  // both slots free again: the asked chunk in 0, the next in 1
    EXPECT_EQ(jump.next_slot, 1);
    ASSERT_TRUE(jump.next);
    EXPECT_EQ(*jump.next, (ChunkRange{60, 10}));
    // The same begin with another size is another chunk too.
    const auto resized = schedule.step(60, 4);
    EXPECT_FALSE(resized.ready);
    EXPECT_TRUE(resized.discard_slot);
    EXPECT_EQ(*resized.next, (ChunkRange{64, 10}));
}

TEST(ChunkLookahead, ARepeatedChunkIsComputedAgain) {
    ChunkLookahead schedule(30, 10);
    schedule.step(0, 10);
    const auto again = schedule.step(0, 10);
    EXPECT_FALSE(again.ready);
    EXPECT_TRUE(again.discard_slot);
}

TEST(ChunkLookahead, OneChunkRunsLaunchNothingAhead) {
    ChunkLookahead schedule(7, 7);
    const auto only = schedule.step(0, 7);
    EXPECT_FALSE(only.ready);
    EXPECT_FALSE(only.next);
    ChunkLookahead empty(0, 1);
    EXPECT_FALSE(empty.step(0, 0).next);
}

TEST(ChunkLookahead, ResetForgetsTheChunkLaunchedAhead) {
    ChunkLookahead schedule(30, 10);
    schedule.step(0, 10);
    schedule.reset();
    const auto after = schedule.step(10, 10);
    EXPECT_FALSE(after.ready);
    EXPECT_FALSE(after.discard_slot);  // the failure path already waited for it
}

}  // namespace
