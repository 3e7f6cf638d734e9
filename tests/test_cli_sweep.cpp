// `geomint run FILE` and `--print-config` end to end: a printed configuration runs to the same
// bytes as the command that printed it, and each kind of bad file gives one line naming the key
// and its line, exit status 2, nothing on standard output and no output file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_runner.hpp"

namespace {

using geomint_test::read_file;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;
using geomint_test::write_file;

// Runs `arguments` to a.csv; prints its configuration with --out b.csv; runs that file; the two
// outputs must be the same bytes. Returns the configuration.
std::string check_round_trip(const std::string& arguments) {
    ScratchFolder scratch;
    const std::string a = scratch.file("a.csv"), b = scratch.file("b.csv"), config = scratch.file("run.toml");
    const auto direct = run_geomint(arguments + " --quiet --out " + a, scratch);
    EXPECT_EQ(direct.exit_code, 0) << arguments << "\n" << direct.error_output;
    const auto printed = run_geomint(arguments + " --quiet --print-config --out " + b + " >" + config, scratch);
    EXPECT_EQ(printed.exit_code, 0) << printed.error_output;
    EXPECT_FALSE(std::filesystem::exists(b)) << "--print-config must run nothing";
    const std::string text = read_file(config);
    EXPECT_NE(text.find("out = \"" + b + "\"\n"), std::string::npos) << text;
    const auto from_file = run_geomint("run " + config, scratch);
    EXPECT_EQ(from_file.exit_code, 0) << from_file.error_output << "\n" << text;
    const std::string expected = read_file(a);
    EXPECT_GT(expected.size(), 100u);
    EXPECT_EQ(read_file(b), expected) << arguments << "\n" << text;
    return text;
}

TEST(CliSweep, PendulumConfigurationRunsToTheSameBytes) {
    const std::string grid = check_round_trip(
        "pendulum --backend cpu --scheme simpson --mass 1:2:2 --omega 3 --q0 0.5:2.5:3 --p0 -1:1:2 --steps 200 "
        "--t-end 2 --exact --chunk-size 5 --threads 2");
    // The values as given, defaults made explicit, flags as booleans.
    for (const char* line :
         {"command = \"pendulum\"\n", "scheme = \"simpson\"\n", "q0 = \"0.5:2.5:3\"\n", "t-end = 2\n", "exact = true\n",
          "potential = \"pendulum\"\n", "newton-max-iterations = 50\n", "precision = \"double\"\n", "quiet = true\n"})
        EXPECT_NE(grid.find(line), std::string::npos) << line << "\n" << grid;
    EXPECT_EQ(grid.find("seed"), std::string::npos) << "no --seed without --random";
    check_round_trip(
        "pendulum --backend cpu --potential duffing --beta 0.5 --precision float --q0 -1e-3:0.7:5 --p0 0.1 "
        "--steps 100 --dt 0.01");
    const std::string random = check_round_trip(
        "pendulum --backend cpu --random 20 --seed 42 --q0 -1:1 --p0 0.25 --mass 1:3 --omega 2:4 --steps 50 "
        "--dt 0.02");
    EXPECT_NE(random.find("seed = 42\n"), std::string::npos) << random;
}

TEST(CliSweep, SpinConfigurationRunsToTheSameBytes) {
    check_round_trip("spin --backend cpu --system chain --spins 16 --scheme mmp --random 5 --steps 20 --dt 0.05");
    check_round_trip(
        "spin --backend cpu --system anisotropic --spins 6 --field 0.1,0.2,0.3 --anisotropy 0.5 --random 2 --seed 1 "
        "--steps 10 --dt 0.05");
    const std::string top = check_round_trip("spin --backend cpu --inertia 1,2,4 --s0 1,0.5,0 --steps 30 --dt 0.1");
    EXPECT_NE(top.find("inertia = [1,2,4]\n"), std::string::npos) << top;
    check_round_trip("spin --backend cpu --system chain --spins 8 --wave 0.7 --exact --steps 20 --t-end 1");
}

// A file written by hand: numbers, an array, a flag, comments; relative paths from the current
// directory, like the command line.
TEST(CliSweep, HandWrittenFileMatchesTheCommandLine) {
    ScratchFolder scratch;
    const auto direct = run_geomint(
        "spin --backend cpu --inertia 1,2,3 --s0 0,0.6,0.8 --steps 40 --t-end 2 "
        "--quiet --out " +
            scratch.file("a.csv"),
        scratch);
    ASSERT_EQ(direct.exit_code, 0) << direct.error_output;
    write_file(scratch.file("top.toml"),
               "# the spinning top\ncommand = \"spin\"\nsystem = \"top\"\ninertia = [1, 2, 3]\ns0 = \"0,0.6,0.8\"\n"
               "steps = 40\nt-end = 2\nbackend = \"cpu\"\nquiet = true\nout = \"b.csv\"\n");
    // Run from the file's folder: out = "b.csv" lands there.
    const std::string command = "cd " + scratch.file("") + " && " + GEOMINT_BINARY + " run top.toml";
    ASSERT_EQ(std::system(command.c_str()), 0);
    EXPECT_EQ(read_file(scratch.file("b.csv")), read_file(scratch.file("a.csv")));
}

// Writes `body` after `command = "pendulum"` (and, with `base`, lines 2-4: steps, dt and out) and
// runs it: exit 2, one line, no output at all. Returns the message after the file's name.
std::string refused(const std::string& body, bool base = true) {
    ScratchFolder scratch;
    const std::string config = scratch.file("bad.toml"), out = scratch.file("out.csv");
    const std::string lines = base ? "steps = 10\ndt = 0.1\nout = \"" + out + "\"\n" : "";
    write_file(config, "command = \"pendulum\"\n" + lines + body);
    const auto r = run_geomint("run " + config + " >" + scratch.file("stdout.txt"), scratch);
    EXPECT_EQ(r.exit_code, 2) << body;
    EXPECT_FALSE(std::filesystem::exists(out)) << body;
    EXPECT_EQ(read_file(scratch.file("stdout.txt")), "") << body;
    EXPECT_EQ(r.error_output.find("geomint: error: " + config), 0u) << r.error_output;
    EXPECT_EQ(std::count(r.error_output.begin(), r.error_output.end(), '\n'), 1) << r.error_output;
    return r.error_output.substr(std::string("geomint: error: ").size() + config.size());
}

TEST(CliSweep, UnknownKeyIsNamedWithItsLine) {
    EXPECT_EQ(refused("qq0 = 1\n"), ":5: qq0: unknown key (not an option of geomint pendulum; see its --help)\n");
    EXPECT_EQ(refused("\n[output]\nformat = 1\n").rfind(":6: output: unknown key", 0), 0u);
    EXPECT_EQ(refused("[portrait]\nq = 1\n"),
              ":6: portrait.q: unknown key (not an option of geomint portrait pendulum; see its --help)\n");
}

TEST(CliSweep, WrongTypeIsNamedWithItsLine) {
    EXPECT_EQ(refused("exact = 1\n"), ":5: exact: must be true or false, not '1'\n");
    EXPECT_EQ(refused("q0 = true\n"), ":5: q0: must be a string, a number or an array of numbers, not a boolean\n");
    EXPECT_EQ(refused("mass = { low = 1 }\n"),
              ":5: mass: must be a string, a number or an array of numbers, not a table\n");
    EXPECT_EQ(refused("\nomega = 1979-05-27\n"),
              ":6: omega: must be a string, a number or an array of numbers, not a date\n");
}

TEST(CliSweep, MissingKeyIsNamed) {
    ScratchFolder scratch;
    write_file(scratch.file("a.toml"), "command = \"pendulum\"\ndt = 0.1\nout = \"x.csv\"\n");
    auto r = run_geomint("run " + scratch.file("a.toml"), scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.error_output, "geomint: error: " + scratch.file("a.toml") + ": steps: is required\n");
    write_file(scratch.file("b.toml"), "steps = 10\n");
    r = run_geomint("run " + scratch.file("b.toml"), scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.error_output, "geomint: error: " + scratch.file("b.toml") +
                                  ": command: missing key: the command to run (pendulum or spin)\n");
}

TEST(CliSweep, BadValueIsNamedWithItsLine) {
    EXPECT_EQ(refused("q0 = \"abc\"\n").rfind(":5: q0: ", 0), 0u);
    EXPECT_EQ(refused("\n\nchunk-size = 0\n").rfind(":7: chunk-size: ", 0), 0u);
    EXPECT_EQ(refused("mass = -1\n"), ":5: mass: values must be positive, got '-1'\n");
    EXPECT_EQ(refused("scheme = \"leapfrog\"\n").rfind(":5: scheme: unknown scheme 'leapfrog'", 0), 0u);
    EXPECT_EQ(refused("t-end = 1\n"), ":3: dt: give either dt or t-end, not both\n");
    EXPECT_EQ(refused("backend = \"\"\n").rfind(":5: backend: ", 0), 0u);  // an empty value
    EXPECT_EQ(refused("seed = 3\n"), ":5: seed: applies to random only\n");
    // A float is no integer, as on the command line (--steps 10.0 is refused too).
    EXPECT_EQ(refused("dt = 0.1\nsteps = 10.0\nout = \"x.csv\"\n", false).rfind(":3: steps: ", 0), 0u);
}

TEST(CliSweep, FileThatIsNotTomlIsRefused) {
    EXPECT_EQ(refused("q0 = \n").rfind(":5: not a valid TOML file: ", 0), 0u);
    ScratchFolder scratch;
    const auto r = run_geomint("run " + scratch.file("missing.toml"), scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.error_output.find("cannot read the sweep file"), std::string::npos) << r.error_output;
}

}  // namespace
