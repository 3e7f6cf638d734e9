// Resolution of --backend auto|cpu|cuda (see backend_choice.hpp).
#include "backend_choice.hpp"

#include <omp.h>

#include <cstdio>

#include "cuda_backend.hpp"
#include "mpi_gpu_choice.hpp"
#include "mpi_session.hpp"
#include "usage_error.hpp"

namespace geomint {

BackendChoice choose_backend(const std::string& name, int threads, [[maybe_unused]] bool quiet) {
    const auto cpu = [&] {
        const int count = threads > 0 ? threads : omp_get_max_threads();
        return BackendChoice{Backend::cpu, "cpu (" + std::to_string(count) + " threads)"};
    };
    if (name == "cpu") return cpu();
    if (name != "auto" && name != "cuda")
        throw UsageError("--backend", "unknown backend '" + name + "' (valid: auto, cpu, cuda)");
    const CudaDeviceInfo device = cuda_device_info();
    if (device.usable) return {Backend::cuda, "cuda (" + device.description + ")"};
    if (name == "cuda") throw UsageError("--backend", "cuda requested but " + device.description);
#if GEOMINT_WITH_CUDA
    // A rank of a split run says why it has no GPU: its node has none, or its device failed
    // (mpi_gpu_choice.hpp), unless --quiet. A build without CUDA never has one, so it says nothing.
    if (mpi::split() && !quiet)
        std::fputs(mpi::cpu_fallback_notice(mpi::rank(), mpi::host(), device.description).c_str(), stderr);
#endif
    return cpu();
}

}  // namespace geomint
