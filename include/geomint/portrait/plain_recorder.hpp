// Records plane points into a histogram that one thread owns (the CPU's per-thread histograms):
// the pixel of the point, then a plain add. kernels/portrait_histogram.cuh has the atomic twin with
// the same call, so a per-trajectory body templated on its recorder serves both backends.
#pragma once

#include <cstdint>

#include "geomint/platform.hpp"
#include "geomint/portrait/histogram_view.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "geomint/portrait/plane.hpp"

namespace geomint::portrait {

struct PlainRecorder {
    PixelMapper mapper;
    HistogramView view;

    // One visit of p (outside the extent or NaN: nothing) by a trajectory with this energy code.
    GEOMINT_HD void operator()(PlanePoint p, std::uint32_t energy_code) const {
        view.add(mapper.pixel(p), energy_code);
    }
};

}  // namespace geomint::portrait
