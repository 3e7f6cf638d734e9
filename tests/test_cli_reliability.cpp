// What no input may do to a run: a name holding a NUL, an empty array or string in a sweep file,
// an output that is one of the run's inputs under any name, a size that cannot be held, and the
// messages that must say what is wrong. Each is refused before any work with one line naming the
// option (or the sweep file's key and line), exit status 2, and no file made or changed.
#include <gtest/gtest.h>
#include <unistd.h>

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

const std::string kRun = "command = \"pendulum\"\nsteps = 10\ndt = 0.1\n";  // lines 1-3

// Runs `arguments` in `scratch`: exit status 2, and one error line, returned without its prefix.
std::string refused(const std::string& arguments, const ScratchFolder& scratch) {
    const auto r = run_geomint(arguments, scratch);
    EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.error_output;
    EXPECT_EQ(std::count(r.error_output.begin(), r.error_output.end(), '\n'), 1) << r.error_output;
    EXPECT_EQ(r.error_output.rfind("geomint: error: ", 0), 0u) << r.error_output;
    return r.error_output.substr(std::min(r.error_output.size(), std::string("geomint: error: ").size()));
}

// A sweep file holding `text`, run from its folder: refused, the message returned.
std::string refused_file(const std::string& text, ScratchFolder& scratch) {
    write_file(scratch.file("run.toml"), text);
    return refused("run " + scratch.file("run.toml"), scratch);
}

TEST(CliReliability, ANulInASweepFileValueIsRefusedAndTouchesNoFile) {
    ScratchFolder scratch;
    // "a\0b.csv" would be the file "a" to the system: an existing "a" must stay as it is.
    write_file(scratch.file("a"), "precious");
    const std::string out = scratch.file("a") + "\\u0000b.csv";
    EXPECT_EQ(refused_file(kRun + "out = \"" + out + "\"\n", scratch),
              scratch.file("run.toml") + ":4: out: the value holds a NUL character (\\u0000), which no option takes\n");
    EXPECT_EQ(read_file(scratch.file("a")), "precious");
    EXPECT_EQ(refused_file(kRun + "out = \"x.csv\"\nscheme = \"simpson\\u0000\"\n", scratch)
                  .find(":5: scheme: the value holds a NUL"),
              scratch.file("run.toml").size());
    EXPECT_NE(refused_file("command = \"spin\"\nsystem = \"chain\"\ninit = \"" + scratch.file("a") +
                               "\\u0000\"\nsteps = 1\ndt = 0.1\nout = \"x.csv\"\n",
                           scratch)
                  .find(":3: init: the value holds a NUL"),
              std::string::npos);
    EXPECT_EQ(scratch.entries(), 2u) << "only a and run.toml";
}

TEST(CliReliability, AnEmptyArrayOrStringIsRefusedNamingItsOwnKey) {
    ScratchFolder scratch;
    // Never turned into "--out=" followed by "--exact": no file named --exact, exact not dropped.
    EXPECT_EQ(refused_file(kRun + "out = []\nexact = true\n", scratch),
              scratch.file("run.toml") + ":4: out: an empty array; give at least one number\n");
    EXPECT_FALSE(std::filesystem::exists(scratch.file("--exact")));
    EXPECT_EQ(refused_file("command = \"pendulum\"\nsteps = 10\ndt = []\nt-end = 1\nout = \"x.csv\"\n", scratch),
              scratch.file("run.toml") + ":3: dt: an empty array; give at least one number\n");
    EXPECT_EQ(refused_file(kRun + "out = \"\"\nexact = true\n", scratch),
              scratch.file("run.toml") + ":4: out: an empty string; give a value or leave the key out\n");
    EXPECT_EQ(refused_file(kRun + "out = \"x.csv\"\n[portrait]\ncolour = []\n", scratch),
              scratch.file("run.toml") + ":6: portrait.colour: an empty array; give at least one number\n");
    EXPECT_EQ(scratch.entries(), 1u) << "only run.toml";
}

TEST(CliReliability, AnEmptyAssignmentOnTheCommandLineIsRefused) {
    ScratchFolder scratch;
    EXPECT_EQ(refused("pendulum --steps 10 --dt 0.1 --out= --exact", scratch), "--out: empty value\n");
    EXPECT_EQ(scratch.entries(), 0u) << "no file named --exact";
}

