// `geomint spin` end to end: CSV layout, energy kept, independence of threads and chunks,
// and one-line errors with no output file for bad input.
#include <gtest/gtest.h>

#include <filesystem>

#include <cctype>
#include <cmath>
#include <fstream>

#include "cli_runner.hpp"

namespace {

using geomint_test::read_csv;
using geomint_test::read_file;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

TEST(CliSpin, TopRowHasUnitSpinAndKeptEnergy) {
    ScratchFolder scratch;
    const std::string out = scratch.file("top.csv");
    const auto result = run_geomint(
        "spin --system top --scheme sia --s0 1,1,1 --steps 1000 --dt 0.1 --backend cpu "
        "--quiet --out " +
            out,
        scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    const auto rows = read_csv(out);
    ASSERT_EQ(rows.size(), 2u);
    const std::vector<std::string> header{
        "x1", "y1", "z1", "energy_error", "newton_iterations", "status", "steps_completed", "norm_error"};
    EXPECT_EQ(rows[0], header);
    const double x = std::stod(rows[1][0]), y = std::stod(rows[1][1]), z = std::stod(rows[1][2]);
    EXPECT_NEAR(std::sqrt(x * x + y * y + z * z), 1.0, 1e-13);
    EXPECT_LT(std::stod(rows[1][3]), 1e-13);
    EXPECT_EQ(rows[1][5], "ok");
    EXPECT_EQ(rows[1][6], "1000");
}

TEST(CliSpin, ChainWaveExactErrorShrinksWithTheStep) {
    ScratchFolder scratch;
    const std::string out = scratch.file("wave.csv");
    double errors[2];
    int k = 0;
    for (const char* steps : {"20", "40"}) {
        const auto result = run_geomint(std::string("spin --system chain --spins 8 --wave 1.0471975511965976 --scheme "
                                                    "avf --exact --t-end 1 --backend cpu --quiet --steps ") +
                                            steps + " --out " + out,
                                        scratch);
        ASSERT_EQ(result.exit_code, 0) << result.error_output;
        const auto rows = read_csv(out);
        ASSERT_EQ(rows.size(), 2u);
        ASSERT_EQ(rows[0].size(), 24u + 6u);
        EXPECT_EQ(rows[0].back(), "error");
        errors[k++] = std::stod(rows[1].back());
    }
    EXPECT_NEAR(std::log2(errors[0] / errors[1]), 2.0, 0.2);  // AVF is order 2 (math §2.4)
}

TEST(CliSpin, RandomChainsIndependentOfThreadsAndChunks) {
    ScratchFolder scratch;
    const std::string common =
        "spin --system chain --spins 5 --random 23 --scheme comp2 --steps 50 --dt 0.05 --backend cpu --quiet";
    ASSERT_EQ(run_geomint(common + " --seed 7 --threads 1 --out " + scratch.file("a.csv"), scratch).exit_code, 0);
    ASSERT_EQ(
        run_geomint(common + " --seed 7 --threads 3 --chunk-size 4 --out " + scratch.file("b.csv"), scratch).exit_code,
        0);
    const std::string a = read_file(scratch.file("a.csv"));
    EXPECT_EQ(a, read_file(scratch.file("b.csv")));
    EXPECT_EQ(read_csv(scratch.file("a.csv")).size(), 24u);
    ASSERT_EQ(run_geomint(common + " --seed 8 --out " + scratch.file("c.csv"), scratch).exit_code, 0);
    EXPECT_NE(a, read_file(scratch.file("c.csv")));
}

TEST(CliSpin, InitFileAndAnisotropicChain) {
    ScratchFolder scratch;
    {
        std::ofstream init(scratch.file("init.csv"));
        init << "# two chains of three spins\n1,0,0,0,2,0,0,0,3\n0,0,1,1,1,0,0,1,1\n";
    }
    const std::string out = scratch.file("out.csv");
    const auto result =
        run_geomint("spin --system anisotropic --init " + scratch.file("init.csv") +
                        " --field 0,0,0.3 --anisotropy 0.5 --scheme ia --steps 200 --dt 0.05 --backend cpu --quiet "
                        "--out " +
                        out,
                    scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    const auto rows = read_csv(out);
    ASSERT_EQ(rows.size(), 3u);
    for (int r = 1; r <= 2; ++r) {
        EXPECT_EQ(rows[r][11], "ok");
        EXPECT_LT(std::stod(rows[r][9]), 1e-12);  // energy_error
    }
}

// Seeds are 64-bit integers, all of them: 2^53 and 2^53 + 1 (equal as doubles) give different
// ensembles, and the largest seed is accepted.
TEST(CliSpin, SeedsAreFull64BitIntegers) {
    ScratchFolder scratch;
    const std::string common = "spin --system chain --spins 3 --random 2 --steps 1 --dt 0.1 --backend cpu --quiet";
    ASSERT_EQ(run_geomint(common + " --seed 9007199254740992 --out " + scratch.file("a.csv"), scratch).exit_code, 0);
    ASSERT_EQ(run_geomint(common + " --seed 9007199254740993 --out " + scratch.file("b.csv"), scratch).exit_code, 0);
    EXPECT_NE(read_file(scratch.file("a.csv")), read_file(scratch.file("b.csv")));
    EXPECT_EQ(run_geomint(common + " --seed 18446744073709551615 --out " + scratch.file("c.csv"), scratch).exit_code,
              0);
}

// A spin of huge but finite components is normalised, not called zero or infinite.
TEST(CliSpin, HugeSpinComponentsAreNormalised) {
    ScratchFolder scratch;
    const std::string out = scratch.file("a.csv");
    const auto r = run_geomint(
        "spin --system top --s0 1e300,1e300,0 --steps 1 --dt 1e-9 --backend cpu --quiet --out " + out, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    const auto rows = read_csv(out);
    EXPECT_NEAR(std::stod(rows[1][0]), std::sqrt(0.5), 1e-8);
    EXPECT_NEAR(std::stod(rows[1][1]), std::sqrt(0.5), 1e-8);
}

// The output may not be the input under another name: refused before anything is written, the
// input intact.
TEST(CliSpin, OutputOntoTheInitFileIsRefused) {
    ScratchFolder scratch;
    const std::string in = scratch.file("in.csv");
    {
        std::ofstream init(in);
        init << "1,0,0,0,1,0,0,0,1\n";
    }
    const std::string before = read_file(in);
    for (const std::string& out : {in, scratch.file("./in.csv"), scratch.file("sub/../in.csv")}) {
        std::filesystem::create_directories(scratch.file("sub"));
        const auto r =
            run_geomint("spin --system chain --init " + in + " --steps 2 --dt 0.1 --backend cpu --out " + out, scratch);
        EXPECT_EQ(r.exit_code, 2) << out;
        EXPECT_NE(r.error_output.find("--out"), std::string::npos) << r.error_output;
        EXPECT_EQ(read_file(in), before);
    }
}

// A binary --init file: the message is one printable line (bytes escaped), naming the line.
TEST(CliSpin, BinaryInitFileGivesOnePrintableLine) {
    ScratchFolder scratch;
    const std::string in = scratch.file("bin.csv");
    {
        std::ofstream init(in, std::ios::binary);
        init << std::string("\x01\x1b[2J\x00\xff,1,2\n", 11);
    }
    const auto r = run_geomint(
        "spin --system chain --init " + in + " --steps 1 --dt 0.1 --backend cpu --out " + scratch.file("o.csv"),
        scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(std::count(r.error_output.begin(), r.error_output.end(), '\n'), 1) << r.error_output;
    EXPECT_NE(r.error_output.find("--init line 1"), std::string::npos) << r.error_output;
    EXPECT_NE(r.error_output.find("\\x1b"), std::string::npos) << r.error_output;
    for (const char c : r.error_output) EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << int(c);
}

TEST(CliSpin, TooLargeStepIsReportedPerTrajectory) {
    ScratchFolder scratch;
    const std::string out = scratch.file("out.csv");
    const auto result = run_geomint(
        "spin --system chain --spins 6 --random 3 --scheme avf --steps 5 --dt 1e6 "
        "--backend cpu --quiet --out " +
            out,
        scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    const auto rows = read_csv(out);
    ASSERT_EQ(rows.size(), 4u);
    for (int r = 1; r <= 3; ++r) EXPECT_NE(rows[r][20], "ok") << "row " << r;
}

struct BadSpinInput {
    const char* arguments;
    const char* option;
    friend void PrintTo(const BadSpinInput& b, std::ostream* os) {
        *os << "'" << b.arguments << "' names " << b.option;
    }
};

class CliSpinBadInput : public ::testing::TestWithParam<BadSpinInput> {};

TEST_P(CliSpinBadInput, OneLineErrorNonZeroExitNoFile) {
    ScratchFolder scratch;
    {
        std::ofstream init(scratch.file("short.csv"));
        init << "1,0,0,0,1,0,0,0,1\n1,0,0,0,1\n";
    }
    std::string arguments = GetParam().arguments;
    const std::size_t at = arguments.find("SHORT");
    if (at != std::string::npos) arguments.replace(at, 5, scratch.file("short.csv"));
    const std::string out = scratch.file("out.csv");
    const auto result = run_geomint("spin --steps 10 --dt 0.1 --backend cpu " + arguments + " --out " + out, scratch);
    EXPECT_NE(result.exit_code, 0);
    EXPECT_EQ(std::count(result.error_output.begin(), result.error_output.end(), '\n'), 1) << result.error_output;
    EXPECT_NE(result.error_output.find(GetParam().option), std::string::npos) << result.error_output;
    EXPECT_FALSE(std::ifstream(out).good()) << "an output file was left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Options, CliSpinBadInput,
    ::testing::Values(
        BadSpinInput{"--system chain --spins 2", "--spins"}, BadSpinInput{"--system chain --spins 0", "--spins"},
        BadSpinInput{"--system top --s0 0,0,0", "--s0"}, BadSpinInput{"--system top --s0 1,nan,0", "--s0"},
        BadSpinInput{"--system top --s0 1,2", "--s0"}, BadSpinInput{"--system chain --init SHORT", "--init line 2"},
        BadSpinInput{"--system chain --init /no/such/file.csv", "--init"},
        BadSpinInput{"--system top --scheme mmp", "--scheme"}, BadSpinInput{"--system top --scheme rk4", "--scheme"},
        BadSpinInput{"--system ring", "--system"}, BadSpinInput{"--system top --inertia 1,0,2", "--inertia"},
        BadSpinInput{"--system top --exact", "--exact"},
        BadSpinInput{"--system chain --spins 4 --random 0", "--random"},
        BadSpinInput{"--system chain --spins 4 --random 3 --seed -1", "--seed"},
        BadSpinInput{"--system chain --spins 4 --wave 1 --random 3", "--s0"},
        BadSpinInput{"--system top --spins 4", "--spins"},
        BadSpinInput{"--system chain --spins 4 --newton-max-iterations 0", "--newton-max-iterations"},
        // Parameters declared by one system are refused for the others.
        BadSpinInput{"--system top --field 0,0,1", "--field"},
        BadSpinInput{"--system chain --spins 4 --anisotropy 0.5", "--anisotropy"},
        BadSpinInput{"--system chain --spins 4 --inertia 1,2,3", "--inertia"},
        BadSpinInput{"--system anisotropic --spins 4 --field 1,2", "--field"},
        BadSpinInput{"--system anisotropic --spins 4 --exchange x", "--exchange"},
        // Float runs (tests/test_cli_spin_float.cpp) refuse what float cannot hold.
        BadSpinInput{"--system top --precision float --inertia 1,2,1e39", "--inertia"},
        BadSpinInput{"--system top --precision float --inertia 1e-50,2,4", "--inertia"},
        BadSpinInput{"--system anisotropic --spins 4 --precision float --field 0,0,-1e40", "--field"},
        BadSpinInput{"--system top --precision half", "--precision"}),
    [](const ::testing::TestParamInfo<BadSpinInput>& info) {
        std::string name = std::to_string(info.index) + "_";
        for (const char* c = info.param.option; *c != '\0'; ++c)
            if (std::isalnum(static_cast<unsigned char>(*c))) name += *c;
        return name;
    });

}  // namespace
