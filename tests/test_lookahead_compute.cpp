// compute_with_lookahead (src/lookahead_compute.hpp) driven over a fake double-buffered runner on
// the CPU: the order of fills, enqueues and waits that makes chunk k + 1 run while chunk k is
// written, results that do not depend on the chunking, and the failure path.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "lookahead_compute.hpp"

namespace {

// Records every call; a slot "computes" by squaring its inputs when enqueued.
struct FakeRunner {
    static constexpr int kSlots = 2;
    std::vector<std::string> log;
    std::vector<long long> in[2], out[2];
    bool pending[2] = {false, false};
    int fail_wait_on = -1;

    void enqueue(int slot, std::size_t n) {
        if (pending[slot]) throw std::logic_error("enqueued twice");
        log.push_back("enqueue " + std::to_string(slot) + " " + std::to_string(n));
        out[slot].assign(n, 0);
        for (std::size_t i = 0; i < n; ++i) out[slot][i] = in[slot][i] * in[slot][i];
        pending[slot] = true;
    }
    float wait(int slot) {
        log.push_back("wait " + std::to_string(slot));
        pending[slot] = false;
        if (slot == fail_wait_on) throw std::runtime_error("CUDA error");
        return 0.0f;
    }
};

auto filler(FakeRunner& runner) {
    return [&runner](int slot, std::uint64_t begin, std::size_t n) {
        runner.in[slot].assign(n, 0);
        for (std::size_t i = 0; i < n; ++i) runner.in[slot][i] = static_cast<long long>(begin + i);
        runner.log.push_back("fill " + std::to_string(slot) + " " + std::to_string(begin));
    };
}

std::vector<long long> run_all(std::uint64_t size, std::size_t chunk) {
    FakeRunner runner;
    geomint::ChunkLookahead schedule(size, chunk);
    std::vector<long long> results;
    for (std::uint64_t begin = 0; begin < size; begin += chunk) {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, size - begin));
        const int slot = geomint::compute_with_lookahead(schedule, runner, begin, n, filler(runner)).slot;
        EXPECT_FALSE(runner.pending[slot]);
        results.insert(results.end(), runner.out[slot].begin(), runner.out[slot].begin() + n);
    }
    return results;
}

TEST(LookaheadCompute, TheNextChunkIsQueuedBeforeWaitingForThisOne) {
    FakeRunner runner;
    geomint::ChunkLookahead schedule(20, 10);
    EXPECT_EQ(geomint::compute_with_lookahead(schedule, runner, 0, 10, filler(runner)).slot, 0);
    EXPECT_EQ(runner.log,
              (std::vector<std::string>{"fill 0 0", "enqueue 0 10", "fill 1 10", "enqueue 1 10", "wait 0"}));
    EXPECT_TRUE(runner.pending[1]);  // still running while the pipeline writes chunk 0
    runner.log.clear();
    EXPECT_EQ(geomint::compute_with_lookahead(schedule, runner, 10, 10, filler(runner)).slot, 1);
    EXPECT_EQ(runner.log, (std::vector<std::string>{"wait 1"}));
}

TEST(LookaheadCompute, ResultsDoNotDependOnTheChunkSize) {
    const auto reference = run_all(23, 23);
    for (std::size_t chunk : {1, 2, 7, 22, 1000}) EXPECT_EQ(run_all(23, chunk), reference) << chunk;
}

TEST(LookaheadCompute, AFailureWaitsForBothSlotsAndForgetsTheLookahead) {
    FakeRunner runner;
    geomint::ChunkLookahead schedule(30, 10);
    runner.fail_wait_on = 0;
    EXPECT_THROW(geomint::compute_with_lookahead(schedule, runner, 0, 10, filler(runner)), std::runtime_error);
    EXPECT_FALSE(runner.pending[0]);
    EXPECT_FALSE(runner.pending[1]);  // the chunk launched ahead was waited for, not left running
    EXPECT_FALSE(schedule.pending());
}

}  // namespace
