// The pendulum lanes (pendulum_lanes_engine.hpp) for SSE2, which every x86-64 CPU has: 2 lanes,
// SLEEF's deterministic 1-ulp sincos without fused multiply-adds (the same bits as the wider
// lanes' and the scalar body's). Compiled with -ffp-contract=off (CMakeLists.txt).
#include "pendulum_lanes.hpp"

#if GEOMINT_WITH_LANES
#include <emmintrin.h>
#include <sleef.h>

#include "pendulum_lanes_engine.hpp"

namespace geomint {
namespace {

struct Sse2 {
    static constexpr int width = 2;
    static void sincos(const double* x, double* s, double* c) {
        const Sleef___m128d_2 r = Sleef_cinz_sincosd2_u10sse2(_mm_loadu_pd(x));
        _mm_storeu_pd(s, r.x);
        _mm_storeu_pd(c, r.y);
    }
};

}  // namespace

PendulumLaneBlock pendulum_lanes_sse2() { return &lanes::run_block<Sse2>; }

}  // namespace geomint
#endif
