// `geomint spin --precision float` end to end: every value in the CSV is a float, the invariants
// are kept to float's bounds, the bytes do not depend on threads or chunks, and a sweep file with
// precision = "float" runs to the same bytes as the command line.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using geomint_test::read_csv;
using geomint_test::read_file;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

bool is_float(const std::string& text) {
    const double value = std::stod(text);
    return static_cast<double>(static_cast<float>(value)) == value;
}

// 10^3 steps of the top and of a random chain: the spins and the errors are floats (the CSV's
// %.17g of a float reads back to it exactly), and energy and unit length are kept to float's
// budget. The bounds are the double CLI test's 1e-13 (about 450 ulps of double) taken as 450
// ulps of float (tests/spin/test_spin_float.cpp derives them the same way): 5.4e-5.
TEST(CliSpinFloat, ValuesAreFloatsAndInvariantsAreKept) {
    const double bound = 1e-13 * std::numeric_limits<float>::epsilon() / std::numeric_limits<double>::epsilon();
    ScratchFolder scratch;
    for (const std::string system : {"--system top --random 5", "--system chain --spins 6 --random 5"}) {
        SCOPED_TRACE(system);
        const std::string out = scratch.file("float.csv");
        const auto r = run_geomint("spin " + system +
                                       " --scheme sia --steps 1000 --dt 0.1 --precision float "
                                       "--backend cpu --quiet --out " +
                                       out,
                                   scratch);
        ASSERT_EQ(r.exit_code, 0) << r.error_output;
        const auto rows = read_csv(out);
        ASSERT_EQ(rows.size(), 6u);
        const std::size_t spins_end = rows[0].size() - 5;  // x1 .. zd, then the five outcome columns
        for (std::size_t row = 1; row < rows.size(); ++row) {
            for (std::size_t c = 0; c < spins_end; ++c) EXPECT_TRUE(is_float(rows[row][c])) << rows[row][c];
            EXPECT_TRUE(is_float(rows[row][spins_end])) << "energy_error " << rows[row][spins_end];
            EXPECT_TRUE(is_float(rows[row].back())) << "norm_error " << rows[row].back();
            EXPECT_LE(std::stod(rows[row][spins_end]), bound);
            EXPECT_LE(std::stod(rows[row].back()), bound);
            EXPECT_EQ(rows[row][spins_end + 2], "ok");
            EXPECT_EQ(rows[row][spins_end + 3], "1000");
        }
    }
}

// The float run is not the double run printed short: it rounds every step to float.
TEST(CliSpinFloat, DiffersFromDoubleByFloatRoundOffOnly) {
    ScratchFolder scratch;
    const std::string common = "spin --system top --scheme avf --steps 100 --dt 0.1 --backend cpu --quiet --out ";
    ASSERT_EQ(run_geomint(common + scratch.file("d.csv"), scratch).exit_code, 0);
    ASSERT_EQ(run_geomint(common + scratch.file("f.csv") + " --precision float", scratch).exit_code, 0);
    const auto d = read_csv(scratch.file("d.csv")), f = read_csv(scratch.file("f.csv"));
    ASSERT_EQ(d.size(), 2u);
    ASSERT_EQ(f.size(), 2u);
    for (int c = 0; c < 3; ++c) {
        const double gap = std::fabs(std::stod(d[1][c]) - std::stod(f[1][c]));
        EXPECT_GT(gap, 0.0) << "component " << c;
        // 100 steps, each rounding to float (~1 ulp) and solving to 8 ulps: well under 1e3 ulps.
        EXPECT_LT(gap, 1e3 * std::numeric_limits<float>::epsilon()) << "component " << c;
    }
}

TEST(CliSpinFloat, RandomChainsIndependentOfThreadsAndChunks) {
    ScratchFolder scratch;
    const std::string common =
        "spin --system chain --spins 5 --random 23 --seed 7 --scheme comp2 --steps 50 --dt "
        "0.05 --backend cpu --precision float --quiet";
    ASSERT_EQ(run_geomint(common + " --threads 1 --out " + scratch.file("a.csv"), scratch).exit_code, 0);
    ASSERT_EQ(run_geomint(common + " --threads 3 --chunk-size 4 --out " + scratch.file("b.csv"), scratch).exit_code, 0);
    const std::string a = read_file(scratch.file("a.csv"));
    EXPECT_EQ(read_csv(scratch.file("a.csv")).size(), 24u);
    EXPECT_EQ(a, read_file(scratch.file("b.csv")));
}

// --print-config writes precision = "float"; `geomint run` of that file gives the same bytes.
TEST(CliSpinFloat, SweepFileRunsToTheSameBytes) {
    ScratchFolder scratch;
    const std::string arguments =
        "spin --backend cpu --system chain --spins 6 --scheme mmp --random 4 --steps 30 "
        "--dt 0.05 --precision float --quiet";
    const std::string a = scratch.file("a.csv"), b = scratch.file("b.csv"), config = scratch.file("run.toml");
    ASSERT_EQ(run_geomint(arguments + " --out " + a, scratch).exit_code, 0);
    const auto printed = run_geomint(arguments + " --print-config --out " + b + " >" + config, scratch);
    ASSERT_EQ(printed.exit_code, 0) << printed.error_output;
    const std::string text = read_file(config);
    EXPECT_NE(text.find("precision = \"float\"\n"), std::string::npos) << text;
    const auto from_file = run_geomint("run " + config, scratch);
    ASSERT_EQ(from_file.exit_code, 0) << from_file.error_output;
    EXPECT_EQ(read_file(b), read_file(a));
}

}  // namespace
