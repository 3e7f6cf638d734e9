// A scheme and a Hamiltonian added as CONTRIBUTING.md says (one header plus one registry line
// each, tests/registry_extension/test_only_entries.hpp) reach everything generated from the
// registry: the lists, the CLI's names and --help, the declared parameter option, the dispatch of
// the CPU backend, and `geomint list`. Runs a geomint built with those entries (geomint_extended).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>

#include "cli_runner.hpp"
#include "geomint/spin/registry.hpp"
#include "registry_lookup.hpp"

namespace {

using geomint_test::read_csv;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(RegistryExtension, ListsHoldTheNewEntries) {
    EXPECT_TRUE(contains(geomint::registry_names(geomint::spin::SpinSchemes{}), "test_projected_euler"));
    EXPECT_TRUE(contains(geomint::registry_names(geomint::spin::SpinSystems{}), "test_zeeman"));
    EXPECT_EQ(geomint::spin::SpinSchemes::size, 14);
    EXPECT_EQ(geomint::spin::SpinSystems::size, 4);
}

TEST(RegistryExtension, HelpAndListNameThemWithTheirParameters) {
    ScratchFolder scratch;
    const std::string help = scratch.file("help.txt");
    ASSERT_EQ(std::system((std::string(GEOMINT_BINARY) + " spin --help >" + help).c_str()), 0);
    const std::string text = geomint_test::read_file(help);
    EXPECT_NE(text.find("test_projected_euler"), std::string::npos) << text;
    EXPECT_NE(text.find("order 1  test only: projected explicit Euler"), std::string::npos) << text;
    EXPECT_NE(text.find("test_zeeman"), std::string::npos) << text;
    EXPECT_NE(text.find("--test-field"), std::string::npos) << text;
    const std::string list = scratch.file("list.txt");
    ASSERT_EQ(std::system((std::string(GEOMINT_BINARY) + " list >" + list).c_str()), 0);
    EXPECT_NE(geomint_test::read_file(list).find("test_zeeman"), std::string::npos);
}

// The new system with an existing scheme: AVF precesses the spin about b = (0, 0, 2) as
// ds/dt = s x b does exactly (s_x = cos 2t, s_y = -sin 2t from (1, 0, 0)), to second order.
TEST(RegistryExtension, NewSystemRunsWithItsParameterAndMatchesTheExactPrecession) {
    ScratchFolder scratch;
    const std::string out = scratch.file("zeeman.csv");
    double error[2];
    for (int k = 0; k < 2; ++k) {
        const int steps = k == 0 ? 50 : 100;
        const auto r = run_geomint("spin --system test_zeeman --test-field 0,0,2 --scheme avf --s0 1,0,0 --steps " +
                                       std::to_string(steps) + " --t-end 1 --backend cpu --quiet --out " + out,
                                   scratch);
        ASSERT_EQ(r.exit_code, 0) << r.error_output;
        const auto rows = read_csv(out);
        ASSERT_EQ(rows.size(), 2u);
        EXPECT_EQ(rows[1][5], "ok");
        const double x = std::stod(rows[1][0]), y = std::stod(rows[1][1]), z = std::stod(rows[1][2]);
        error[k] = std::hypot(x - std::cos(2.0), y + std::sin(2.0), z);
        EXPECT_LT(std::stod(rows[1][3]), 1e-14);  // energy b.s kept to round-off by the DRG scheme
    }
    EXPECT_NEAR(std::log2(error[0] / error[1]), 2.0, 0.1) << error[0] << " " << error[1];
}

// The new scheme on an existing system: it runs, keeps |s_i| = 1, and is first order on the top
// (the error against a fine AVF run halves with the step).
TEST(RegistryExtension, NewSchemeRunsOnExistingSystems) {
    ScratchFolder scratch;
    const std::string out = scratch.file("euler.csv");
    const auto chain = run_geomint(
        "spin --system chain --spins 5 --random 3 --scheme test_projected_euler --steps 100 "
        "--dt 0.01 --backend cpu --quiet --out " +
            out,
        scratch);
    ASSERT_EQ(chain.exit_code, 0) << chain.error_output;
    const auto rows = read_csv(out);
    ASSERT_EQ(rows.size(), 4u);
    for (int r = 1; r <= 3; ++r) {
        EXPECT_EQ(rows[r][17], "ok");
        EXPECT_LT(std::stod(rows[r][19]), 1e-15);  // norm_error
    }
    const auto final_x = [&](const std::string& scheme, int steps) {
        const auto r = run_geomint("spin --system top --scheme " + scheme + " --steps " + std::to_string(steps) +
                                       " --t-end 1 --backend cpu --quiet --out " + out,
                                   scratch);
        EXPECT_EQ(r.exit_code, 0) << r.error_output;
        const auto rows = read_csv(out);
        return std::vector<double>{std::stod(rows[1][0]), std::stod(rows[1][1]), std::stod(rows[1][2])};
    };
    const auto reference = final_x("coll8", 100);
    double error[2];
    for (int k = 0; k < 2; ++k) {
        const auto s = final_x("test_projected_euler", k == 0 ? 200 : 400);
        error[k] = std::hypot(s[0] - reference[0], s[1] - reference[1], s[2] - reference[2]);
    }
    EXPECT_NEAR(std::log2(error[0] / error[1]), 1.0, 0.1) << error[0] << " " << error[1];
}

TEST(RegistryExtension, DeclaredParameterIsRefusedForOtherSystems) {
    ScratchFolder scratch;
    const auto r = run_geomint(
        "spin --system top --test-field 1,0,0 --steps 1 --dt 0.1 --backend cpu --out " + scratch.file("x.csv"),
        scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.error_output.find("--test-field: applies to --system test_zeeman only"), std::string::npos)
        << r.error_output;
}

}  // namespace
