// Launch of the per-chain body for one spin system, every scheme. Instantiated once per system
// in its own translation unit (spin_cuda_<system>.cu), so the heavy kernels compile in parallel.
#pragma once

#include "backends/cuda_backend.hpp"
#include "for_each_index.cuh"

namespace geomint {

template <class System>
float launch_spin_chains(const SpinRunSettings& settings, const System& system, const SpinBatchView<double>& view) {
    float milliseconds = 0.0f;
    with_spin_scheme_for<System>(settings.scheme, [&](auto scheme) {
        using Body = SpinChainBody<decltype(scheme), System, double>;
        // 64 threads a block: each thread holds a large Newton state (see bench/RESULTS.md).
        milliseconds = launch_for_each_index(Body{scheme, system, view, settings.step}, view.chains, 64);
    });
    return milliseconds;
}

extern template float launch_spin_chains(const SpinRunSettings&, const spin::SpinningTop<double>&,
                                         const SpinBatchView<double>&);
extern template float launch_spin_chains(const SpinRunSettings&, const spin::HeisenbergChain<double>&,
                                         const SpinBatchView<double>&);
extern template float launch_spin_chains(const SpinRunSettings&, const spin::AnisotropicChain<double>&,
                                         const SpinBatchView<double>&);

}  // namespace geomint
