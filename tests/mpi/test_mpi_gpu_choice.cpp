// The GPU of each rank of an MPI job (src/mpi_gpu_choice.hpp), as pure functions of what the
// environment holds: node-local rank k on device k mod n, the list a batch system set honoured, no
// device on a node without one, and the notice of a rank that falls back to its CPU.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "mpi_gpu_choice.hpp"

namespace {

using geomint::mpi::rank_visible_devices;

TEST(MpiGpuChoice, NodeLocalRankTakesItsOwnDeviceOfACountedNode) {
    for (int k = 0; k < 4; ++k) EXPECT_EQ(rank_visible_devices(k, std::nullopt, 4), std::to_string(k));
}

TEST(MpiGpuChoice, MoreRanksThanDevicesShareThemInTurn) {
    const std::vector<std::string> expected = {"0", "1", "2", "0", "1", "2", "0"};
    for (int k = 0; k < 7; ++k) EXPECT_EQ(rank_visible_devices(k, std::nullopt, 3), expected[k]) << "rank " << k;
}

TEST(MpiGpuChoice, AListSetBeforeIsHonouredModuloItsLength) {
    // A batch system gave this node's job devices 2 and 5: ranks take them in turn, by name.
    const std::optional<std::string> visible = "2,5";
    EXPECT_EQ(rank_visible_devices(0, visible, 8), "2");
    EXPECT_EQ(rank_visible_devices(1, visible, 8), "5");
    EXPECT_EQ(rank_visible_devices(2, visible, 8), "2");
    EXPECT_EQ(rank_visible_devices(3, std::optional<std::string>("GPU-a1b2, GPU-c3d4,"), -1), "GPU-c3d4");
}

TEST(MpiGpuChoice, ANodeWithoutDevicesGivesNone) {
    EXPECT_EQ(rank_visible_devices(0, std::nullopt, 0), "");
    EXPECT_EQ(rank_visible_devices(3, std::nullopt, 0), "");
    EXPECT_EQ(rank_visible_devices(1, std::optional<std::string>(""), 4), "");  // hidden on purpose
}

TEST(MpiGpuChoice, AnUnknownCountAsksForTheRanksOwnIndex) {
    // No driver folder to count: device k itself (CUDA finds none past the node's devices).
    EXPECT_EQ(rank_visible_devices(0, std::nullopt, -1), "0");
    EXPECT_EQ(rank_visible_devices(5, std::nullopt, -1), "5");
}

TEST(MpiGpuChoice, DeviceListSkipsEmptyEntriesAndSpaces) {
    EXPECT_EQ(geomint::mpi::device_list(" 0, 1,,3 "), (std::vector<std::string>{"0", "1", "3"}));
    EXPECT_TRUE(geomint::mpi::device_list("").empty());
}

TEST(MpiGpuChoice, TheNoticeIsOneLineNamingRankHostAndReason) {
    const std::string notice = geomint::mpi::cpu_fallback_notice(2, "node7", "no CUDA device present");
    EXPECT_EQ(notice, "geomint: notice: rank 2 on node7: no CUDA device present; --backend auto computes on its CPU\n");
    EXPECT_EQ(notice.find('\n'), notice.size() - 1);
}

}  // namespace
