// `geomint pendulum --scheme verlet|rkn4` end to end: the registry's explicit schemes reach the CLI
// (list, --help), write rows equal to the library's with 0 Newton iterations, and get no
// root-uniqueness warning, having no equation to solve (math §1.4, §1.5).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cli_runner.hpp"
#include "geomint/pendulum/blanes_moan_rkn4.hpp"
#include "geomint/pendulum/integrate_trajectory.hpp"
#include "geomint/pendulum/stormer_verlet.hpp"

namespace {

using geomint_test::read_csv;
using geomint_test::read_file;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

TEST(CliPendulumExplicit, ListAndHelpNameBothSchemes) {
    ScratchFolder scratch;
    const std::string out = scratch.file("list.txt");
    ASSERT_EQ(run_geomint("list >" + out, scratch).exit_code, 0);
    const std::string list = read_file(out);
    EXPECT_NE(list.find("verlet"), std::string::npos) << list;
    EXPECT_NE(list.find("rkn4"), std::string::npos) << list;
    ASSERT_EQ(run_geomint("pendulum --help >" + out, scratch).exit_code, 0);
    const std::string help = read_file(out);
    EXPECT_NE(help.find("newmark, simpson, verlet, rkn4"), std::string::npos) << help;
    EXPECT_NE(help.find("Blanes-Moan"), std::string::npos) << help;
}

template <class Scheme>
void expect_rows_match_library(const ScratchFolder& scratch) {
    const std::string out = scratch.file(std::string(Scheme::name) + ".csv");
    const auto result = run_geomint(std::string("pendulum --scheme ") + Scheme::name +
                                        " --backend cpu --omega 3 --q0 0.5:2.5:3 --p0 -1:1:2 --steps 200 --t-end 2 "
                                        "--quiet --out " +
                                        out,
                                    scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    EXPECT_EQ(result.error_output, "");
    const auto rows = read_csv(out);
    ASSERT_EQ(rows.size(), 1u + 3 * 2);
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const double q0 = std::stod(rows[r][0]), p0 = std::stod(rows[r][1]);
        const geomint::PendulumPotential<double> potential{1.0, 3.0};
        const auto expected =
            geomint::integrate_trajectory(Scheme{}, potential, q0, p0, 0.01, 200, geomint::NewtonOptions<double>{});
        EXPECT_EQ(std::stod(rows[r][4]), expected.q);  // 17 digits round-trip: bitwise
        EXPECT_EQ(std::stod(rows[r][5]), expected.p);
        EXPECT_EQ(rows[r][7], "0");  // newton_iterations
        EXPECT_EQ(rows[r][8], "ok");
        EXPECT_EQ(rows[r][9], "200");
    }
}

TEST(CliPendulumExplicit, RowsEqualTheLibrarysWithNoNewtonWork) {
    ScratchFolder scratch;
    expect_rows_match_library<geomint::StormerVerlet>(scratch);
    expect_rows_match_library<geomint::BlanesMoanRkn4>(scratch);
}

// Newmark warns for --dt 3 (h w > 2) and for a softening Duffing spring; an explicit scheme has no
// root to lose and runs silently. A softening spring released past its barrier runs away: those
// rows end non_finite with their last finite state, the others are ok.
TEST(CliPendulumExplicit, NoRootWarningAndRunawayRowsAreNonFinite) {
    ScratchFolder scratch;
    const std::string out = scratch.file("x.csv");
    for (const char* scheme : {"verlet", "rkn4"}) {
        const auto large = run_geomint(std::string("pendulum --scheme ") + scheme +
                                           " --q0 0:3:7 --dt 3 --steps 20 --backend cpu --quiet --out " + out,
                                       scratch);
        ASSERT_EQ(large.exit_code, 0) << large.error_output;
        EXPECT_EQ(large.error_output, "");
        const auto duffing = run_geomint(std::string("pendulum --scheme ") + scheme +
                                             " --potential duffing --beta -1 --q0 0.5:2:2 --dt 0.01 "
                                             "--steps 100000 --backend cpu --quiet --out " +
                                             out,
                                         scratch);
        ASSERT_EQ(duffing.exit_code, 0) << duffing.error_output;
        EXPECT_EQ(duffing.error_output, "");
        const auto rows = read_csv(out);
        ASSERT_EQ(rows.size(), 3u);
        EXPECT_EQ(rows[1][8], "ok");  // q0 = 0.5: inside the well
        EXPECT_EQ(rows[2][8], "non_finite");
        EXPECT_NE(rows[2][9], "100000");
        EXPECT_TRUE(std::isfinite(std::stod(rows[2][4])));  // the last finite state
    }
}

}  // namespace
