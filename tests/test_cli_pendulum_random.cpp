// `geomint pendulum --random COUNT --seed S`: each row's parameters are fixed or uniform on
// [LOW, HIGH), keyed by (seed, row, parameter) only, so chunking and threads never change them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cli_runner.hpp"
#include "geomint/counter_random.hpp"

namespace {

using geomint_test::read_csv;
using geomint_test::read_file;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

const std::string kRandom =
    "pendulum --backend cpu --random 50 --q0 -1:1 --p0 0.25 --mass 1:3 --omega 2:4 --steps 20 --dt 0.02 --quiet";

TEST(CliPendulumRandom, RowsAreDrawnFromTheirRanges) {
    ScratchFolder scratch;
    const std::string out = scratch.file("r.csv");
    const auto r = run_geomint(kRandom + " --seed 9 --out " + out, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    const auto rows = read_csv(out);
    ASSERT_EQ(rows.size(), 51u);
    EXPECT_EQ(rows[0][0], "q0");  // the same columns as a grid run
    double lowest_q0 = 1, highest_q0 = -1;
    for (std::size_t row = 0; row < 50; ++row) {
        const auto& cells = rows[row + 1];
        const double q0 = std::stod(cells[0]), p0 = std::stod(cells[1]), mass = std::stod(cells[2]),
                     omega = std::stod(cells[3]);
        // The documented key: axis 0 mass, 1 omega, 2 q0, 3 p0; value LOW + (HIGH - LOW) u.
        const auto draw = [&](std::uint64_t axis, double low, double high) {
            return low + (high - low) * geomint::unit_interval(geomint::counter_hash(9, row, axis, 0));
        };
        EXPECT_EQ(mass, draw(0, 1, 3));
        EXPECT_EQ(omega, draw(1, 2, 4));
        EXPECT_EQ(q0, draw(2, -1, 1));
        EXPECT_EQ(p0, 0.25);
        EXPECT_TRUE(-1 <= q0 && q0 < 1 && 1 <= mass && mass < 3 && 2 <= omega && omega < 4);
        lowest_q0 = std::min(lowest_q0, q0);
        highest_q0 = std::max(highest_q0, q0);
        EXPECT_EQ(cells[8], "ok");
    }
    EXPECT_LT(lowest_q0, -0.5);  // 50 draws spread over the range
    EXPECT_GT(highest_q0, 0.5);
}

TEST(CliPendulumRandom, IndependentOfThreadsAndChunksAndKeyedBySeed) {
    ScratchFolder scratch;
    ASSERT_EQ(run_geomint(kRandom + " --threads 1 --out " + scratch.file("a.csv"), scratch).exit_code, 0);
    ASSERT_EQ(run_geomint(kRandom + " --threads 2 --chunk-size 7 --out " + scratch.file("b.csv"), scratch).exit_code,
              0);
    ASSERT_EQ(run_geomint(kRandom + " --seed 0 --chunk-size 1 --out " + scratch.file("c.csv"), scratch).exit_code, 0);
    ASSERT_EQ(run_geomint(kRandom + " --seed 1 --out " + scratch.file("d.csv"), scratch).exit_code, 0);
    const std::string a = read_file(scratch.file("a.csv"));
    EXPECT_EQ(a, read_file(scratch.file("b.csv")));
    EXPECT_EQ(a, read_file(scratch.file("c.csv")));  // the default seed is 0
    EXPECT_NE(a, read_file(scratch.file("d.csv")));
    // A larger COUNT keeps the first rows: a row depends on its index only.
    ASSERT_EQ(run_geomint("pendulum --backend cpu --random 80 --q0 -1:1 --p0 0.25 --mass 1:3 --omega 2:4 --steps 20 "
                          "--dt 0.02 --quiet --out " +
                              scratch.file("e.csv"),
                          scratch)
                  .exit_code,
              0);
    EXPECT_EQ(read_file(scratch.file("e.csv")).rfind(a, 0), 0u);
}

TEST(CliPendulumRandom, BadCombinationsAreRefused) {
    ScratchFolder scratch;
    const std::string base = "pendulum --backend cpu --steps 10 --dt 0.1 --out " + scratch.file("x.csv");
    const std::vector<std::pair<std::string, std::string>> cases{
        {" --random 5 --q0 0:1:3", "--q0: with --random, give VALUE or LOW:HIGH, not a START:STOP:COUNT grid"},
        {" --seed 3", "--seed: applies to --random only"},
        {" --random 5 --mass 2:1", "--mass: LOW:HIGH needs LOW < HIGH"},
        {" --random 5 --omega -1:1", "--omega: values must be positive"},
        {" --random 5 --q0 -1e308:1e308", "--q0: HIGH - LOW overflows"},
        {" --random 0", "--random: "},
        {" --random 5 --seed -1", "--seed: "},
        {" --random 5 --p0 1:x", "--p0: "}};
    for (const auto& [arguments, message] : cases) {
        const auto r = run_geomint(base + arguments, scratch);
        EXPECT_EQ(r.exit_code, 2) << arguments;
        EXPECT_EQ(r.error_output.rfind("geomint: error: " + message, 0), 0u) << arguments << ": " << r.error_output;
        EXPECT_FALSE(std::filesystem::exists(scratch.file("x.csv")));
    }
}

}  // namespace
