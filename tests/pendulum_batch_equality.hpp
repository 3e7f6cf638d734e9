// Bitwise comparison of two pendulum batches' outputs, for the tests that hold the CPU paths to
// the same bits (any thread count, chunking, SIMD lanes against the scalar body).
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "pendulum_batch.hpp"

namespace geomint_test {

template <class T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Every output column: state, energy error, Newton iterations, steps completed and status.
inline void expect_bitwise_equal(const geomint::PendulumBatch<double>& a, const geomint::PendulumBatch<double>& b) {
    EXPECT_TRUE(bitwise_equal(a.q, b.q));
    EXPECT_TRUE(bitwise_equal(a.p, b.p));
    EXPECT_TRUE(bitwise_equal(a.energy_error, b.energy_error));
    EXPECT_TRUE(bitwise_equal(a.newton_iterations, b.newton_iterations));
    EXPECT_TRUE(bitwise_equal(a.steps_completed, b.steps_completed));
    EXPECT_TRUE(bitwise_equal(a.status, b.status));
}

}  // namespace geomint_test
