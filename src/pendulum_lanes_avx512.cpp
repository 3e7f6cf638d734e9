// The pendulum lanes (pendulum_lanes_engine.hpp) for AVX-512: 8 lanes, SLEEF's deterministic
// 1-ulp sincos without fused multiply-adds (the same bits as the scalar body's, elementary_functions.hpp).
// Compiled with -mavx512f -ffp-contract=off (CMakeLists.txt): nothing fused, so a lane performs
// the scalar body's roundings.
#include "pendulum_lanes.hpp"

#if GEOMINT_WITH_LANES
#include <immintrin.h>
#include <sleef.h>

#include "pendulum_lanes_engine.hpp"

namespace geomint {
namespace {

struct Avx512 {
    static constexpr int width = 8;
    static void sincos(const double* x, double* s, double* c) {
        const Sleef___m512d_2 r = Sleef_cinz_sincosd8_u10avx512fnofma(_mm512_loadu_pd(x));
        _mm512_storeu_pd(s, r.x);
        _mm512_storeu_pd(c, r.y);
    }
};

}  // namespace

PendulumLaneBlock pendulum_lanes_avx512() { return &lanes::run_block<Avx512>; }

}  // namespace geomint
#endif
