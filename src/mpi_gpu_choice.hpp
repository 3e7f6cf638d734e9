// Which GPU a rank of an MPI job computes on (issue 11): one rank per GPU, node-local rank k on
// device k mod n of the n its node shows, and the one-line notice of a rank that has none. Pure
// functions of the environment's values, so that they are tested without a GPU (tests/mpi/).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace geomint::mpi {

// The entries of a CUDA_VISIBLE_DEVICES value ("0,2", "GPU-uuid,..."), empty ones left out.
std::vector<std::string> device_list(const std::string& visible);

// What CUDA_VISIBLE_DEVICES becomes for node-local rank `local_rank`, given its value when the
// rank started (`visible`: nullopt when unset) and, when it is unset, the node's device count
// (`device_count`, -1 when unknown): entry local_rank mod n of the n listed, or device
// local_rank mod device_count; "" (no device: the CPU) when the node has none; device
// `local_rank` itself when the count is unknown (past the node's devices, CUDA finds none).
std::string rank_visible_devices(int local_rank, const std::optional<std::string>& visible, int device_count);

// The devices the NVIDIA driver shows on this node (one folder per GPU in /proc/driver/nvidia/gpus,
// read without starting CUDA, which would fix CUDA_VISIBLE_DEVICES); -1 without that folder.
int node_device_count();

// The line a rank of a split run prints when `--backend auto` finds no usable device for it.
std::string cpu_fallback_notice(int rank, const std::string& host, const std::string& reason);

}  // namespace geomint::mpi