TEST(CliReliability, AnOutputThatIsTheSweepFileUnderAnyNameIsRefused) {
    ScratchFolder scratch;
    const std::string file = scratch.file("run.toml");
    for (const std::string& name :
         {file, scratch.file("./run.toml"), scratch.file("alias.toml"), scratch.file("hard.toml")}) {
        const std::string text = kRun + "out = \"" + name + "\"\n";
        write_file(file, text);
        std::filesystem::remove(scratch.file("alias.toml"));
        std::filesystem::remove(scratch.file("hard.toml"));
        std::filesystem::create_symlink(file, scratch.file("alias.toml"));
        std::filesystem::create_hard_link(file, scratch.file("hard.toml"));
        const std::string message = refused("run " + file, scratch);
        EXPECT_NE(message.find(":4: out: '" + name + "' is the sweep file ('" + file +
                               "'); writing it would destroy the input"),
                  std::string::npos)
            << message;
        EXPECT_EQ(read_file(file), text);
    }
    // A portrait's output too.
    const std::string portrait = kRun + "out = \"" + file + "\"\n[portrait]\nwidth = 8\n";
    write_file(file, portrait);
    EXPECT_NE(refused("run " + file, scratch).find("is the sweep file"), std::string::npos);
    EXPECT_EQ(read_file(file), portrait);
}

TEST(CliReliability, AnOutputThatIsTheInitFileOrAPortraitInputIsRefused) {
    ScratchFolder scratch;
    const std::string init = scratch.file("init.csv"), text = "1,0,0,0,1,0,0,0,1\n";
    write_file(init, text);
    std::filesystem::create_symlink(init, scratch.file("link.csv"));
    EXPECT_NE(
        refused("spin --system chain --init " + init + " --steps 2 --dt 0.1 --out " + scratch.file("link.csv"), scratch)
            .find("--out: '" + scratch.file("link.csv") + "' is the --init file"),
        std::string::npos);
    EXPECT_EQ(read_file(init), text);
    // portrait add's inputs.
    const std::string a = scratch.file("a.h5"), b = scratch.file("b.h5");
    ASSERT_EQ(run_geomint("portrait pendulum --q0 0.1:1:3 --steps 10 --dt 0.1 --width 8 --quiet --out " + a, scratch)
                  .exit_code,
              0);
    std::filesystem::copy_file(a, b);
    const std::string before = read_file(a);
    for (const std::string& out : {a, scratch.file("./b.h5")}) {
        EXPECT_NE(refused("portrait add " + a + " " + b + " --out " + out, scratch).find("is an input of portrait add"),
                  std::string::npos);
    }
    EXPECT_EQ(read_file(a), before);
    EXPECT_EQ(read_file(b), before);
}

TEST(CliReliability, SavedStatesBeyondMemoryAreRefusedBeforeTheStart) {
    ScratchFolder scratch;
    const std::string message = refused(
        "pendulum --steps 9223372036854775807 --dt 1e-300 --save-every 1 --out " + scratch.file("a.h5"), scratch);
    EXPECT_EQ(message.rfind("--save-every: saving every 1 of 9223372036854775807 steps keeps 9223372036854775808 "
                            "states per trajectory, more than this machine's memory holds",
                            0),
              0u)
        << message;
    EXPECT_EQ(scratch.entries(), 0u);
}

TEST(CliReliability, MessagesSayWhatIsWrong) {
    ScratchFolder scratch;
    EXPECT_EQ(refused("run " + scratch.file(""), scratch),
              scratch.file("") + ": is a directory; give the sweep file (TOML) to run\n");
    EXPECT_EQ(
        refused("portrait spin --system top --spin 2 --steps 10 --dt 0.1 --out " + scratch.file("a.png"), scratch),
        "--spin: a top has one spin: give 1 or leave it out, got 2\n");
    // A long bad value loses its middle, never the reason at the end.
    const std::string message =
        refused("pendulum --steps 10 --dt " + std::string(5000, '7') + "x --out " + scratch.file("a.csv"), scratch);
    EXPECT_LE(message.size(), 420u);
    EXPECT_EQ(message.rfind("--dt: '777", 0), 0u) << message;
    EXPECT_EQ(message.substr(message.size() - 20), "7x' is not a number\n") << message;
    EXPECT_EQ(scratch.entries(), 0u);
}

}  // namespace
