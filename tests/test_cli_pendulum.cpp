// `geomint pendulum` end to end: the CSV it writes matches the library, is independent of
// threads and chunking, and bad input gives one clear line, a non-zero exit and no file.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>

#include "cli_runner.hpp"
#include "geomint/pendulum/integrate_trajectory.hpp"
#include "geomint/pendulum/simpson.hpp"
#include "pendulum_exact.hpp"

namespace {

using geomint_test::read_csv;
using geomint_test::read_file;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

TEST(CliPendulum, WritesRowsThatMatchTheLibrary) {
    ScratchFolder scratch;
    const std::string out = scratch.file("run.csv");
    const auto result = run_geomint(
        "pendulum --scheme simpson --backend cpu --mass 1:2:2 --omega 3 --q0 0.5:2.5:3 "
        "--p0 -1:1:2 --steps 200 --t-end 2 --exact --quiet --out " +
            out,
        scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    const auto rows = read_csv(out);
    ASSERT_EQ(rows.size(), 1u + 2 * 3 * 2);
    const std::vector<std::string> header{"q0",
                                          "p0",
                                          "mass",
                                          "omega",
                                          "q",
                                          "p",
                                          "energy_error",
                                          "newton_iterations",
                                          "status",
                                          "steps_completed",
                                          "q_exact",
                                          "p_exact"};
    EXPECT_EQ(rows[0], header);
    // Row order: mass, omega, q0, p0 with p0 fastest.
    EXPECT_EQ(rows[1][0], "0.5");
    EXPECT_EQ(rows[2][1], "1");
    EXPECT_EQ(rows[3][0], "1.5");
    EXPECT_EQ(rows[7][2], "2");
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const double q0 = std::stod(rows[r][0]), p0 = std::stod(rows[r][1]);
        const double mass = std::stod(rows[r][2]), omega = std::stod(rows[r][3]);
        const geomint::PendulumPotential<double> potential{mass, omega};
        const auto expected = geomint::integrate_trajectory(geomint::Simpson{}, potential, q0, p0, 0.01, 200,
                                                            geomint::NewtonOptions<double>{});
        EXPECT_EQ(std::stod(rows[r][4]), expected.q);  // 17 digits: the printed value round-trips
        EXPECT_EQ(std::stod(rows[r][5]), expected.p);
        EXPECT_EQ(std::stod(rows[r][6]), expected.max_energy_error);
        EXPECT_EQ(std::stoll(rows[r][7]), expected.newton_iterations);
        EXPECT_EQ(rows[r][8], "ok");
        const auto exact = geomint::pendulum_exact(mass, omega, q0, p0, 2.0);
        EXPECT_EQ(std::stod(rows[r][10]), exact.q);
        EXPECT_NEAR(std::stod(rows[r][4]), exact.q, 1e-5);
    }
}

TEST(CliPendulum, OutputIndependentOfThreadsAndChunks) {
    ScratchFolder scratch;
    const std::string common = "pendulum --backend cpu --q0 -3:3:37 --p0 -2:2:5 --steps 100 --dt 0.02 --quiet";
    ASSERT_EQ(run_geomint(common + " --threads 1 --out " + scratch.file("a.csv"), scratch).exit_code, 0);
    ASSERT_EQ(run_geomint(common + " --threads 3 --chunk-size 17 --out " + scratch.file("b.csv"), scratch).exit_code,
              0);
    ASSERT_EQ(run_geomint(common + " --threads 2 --chunk-size 1000 --out " + scratch.file("c.csv"), scratch).exit_code,
              0);
    const std::string a = read_file(scratch.file("a.csv"));
    EXPECT_EQ(a, read_file(scratch.file("b.csv")));
    EXPECT_EQ(a, read_file(scratch.file("c.csv")));
    EXPECT_EQ(read_csv(scratch.file("a.csv")).size(), 1u + 37 * 5);
}

TEST(CliPendulum, FailedTrajectoryIsReportedInItsRow) {
    ScratchFolder scratch;
    const std::string out = scratch.file("run.csv");
    const auto result =
        run_geomint("pendulum --backend cpu --omega 1:1e200:2 --steps 10 --dt 0.1 --quiet --out " + out, scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    const auto rows = read_csv(out);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[1][8], "ok");
    EXPECT_EQ(rows[2][8], "non_finite");
    const auto limited = run_geomint(
        "pendulum --backend cpu --steps 10 --dt 0.1 --newton-max-iterations 1 --quiet --out " + out, scratch);
    ASSERT_EQ(limited.exit_code, 0);
    EXPECT_EQ(read_csv(out)[1][8], "newton_max_iterations");
}

TEST(CliPendulum, DuffingAndFloatRun) {
    ScratchFolder scratch;
    const std::string out = scratch.file("run.csv");
    ASSERT_EQ(run_geomint("pendulum --backend cpu --potential duffing --beta 0.5 --precision float --steps 100 "
                          "--dt 0.01 --quiet --out " +
                              out,
                          scratch)
                  .exit_code,
              0);
    const auto rows = read_csv(out);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1][8], "ok");
    EXPECT_LT(std::stod(rows[1][6]), 1e-3);
}

