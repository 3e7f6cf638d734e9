// Run by tests/mpi/mpi.sh (case errors_return) under `mpirun -np 1`: once the Session has joined
// the job, a failed MPI call comes back to its caller, and mpi::check turns it into one line naming
// the call and MPI's reason (src/mpi_session.hpp), where MPI's default handler would have aborted
// the process in its own words. Not a CTest-discovered suite: it needs mpirun's environment.
#include <gtest/gtest.h>
#include <mpi.h>

#include <stdexcept>
#include <string>

#include "mpi_session.hpp"

namespace {

TEST(MpiCheck, TheSessionJoinedAJobOfOneRank) {
    int initialized = 0;
    ASSERT_EQ(MPI_Initialized(&initialized), MPI_SUCCESS);
    EXPECT_TRUE(initialized) << "run this under mpirun -np 1";
    EXPECT_EQ(geomint::mpi::size(), 1);
}

TEST(MpiCheck, AFailedCallComesBackAsOneLineNamingItAndMpisReason) {
    int value = 7;
    try {
        // Rank 1 does not exist in a job of one rank: MPI_ERR_RANK.
        geomint::mpi::check(MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD), "sending to rank 1");
        FAIL() << "check() did not throw";
    } catch (const std::runtime_error& e) {
        const std::string line = e.what();
        const std::string start = "MPI: sending to rank 1 failed (";
        EXPECT_EQ(line.rfind(start, 0), 0u) << line;
        EXPECT_GT(line.size(), start.size() + 1) << "no reason given: " << line;
        EXPECT_EQ(line.back(), ')') << line;
        EXPECT_EQ(line.find('\n'), std::string::npos) << line;
    }
}

TEST(MpiCheck, SuccessPassesSilently) { EXPECT_NO_THROW(geomint::mpi::check(MPI_SUCCESS, "nothing")); }

}  // namespace

int main(int argc, char** argv) {
    const geomint::mpi::Session session(argc, argv);
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
