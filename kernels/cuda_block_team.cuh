// One CUDA thread block per spin chain: the block's threads are the workers of a team
// (include/geomint/spin/team.hpp) that runs the chain's partitioned Newton (team_newton.hpp), with
// __syncthreads() as the barrier and a slice of global memory as the team's shared scratch. Used
// for few long chains, where one thread per chain would leave the GPU idle (issue 10, item 5).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "cuda_check.cuh"
#include "geomint/platform.hpp"
#include "geomint/spin/spin_view.hpp"
#include "spin_chain_layout.hpp"

namespace geomint {

// The threads of one block. Host+device like every team, as the schemes' templates are; it is only
// ever run on the device (on the host it would be a team of one without a barrier).
template <class Real>
struct CudaBlockTeam {
    static constexpr bool sequential = false;
    spin::StridedReals<Real> scratch;  // spin::team_newton_scratch_reals(d, blockDim.x) reals
    GEOMINT_HD int rank() const {
#if defined(__CUDA_ARCH__)
        return static_cast<int>(threadIdx.x);
#else
        return 0;
#endif
    }
    GEOMINT_HD int size() const {
#if defined(__CUDA_ARCH__)
        return static_cast<int>(blockDim.x);
#else
        return 1;
#endif
    }
    // __syncthreads() also makes each thread's earlier global-memory writes visible to the block,
    // which is what the team code relies on between its phases.
    GEOMINT_HD void barrier() const {
#if defined(__CUDA_ARCH__)
        __syncthreads();
#endif
    }
    GEOMINT_HD spin::StridedReals<Real> shared() const { return scratch; }
};

// Block b runs chain b: body.run(t, team) (kernels/spin_body.hpp) with every thread of the block.
// Templated on the body alone, so that its name reads like the thread-per-chain kernel's
// (tools/kernel_resources.py finds the scheme, system and recorder in it). The launch bound makes
// ptxas keep a block of spin_block_threads' largest (one thread per part) within an SM's registers;
// its second argument, one block per SM, says that these kernels run few blocks (few chains): left
// out, ptxas capped some of them at 128 registers (two blocks per SM) at the price of 204-228 B of
// spill stores (ImplicitMidpoint with saves, after the team sums of team_reduce.hpp).
template <class Body>
__global__ void __launch_bounds__(spin::partition_max_parts, 1)
    spin_chain_per_block_kernel(Body body, typename Body::real_type* scratch, std::size_t scratch_per_chain) {
    using Real = typename Body::real_type;
    const std::size_t t = blockIdx.x;
    body.run(t, CudaBlockTeam<Real>{{scratch + t * scratch_per_chain, 1}});
}

// Queues `body` over `chains` chains, one block each, on `stream`, and returns at once.
template <class Body>
void enqueue_chain_per_block(const Body& body, std::size_t chains,
                             const SpinBlockLaunch<typename Body::real_type>& launch, cudaStream_t stream) {
    if (chains == 0) return;
    spin_chain_per_block_kernel<Body>
        <<<static_cast<unsigned>(chains), launch.threads, 0, stream>>>(body, launch.scratch, launch.scratch_per_chain);
    GEOMINT_CUDA_CHECK(cudaGetLastError());
}

}  // namespace geomint
