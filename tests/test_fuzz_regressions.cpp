// Inputs the fuzz targets (fuzz/, tools/run-fuzz.sh) found wrong, held fixed: each test is one
// finding, with the input as the fuzzer saved it (also in fuzz/corpus/<target>/).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "number_parsing.hpp"
#include "parameter_axis.hpp"
#include "spin_initial_conditions.hpp"
#include "sweep_file.hpp"
#include "usage_error.hpp"

namespace {

using geomint::UsageError;

// fuzz_number_parsing: "+-1" was read as -1 (the '+' was skipped and from_chars took the '-').
TEST(FuzzRegression, PlusMinusIsNotANumber) {
    for (const char* text : {"+-1", "+-0", "+-96.8", "+-1e5"}) {
        EXPECT_THROW(geomint::parse_finite_real(text, "--q0"), UsageError) << text;
        EXPECT_THROW(geomint::parse_real_list(std::string("1,") + text + ",3", 3, "--s0"), UsageError) << text;
        EXPECT_THROW(geomint::parse_parameter_axis(std::string(text) + ":1:3", "--q0"), UsageError) << text;
    }
    EXPECT_EQ(geomint::parse_finite_real("+2.5", "--q0"), 2.5);  // a lone leading '+' stays accepted
}

// fuzz_parameter_axis: with more than 2^53 values, i / (count - 1) rounds to 1 below the last
// index, and start + (stop - start) * 1 loses a small stop: 0, outside [1, 1e17].
TEST(FuzzRegression, AxisValuesStayBetweenTheEnds) {
    for (const char* text : {"1e17:1:1152921504606846976", "2555555555555555558:1:85555555555527777", "-1e308:1e308:3",
                             "1e308:-1e308:5"}) {
        const geomint::ParameterAxis axis = geomint::parse_parameter_axis(text, "--q0");
        const double low = std::min(axis.start, axis.stop), high = std::max(axis.start, axis.stop);
        for (const std::uint64_t i : {std::uint64_t{1}, axis.count / 2, axis.count - 2}) {
            const double v = axis.value(i);
            EXPECT_TRUE(std::isfinite(v) && low <= v && v <= high) << text << " value(" << i << ") = " << v;
        }
    }
}

// fuzz_spin_file: 1e-160,0,0 squares to a subnormal, whose square root is off by 6e-6, so the
// "normalised" spin had length 1.0000056.
TEST(FuzzRegression, TinySpinsAreNormalisedToUnitLength) {
    const geomint_test::ScratchFolder scratch;
    const std::string path = scratch.file("init.csv");
    std::ofstream(path) << "1e-160,0,0\n3e-158,4e-158,0\n1e-155,1e-155,1e-155\n1e300,1e300,1e300\n";
    int spins = 0;
    const std::vector<std::vector<double>> rows = geomint::read_spin_file(path, spins);
    ASSERT_EQ(spins, 1);
    ASSERT_EQ(rows.size(), 4u);
    for (const std::vector<double>& row : rows) {
        const double norm = std::sqrt(row[0] * row[0] + row[1] * row[1] + row[2] * row[2]);
        EXPECT_NEAR(norm, 1.0, 1e-14) << row[0] << "," << row[1] << "," << row[2];
    }
}

// fuzz_sweep_file: toml++ 3.3.0 reached __builtin_unreachable (undefined behaviour) testing a
// non-ASCII character such as U+FEDF or U+00A7 for whitespace; non-ASCII bytes never reach it now.
TEST(FuzzRegression, NonAsciiBytesAreRefusedBeforeToml) {
    const std::string inputs[] = {
        "\xef\xbb\x9f"
        "command = \"spin\"\r\nsteps = 1\r\n",  // as the fuzzer saved it
        "command = \"spin\"\ns = \"\"\"\\\n\xc2\xa7\"\"\"\n"};
    const std::size_t lines[] = {1, 3};
    for (std::size_t k = 0; k < 2; ++k) {
        try {
            geomint::parse_sweep_text(inputs[k], "f.toml");
            ADD_FAILURE() << "accepted: " << inputs[k];
        } catch (const UsageError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("f.toml:" + std::to_string(lines[k]) + ": non-ASCII byte", 0), 0u)
                << e.what();
        }
    }
}

