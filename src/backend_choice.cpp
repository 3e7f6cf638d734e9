// Resolution of --backend auto|cpu|cuda (see backend_choice.hpp).
#include "backend_choice.hpp"

#include <omp.h>

#include "cuda_backend.hpp"
#include "usage_error.hpp"

namespace geomint {

BackendChoice choose_backend(const std::string& name, int threads) {
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
    return cpu();
}

}  // namespace geomint
