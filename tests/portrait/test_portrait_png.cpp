// Portrait PNGs: they decode with libpng's read API, have the requested size and text chunks, their
// pixels are the colour map of the counts (and give back a direct histogram's counts), and a
// failed write (full device, file size limit, libpng error) is one clean exception and no file.
#include <gtest/gtest.h>
#include <png.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "portrait/png_decode.hpp"
#include "colour_map.hpp"
#include "density_histogram.hpp"
#include "energy_scale.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "portrait_png.hpp"
#include "png_writer.hpp"

namespace {

using geomint::DensityHistogram;
using geomint::portrait::HistogramCount;
using geomint::portrait::PixelGrid;
using geomint_test::ScratchFolder;

using geomint_test::decode;
using geomint_test::Decoded;

// 13 x 7 pixels (odd, not square) over [0, 13] x [0, 7]; visits with counts 0..5 in a pattern.
const PixelGrid kGrid{13, 7, {0.0, 13.0, 0.0, 7.0}};

struct Visit {
    double x, y;
    std::uint32_t energy_code;
};

std::vector<Visit> visits() {
    std::vector<Visit> v;
    std::mt19937_64 random(5);
    std::uniform_real_distribution<double> fraction(0.0, 1.0);
    for (int column = 0; column < 13; ++column) {
        for (int up = 0; up < 7; ++up) {
            const int count = (column * 3 + up * 5) % 6;
            for (int k = 0; k < count; ++k) {
                v.push_back({column + fraction(random), up + fraction(random),
                             static_cast<std::uint32_t>((column * 80000 + up * 1000 + k * 7) % 1048577)});
            }
        }
    }
    return v;
}

DensityHistogram histogram_of(const std::vector<Visit>& points, bool with_energy) {
    DensityHistogram histogram(kGrid, with_energy);
    const geomint::portrait::PixelMapper mapper(kGrid);
    for (const Visit& v : points) histogram.view().add(mapper.pixel(v.x, v.y), v.energy_code);
    return histogram;
}

// The direct histogram: visit (x, y) of the pattern belongs to column floor(x), row 6 - floor(y).
std::vector<HistogramCount> direct_counts(const std::vector<Visit>& points) {
    std::vector<HistogramCount> counts(13 * 7, 0);
    for (const Visit& v : points) ++counts[static_cast<std::size_t>((6 - int(v.y)) * 13 + int(v.x))];
    return counts;
}

const geomint::PortraitLabels kLabels{"q wrapped to (-pi, pi]", "p", "geomint portrait pendulum --width 13 --height 7"};

TEST(PortraitPng, DecodesWithTheSizeTextsAndColoursOfTheCounts) {
    ScratchFolder scratch;
    const auto points = visits();
    const DensityHistogram histogram = histogram_of(points, false);
    const std::string path = scratch.file("portrait.png");
    geomint::write_portrait_png(path, "--out", histogram, kLabels, geomint::PortraitColouring::log_density);

    const Decoded png = decode(path);
    EXPECT_EQ(png.width, 13u);
    EXPECT_EQ(png.height, 7u);
    EXPECT_EQ(png.bit_depth, 8);
    EXPECT_EQ(png.colour_type, PNG_COLOR_TYPE_RGB);
    ASSERT_EQ(png.pixels.size(), 13u * 7u * 3u);

    EXPECT_EQ(png.texts.at("Software"), "geomint");
    EXPECT_EQ(png.texts.at("Description"), kLabels.description);
    EXPECT_EQ(png.texts.at("geomint:x-axis"), kLabels.x_axis);
    EXPECT_EQ(png.texts.at("geomint:y-axis"), "p");
    EXPECT_EQ(png.texts.at("geomint:max-count"), "5");
    std::istringstream extent(png.texts.at("geomint:extent"));
    double xmin, xmax, ymin, ymax;
    ASSERT_TRUE(extent >> xmin >> xmax >> ymin >> ymax);
    EXPECT_EQ(xmin, 0.0);
    EXPECT_EQ(xmax, 13.0);
    EXPECT_EQ(ymin, 0.0);
    EXPECT_EQ(ymax, 7.0);

    // Every pixel is the colour map of its count; with counts 0..5 each count has its own colour,
    // so the image gives back the direct histogram.
    const auto expected = direct_counts(points);
    std::map<std::vector<int>, HistogramCount> count_of_colour{{{0, 0, 0}, 0}};
    for (HistogramCount c = 1; c <= 5; ++c) {
        const geomint::Rgb8 colour = geomint::viridis(geomint::log_density_level(c, 5));
        ASSERT_TRUE(count_of_colour.emplace(std::vector<int>{colour.r, colour.g, colour.b}, c).second);
    }
    for (std::size_t k = 0; k < expected.size(); ++k) {
        const std::vector<int> colour{png.pixels[3 * k], png.pixels[3 * k + 1], png.pixels[3 * k + 2]};
        ASSERT_EQ(count_of_colour.count(colour), 1u) << "pixel " << k;
        EXPECT_EQ(count_of_colour.at(colour), expected[k]) << "pixel " << k;
    }
}

TEST(PortraitPng, EnergyColouringIsRgbaWithTheEnergyRange) {
    ScratchFolder scratch;
    const auto points = visits();
    const DensityHistogram histogram = histogram_of(points, true);
    const geomint::EnergyScale energy(-1.5, 0.25);
    const std::string path = scratch.file("energy.png");
    geomint::write_portrait_png(path, "--out", histogram, kLabels, geomint::PortraitColouring::mean_energy, &energy);

    const Decoded png = decode(path);
    EXPECT_EQ(png.colour_type, PNG_COLOR_TYPE_RGB_ALPHA);
    ASSERT_EQ(png.pixels.size(), 13u * 7u * 4u);
    EXPECT_EQ(png.texts.at("geomint:energy-range"), "-1.5 0.25");
    const auto counts = histogram.counts();
    const auto sums = histogram.energy_sums();
    for (std::size_t k = 0; k < counts.size(); ++k) {
        if (counts[k] == 0) {
            EXPECT_EQ(png.pixels[4 * k + 3], 0) << k;
            continue;
        }
        const geomint::Rgb8 colour = geomint::viridis(geomint::energy_level(sums[k], counts[k]));
        EXPECT_EQ(png.pixels[4 * k], colour.r) << k;
        EXPECT_EQ(png.pixels[4 * k + 1], colour.g) << k;
        EXPECT_EQ(png.pixels[4 * k + 2], colour.b) << k;
        EXPECT_EQ(png.pixels[4 * k + 3], geomint::density_alpha(geomint::log_density_level(counts[k], 5))) << k;
    }
    EXPECT_THROW(geomint::write_portrait_png(scratch.file("no-range.png"), "--out", histogram, kLabels,
                                             geomint::PortraitColouring::mean_energy, nullptr),
                 std::invalid_argument);
    EXPECT_FALSE(std::filesystem::exists(scratch.file("no-range.png")));
}

TEST(PortraitPng, NonAsciiDescriptionsRoundTripAsUtf8) {
    ScratchFolder scratch;
    const std::string path = scratch.file("utf8.png");
    geomint::PngImage image{2, 1, 3, {1, 2, 3, 4, 5, 6}};
    geomint::write_png_file(path, "--out", image, {{"Description", "\xc3\xa9nergie \xe2\x88\x9e"}});
    EXPECT_EQ(decode(path).texts.at("Description"), "\xc3\xa9nergie \xe2\x88\x9e");
}

// Random pixels do not compress: the PNG is larger than the file size limit below.
geomint::PngImage noise_image(int width, int height) {
    geomint::PngImage image{width, height, 3, {}};
    std::mt19937 random(9);
    image.pixels.resize(static_cast<std::size_t>(width) * height * 3);
    for (auto& byte : image.pixels) byte = static_cast<std::uint8_t>(random());
    return image;
}

TEST(PortraitPng, FullDeviceGivesOneCleanError) {
    try {
        geomint::write_png_file("/dev/full", "--out", noise_image(64, 64), {});
        FAIL() << "writing to /dev/full succeeded";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("/dev/full"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

// In a child process (the limit must not touch the test runner): with `ulimit -f` at 64 KiB the
// write fails with EFBIG; the error must be an exception and leave nothing in the directory.
TEST(PortraitPng, FileSizeLimitLeavesNoFile) {
    ScratchFolder scratch;
    const std::string path = scratch.file("big.png");
    const geomint::PngImage image = noise_image(512, 512);  // ~790 KB
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const rlimit limit{65536, 65536};
        setrlimit(RLIMIT_FSIZE, &limit);
        int code = 0;
        try {
            geomint::write_png_file(path, "--out", image, {});
            code = 1;  // must not succeed
        } catch (const std::runtime_error& e) {
            code = std::string(e.what()).find("big.png") == std::string::npos ? 2 : 0;
        } catch (...) {
            code = 3;
        }
        _exit(code);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: succeeded, 2: message without the path, 3: not a runtime_error";
    EXPECT_EQ(scratch.entries(), 0u);
}

// libpng's own error (png_error's longjmp): a width over libpng's default user limit of 1000000.
TEST(PortraitPng, LibpngErrorsBecomeOneExceptionAndNoFile) {
    ScratchFolder scratch;
    const std::string path = scratch.file("wide.png");
    const geomint::PngImage image{1000001, 1, 3, std::vector<std::uint8_t>(3000003, 0)};
    try {
        geomint::write_png_file(path, "--out", image, {});
        FAIL() << "libpng accepted a width over its limit";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("libpng: "), std::string::npos) << message;
        EXPECT_NE(message.find("wide.png"), std::string::npos) << message;
    }
    EXPECT_EQ(scratch.entries(), 0u);
}

TEST(PortraitPng, BadImagesAndTextsAreRefusedBeforeWriting) {
    ScratchFolder scratch;
    const std::string path = scratch.file("bad.png");
    const geomint::PngImage ok{2, 1, 3, {1, 2, 3, 4, 5, 6}};
    EXPECT_THROW(geomint::write_png_file(path, "--out", geomint::PngImage{2, 1, 3, {1, 2, 3}}, {}),
                 std::invalid_argument);
    EXPECT_THROW(geomint::write_png_file(path, "--out", geomint::PngImage{2, 1, 2, {1, 2, 3, 4}}, {}),
                 std::invalid_argument);
    EXPECT_THROW(geomint::write_png_file(path, "--out", ok, {{"", "x"}}), std::invalid_argument);
    EXPECT_THROW(geomint::write_png_file(path, "--out", ok, {{std::string(80, 'k'), "x"}}), std::invalid_argument);
    EXPECT_THROW(geomint::write_png_file(path, "--out", ok, {{"key", std::string("a\0b", 3)}}), std::invalid_argument);
    EXPECT_EQ(scratch.entries(), 0u);
}

}  // namespace
