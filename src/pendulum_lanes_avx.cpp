// The pendulum lanes (pendulum_lanes_engine.hpp) for AVX2: 4 lanes, SLEEF's deterministic 1-ulp
// AVX sincos without fused multiply-adds (the same bits as the AVX-512 lanes' and the scalar body's).
// Compiled with -mavx2 -ffp-contract=off (CMakeLists.txt): AVX2 for the 256-bit integer operations
// on the lanes' masks and counters, which plain AVX lacks (it would split them into 128-bit halves).
#include "pendulum_lanes.hpp"

#if GEOMINT_WITH_LANES
#include <immintrin.h>
#include <sleef.h>

#include "pendulum_lanes_engine.hpp"

namespace geomint {
namespace {

struct Avx {
    static constexpr int width = 4;
    static void sincos(const double* x, double* s, double* c) {
        const Sleef___m256d_2 r = Sleef_cinz_sincosd4_u10avx(_mm256_loadu_pd(x));
        _mm256_storeu_pd(s, r.x);
        _mm256_storeu_pd(c, r.y);
    }
};

}  // namespace

PendulumLaneBlock pendulum_lanes_avx2() { return &lanes::run_block<Avx>; }

}  // namespace geomint
#endif
