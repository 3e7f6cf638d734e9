// The portrait planes (include/geomint/portrait/plane.hpp) and the pixel mapping
// (pixel_grid.hpp): exact angle wrapping, the equal-area sphere projection and its inverse,
// the chain's z-pair plane, and pixel edges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/plane.hpp"

namespace {

using namespace geomint::portrait;

TEST(PortraitWrap, PiAndMinusPiBothMapToPi) {
    EXPECT_EQ(wrap_angle(kPi), kPi);
    EXPECT_EQ(wrap_angle(-kPi), kPi);
    EXPECT_EQ(wrap_angle(0.0), 0.0);
    EXPECT_EQ(wrap_angle(kTwoPi), 0.0);
    EXPECT_EQ(wrap_angle(-kTwoPi), 0.0);
}

TEST(PortraitWrap, JustPastTheEndsWrapsAround) {
    const double above = std::nextafter(kPi, 4.0);
    EXPECT_GT(wrap_angle(above), -kPi);
    EXPECT_LT(wrap_angle(above), -kPi + 1e-15);
    const double below = std::nextafter(-kPi, -4.0);
    EXPECT_LE(wrap_angle(below), kPi);
    EXPECT_GT(wrap_angle(below), kPi - 1e-15);
    EXPECT_EQ(wrap_angle(std::nextafter(kPi, 0.0)), std::nextafter(kPi, 0.0));
    EXPECT_EQ(wrap_angle(std::nextafter(-kPi, 0.0)), std::nextafter(-kPi, 0.0));
}

// Multiples of kTwoPi by powers of two are exact doubles, so they must wrap to exactly 0.
TEST(PortraitWrap, ExactMultiplesOfThePeriodWrapToZero) {
    for (int j = 0; j < 1000; j += 7) {
        const double q = std::ldexp(kTwoPi, j);
        EXPECT_EQ(wrap_angle(q), 0.0) << j;
        EXPECT_EQ(wrap_angle(-q), 0.0) << j;
    }
}

// For |q| <= 1000 the exact value q - k kTwoPi fits in a long double (61 bits), so the wrap can
// be checked bit for bit: the result is q minus an integer number of periods, exactly.
TEST(PortraitWrap, IsExactlyQMinusWholePeriods) {
    static_assert(std::numeric_limits<long double>::digits >= 64, "x87 long double");
    std::mt19937_64 random(1);
    std::uniform_real_distribution<double> angle(-1000.0, 1000.0);
    for (int n = 0; n < 100000; ++n) {
        const double q = angle(random);
        const double r = wrap_angle(q);
        ASSERT_GT(r, -kPi) << q;
        ASSERT_LE(r, kPi) << q;
        const long double k = std::nearbyint((static_cast<long double>(q) - r) / kTwoPi);
        ASSERT_EQ(static_cast<long double>(q) - k * static_cast<long double>(kTwoPi), static_cast<long double>(r)) << q;
    }
}

TEST(PortraitWrap, HugeAnglesStayInRangeAndNonFiniteGiveNaN) {
    for (const double q : {1e300, -1e300, 1e17, -3.7e22, std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::denorm_min()}) {
        const double r = wrap_angle(q);
        EXPECT_GT(r, -kPi) << q;
        EXPECT_LE(r, kPi) << q;
    }
    EXPECT_TRUE(std::isnan(wrap_angle(NAN)));
    EXPECT_TRUE(std::isnan(wrap_angle(INFINITY)));
    EXPECT_TRUE(std::isnan(wrap_angle(-INFINITY)));
    const PixelMapper mapper(PixelGrid{8, 8, {kPendulumQMin, kPendulumQMax, -1.0, 1.0}});
    EXPECT_EQ(mapper.pixel(pendulum_plane(INFINITY, 0.0)), -1);
    EXPECT_EQ(mapper.pixel(pendulum_plane(0.0, NAN)), -1);
    EXPECT_GE(mapper.pixel(pendulum_plane(-kPi, 0.0)), 0);
}

TEST(PortraitSphere, KnownPoints) {
    const auto expect_point = [](PlanePoint p, double x, double y) {
        EXPECT_NEAR(p.x, x, 1e-15);
        EXPECT_NEAR(p.y, y, 1e-15);
    };
    expect_point(sphere_plane(0, 0, 1), -kSqrt2, 0);  // north pole: centre of the left disc
    expect_point(sphere_plane(0, 0, -1), kSqrt2, 0);  // south pole: centre of the right disc
    expect_point(sphere_plane(1, 0, 0), 0, 0);        // where the discs touch
    expect_point(sphere_plane(-1, 0, 0), -2 * kSqrt2, 0);
    expect_point(sphere_plane(0, 1, 0), -kSqrt2, kSqrt2);
    expect_point(sphere_plane(0, -1, 0), -kSqrt2, -kSqrt2);
    expect_point(sphere_plane(0, 0, 7.5), -kSqrt2, 0);  // normalised first
    // Lambert: the distance from the pole's centre is sqrt(2 (1 - |z|)); (0.6, 0, -0.8) is seen from below.
    expect_point(sphere_plane(0.6, 0, -0.8), kSqrt2 - std::sqrt(2 * 0.2), 0);
    expect_point(sphere_plane(0, 0.6, 0.8), -kSqrt2, std::sqrt(2 * 0.2));
}

TEST(PortraitSphere, UndefinedDirectionsGiveNoPoint) {
    for (const PlanePoint p : {sphere_plane(0, 0, 0), sphere_plane(NAN, 0, 1), sphere_plane(INFINITY, 0, 0)}) {
        EXPECT_TRUE(std::isnan(p.x) && std::isnan(p.y));
        EXPECT_EQ(PixelMapper(PixelGrid{16, 8, kSpherePlaneExtent}).pixel(p), -1);
    }
}

std::vector<SpherePoint> uniform_sphere_points(std::size_t n, std::uint64_t seed) {
    // Archimedes: z uniform in [-1, 1] and an independent uniform longitude are uniform on the sphere.
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> height(-1.0, 1.0), longitude(-kPi, kPi);
    std::vector<SpherePoint> points(n);
    for (auto& p : points) {
        const double z = height(random), phi = longitude(random), rho = std::sqrt(1.0 - z * z);
        p = {rho * std::cos(phi), rho * std::sin(phi), z};
    }
    return points;
}

// Every unit vector, the equator included, lands inside its hemisphere's disc and inside the
// extent, and the inverse gives the vector back.
TEST(PortraitSphere, InsideItsDiscAndInvertible) {
    auto points = uniform_sphere_points(200000, 2);
    for (int k = 0; k < 1000; ++k) {  // the equator, where round-off could push a point out
        const double phi = kTwoPi * k / 1000.0;
        points.push_back({std::cos(phi), std::sin(phi), 0.0});
    }
    const PixelMapper mapper(PixelGrid{512, 256, kSpherePlaneExtent});
    for (const auto& s : points) {
        const PlanePoint p = sphere_plane(s.x, s.y, s.z);
        const double centre = s.z >= 0 ? -kSqrt2 : kSqrt2;
        ASSERT_LE(std::hypot(p.x - centre, p.y), kSqrt2 * (1 + 4e-16)) << s.x << " " << s.y << " " << s.z;
        ASSERT_GE(mapper.pixel(p), 0) << s.x << " " << s.y << " " << s.z;
        if (s.z != 0.0) {
            ASSERT_EQ(p.x<0, s.z> 0);  // the left disc is the north
        }
        const SpherePoint back = sphere_from_plane(p);
        ASSERT_NEAR(back.x, s.x, 1e-13);
        ASSERT_NEAR(back.y, s.y, 1e-13);
        ASSERT_NEAR(back.z, s.z, 1e-13);
    }
}

// Upper quantile of chi-square with nu degrees of freedom at the standard-normal quantile z
// (Wilson-Hilferty: (X/nu)^(1/3) is nearly normal; relative error < 1e-3 for nu > 100).
double chi_square_quantile(double nu, double z) {
    const double a = 2.0 / (9.0 * nu);
    return nu * std::pow(1.0 - a + z * std::sqrt(a), 3);
}

// Pearson's statistic for uniform points on the sphere over 2 K M cells of equal plane area:
// in each disc (radius sqrt 2, centred at -+sqrt 2), K rings between radii sqrt(2 k / K) (equal
// areas 2 pi / K) times M equal angular sectors. Equal-area projection => each cell has
// probability 1 / (2 K M), and the statistic follows chi-square with 2 K M - 1 degrees of freedom.
template <class Projection>
double equal_area_chi_square(const std::vector<SpherePoint>& points, int rings, int sectors, Projection project,
                             double radius) {
    std::vector<double> observed(static_cast<std::size_t>(2 * rings * sectors), 0.0);
    for (const auto& s : points) {
        const PlanePoint p = project(s);
        const bool left = p.x <= 0.0;
        const double a = p.x - (left ? -radius : radius), b = p.y;
        const double r2 = (a * a + b * b) / (radius * radius);  // in [0, 1]
        const int ring = std::min(rings - 1, static_cast<int>(r2 * rings));
        const int sector = std::min(sectors - 1, static_cast<int>((std::atan2(b, a) + kPi) / kTwoPi * sectors));
        observed[static_cast<std::size_t>(((left ? 0 : rings) + ring) * sectors + sector)] += 1;
    }
    const double expected = double(points.size()) / double(observed.size());
    double chi2 = 0;
    for (const double o : observed) chi2 += (o - expected) * (o - expected) / expected;
    return chi2;
}

TEST(PortraitSphere, EqualAreaByChiSquare) {
    constexpr int kRings = 8, kSectors = 16;  // 256 cells, 781 expected points each
    const auto points = uniform_sphere_points(200000, 3);
    // Rejected at significance 1e-6 (z = 4.7534): a correct projection fails once in a million seeds.
    const double bound = chi_square_quantile(2 * kRings * kSectors - 1, 4.7534);
    const double lambert = equal_area_chi_square(
        points, kRings, kSectors, [](const SpherePoint& s) { return sphere_plane(s.x, s.y, s.z); }, kSqrt2);
    EXPECT_LT(lambert, bound);
    // The same test rejects a projection that is not equal-area (orthographic, radius 1 discs),
    // so it can fail.
    const double orthographic = equal_area_chi_square(
        points, kRings, kSectors,
        [](const SpherePoint& s) {
            return PlanePoint{s.z >= 0 ? -1.0 + s.x : 1.0 - s.x, s.y};
        },
        1.0);
    EXPECT_GT(orthographic, bound);
}

TEST(PortraitZPair, ClampsRoundOffAndKeepsNaN) {
    const PlanePoint p = z_pair_plane(0.25, -0.5);
    EXPECT_EQ(p.x, 0.25);
    EXPECT_EQ(p.y, -0.5);
    EXPECT_EQ(z_pair_plane(1.0 + 1e-15, -1.0 - 1e-15).x, 1.0);
    EXPECT_EQ(z_pair_plane(1.0 + 1e-15, -1.0 - 1e-15).y, -1.0);
    EXPECT_TRUE(std::isnan(z_pair_plane(NAN, 0.0).x));
    const PixelMapper mapper(PixelGrid{10, 10, kZPairPlaneExtent});
    EXPECT_EQ(mapper.pixel(z_pair_plane(1.0 + 1e-15, 1.0)), 9);  // top-right pixel
    EXPECT_EQ(mapper.pixel(z_pair_plane(NAN, 0.0)), -1);
}

// A 4 x 2 grid over [0, 4] x [0, 2]: unit pixels, exact edges.
TEST(PortraitPixels, HalfOpenBinsWithTheRightAndTopEdgesIncluded) {
    const PixelMapper mapper(PixelGrid{4, 2, {0.0, 4.0, 0.0, 2.0}});
    EXPECT_EQ(mapper.pixels(), 8);
    EXPECT_EQ(mapper.pixel(0.0, 0.0), 4);  // bottom-left: row 1, column 0
    EXPECT_EQ(mapper.pixel(0.5, 1.5), 0);  // top-left
    EXPECT_EQ(mapper.pixel(1.0, 0.5), 5);  // x = 1 starts column 1
    EXPECT_EQ(mapper.pixel(std::nextafter(1.0, 0.0), 0.5), 4);
    EXPECT_EQ(mapper.pixel(2.0, 1.0), 2);  // y = 1 starts the top row
    EXPECT_EQ(mapper.pixel(std::nextafter(2.0, 0.0), std::nextafter(1.0, 0.0)), 5);
    EXPECT_EQ(mapper.pixel(4.0, 2.0), 3);  // the top-right corner is inside
    EXPECT_EQ(mapper.pixel(4.0, 0.0), 7);
    EXPECT_EQ(mapper.pixel(std::nextafter(4.0, 5.0), 1.0), -1);
    EXPECT_EQ(mapper.pixel(std::nextafter(0.0, -1.0), 1.0), -1);
    EXPECT_EQ(mapper.pixel(1.0, std::nextafter(2.0, 3.0)), -1);
    EXPECT_EQ(mapper.pixel(1.0, -1e-300), -1);
    EXPECT_EQ(mapper.pixel(NAN, 1.0), -1);
    EXPECT_EQ(mapper.pixel(1.0, NAN), -1);
}

// An extent whose bin width is not a double ([-pi, pi] over 7 columns): sweeping x upwards
// through the extent, the column never decreases, every column is hit, and both ends are in.
TEST(PortraitPixels, ColumnsAreContiguousAndMonotone) {
    const PixelMapper mapper(PixelGrid{7, 1, {-kPi, kPi, 0.0, 1.0}});
    long long previous = 0;
    std::vector<int> hits(7, 0);
    const int n = 100000;
    for (int k = 0; k <= n; ++k) {
        const double x = k == n ? kPi : -kPi + kTwoPi * k / n;
        const long long column = mapper.pixel(x, 0.5);
        ASSERT_GE(column, previous) << x;
        ASSERT_LE(column, previous + 1) << x;
        ++hits[static_cast<std::size_t>(column)];
        previous = column;
    }
    EXPECT_EQ(mapper.pixel(-kPi, 0.5), 0);
    EXPECT_EQ(mapper.pixel(kPi, 0.5), 6);
    for (const int h : hits) EXPECT_GT(h, 0);
}

}  // namespace
