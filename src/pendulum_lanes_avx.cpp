// The pendulum lanes (pendulum_lanes_engine.hpp) for AVX: 4 lanes, SLEEF's deterministic 1-ulp
// sincos without fused multiply-adds (the same bits as the AVX-512 lanes' and the scalar body's).
// Compiled with -mavx -ffp-contract=off (CMakeLists.txt).
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

PendulumLaneBlock pendulum_lanes_avx() { return &lanes::run_block<Avx>; }

}  // namespace geomint
#endif
