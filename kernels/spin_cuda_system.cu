// The CUDA kernels of every applicable scheme for spin system number GEOMINT_SPIN_SYSTEM_INDEX of
// the registry. CMake compiles this file once per index (build/kernels/spin_cuda_system_<i>.cu);
// an index past the registry's end instantiates a launcher that only throws.
#include <stdexcept>

#include "cuda_block_team.cuh"
#include "for_each_index.cuh"
#include "spin_cuda_launch.hpp"

#ifndef GEOMINT_SPIN_SYSTEM_INDEX
#error "compile with -DGEOMINT_SPIN_SYSTEM_INDEX=i (CMake does, once per spin system)"
#endif

namespace geomint {

namespace {

// One thread per chain, or with `block` one block per chain (chain systems, schemes with a team
// step only: the others are not instantiated for it, which keeps their compile time).
template <class Body>
void enqueue_body(const Body& body, std::size_t chains, const SpinBlockLaunch<typename Body::real_type>* block,
                  cudaStream_t stream) {
    using Real = typename Body::real_type;
    using Scheme = decltype(body.scheme);
    using System = decltype(body.system);
    if constexpr (System::is_chain && spin::TeamStep<Scheme, System, Real>) {
        if (block != nullptr) {
            enqueue_chain_per_block(body, chains, *block, stream);
            return;
        }
    }
    // 64 threads a block: each thread holds a large Newton state (bench/RESULTS.md).
    enqueue_for_each_index(body, chains, stream, 64);
}

}  // namespace

template <int SystemIndex, class Real>
void enqueue_spin_system(const SpinModel& model, const SpinStepSettings<Real>& step, const SpinBatchView<Real>& view,
                         const SaveRecorder<Real>* saves, const SpinBlockLaunch<Real>* block, CUstream_st* stream) {
    if constexpr (SystemIndex < spin::SpinSystems::size) {
        using System = typename TypeAt<SystemIndex, spin::SpinSystems>::type::template type<Real>;
        const System system = make_spin_system<System, Real>(model);
        with_spin_scheme_for<System>(model.scheme, [&](auto scheme) {
            if (saves == nullptr) {
                using Body = SpinChainBody<decltype(scheme), System, Real>;
                enqueue_body(Body{scheme, system, view, step}, view.chains, block, stream);
            } else {
                using Body = SpinChainBody<decltype(scheme), System, Real, SaveRecorder<Real>>;
                enqueue_body(Body{scheme, system, view, step, *saves}, view.chains, block, stream);
            }
        });
    } else {
        throw std::logic_error("no spin system at this registry index");
    }
}

template void enqueue_spin_system<GEOMINT_SPIN_SYSTEM_INDEX, double>(const SpinModel&, const SpinStepSettings<double>&,
                                                                     const SpinBatchView<double>&,
                                                                     const SaveRecorder<double>*,
                                                                     const SpinBlockLaunch<double>*, CUstream_st*);
template void enqueue_spin_system<GEOMINT_SPIN_SYSTEM_INDEX, float>(const SpinModel&, const SpinStepSettings<float>&,
                                                                    const SpinBatchView<float>&,
                                                                    const SaveRecorder<float>*,
                                                                    const SpinBlockLaunch<float>*, CUstream_st*);

}  // namespace geomint
