// Sweep files with a [portrait] table: `geomint run FILE` gives byte for byte the PNG of the
// `geomint portrait` command line it stands for, `--print-config` of a portrait prints such a file
// (round trip for pendulum and spin), and every kind of bad [portrait] entry exits 2 naming the
// key and its line, with nothing on standard output and no file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_runner.hpp"

namespace {

using geomint_test::read_file;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;
using geomint_test::write_file;

// Runs `arguments --out OUT` and then, with OUT moved away, the sweep file `file_text`
// (whose out is OUT): both PNGs must be the same bytes.
void expect_same_png(const ScratchFolder& scratch, const std::string& arguments, const std::string& file_text) {
    const std::string out = scratch.file("p.png"), first = scratch.file("cli.png"), config = scratch.file("p.toml");
    const auto cli = run_geomint(arguments + " --out " + out, scratch);
    ASSERT_EQ(cli.exit_code, 0) << cli.error_output;
    std::filesystem::rename(out, first);
    write_file(config, file_text);
    const auto run = run_geomint("run " + config, scratch);
    ASSERT_EQ(run.exit_code, 0) << run.error_output << file_text;
    ASSERT_TRUE(std::filesystem::exists(out));
    const std::string a = read_file(first), b = read_file(out);
    EXPECT_GT(a.size(), 100u);
    EXPECT_TRUE(a == b) << "the file's PNG differs from the command line's\n" << file_text;
}

// --print-config of `arguments` (with --out OUT), checked to create nothing and to hold a
// [portrait] table; then the printed file run must give the command line's PNG.
std::string round_trip(const std::string& arguments) {
    ScratchFolder scratch;
    const std::string out = scratch.file("p.png"), printed = scratch.file("printed.toml");
    const auto r = run_geomint(arguments + " --print-config --out " + out + " >" + printed, scratch);
    EXPECT_EQ(r.exit_code, 0) << r.error_output;
    EXPECT_EQ(r.error_output, "");
    EXPECT_FALSE(std::filesystem::exists(out)) << "--print-config must run nothing";
    const std::string text = read_file(printed);
    EXPECT_NE(text.find("\n[portrait]\n"), std::string::npos) << text;
    std::filesystem::remove(printed);
    expect_same_png(scratch, arguments, text);
    return text;
}

TEST(PortraitSweepFile, AWrittenFileGivesTheCommandLinesPngByteForByte) {
    ScratchFolder scratch;
    const std::string out = scratch.file("p.png");
    expect_same_png(scratch,
                    "portrait pendulum --q0 -3:3:9 --p0 -2:2:5 --steps 300 --dt 0.05 --backend cpu --quiet "
                    "--width 61 --height 33 --p-range -2.5:3 --skip-steps 4 --record-every 2 --colour energy",
                    "command = \"pendulum\"\nq0 = \"-3:3:9\"\np0 = \"-2:2:5\"\nsteps = 300\ndt = 0.05\n"
                    "backend = \"cpu\"\nquiet = true\nout = \"" +
                        out +
                        "\"\n\n[portrait]\nwidth = 61\nheight = 33\np-range = \"-2.5:3\"\nskip-steps = 4\n"
                        "record-every = 2\ncolour = \"energy\"\n");
}

TEST(PortraitSweepFile, PendulumPrintConfigRoundTrips) {
    const std::string text = round_trip(
        "portrait pendulum --potential duffing --q0 -1:1:7 --p0 0.5 --steps 200 --dt 0.05 --backend cpu --quiet "
        "--q-range -2:2 --width 50 --height 40");
    // The family's options at the top (with the potential's parameters made explicit, as
    // `geomint pendulum --print-config` prints them), the portrait's in the table.
    const std::size_t table = text.find("\n[portrait]\n");
    EXPECT_LT(text.find("\npotential = \"duffing\"\n"), table) << text;
    EXPECT_LT(text.find("\nsteps = 200\n"), table) << text;
    EXPECT_GT(text.find("\nq-range = \"-2:2\"\n"), table) << text;
    EXPECT_GT(text.find("\nwidth = 50\n"), table) << text;
    EXPECT_GT(text.find("\ncolour = \"density\"\n"), table) << text;
}

TEST(PortraitSweepFile, SpinPrintConfigRoundTrips) {
    const std::string text = round_trip(
        "portrait spin --system chain --spins 4 --random 20 --seed 3 --steps 60 --dt 0.1 --backend cpu --quiet "
        "--plane z-pair --spin 2 --width 40 --height 30 --record-every 2 --colour energy");
    const std::size_t table = text.find("\n[portrait]\n");
    EXPECT_LT(text.find("\nsystem = \"chain\"\n"), table) << text;
    EXPECT_LT(text.find("\nseed = 3\n"), table) << text;
    EXPECT_GT(text.find("\nplane = \"z-pair\"\n"), table) << text;
    EXPECT_GT(text.find("\nspin = 2\n"), table) << text;
    round_trip("portrait spin --random 10 --steps 40 --dt 0.1 --backend cpu --quiet --width 32");  // sphere, defaults
}

// A pendulum portrait file: five top-level lines, the [portrait] header on line 6, then `table`.
struct BadTable {
    std::string top, table, message;  // message: what follows "geomint: error: FILE"
};

class PortraitSweepFileBad : public testing::TestWithParam<BadTable> {};

TEST_P(PortraitSweepFileBad, ExitsTwoNamingTheKeyAndLineWithNoOutput) {
    ScratchFolder scratch;
    const std::string config = scratch.file("bad.toml"), out = scratch.file("bad.png");
    write_file(config, "command = \"pendulum\"\nq0 = \"-1:1:3\"\nsteps = 10\ndt = 0.1\nout = \"" + out + "\"\n" +
                           GetParam().top + "[portrait]\n" + GetParam().table);
    const auto r = run_geomint("run " + config + " >" + scratch.file("stdout.txt"), scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.error_output.rfind("geomint: error: " + config + GetParam().message, 0), 0u) << r.error_output;
    EXPECT_EQ(std::count(r.error_output.begin(), r.error_output.end(), '\n'), 1) << r.error_output;
    EXPECT_EQ(read_file(scratch.file("stdout.txt")), "");
    EXPECT_FALSE(std::filesystem::exists(out));
    std::filesystem::remove(scratch.file("stdout.txt"));
    std::filesystem::remove(config);
    EXPECT_EQ(scratch.entries(), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Classes, PortraitSweepFileBad,
    testing::Values(
        // unknown key
        BadTable{"", "width = 10\nbogus = 2\n",
                 ":8: portrait.bogus: unknown key (not an option of geomint portrait pendulum; see its --help)"},
        // wrong types
        BadTable{"", "height = true\n",
                 ":7: portrait.height: must be a string, a number or an array of numbers, "
                 "not a boolean"},
        BadTable{"", "colour = 1979-05-27\n",
                 ":7: portrait.colour: must be a string, a number or an array of "
                 "numbers, not a date"},
        BadTable{"", "[portrait.width]\nx = 1\n",
                 ":7: portrait.width: must be a string, a number or an array of "
                 "numbers, not a table"},
        BadTable{"", "[portrait.inner]\nx = 1\n", ":7: portrait.inner: unknown key"},
        BadTable{"", "width = 10.0\n", ":7: portrait.width: "},
        // bad values
        BadTable{"", "width = 0\n", ":7: portrait.width: must be 1 to 16384 pixels, got 0"},
        BadTable{"", "\np-range = \"2:1\"\n", ":8: portrait.p-range: LOW:HIGH needs LOW < HIGH"},
        BadTable{"", "colour = \"hue\"\n", ":7: portrait.colour: unknown colouring 'hue' (valid: density, energy)"},
        BadTable{"", "record-every = 0\n", ":7: portrait.record-every: must be at least 1"},
        BadTable{"", "skip-steps = 11\n", ":7: portrait.skip-steps: 11 skips all 10 steps"},
        // keys out of their place
        BadTable{"width = 10\n", "", ":6: width: a portrait option: write it in the [portrait] table"},
        BadTable{"", "steps = 5\n", ":7: portrait.steps: not a portrait option: write it above the [portrait] table"},
        // missing required key (no line: it is not in the file), and options that do not apply
        BadTable{"potential = \"duffing\"\n", "width = 10\n", ": portrait.q-range: is required for potential duffing"},
        BadTable{"exact = true\n", "", ":6: exact: does not apply to portraits"},
        BadTable{"", "print-config = true\n",
                 ":7: portrait.print-config: unknown key (not an option of geomint portrait pendulum"}));

TEST(PortraitSweepFile, APortraitTableForAnUnknownCommandIsRefusedAtTheCommand) {
    ScratchFolder scratch;
    const std::string config = scratch.file("c.toml");
    write_file(config, "command = \"list\"\n[portrait]\nwidth = 3\n");
    const auto r = run_geomint("run " + config, scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.error_output.rfind("geomint: error: " + config + ":1: command: unknown command 'list'", 0), 0u)
        << r.error_output;
}

}  // namespace
