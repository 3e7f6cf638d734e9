// The rank's GPU and its notice (see mpi_gpu_choice.hpp).
#include "mpi_gpu_choice.hpp"

#include <filesystem>
#include <system_error>

namespace geomint::mpi {

std::vector<std::string> device_list(const std::string& visible) {
    std::vector<std::string> devices;
    std::string item;
    for (const char c : visible + ",") {
        if (c == ',') {
            if (!item.empty()) devices.push_back(item);
            item.clear();
        } else if (c != ' ') {
            item += c;
        }
    }
    return devices;
}

std::string rank_visible_devices(int local_rank, const std::optional<std::string>& visible, int device_count) {
    const int k = local_rank < 0 ? 0 : local_rank;
    if (visible) {
        // A list set by a batch system (or the user) is honoured: the rank takes one of its entries.
        const std::vector<std::string> devices = device_list(*visible);
        return devices.empty() ? "" : devices[static_cast<std::size_t>(k) % devices.size()];
    }
    if (device_count == 0) return "";
    // More ranks than devices share them in turn; unknown count: ask for device k.
    return std::to_string(device_count > 0 ? k % device_count : k);
}

int node_device_count() {
    std::error_code error;
    std::filesystem::directory_iterator folder("/proc/driver/nvidia/gpus", error);
    if (error) return -1;
    int count = 0;
    for (const auto& entry : folder)
        if (entry.is_directory(error)) ++count;
    return count;
}

std::string cpu_fallback_notice(int rank, const std::string& host, const std::string& reason) {
    return "geomint: notice: rank " + std::to_string(rank) + " on " + host + ": " + reason +
           "; --backend auto computes on its CPU\n";
}

}  // namespace geomint::mpi