// fuzz_sweep_file: inputs that failed assertions of toml++ 3.3.0 built from its headers without
// NDEBUG (a date's 'T' without digits, a control byte after '[', "[1,}"): Debian's library, which
// geomint links, reports them as TOML errors, and so must the reader, naming the line.
TEST(FuzzRegression, MalformedTomlIsAnErrorNamingTheLine) {
    const std::string control("command = \"spin\"\n[\x01\0\0\0\0\0\0\0 1\n[z]\nw = 2\n", 39);  // as saved
    for (const std::string& text : {std::string("command = \"spin\"\na = 1979-05-27Tdt:32:00Z\n"), control,
                                    std::string("command = \"spin\"\na = { x = 1, y = [1,}\n")}) {
        try {
            geomint::parse_sweep_text(text, "f.toml");
            ADD_FAILURE() << "accepted: " << text;
        } catch (const UsageError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("f.toml:2: not a valid TOML file: ", 0), 0u) << e.what();
        }
    }
}

// fuzz_sweep_file: `command` inside the [portrait] table became a setting named `command`, which
// settings never hold (the command is the file's `command`). It is refused, naming its line.
TEST(FuzzRegression, ACommandKeyInThePortraitTableIsRefused) {
    try {
        geomint::parse_sweep_text("command = \"spin\"\nsteps = 10\n\n[portrait]\ncommand = \"penduluwidtm\"", "f.toml");
        ADD_FAILURE() << "accepted";
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(),
                     "f.toml:5: portrait.command: name the command at the top level, above the [portrait] table");
    }
}

// fuzz_sweep_file: toml++ 3.3.0 writes a key holding an apostrophe bare (portrait'y = ...), which
// no TOML reader accepts, so a file written back could not be read again. Keys that cannot be
// bare are now quoted with string escapes.
TEST(FuzzRegression, KeysThatCannotBeBareAreWrittenQuoted) {
    const std::vector<geomint::SweepEntry> entries = {
        {"portrait'y", "a\"b\\c\x01", false}, {"", "1", false}, {"a.b", "2", false}, {"plain-key_1", "3", false}};
    const std::string written = geomint::render_sweep_file("pendulum", entries);
    const geomint::SweepFile back = geomint::parse_sweep_text(written, "written.toml");
    ASSERT_EQ(back.settings.size(), entries.size()) << written;
    for (std::size_t k = 0; k < entries.size(); ++k) {
        EXPECT_EQ(back.settings[k].key, entries[k].key) << written;
        EXPECT_EQ(back.settings[k].text, entries[k].text) << written;
    }
    EXPECT_NE(written.find("\nplain-key_1 = 3\n"), std::string::npos) << written;
}

// fuzz_sweep_file: a string holding a non-ASCII character through an escape ("\u00d7") was tried
// as a bare value on the way out, and toml++ 3.3.0 reached __builtin_unreachable parsing it. Only
// number-like text is tried bare now; the rest is written as an escaped string and reads back.
TEST(FuzzRegression, NonAsciiValuesAreWrittenAsEscapedStrings) {
    const std::vector<geomint::SweepEntry> entries = {{"E",
                                                       "-a\xc3\x97"
                                                       "7Qw')",
                                                       false},
                                                      {"s0", "-0,-v,11", false}};
    const std::string written = geomint::render_sweep_file("pendulum", entries);
    EXPECT_EQ(written.find('\xc3'), std::string::npos) << written;  // ASCII only
    const geomint::SweepFile back = geomint::parse_sweep_text(written, "written.toml");
    ASSERT_EQ(back.settings.size(), entries.size()) << written;
    for (std::size_t k = 0; k < entries.size(); ++k) EXPECT_EQ(back.settings[k].text, entries[k].text) << written;
}

}  // namespace
