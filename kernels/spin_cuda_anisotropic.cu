// CUDA kernels of every spin scheme for the AnisotropicChain system (see spin_cuda_launch.cuh).
#include "spin_cuda_launch.cuh"

namespace geomint {

template float launch_spin_chains(const SpinRunSettings&, const spin::AnisotropicChain<double>&, const SpinBatchView<double>&);

}  // namespace geomint
