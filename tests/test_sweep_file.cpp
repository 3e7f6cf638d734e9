// Sweep files in process: the TOML reader (values as the CLI spells them, lines, errors), the
// writer (every value reads back the same), and that every option of `geomint pendulum` and
// `geomint spin` is expressible as a key and a printed configuration parses back to the same run.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "pendulum_command.hpp"
#include "spin_command.hpp"
#include "sweep_arguments.hpp"
#include "sweep_file.hpp"
#include "usage_error.hpp"

namespace {

using geomint::SweepFile;
using geomint::SweepSetting;
using geomint::UsageError;

std::string error_of(const std::string& text) {
    try {
        geomint::parse_sweep_text(text, "f.toml");
    } catch (const UsageError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(SweepFileReader, ValuesReadAsTheCommandLineSpellsThem) {
    const SweepFile f = geomint::parse_sweep_text(
        "# comment\ncommand = \"pendulum\"\nsteps = 1000\ndt = 0.1\nt-end = 1000.0\nq0 = \"0.1:3.1:31\"\n"
        "inertia = [1, 2.5, -4]\nexact = true\nbig = 1e22\nneg = -0.0\n",
        "f.toml");
    EXPECT_EQ(f.command, "pendulum");
    EXPECT_EQ(f.command_line, 2u);
    const std::vector<std::string> keys{"steps", "dt", "t-end", "q0", "inertia", "exact", "big", "neg"};
    const std::vector<std::string> texts{"1000", "0.1", "1000.0", "0.1:3.1:31", "1,2.5,-4", "true", "1e+22", "-0.0"};
    ASSERT_EQ(f.settings.size(), keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k) {
        EXPECT_EQ(f.settings[k].key, keys[k]);  // in the file's order, not sorted
        EXPECT_EQ(f.settings[k].text, texts[k]) << keys[k];
        EXPECT_EQ(f.settings[k].line, k + 3) << keys[k];
    }
    EXPECT_EQ(f.settings[4].kind, SweepSetting::Kind::list);
    EXPECT_EQ(f.settings[5].kind, SweepSetting::Kind::boolean);
    EXPECT_EQ(f.settings[0].kind, SweepSetting::Kind::scalar);
}

TEST(SweepFileReader, ValuesOfOtherTypesAreMarked) {
    const SweepFile f = geomint::parse_sweep_text(
        "command = \"spin\"\na = 1979-05-27\nb = {x = 1}\nc = [\"1\", 2]\nd = [[1], [2]]\n", "f.toml");
    ASSERT_EQ(f.settings.size(), 4u);
    for (const SweepSetting& s : f.settings) EXPECT_EQ(s.kind, SweepSetting::Kind::other) << s.key;
    EXPECT_EQ(f.settings[0].text, "a date");
    EXPECT_EQ(f.settings[1].text, "a table");
}

TEST(SweepFileReader, APortraitTableGivesItsKeysMarkedInPortrait) {
    const SweepFile f = geomint::parse_sweep_text(
        "command = \"spin\"\nsteps = 5\n\n[portrait]\nwidth = 64\nplane = \"z-pair\"\n", "f.toml");
    EXPECT_TRUE(f.portrait);
    EXPECT_EQ(f.portrait_line, 4u);
    ASSERT_EQ(f.settings.size(), 3u);
    EXPECT_EQ(f.settings[0].key, "steps");
    EXPECT_FALSE(f.settings[0].in_portrait);
    EXPECT_EQ(f.settings[1].key, "width");
    EXPECT_EQ(f.settings[1].line, 5u);
    EXPECT_EQ(f.settings[1].text, "64");
    EXPECT_TRUE(f.settings[1].in_portrait);
    EXPECT_EQ(f.settings[2].text, "z-pair");
    EXPECT_TRUE(f.settings[2].in_portrait);
    EXPECT_FALSE(
        geomint::parse_sweep_text("command = \"spin\"\nportrait = 1\n", "f.toml").portrait);  // no table: a key
}

TEST(SweepFileWriter, APortraitTableFollowsTheTopLevelKeysAndReadsBack) {
    const std::string text = geomint::render_sweep_file(
        "pendulum", {{"width", "61", false, true}, {"q0", "-1:1:5", false, false}, {"quiet", "true", true, false}},
        true);
    EXPECT_EQ(text.substr(text.find("command")),
              "command = \"pendulum\"\nq0 = \"-1:1:5\"\nquiet = true\n\n[portrait]\nwidth = 61\n");
    const SweepFile back = geomint::parse_sweep_text(text, "f.toml");
    EXPECT_TRUE(back.portrait);
    ASSERT_EQ(back.settings.size(), 3u);
    EXPECT_TRUE(back.settings[2].in_portrait);
    EXPECT_EQ(back.settings[2].key, "width");
    // An empty table still marks a portrait.
    EXPECT_TRUE(geomint::parse_sweep_text(geomint::render_sweep_file("spin", {}, true), "f.toml").portrait);
    EXPECT_FALSE(geomint::parse_sweep_text(geomint::render_sweep_file("spin", {}, false), "f.toml").portrait);
}

TEST(SweepFileReader, ErrorsNameTheFileLineAndKey) {
    EXPECT_EQ(error_of("steps = 1\n"), "f.toml: command: missing key: the command to run (pendulum or spin)");
    EXPECT_EQ(error_of("command = 1\n"), "f.toml:1: command: must be a string (pendulum or spin)");
    EXPECT_EQ(error_of("command = \"spin\"\nsteps = 1\nsteps = 2\n").rfind("f.toml:3: not a valid TOML file: ", 0), 0u);
    EXPECT_EQ(error_of("command = \"spin\"\nq0 = 1e400\n").rfind("f.toml:2: ", 0), 0u);
    EXPECT_EQ(error_of("command = \"spin\"\n\nq0 = \n").rfind("f.toml:3: ", 0), 0u);
}

TEST(SweepFileReader, FilesAreAsciiWithEscapesInStrings) {
    EXPECT_EQ(error_of("command = \"spin\"\n\nout = \"caf\xc3\xa9.csv\"\n"),
              "f.toml:3: non-ASCII byte in a sweep file; write such characters in strings as \\uXXXX escapes");
    const SweepFile f = geomint::parse_sweep_text("command = \"spin\"\nout = \"caf\\u00e9.csv\"\n", "f.toml");
    EXPECT_EQ(f.settings.at(0).text, "caf\xc3\xa9.csv");
}

TEST(SweepFileWriter, EveryTextReadsBackTheSame) {
    const std::vector<std::string> texts{"0.1",        "1e-3", "+1",     "1_000", "0x10",
                                         "0:1:5",      "-",    "1,2,4",  "1, 2",  "inf",
                                         "nan",        "1000", "1000.0", "-0",    "",
                                         "a\"b\\c",    "x\ny", "\x7f",   "1e22",  "[1]",
                                         "1 # c\nz=1", "true", "-1",     "1,x",   "caf\xc3\xa9 \xe2\x98\x83"};
    std::vector<geomint::SweepEntry> entries;
    for (std::size_t k = 0; k < texts.size(); ++k) entries.push_back({"k" + std::to_string(k), texts[k], false});
    entries.push_back({"flag-on", "true", true});
    entries.push_back({"flag-off", "false", true});
    const std::string written = geomint::render_sweep_file("pendulum", entries);
    const SweepFile back = geomint::parse_sweep_text(written, "w.toml");
    EXPECT_EQ(back.command, "pendulum");
    ASSERT_EQ(back.settings.size(), entries.size()) << written;
    for (std::size_t k = 0; k < entries.size(); ++k) {
        EXPECT_EQ(back.settings[k].key, entries[k].key);
        EXPECT_EQ(back.settings[k].text, entries[k].text) << written;
    }
    // Numbers that read back as themselves are bare, the rest strings; lists of numbers are arrays.
    EXPECT_NE(written.find("k0 = 0.1\n"), std::string::npos) << written;
    EXPECT_NE(written.find("k1 = \"1e-3\"\n"), std::string::npos) << written;
    EXPECT_NE(written.find("k7 = [1,2,4]\n"), std::string::npos) << written;
    EXPECT_NE(written.find("k12 = 1000.0\n"), std::string::npos) << written;
    EXPECT_NE(written.find("flag-on = true\n"), std::string::npos) << written;
    EXPECT_EQ(back.settings[entries.size() - 1].kind, SweepSetting::Kind::boolean);
    EXPECT_TRUE(
        std::all_of(written.begin(), written.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }));
}

// The geomint command line as main() builds it (the family commands only).
struct Commands {
    Commands() {
        pendulum_command = geomint::add_pendulum_command(app, pendulum);
        spin_command = geomint::add_spin_command(app, spin);
    }
    CLI::App app{"test", "geomint"};
    geomint::PendulumOptions pendulum;
    geomint::SpinOptions spin;
    CLI::App *pendulum_command, *spin_command;
};

void parse(Commands& c, std::vector<std::string> arguments) {
    std::reverse(arguments.begin(), arguments.end());
    c.app.parse(arguments);
}

// Every option of both commands (bar --help and --print-config) is a key whose value reaches it.
TEST(SweepArguments, EveryOptionIsExpressible) {
    Commands reference;
    for (const CLI::App* command : {reference.pendulum_command, reference.spin_command}) {
        int checked = 0;
        for (const CLI::Option* option : command->get_options()) {
            const std::string name = option->get_name();
            // These stop or continue a run rather than describe one (tests/resume/ checks --resume).
            if (name == "--help" || name == "--print-config" || name == "--resume") continue;
            ASSERT_EQ(name.rfind("--", 0), 0u) << name;
            const bool flag = option->get_expected_max() == 0;
            SweepFile file{"f.toml", command->get_name(), 1, {}};
            file.settings.push_back({name.substr(2), 7, flag ? SweepSetting::Kind::boolean : SweepSetting::Kind::scalar,
                                     flag ? "true" : "-value:1"});
            Commands c;
            const std::vector<std::string> arguments = geomint::sweep_arguments(file, c.app);
            ASSERT_EQ(arguments.size(), 2u) << name;
            EXPECT_EQ(arguments[1], flag ? name : name + "=-value:1");
            parse(c, arguments);
            const CLI::Option* parsed = c.app.get_subcommand(command->get_name())->get_option(name);
            EXPECT_EQ(parsed->count(), 1u) << name;
            if (!flag) EXPECT_EQ(parsed->as<std::string>(), "-value:1") << name;
            ++checked;
        }
        EXPECT_GE(checked, 15) << command->get_name();
    }
}

std::string error_of(const SweepFile& file) {
    Commands c;
    try {
        geomint::sweep_arguments(file, c.app);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(SweepArguments, UnknownKeysAndWrongTypesNameKeyAndLine) {
    using Kind = SweepSetting::Kind;
    EXPECT_EQ(error_of(SweepFile{"f.toml", "pendulm", 2, {}}),
              "f.toml:2: command: unknown command 'pendulm' (valid: pendulum, spin)");
    EXPECT_EQ(error_of(SweepFile{"f.toml", "pendulum", 1, {{"qq0", 5, Kind::scalar, "1"}}}),
              "f.toml:5: qq0: unknown key (not an option of geomint pendulum; see its --help)");
    EXPECT_EQ(error_of(SweepFile{"f.toml", "pendulum", 1, {{"help", 3, Kind::boolean, "true"}}})
                  .rfind("f.toml:3: help: unknown key", 0),
              0u);
    EXPECT_EQ(error_of(SweepFile{"f.toml", "pendulum", 1, {{"print-config", 3, Kind::boolean, "true"}}})
                  .rfind("f.toml:3: print-config: unknown key", 0),
              0u);
    EXPECT_EQ(
        error_of(SweepFile{"f.toml", "spin", 1, {{"wave", 3, Kind::scalar, "1"}, {"exact", 4, Kind::scalar, "1"}}}),
        "f.toml:4: exact: must be true or false, not '1'");
    EXPECT_EQ(error_of(SweepFile{"f.toml", "spin", 1, {{"steps", 6, Kind::boolean, "true"}}}),
              "f.toml:6: steps: must be a string, a number or an array of numbers, not a boolean");
    EXPECT_EQ(error_of(SweepFile{"f.toml", "spin", 1, {{"s0", 2, Kind::other, "a table"}}}),
              "f.toml:2: s0: must be a string, a number or an array of numbers, not a table");
}

TEST(SweepArguments, ErrorsOfTheCommandAreLocatedInTheFile) {
    Commands c;
    const SweepFile file{"f.toml", "pendulum", 1, {{"q0", 4, SweepSetting::Kind::scalar, "x"}}};
    const UsageError located = geomint::locate_in_file(file, *c.pendulum_command, "--q0: not a number 'x' (see --p0)");
    EXPECT_STREQ(located.what(), "f.toml:4: q0: not a number 'x' (see p0)");
    const UsageError missing = geomint::locate_in_file(file, *c.pendulum_command, "--dt: give --dt or --t-end");
    EXPECT_STREQ(missing.what(), "f.toml: dt: give dt or t-end");
}

// The printed configuration is a fixed point: read back and parsed again, it prints the same.
TEST(SweepArguments, ConfigurationParsesBackToTheSameRun) {
    const std::vector<std::vector<std::string>> runs{
        {"pendulum", "--scheme", "simpson", "--q0", "0.1:3.1:31", "--p0", "-1e-3", "--steps", "100", "--t-end", "2",
         "--exact", "--out", "-", "--chunk-size", "7"},
        {"spin", "--system", "chain", "--spins", "5", "--random", "3", "--seed", "18446744073709551615", "--steps",
         "10", "--dt", "0.05", "--out", "a b.csv", "--precision", "float"},
        {"spin", "--inertia", "1,2,4", "--s0", "1,0,0", "--steps", "10", "--dt", "0.05", "--out", "x.csv"}};
    for (const std::vector<std::string>& run : runs) {
        Commands first;
        parse(first, run);
        const CLI::App* command = first.app.get_subcommand(run[0]);
        const std::string text = geomint::canonical_configuration(*command, {});
        Commands second;
        parse(second, geomint::sweep_arguments(geomint::parse_sweep_text(text, "c.toml"), second.app));
        EXPECT_EQ(geomint::canonical_configuration(*second.app.get_subcommand(run[0]), {}), text);
        // Every value given appears as given.
        for (std::size_t k = 1; k + 1 < run.size(); ++k)
            if (run[k].rfind("--", 0) == 0 && run[k + 1].rfind("--", 0) != 0)
                EXPECT_EQ(command->get_option(run[k])->as<std::string>(), run[k + 1]);
    }
}

}  // namespace
