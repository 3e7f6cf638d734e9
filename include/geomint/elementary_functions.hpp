// sin and cos of the host+device math (math §1.7). On the host, in double precision and when the
// build has SLEEF (GEOMINT_WITH_SLEEF, set for every target by CMakeLists.txt), they come from
// SLEEF's deterministic 1-ulp sincos without fused multiply-adds, whose vector forms the CPU's SIMD
// lanes call: a trajectory run by the scalar body and one run in any lane of any width then agree
// bit for bit. Elsewhere (CUDA device code, float, builds without SLEEF): the standard functions.
#pragma once

#include <cmath>

#include "geomint/platform.hpp"

#if GEOMINT_WITH_SLEEF && !defined(__CUDA_ARCH__)
// The one SLEEF function needed, declared as <sleef.h> declares it (the same guard and type, so the
// two may meet in one file) without including it: it pulls in the x86 intrinsic headers, which
// have no place in this host+device layer.
extern "C" {
#ifndef Sleef_double_2_DEFINED
typedef struct {
    double x, y;
} Sleef_double_2;
#define Sleef_double_2_DEFINED
#endif
// `const`: as <sleef.h> spells it (its CONST), so that the two declarations agree.
const Sleef_double_2 Sleef_cinz_sincosd1_u10purec(double);
}
#endif

namespace geomint {

GEOMINT_HD inline double sin_of(double x) {
#if GEOMINT_WITH_SLEEF && !defined(__CUDA_ARCH__)
    return Sleef_cinz_sincosd1_u10purec(x).x;
#else
    return std::sin(x);
#endif
}

GEOMINT_HD inline double cos_of(double x) {
#if GEOMINT_WITH_SLEEF && !defined(__CUDA_ARCH__)
    return Sleef_cinz_sincosd1_u10purec(x).y;
#else
    return std::cos(x);
#endif
}

GEOMINT_HD inline float sin_of(float x) { return std::sin(x); }
GEOMINT_HD inline float cos_of(float x) { return std::cos(x); }

}  // namespace geomint
