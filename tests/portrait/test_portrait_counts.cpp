// Portrait counts as HDF5 (`geomint portrait ... --out FILE.h5`) and `geomint portrait add`: the
// counts read back with the HDF5 C API equal a direct histogram of the states the run goes through
// (saved by `geomint pendulum --save-every 1`), the PNG rendered from them is the run's, the counts
// of two runs over disjoint ensembles add to those of one run over both, and portraits that do
// not match are refused naming the file, with no output.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "density_histogram.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/plane.hpp"
#include "hdf5/hdf5_reader.hpp"
#include "portrait/png_decode.hpp"

namespace {

using geomint_test::decode;
using geomint_test::Decoded;
using geomint_test::Hdf5File;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

// An ensemble on a dyadic grid (steps of 0.25): every q0 of a split run is bitwise the q0 of the
// whole run, whatever the axis arithmetic.
const std::string kRun = " --p0 -0.5:0.5:5 --steps 240 --dt 0.05 --backend cpu --quiet ";
const std::string kPortrait = " --width 61 --height 41 --p-range -2:2 --skip-steps 4 --record-every 3 ";
constexpr int kWidth = 61, kHeight = 41, kSkip = 4, kEvery = 3, kSteps = 240;

std::vector<unsigned long long> counts_of(const std::string& path, const std::string& dataset = "/counts") {
    const Hdf5File file(path);
    EXPECT_TRUE(file.ok()) << path;
    EXPECT_EQ(file.type_name(dataset), "uint64");
    EXPECT_EQ(file.shape(dataset), (std::vector<hsize_t>{kHeight, kWidth})) << "[height, width]";
    return file.read<unsigned long long>(dataset, H5T_NATIVE_ULLONG);
}

long long integer_attribute(const Hdf5File& file, const char* name) {
    long long value = -1;
    const hid_t a = H5Aopen_by_name(file.id(), "/", name, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(H5Aread(a, H5T_NATIVE_LLONG, &value), 0) << name;
    H5Aclose(a);
    return value;
}

std::vector<double> reals_attribute(const Hdf5File& file, const char* name, std::size_t n) {
    std::vector<double> values(n, -1);
    const hid_t a = H5Aopen_by_name(file.id(), "/", name, H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(H5Aread(a, H5T_NATIVE_DOUBLE, values.data()), 0) << name;
    H5Aclose(a);
    return values;
}

TEST(PortraitCounts, CountsEqualAHistogramOfTheSavedStates) {
    ScratchFolder scratch;
    const std::string states = scratch.file("states.h5"), counts = scratch.file("counts.h5");
    const std::string ensemble = "--q0 -1:0.5:7" + kRun;
    auto r = run_geomint("pendulum " + ensemble + "--save-every 1 --out " + states, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    r = run_geomint("portrait pendulum " + ensemble + kPortrait + "--out " + counts, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;

    // Every saved state of the recorded steps, binned as the portrait bins (q wrapped).
    const geomint::portrait::PixelGrid grid{
        kWidth, kHeight, {geomint::portrait::kPendulumQMin, geomint::portrait::kPendulumQMax, -2, 2}};
    const geomint::portrait::PixelMapper mapper(grid);
    const Hdf5File saved(states);
    const std::vector<hsize_t> shape = saved.shape("/states");
    ASSERT_EQ(shape, (std::vector<hsize_t>{kSteps + 1, 35, 2}));
    const std::vector<double> values = saved.reals("/states");
    std::vector<unsigned long long> expected(static_cast<std::size_t>(kWidth * kHeight), 0);
    unsigned long long recorded = 0;
    for (hsize_t n = kSkip; n <= kSteps; n += kEvery)
        for (hsize_t t = 0; t < shape[1]; ++t) {
            const double q = values[(n * shape[1] + t) * 2], p = values[(n * shape[1] + t) * 2 + 1];
            const long long pixel = mapper.pixel(geomint::portrait::pendulum_plane(q, p));
            ASSERT_GE(pixel, 0) << "the extent holds every state";
            ++expected[static_cast<std::size_t>(pixel)];
            ++recorded;
        }
    const std::vector<unsigned long long> got = counts_of(counts);
    EXPECT_TRUE(got == expected) << "the counts differ from the histogram of the saved states";
    EXPECT_EQ(recorded, 35u * 79u);  // steps 4, 7, ..., 238
    EXPECT_GT(*std::max_element(got.begin(), got.end()), 1u);

    const Hdf5File file(counts);
    EXPECT_FALSE(file.exists("/energy_sums"));  // --colour density
    EXPECT_EQ(integer_attribute(file, "width"), kWidth);
    EXPECT_EQ(integer_attribute(file, "height"), kHeight);
    EXPECT_EQ(reals_attribute(file, "extent", 4),
              (std::vector<double>{geomint::portrait::kPendulumQMin, geomint::portrait::kPendulumQMax, -2, 2}));
    EXPECT_EQ(integer_attribute(file, "skip_steps"), kSkip);
    EXPECT_EQ(integer_attribute(file, "record_every"), kEvery);
    EXPECT_EQ(integer_attribute(file, "trajectories"), 35);
    EXPECT_EQ(file.text("/", "format"), "geomint portrait counts 1");
    EXPECT_EQ(file.text("/", "command"), "pendulum");
    EXPECT_EQ(file.text("/", "model"), "pendulum");
    EXPECT_EQ(file.text("/", "scheme"), saved.text("/", "scheme"));
    EXPECT_EQ(file.text("/", "colour"), "density");
    EXPECT_EQ(file.text("/", "geomint_version"), saved.text("/", "geomint_version"));
    EXPECT_NE(file.text("/", "configuration").find("\n[portrait]\nwidth = 61\n"), std::string::npos);
}

TEST(PortraitCounts, OneFileAddedRendersTheRunsPng) {
    ScratchFolder scratch;
    for (const std::string colour : {"density", "energy"}) {
        const std::string run = "portrait pendulum --q0 -1:0.5:7" + kRun + kPortrait + "--colour " + colour;
        const std::string png = scratch.file("run.png"), h5 = scratch.file("run.h5"), added = scratch.file("add.png");
        ASSERT_EQ(run_geomint(run + " --out " + png, scratch).exit_code, 0);
        ASSERT_EQ(run_geomint(run + " --out " + h5, scratch).exit_code, 0);
        const auto r = run_geomint("portrait add --quiet " + h5 + " --out " + added, scratch);
        ASSERT_EQ(r.exit_code, 0) << r.error_output;
        EXPECT_EQ(r.error_output, "");
        const Decoded a = decode(png), b = decode(added);
        EXPECT_EQ(a.width, b.width);
        EXPECT_EQ(a.channels, b.channels);
        EXPECT_TRUE(a.pixels == b.pixels) << colour;
        // Every text chunk but the Description, whose run differs in its `out` line.
        for (const auto& [key, text] : a.texts)
            if (key != "Description") EXPECT_EQ(b.texts.at(key), text) << key;
        EXPECT_EQ(b.texts.at("Description"), Hdf5File(h5).text("/", "description"));
    }
}

TEST(PortraitCounts, TwoDisjointRunsAddToTheRunOverBoth) {
    ScratchFolder scratch;
    const std::string low = scratch.file("low.h5"), high = scratch.file("high.h5"), whole = scratch.file("whole.h5"),
                      sum = scratch.file("sum.h5"), sum_png = scratch.file("sum.png"),
                      whole_png = scratch.file("whole.png");
    for (const auto& [q0, out] :
         {std::pair<std::string, std::string>{"-1:-0.5:3", low}, {"-0.25:0.5:4", high}, {"-1:0.5:7", whole}}) {
        const auto r = run_geomint("portrait pendulum --q0 " + q0 + kRun + kPortrait + "--out " + out, scratch);
        ASSERT_EQ(r.exit_code, 0) << r.error_output;
    }
    ASSERT_EQ(
        run_geomint("portrait pendulum --q0 -1:0.5:7" + kRun + kPortrait + "--out " + whole_png, scratch).exit_code, 0);
    auto r = run_geomint("portrait add " + low + " " + high + " --out " + sum, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    EXPECT_EQ(r.error_output.rfind("geomint: added 2 portraits (35 trajectories, ", 0), 0u) << r.error_output;
    const std::vector<unsigned long long> a = counts_of(low), b = counts_of(high), both = counts_of(whole);
    EXPECT_FALSE(a == both);  // each part alone is not the whole
    std::vector<unsigned long long> added(a.size());
    for (std::size_t k = 0; k < a.size(); ++k) added[k] = a[k] + b[k];
    EXPECT_TRUE(added == both);
    EXPECT_TRUE(counts_of(sum) == both);
    const Hdf5File file(sum);
    EXPECT_EQ(integer_attribute(file, "trajectories"), 35);
    EXPECT_EQ(file.texts("/", "sources"), (std::vector<std::string>{low, high}));
    EXPECT_EQ(file.text("/", "configuration"), "");  // a sum is no single run

    // Rendered: the pixels of the PNG the run over both writes.
    r = run_geomint("portrait add --quiet " + low + " " + high + " --out " + sum_png, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    EXPECT_TRUE(decode(sum_png).pixels == decode(whole_png).pixels);
    EXPECT_EQ(decode(sum_png).texts.at("geomint:max-count"), decode(whole_png).texts.at("geomint:max-count"));
}

TEST(PortraitCounts, EnergySumsAddOnTheSameScaleOnly) {
    ScratchFolder scratch;
    const std::string run = "portrait pendulum" + kRun + kPortrait + "--colour energy --q0 ";
    const std::string a = scratch.file("a.h5"), b = scratch.file("b.h5"), sum = scratch.file("sum.h5");
    ASSERT_EQ(run_geomint(run + "-1:-0.5:3 --out " + a, scratch).exit_code, 0);
    ASSERT_EQ(run_geomint(run + "-0.25:0.5:4 --out " + b, scratch).exit_code, 0);
    // The same run twice: the same energy scale, so counts and sums double.
    auto r = run_geomint("portrait add --quiet " + a + " " + a + " --out " + sum, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    for (const char* dataset : {"/counts", "/energy_sums"}) {
        std::vector<unsigned long long> twice = counts_of(a, dataset);
        for (auto& v : twice) v *= 2;
        EXPECT_TRUE(counts_of(sum, dataset) == twice) << dataset;
    }
    EXPECT_EQ(reals_attribute(Hdf5File(sum), "energy_range", 2), reals_attribute(Hdf5File(a), "energy_range", 2));
    // Other initial energies, another scale: codes of different scales do not add.
    std::filesystem::remove(sum);
    r = run_geomint("portrait add " + a + " " + b + " --out " + sum, scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.error_output.rfind("geomint: error: " + b + ": energy_range ", 0), 0u) << r.error_output;
    EXPECT_FALSE(std::filesystem::exists(sum));
}

// With one --energy-range, runs over other initial energies share the scale: their counts and
// energy sums add to those of the run over both, and the sum renders that run's PNG.
TEST(PortraitCounts, EnergySumsOfAGivenRangeAddAcrossEnsembles) {
    ScratchFolder scratch;
    const std::string run = "portrait pendulum" + kRun + kPortrait + "--colour energy --energy-range 0:1.5 --q0 ";
    const std::string a = scratch.file("a.h5"), b = scratch.file("b.h5"), whole = scratch.file("whole.h5"),
                      sum = scratch.file("sum.h5"), sum_png = scratch.file("sum.png"),
                      whole_png = scratch.file("whole.png");
    for (const auto& [q0, out] : {std::pair<std::string, std::string>{"-1:-0.5:3", a},
                                  {"-0.25:0.5:4", b},
                                  {"-1:0.5:7", whole},
                                  {"-1:0.5:7", whole_png}}) {
        const auto r = run_geomint(run + q0 + " --out " + out, scratch);
        ASSERT_EQ(r.exit_code, 0) << r.error_output;
    }
    auto r = run_geomint("portrait add --quiet " + a + " " + b + " --out " + sum, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    for (const char* dataset : {"/counts", "/energy_sums"}) {
        const std::vector<unsigned long long> first = counts_of(a, dataset), second = counts_of(b, dataset);
        std::vector<unsigned long long> added(first.size());
        for (std::size_t k = 0; k < first.size(); ++k) added[k] = first[k] + second[k];
        EXPECT_TRUE(added == counts_of(whole, dataset)) << dataset;
        EXPECT_TRUE(counts_of(sum, dataset) == counts_of(whole, dataset)) << dataset;
    }
    EXPECT_EQ(reals_attribute(Hdf5File(sum), "energy_range", 2), (std::vector<double>{0.0, 1.5}));
    r = run_geomint("portrait add --quiet " + a + " " + b + " --out " + sum_png, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    EXPECT_TRUE(decode(sum_png).pixels == decode(whole_png).pixels);
}

TEST(PortraitCounts, EnergyRangeNeedsEnergyColours) {
    ScratchFolder scratch;
    const std::string out = scratch.file("out.png");
    for (const auto& [options, message] :
         {std::pair<std::string, std::string>{"--energy-range 0:1", "--energy-range: needs --colour energy"},
          {"--colour energy --energy-range 1:0", "--energy-range: LOW:HIGH needs LOW < HIGH"},
          {"--colour energy --energy-range 0", "--energy-range: give LOW:HIGH"}}) {
        const auto r =
            run_geomint("portrait pendulum --q0 -1:0.5:7" + kRun + kPortrait + options + " --out " + out, scratch);
        EXPECT_EQ(r.exit_code, 2) << options;
        EXPECT_EQ(r.error_output.rfind("geomint: error: " + message, 0), 0u) << r.error_output;
        EXPECT_FALSE(std::filesystem::exists(out));
    }
}

struct BadAdd {
    std::string second;   // the options of the second run (the first: kPortrait)
    std::string message;  // after "geomint: error: SECOND: "
};

class PortraitAddMismatch : public testing::TestWithParam<BadAdd> {};

TEST_P(PortraitAddMismatch, IsRefusedNamingTheFileThatDiffers) {
    ScratchFolder scratch;
    const std::string a = scratch.file("a.h5"), b = scratch.file("b.h5"), out = scratch.file("out.png");
    ASSERT_EQ(run_geomint("portrait pendulum --q0 -1:0.5:7" + kRun + kPortrait + "--out " + a, scratch).exit_code, 0);
    ASSERT_EQ(
        run_geomint("portrait pendulum --q0 -1:0.5:7" + kRun + GetParam().second + " --out " + b, scratch).exit_code,
        0);
    const auto r = run_geomint("portrait add " + a + " " + b + " --out " + out, scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.error_output.rfind("geomint: error: " + b + ": " + GetParam().message, 0), 0u) << r.error_output;
    EXPECT_NE(r.error_output.find("'" + a + "'"), std::string::npos) << r.error_output;
    EXPECT_FALSE(std::filesystem::exists(out));
    EXPECT_EQ(scratch.entries(), 2u);  // no temporary left
}

INSTANTIATE_TEST_SUITE_P(
    Attributes, PortraitAddMismatch,
    testing::Values(BadAdd{"--width 60 --height 41 --p-range -2:2 --skip-steps 4 --record-every 3", "grid 60x41 "},
                    BadAdd{"--width 61 --height 41 --skip-steps 4 --record-every 3", "grid 61x41 over "},
                    BadAdd{kPortrait + "--scheme simpson", "scheme "},
                    BadAdd{"--width 61 --height 41 --p-range -2:2 --record-every 3", "skip_steps 0 differs"},
                    BadAdd{kPortrait + "--colour energy", "colour energy differs from density"}));

TEST(PortraitAdd, InputsThatAreNotCountsFilesAreRefusedByName) {
    ScratchFolder scratch;
    const std::string csv = scratch.file("run.csv"), results = scratch.file("run.h5"), out = scratch.file("out.png");
    ASSERT_EQ(run_geomint("pendulum --q0 1" + kRun + "--out " + results, scratch).exit_code, 0);
    ASSERT_EQ(run_geomint("pendulum --q0 1" + kRun + "--out " + csv, scratch).exit_code, 0);
    for (const auto& [input, message] :
         {std::pair<std::string, std::string>{scratch.file("missing.h5"), ": cannot read: No such file"},
          {csv, ": not an HDF5 file"},
          {results, ": not a geomint portrait counts file"}}) {
        const auto r = run_geomint("portrait add " + input + " --out " + out, scratch);
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_EQ(r.error_output.rfind("geomint: error: " + input + message, 0), 0u) << r.error_output;
        EXPECT_FALSE(std::filesystem::exists(out));
    }
    const auto r = run_geomint("portrait add --out " + out, scratch);
    EXPECT_EQ(r.exit_code, 2) << "FILES is required";
    EXPECT_EQ(scratch.entries(), 2u);
}

}  // namespace
