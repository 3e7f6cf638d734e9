// The --backend and --threads choice shared by every subcommand: auto picks CUDA when a
// device is usable, cuda insists on one (a UsageError otherwise), cpu never touches CUDA.
#pragma once

#include <string>

namespace geomint {

enum class Backend { cpu, cuda };

struct BackendChoice {
    Backend backend = Backend::cpu;
    std::string description;  // "cpu (2 threads)" or "cuda (NVIDIA H200)"
};

BackendChoice choose_backend(const std::string& name, int threads);

}  // namespace geomint
