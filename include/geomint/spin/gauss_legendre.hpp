// Gauss-Legendre nodes and weights on [0, 1] for the collocation stages (n = 2, 3, 4), the
// quadratures of AVF and collocation (n = 8, 16; math §2.2, §2.3) and the collocation Newton
// Jacobian's (n = 3, 4, 5). Host+device constant tables.
#pragma once

#include "geomint/platform.hpp"

namespace geomint::spin {

// Usage: GaussLegendre<N>::node(i), GaussLegendre<N>::weight(i), i = 0..N-1, nodes ascending.
// The values are Boost.Math's gauss<long double, N> mapped to [0, 1] (x -> (1 + x)/2,
// w -> w/2); tests/spin/test_gauss_legendre.cpp checks them against Boost.
// Why functions with a local array, not static constexpr member arrays: nvcc does not let device
// code index a host constexpr array with a run-time index; a local constexpr array works in
// both, and folds to constants when the caller's loop is unrolled.
template <int N>
struct GaussLegendre;

template <>
struct GaussLegendre<2> {
    static constexpr int size = 2;
    GEOMINT_HD static constexpr double node(int i) {
        constexpr double x[2] = {2.1132486540518711775e-01, 7.8867513459481288225e-01};
        return x[i];
    }
    GEOMINT_HD static constexpr double weight(int) { return 0.5; }
};

template <>
struct GaussLegendre<3> {
    static constexpr int size = 3;
    GEOMINT_HD static constexpr double node(int i) {
        constexpr double x[3] = {1.1270166537925831149e-01, 5.0000000000000000000e-01, 8.8729833462074168851e-01};
        return x[i];
    }
    GEOMINT_HD static constexpr double weight(int i) {
        constexpr double w[3] = {2.7777777777777777778e-01, 4.4444444444444444444e-01, 2.7777777777777777778e-01};
        return w[i];
    }
};

template <>
struct GaussLegendre<4> {
    static constexpr int size = 4;
    GEOMINT_HD static constexpr double node(int i) {
        constexpr double x[4] = {6.9431844202973712403e-02, 3.3000947820757186760e-01, 6.6999052179242813240e-01,
                                 9.3056815579702628757e-01};
        return x[i];
    }
    GEOMINT_HD static constexpr double weight(int i) {
        constexpr double w[4] = {1.7392742256872692872e-01, 3.2607257743127307129e-01, 3.2607257743127307129e-01,
                                 1.7392742256872692872e-01};
        return w[i];
    }
};

template <>
struct GaussLegendre<5> {
    static constexpr int size = 5;
    GEOMINT_HD static constexpr double node(int i) {
        constexpr double x[5] = {4.6910077030668003601e-02, 2.3076534494715845448e-01, 5.0000000000000000000e-01,
                                 7.6923465505284154552e-01, 9.5308992296933199640e-01};
        return x[i];
    }
    GEOMINT_HD static constexpr double weight(int i) {
        constexpr double w[5] = {1.1846344252809454376e-01, 2.3931433524968323402e-01, 2.8444444444444444444e-01,
                                 2.3931433524968323402e-01, 1.1846344252809454376e-01};
        return w[i];
    }
};

template <>
struct GaussLegendre<8> {
    static constexpr int size = 8;
    GEOMINT_HD static constexpr double node(int i) {
        constexpr double x[8] = {1.9855071751231884170e-02, 1.0166676129318663022e-01, 2.3723379504183550708e-01,
                                 4.0828267875217509752e-01, 5.9171732124782490248e-01, 7.6276620495816449292e-01,
                                 8.9833323870681336978e-01, 9.8014492824876811583e-01};
        return x[i];
    }
    GEOMINT_HD static constexpr double weight(int i) {
        constexpr double w[8] = {5.0614268145188129576e-02, 1.1119051722668723527e-01, 1.5685332293894364366e-01,
                                 1.8134189168918099150e-01, 1.8134189168918099150e-01, 1.5685332293894364366e-01,
                                 1.1119051722668723527e-01, 5.0614268145188129576e-02};
        return w[i];
    }
    // The same values to long double's precision, for a residual evaluated wider than double on
    // the host (AVF's last residual, WiderResidual in local_newton.hpp): rounded to double they
    // put the same error into every step's g, and the energy leaned (bench/RESULTS.md, "The energy
    // lean of DRG steps on chains, removed"). Host only: device code has no long double.
    static constexpr long double wide_node(int i) {
        constexpr long double x[8] = {1.9855071751231884170e-02L, 1.0166676129318663022e-01L,
                                      2.3723379504183550708e-01L, 4.0828267875217509752e-01L,
                                      5.9171732124782490248e-01L, 7.6276620495816449292e-01L,
                                      8.9833323870681336978e-01L, 9.8014492824876811583e-01L};
        return x[i];
    }
    static constexpr long double wide_weight(int i) {
        constexpr long double w[8] = {5.0614268145188129576e-02L, 1.1119051722668723527e-01L,
                                      1.5685332293894364366e-01L, 1.8134189168918099150e-01L,
                                      1.8134189168918099150e-01L, 1.5685332293894364366e-01L,
                                      1.1119051722668723527e-01L, 5.0614268145188129576e-02L};
        return w[i];
    }
};

template <>
struct GaussLegendre<16> {
    static constexpr int size = 16;
    GEOMINT_HD static constexpr double node(int i) {
        constexpr double x[16] = {
            5.2995325041750336993e-03, 2.7712488463383711955e-02, 6.7184398806084128067e-02, 1.2229779582249848305e-01,
            1.9106187779867812577e-01, 2.7099161117138630681e-01, 3.5919822461037054337e-01, 4.5249374508118127991e-01,
            5.4750625491881872009e-01, 6.4080177538962945663e-01, 7.2900838882861369319e-01, 8.0893812220132187423e-01,
            8.7770220417750151695e-01, 9.3281560119391587196e-01, 9.7228751153661628805e-01, 9.9470046749582496633e-01};
        return x[i];
    }
    GEOMINT_HD static constexpr double weight(int i) {
        constexpr double w[16] = {
            1.3576229705877047387e-02, 3.1126761969323946389e-02, 4.7579255841246392404e-02, 6.2314485627766936004e-02,
            7.4797994408288366047e-02, 8.4578259697501269139e-02, 9.1301707522461794436e-02, 9.4725305227534248123e-02,
            9.4725305227534248123e-02, 9.1301707522461794436e-02, 8.4578259697501269139e-02, 7.4797994408288366047e-02,
            6.2314485627766936004e-02, 4.7579255841246392404e-02, 3.1126761969323946389e-02, 1.3576229705877047387e-02};
        return w[i];
    }
};

}  // namespace geomint::spin