struct BadInput {
    const char* arguments;
    const char* option;  // the option the one-line message must name
    friend void PrintTo(const BadInput& b, std::ostream* os) { *os << "'" << b.arguments << "' names " << b.option; }
};

// --dt replaces the test's own --dt: a float step that underflows to zero is refused.
TEST(CliPendulum, FloatStepThatUnderflowsIsRefused) {
    ScratchFolder scratch;
    const auto r = run_geomint(
        "pendulum --precision float --steps 10 --dt 1e-50 --backend cpu --out " + scratch.file("x.csv"), scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.error_output.find("--dt: 1e-50 underflows to 0"), std::string::npos) << r.error_output;
    EXPECT_EQ(scratch.entries(), 0u);
}

TEST(CliPendulum, UnknownCommandIsNamed) {
    ScratchFolder scratch;
    const auto r = run_geomint("pendulm --steps 1 --dt 0.1", scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.error_output,
              "geomint: error: unknown command 'pendulm' (valid: pendulum, spin, run, portrait, list; see --help)\n");
}

// Ends of opposite sign near the largest double: the middle value is 0, not inf - inf.
TEST(CliPendulum, RangeNearTheLargestDoubleDoesNotOverflow) {
    ScratchFolder scratch;
    const std::string out = scratch.file("x.csv");
    const auto r =
        run_geomint("pendulum --q0 -1e308:1e308:3 --steps 1 --dt 0.1 --backend cpu --quiet --out " + out, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    const auto rows = read_csv(out);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[1][0], "-1e+308");
    EXPECT_EQ(rows[2][0], "0");
    EXPECT_EQ(rows[3][0], "1e+308");
}

// Past h w = 2 the Newmark equation x + h^2/4 w^2 sin x = rhs can have several roots (math §1.1):
// the run warns up front, and rows whose Newton derivative changed sign end with root_not_unique
// instead of a spurious ok. Below the bound neither happens.
TEST(CliPendulum, StepPastTheUniqueRootBoundWarnsAndFlagsRows) {
    ScratchFolder scratch;
    const std::string out = scratch.file("x.csv");
    const auto large =
        run_geomint("pendulum --q0 0:3:7 --p0 0:3:3 --dt 3 --steps 20 --backend cpu --quiet --out " + out, scratch);
    ASSERT_EQ(large.exit_code, 0) << large.error_output;
    EXPECT_NE(large.error_output.find("geomint: warning: --dt: h = 3 exceeds 2,"), std::string::npos)
        << large.error_output;
    int flagged = 0;
    for (const auto& row : read_csv(out)) flagged += row[8] == "root_not_unique";
    EXPECT_GT(flagged, 0);
    const auto small =
        run_geomint("pendulum --q0 0:3:7 --p0 0:3:3 --dt 1.9 --steps 20 --backend cpu --quiet --out " + out, scratch);
    ASSERT_EQ(small.exit_code, 0) << small.error_output;
    EXPECT_EQ(small.error_output, "");
    for (const auto& row : read_csv(out)) EXPECT_NE(row[8], "root_not_unique");
    // At the bound itself (h w = 2, up to rounding of 0.05 * 40) the root is still unique: no warning.
    const auto at_bound =
        run_geomint("pendulum --omega 1:40:5 --q0 3 --dt 0.05 --steps 20 --backend cpu --quiet --out " + out, scratch);
    ASSERT_EQ(at_bound.exit_code, 0) << at_bound.error_output;
    EXPECT_EQ(at_bound.error_output, "");
    // Simpson's bound is h w < sqrt 24 = 4.899.
    const auto simpson =
        run_geomint("pendulum --scheme simpson --dt 4.8 --steps 2 --backend cpu --quiet --out " + out, scratch);
    EXPECT_EQ(simpson.error_output, "");
}

TEST(CliPendulum, AngleWithoutSignificantDigitsIsFlagged) {
    ScratchFolder scratch;
    const auto r = run_geomint(
        "pendulum --q0 1e20 --exact --steps 3 --dt 0.1 --backend cpu --quiet --out " + scratch.file("x.csv"), scratch);
    ASSERT_EQ(r.exit_code, 0);
    EXPECT_NE(r.error_output.find("geomint: warning: --q0: |q0| up to 1e+20 leaves fewer than 3 significant digits"),
              std::string::npos)
        << r.error_output;
}

class CliPendulumBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliPendulumBadInput, OneLineErrorNonZeroExitNoFile) {
    ScratchFolder scratch;
    const std::string out = scratch.file("out.csv");
    const auto result = run_geomint(
        std::string("pendulum --steps 10 --dt 0.1 --backend cpu ") + GetParam().arguments + " --out " + out, scratch);
    EXPECT_NE(result.exit_code, 0);
    EXPECT_EQ(std::count(result.error_output.begin(), result.error_output.end(), '\n'), 1) << result.error_output;
    EXPECT_NE(result.error_output.find(GetParam().option), std::string::npos) << result.error_output;
    EXPECT_EQ(scratch.entries(), 0u) << "an output file was left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Options, CliPendulumBadInput,
    ::testing::Values(
        BadInput{"--q0 1:2", "--q0"}, BadInput{"--q0 0:1:0", "--q0"}, BadInput{"--p0 abc", "--p0"},
        BadInput{"--dt 0", "--dt"}, BadInput{"--dt -1", "--dt"}, BadInput{"--steps -5", "--steps"},
        BadInput{"--steps 0", "--steps"}, BadInput{"--mass 0", "--mass"}, BadInput{"--mass -1:1:3", "--mass"},
        BadInput{"--omega nan", "--omega"}, BadInput{"--q0 inf", "--q0"}, BadInput{"--p0 1e999", "--p0"},
        BadInput{"--scheme euler", "--scheme"}, BadInput{"--potential morse", "--potential"},
        BadInput{"--backend opencl", "--backend"}, BadInput{"--t-end 1", "--dt"}, BadInput{"--threads -2", "--threads"},
        BadInput{"--precision half", "--precision"}, BadInput{"--potential duffing --exact", "--exact"},
        BadInput{"--chunk-size 0", "--chunk-size"},
        BadInput{"--q0 0:1:100000000 --p0 0:1:100000000 --mass 1:2:100000000 --omega 1:2:100000000", "--q0"},
        // A potential's declared parameter is refused for a potential that does not take it.
        BadInput{"--beta 2", "--beta"}, BadInput{"--potential duffing --beta 1,2", "--beta"},
        BadInput{"--newton-max-iterations 2000000", "--newton-max-iterations"},
        // Integers are decimal digits only, for --threads as for every other option.
        BadInput{"--threads ''", "--threads"}, BadInput{"--threads ' 2'", "--threads"},
        BadInput{"--threads 0x2", "--threads"}, BadInput{"--threads abc", "--threads"},
        BadInput{"--threads 100000", "--threads"}, BadInput{"--threads 2147483647", "--threads"},
        BadInput{"--steps 1e3", "--steps"}, BadInput{"--steps ' 5'", "--steps"},
        // Values that do not survive conversion to float are refused, naming the option.
        BadInput{"--precision float --q0 1e39", "--q0"}, BadInput{"--precision float --p0 -1e39", "--p0"},
        BadInput{"--precision float --mass 1e-50", "--mass"}, BadInput{"--precision float --omega 1:1e40:3", "--omega"},
        BadInput{"--precision float --potential duffing --beta 1e39", "--beta"}),
    [](const ::testing::TestParamInfo<BadInput>& info) {
        std::string name = std::to_string(info.index) + "_";
        for (const char* c = info.param.option; *c != '\0'; ++c)
            if (std::isalnum(static_cast<unsigned char>(*c))) name += *c;
        return name;
    });

TEST(CliPendulum, UnwritableOutputIsAnError) {
    ScratchFolder scratch;
    const auto result =
        run_geomint("pendulum --steps 10 --dt 0.1 --backend cpu --out " + scratch.file("no/such/x.csv"), scratch);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.error_output.find("--out"), std::string::npos);
    EXPECT_EQ(scratch.entries(), 0u);
}

TEST(CliPendulum, CudaBackendWithoutDeviceIsAnError) {
    ScratchFolder scratch;
    const std::string out = scratch.file("out.csv");
    const auto result = run_geomint("pendulum --steps 10 --dt 0.1 --backend cuda --quiet --out " + out, scratch);
    if (result.exit_code == 0) GTEST_SKIP() << "a CUDA device is present: the error path cannot be exercised";
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.error_output.find("--backend"), std::string::npos) << result.error_output;
    EXPECT_EQ(scratch.entries(), 0u);
}

}  // namespace
