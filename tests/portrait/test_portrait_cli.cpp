// `geomint portrait`: the PNG decodes with libpng at the requested size with the extent in its
// text chunks, the image shows the counts of the run, and bad options exit 2 naming the option,
// leaving no file.
#include <gtest/gtest.h>

#include <filesystem>
#include <ostream>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "portrait/png_decode.hpp"
#include "portrait_png.hpp"

namespace {

using geomint_test::decode;
using geomint_test::Decoded;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

const std::string kPendulum = "portrait pendulum --q0 -3:3:9 --p0 -2:2:5 --steps 400 --dt 0.05 --backend cpu --quiet ";

TEST(PortraitCli, PendulumPngHasTheRequestedSizeAndExtent) {
    ScratchFolder scratch;
    const std::string out = scratch.file("p.png");
    const auto r = run_geomint(kPendulum + "--width 61 --height 33 --p-range -2.5:3 --out " + out, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    EXPECT_EQ(r.error_output, "");  // --quiet
    const Decoded png = decode(out);
    EXPECT_EQ(png.width, 61u);
    EXPECT_EQ(png.height, 33u);
    EXPECT_EQ(png.channels, 3);
    EXPECT_EQ(png.texts.at("geomint:extent"),
              geomint::format_extent({geomint::portrait::kPendulumQMin, geomint::portrait::kPendulumQMax, -2.5, 3}));
    EXPECT_EQ(png.texts.at("geomint:x-axis"), "q wrapped to (-pi, pi]");
    EXPECT_EQ(png.texts.at("geomint:y-axis"), "p");
    EXPECT_EQ(png.texts.at("geomint:colour"), "log-density viridis");
    // The Description is the run as a sweep file, its portrait options in the [portrait] table.
    const std::string& description = png.texts.at("Description");
    EXPECT_NE(description.find("command = \"pendulum\"\n"), std::string::npos) << description;
    EXPECT_NE(description.find("\n[portrait]\nwidth = 61\n"), std::string::npos) << description;
    // The busiest pixel: each of the 45 trajectories records its 401 states; at least one pixel
    // is visited by more than one state, none by more than all of them.
    const unsigned long long max_count = std::stoull(png.texts.at("geomint:max-count"));
    EXPECT_GT(max_count, 1u);
    EXPECT_LE(max_count, 45u * 401u);
    std::size_t visited = 0;
    for (std::size_t k = 0; k < png.pixels.size(); k += 3)
        visited += !(png.pixels[k] == 0 && png.pixels[k + 1] == 0 && png.pixels[k + 2] == 0);
    EXPECT_GT(visited, 200u);  // orbits, not a few dots
    EXPECT_LT(visited, 61u * 33u);
}

TEST(PortraitCli, DefaultPRangeHoldsEveryOrbitAndEnergyColouringIsRgba) {
    ScratchFolder scratch;
    const std::string out = scratch.file("e.png");
    const auto r = run_geomint(kPendulum + "--width 40 --height 30 --colour energy --out " + out, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    const Decoded png = decode(out);
    EXPECT_EQ(png.channels, 4);
    EXPECT_EQ(png.texts.at("geomint:colour"), "mean initial energy per visit viridis, log-density alpha");
    // H = p^2/2 + 1 - cos q over the grid: from 0 (q0 = 0, p0 = 0) to 2 + 1 - cos 3.
    std::istringstream range(png.texts.at("geomint:energy-range"));
    double emin = -1, emax = -1;
    range >> emin >> emax;
    EXPECT_EQ(emin, 0.0);
    EXPECT_DOUBLE_EQ(emax, 2.0 + 1.0 - std::cos(3.0));
    // Default p range: +-1.05 sqrt(2 (emax - min V)), min V = 0.
    std::istringstream extent(png.texts.at("geomint:extent"));
    double x0, x1, y0, y1;
    extent >> x0 >> x1 >> y0 >> y1;
    EXPECT_NEAR(y1, 1.05 * std::sqrt(2 * emax), 1e-12);
    EXPECT_EQ(y0, -y1);
}

TEST(PortraitCli, ReportsTheRunAndItsStatusesWithoutQuiet) {
    ScratchFolder scratch;
    const std::string out = scratch.file("s.png");
    const auto r = run_geomint(
        "portrait pendulum --q0 -3:3:9 --p0 -2:2:5 --steps 400 --dt 0.05 --backend cpu "
        "--width 20 --height 10 --out " +
            out,
        scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    EXPECT_NE(r.error_output.find("geomint: 45 trajectories in "), std::string::npos) << r.error_output;
    EXPECT_NE(r.error_output.find(": 45 ok; wrote " + out), std::string::npos) << r.error_output;
}

TEST(PortraitCli, SpinSphereAndZPairPlanes) {
    ScratchFolder scratch;
    const std::string top = scratch.file("top.png"), chain = scratch.file("chain.png");
    auto r = run_geomint(
        "portrait spin --random 20 --steps 100 --dt 0.05 --backend cpu --quiet --width 64 --out " + top, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    Decoded png = decode(top);
    EXPECT_EQ(png.width, 64u);
    EXPECT_EQ(png.height, 32u);  // the sphere plane is 2:1
    EXPECT_EQ(png.texts.at("geomint:extent"), geomint::format_extent(geomint::portrait::kSpherePlaneExtent));
    r = run_geomint(
        "portrait spin --system chain --spins 5 --random 20 --steps 100 --dt 0.05 --backend cpu --quiet "
        "--plane z-pair --spin 5 --width 48 --out " +
            chain,
        scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    png = decode(chain);
    EXPECT_EQ(png.width, 48u);
    EXPECT_EQ(png.height, 48u);
    EXPECT_EQ(png.texts.at("geomint:x-axis"), "s5^z");
    EXPECT_EQ(png.texts.at("geomint:y-axis"), "s1^z");  // the periodic neighbour of the last spin
}

struct BadOption {
    std::string arguments;
    std::string message;  // the start of the error line
};

void PrintTo(const BadOption& b, std::ostream* os) { *os << b.arguments; }

class PortraitCliBadOption : public testing::TestWithParam<BadOption> {};

TEST_P(PortraitCliBadOption, ExitsTwoNamingTheOptionAndLeavesNoFile) {
    ScratchFolder scratch;
    const std::string out = scratch.file("bad.png");
    const auto r = run_geomint(GetParam().arguments + " --out " + out, scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.error_output.rfind("geomint: error: " + GetParam().message, 0), 0u) << r.error_output;
    EXPECT_EQ(std::count(r.error_output.begin(), r.error_output.end(), '\n'), 1) << r.error_output;
    EXPECT_FALSE(std::filesystem::exists(out));
    EXPECT_EQ(scratch.entries(), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Options, PortraitCliBadOption,
    testing::Values(BadOption{kPendulum + "--width 0", "--width: must be 1 to 16384 pixels, got 0"},
                    BadOption{kPendulum + "--height 16385", "--height: must be 1 to 16384 pixels, got 16385"},
                    BadOption{kPendulum + "--width -3", "--width: "},
                    BadOption{kPendulum + "--p-range 2:1", "--p-range: LOW:HIGH needs LOW < HIGH"},
                    BadOption{kPendulum + "--p-range 1", "--p-range: give LOW:HIGH"},
                    BadOption{kPendulum + "--q-range -1:inf", "--q-range: "},
                    BadOption{kPendulum + "--record-every 0", "--record-every: must be at least 1"},
                    BadOption{kPendulum + "--skip-steps 401", "--skip-steps: 401 skips all 400 steps"},
                    BadOption{kPendulum + "--colour hue", "--colour: unknown colouring 'hue'"},
                    BadOption{kPendulum + "--exact", "--exact: does not apply to portraits"},
                    BadOption{kPendulum + "--save-every 1", "--save-every: does not apply to portraits"},
                    BadOption{"portrait pendulum --potential duffing --steps 10 --dt 0.1",
                              "--q-range: is required for --potential duffing"},
                    BadOption{"portrait spin --steps 10 --dt 0.1 --plane z-pair", "--plane: z-pair needs a chain"},
                    BadOption{"portrait spin --system chain --spins 4 --steps 10 --dt 0.1 --spin 5",
                              "--spin: must be 1 to 4"},
                    BadOption{"portrait spin --steps 10 --dt 0.1 --plane xy", "--plane: unknown plane 'xy'"}));

}  // namespace
