// The pixel grid of a portrait: a W x H image over a rectangle [xmin, xmax] x [ymin, ymax] of a
// plane, and the map from a plane point to its pixel. Host+device, so the CPU and CUDA
// accumulators bin every point identically.
#pragma once

#include "geomint/platform.hpp"
#include "geomint/portrait/plane.hpp"

namespace geomint::portrait {

struct PlaneExtent {
    double xmin, xmax, ymin, ymax;
};

// The planes' natural extents: the pendulum's q range (p is the user's choice), the two Lambert
// discs of sphere_plane, and the square of z_pair_plane.
inline constexpr double kPendulumQMin = -kPi, kPendulumQMax = kPi;
inline constexpr PlaneExtent kSpherePlaneExtent{-2 * kSqrt2, 2 * kSqrt2, -kSqrt2, kSqrt2};
inline constexpr PlaneExtent kZPairPlaneExtent{-1.0, 1.0, -1.0, 1.0};

struct PixelGrid {
    int width, height;  // pixels; validated on the host (validate_pixel_grid in src/)
    PlaneExtent extent;
};

// Pixel (row, column) of a plane point, as the index row * width + column; row 0 is the top of
// the image (largest y). Bins are half-open, [xmin + c dx, xmin + (c+1) dx), except the last
// column and the top row, which also take x = xmax and y = ymax, so every point of the closed
// extent falls in exactly one pixel; points outside it, and NaN, give -1 (dropped).
// The column is floor((x - xmin) * width / (xmax - xmin)): a subtraction and one multiplication,
// each correctly rounded and monotone, so the bins are contiguous and a point on a bin edge goes
// to the same side on every run, thread and device (no a*b+c for the compiler to fuse).
class PixelMapper {
public:
    GEOMINT_HD explicit PixelMapper(const PixelGrid& grid)
        : extent_(grid.extent),
          width_(grid.width),
          height_(grid.height),
          x_scale_(grid.width / (grid.extent.xmax - grid.extent.xmin)),
          y_scale_(grid.height / (grid.extent.ymax - grid.extent.ymin)) {}

    GEOMINT_HD long long pixel(double x, double y) const {
        if (!(x >= extent_.xmin && x <= extent_.xmax && y >= extent_.ymin && y <= extent_.ymax)) return -1;
        long long column = static_cast<long long>((x - extent_.xmin) * x_scale_);  // >= 0: truncation is floor
        long long up = static_cast<long long>((y - extent_.ymin) * y_scale_);
        if (column >= width_) column = width_ - 1;  // x = xmax, or round-off just below it
        if (up >= height_) up = height_ - 1;
        return (height_ - 1 - up) * width_ + column;
    }
    GEOMINT_HD long long pixel(PlanePoint p) const { return pixel(p.x, p.y); }

    GEOMINT_HD long long pixels() const { return static_cast<long long>(width_) * height_; }

private:
    PlaneExtent extent_;
    long long width_, height_;
    double x_scale_, y_scale_;
};

}  // namespace geomint::portrait
