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

// A rank of a split run that falls back to the CPU says so on standard error, unless `quiet`.
BackendChoice choose_backend(const std::string& name, int threads, bool quiet);

}  // namespace geomint
