// The arithmetic limit of a pendulum step on this CPU: how many sin+cos pairs one core evaluates
// per second with glibc's scalar sin and cos, and with glibc's vector math library (libmvec) at
// 4 lanes (AVX2) and 8 lanes (AVX-512), and with SLEEF's deterministic sincos (the one geomint's
// host code and SIMD lanes use, docs/mathematics.md §1.7: scalar, and 8 lanes without and with
// FMA), plus each one's largest error in ulps against long double. Every Newmark Newton iteration needs one sin and one
// cos of the same argument, so this bounds what any CPU path of geomint can reach (issue 9: the vectorized CPU path).
//   build/bench/bench_vector_math --benchmark_counters_tabular=true
// Vector widths the CPU lacks are skipped with the reason.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <cmath>
#include <cstddef>
#include <vector>

// libmvec's vector variants (x86_64 vector function ABI names): d = AVX2, e = AVX-512.
#pragma GCC push_options
#pragma GCC target("avx2,fma")
extern "C" __m256d _ZGVdN4v_sin(__m256d);
extern "C" __m256d _ZGVdN4v_cos(__m256d);
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx512f")
extern "C" __m512d _ZGVeN8v_sin(__m512d);
extern "C" __m512d _ZGVeN8v_cos(__m512d);
#pragma GCC pop_options

#if GEOMINT_WITH_SLEEF
#include "geomint/elementary_functions.hpp"  // declares Sleef_cinz_sincosd1_u10purec
// SLEEF's 8-lane sincos, declared as <sleef.h> declares them for an AVX-512 file (a struct of two
// vectors), since this file is not compiled for AVX-512 as a whole.
#pragma GCC push_options
#pragma GCC target("avx512f")
struct SleefPair512 {
    __m512d x, y;
};
extern "C" SleefPair512 Sleef_cinz_sincosd8_u10avx512fnofma(__m512d);
extern "C" SleefPair512 Sleef_finz_sincosd8_u10avx512f(__m512d);
#pragma GCC pop_options
#endif

namespace {

constexpr std::size_t kValues = 4096;  // fits in L1 with its results: arithmetic, not memory

// Arguments spread over (-pi, pi], where the pendulum's angles live.
std::vector<double> arguments() {
    std::vector<double> x(kValues);
    for (std::size_t i = 0; i < kValues; ++i) x[i] = -M_PI + 2 * M_PI * (double(i) + 0.5) / double(kValues);
    return x;
}

// Largest error in units of the last place of the double result, against long double.
double ulp_error(double computed, long double exact) {
    const double rounded = double(exact);
    const double ulp = std::nextafter(std::fabs(rounded), INFINITY) - std::fabs(rounded);
    return double(std::fabs((long double)computed - exact) / ulp);
}

using Kernel = void (*)(const double*, double*, double*, std::size_t);

void scalar_kernel(const double* x, double* s, double* c, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        s[i] = std::sin(x[i]);
        c[i] = std::cos(x[i]);
    }
}

__attribute__((target("avx2,fma"))) void avx2_kernel(const double* x, double* s, double* c, std::size_t n) {
    for (std::size_t i = 0; i < n; i += 4) {
        const __m256d v = _mm256_loadu_pd(x + i);
        _mm256_storeu_pd(s + i, _ZGVdN4v_sin(v));
        _mm256_storeu_pd(c + i, _ZGVdN4v_cos(v));
    }
}

__attribute__((target("avx512f"))) void avx512_kernel(const double* x, double* s, double* c, std::size_t n) {
    for (std::size_t i = 0; i < n; i += 8) {
        const __m512d v = _mm512_loadu_pd(x + i);
        _mm512_storeu_pd(s + i, _ZGVeN8v_sin(v));
        _mm512_storeu_pd(c + i, _ZGVeN8v_cos(v));
    }
}

#if GEOMINT_WITH_SLEEF
void sleef_scalar_kernel(const double* x, double* s, double* c, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const Sleef_double_2 r = Sleef_cinz_sincosd1_u10purec(x[i]);
        s[i] = r.x;
        c[i] = r.y;
    }
}

__attribute__((target("avx512f"))) void sleef_avx512_kernel(const double* x, double* s, double* c, std::size_t n) {
    for (std::size_t i = 0; i < n; i += 8) {
        const SleefPair512 r = Sleef_cinz_sincosd8_u10avx512fnofma(_mm512_loadu_pd(x + i));
        _mm512_storeu_pd(s + i, r.x);
        _mm512_storeu_pd(c + i, r.y);
    }
}

__attribute__((target("avx512f,fma"))) void sleef_avx512_fma_kernel(const double* x, double* s, double* c,
                                                                    std::size_t n) {
    for (std::size_t i = 0; i < n; i += 8) {
        const SleefPair512 r = Sleef_finz_sincosd8_u10avx512f(_mm512_loadu_pd(x + i));
        _mm512_storeu_pd(s + i, r.x);
        _mm512_storeu_pd(c + i, r.y);
    }
}
#endif

void run(benchmark::State& state, Kernel kernel, bool supported, const char* missing) {
    if (!supported) {
        state.SkipWithError(missing);
        return;
    }
    const std::vector<double> x = arguments();
    std::vector<double> s(kValues), c(kValues);
    for (auto _ : state) {
        kernel(x.data(), s.data(), c.data(), kValues);
        benchmark::DoNotOptimize(s.data());
        benchmark::DoNotOptimize(c.data());
        benchmark::ClobberMemory();
    }
    double worst = 0;
    for (std::size_t i = 0; i < kValues; ++i) {
        worst = std::fmax(worst, ulp_error(s[i], std::sin((long double)x[i])));
        worst = std::fmax(worst, ulp_error(c[i], std::cos((long double)x[i])));
    }
    state.counters["max_ulp"] = worst;
    state.counters["sincos_per_s"] = benchmark::Counter(double(kValues), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_sincos_scalar_glibc(benchmark::State& state) { run(state, scalar_kernel, true, ""); }
void BM_sincos_libmvec_avx2(benchmark::State& state) {
    run(state, avx2_kernel, __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"), "no AVX2 on this CPU");
}
void BM_sincos_libmvec_avx512(benchmark::State& state) {
    run(state, avx512_kernel, __builtin_cpu_supports("avx512f"), "no AVX-512 on this CPU");
}
#if GEOMINT_WITH_SLEEF
void BM_sincos_sleef_scalar(benchmark::State& state) { run(state, sleef_scalar_kernel, true, ""); }
void BM_sincos_sleef_avx512_no_fma(benchmark::State& state) {
    run(state, sleef_avx512_kernel, __builtin_cpu_supports("avx512f"), "no AVX-512 on this CPU");
}
void BM_sincos_sleef_avx512_fma(benchmark::State& state) {
    run(state, sleef_avx512_fma_kernel, __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma"),
        "no AVX-512 with FMA on this CPU");
}
#endif

}  // namespace

BENCHMARK(BM_sincos_scalar_glibc);
BENCHMARK(BM_sincos_libmvec_avx2);
BENCHMARK(BM_sincos_libmvec_avx512);
#if GEOMINT_WITH_SLEEF
BENCHMARK(BM_sincos_sleef_scalar);
BENCHMARK(BM_sincos_sleef_avx512_no_fma);
BENCHMARK(BM_sincos_sleef_avx512_fma);
#endif
