// The HDF5 datasets do not depend on the chunking or the thread count (pendulum and spin, with
// and without saved states): the same run with chunks of 1, 7, 1000 and one chunk, on 1 and 2
// threads, gives bitwise equal datasets.
#include <gtest/gtest.h>

#include <ostream>

#include "cli_runner.hpp"
#include "hdf5/hdf5_reader.hpp"

namespace {

using geomint_test::Hdf5File;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

struct InvarianceCase {
    const char* name;
    const char* command;  // without --chunk-size, --threads and --out
    int trajectories;
};

void PrintTo(const InvarianceCase& c, std::ostream* out) { *out << c.name; }

class Hdf5Invariance : public ::testing::TestWithParam<InvarianceCase> {};

TEST_P(Hdf5Invariance, ChunkSizesAndThreadCountsGiveEqualDatasets) {
    const InvarianceCase& c = GetParam();
    ScratchFolder scratch;
    const auto run = [&](const std::string& chunk, int threads, const std::string& name) {
        const std::string out = scratch.file(name);
        const auto r = run_geomint(std::string(c.command) + " --chunk-size " + chunk + " --threads " +
                                       std::to_string(threads) + " --out " + out,
                                   scratch);
        EXPECT_EQ(r.exit_code, 0) << r.error_output;
        return Hdf5File(out).all_datasets();
    };
    const auto reference = run(std::to_string(c.trajectories), 1, "one_chunk.h5");
    ASSERT_FALSE(reference.empty());
    for (const char* chunk : {"1", "7", "1000"})
        for (int threads : {1, 2}) {
            const auto other =
                run(chunk, threads, std::string("chunk_") + chunk + "_" + std::to_string(threads) + ".h5");
            ASSERT_EQ(other.size(), reference.size());
            for (const auto& [name, bytes] : reference)
                EXPECT_TRUE(other.at(name) == bytes)
                    << name << " differs with --chunk-size " << chunk << " --threads " << threads;
        }
}

INSTANTIATE_TEST_SUITE_P(
    Runs, Hdf5Invariance,
    ::testing::Values(
        InvarianceCase{"pendulum_saves",
                       "pendulum --q0 0.1:3.1:6 --p0 -1:1:5 --steps 12 --dt 0.2 --backend cpu --quiet --save-every 5",
                       30},
        InvarianceCase{"pendulum_summary",
                       "pendulum --q0 0.1:3.1:6 --p0 -1:1:5 --steps 12 --dt 0.2 --backend cpu --quiet", 30},
        InvarianceCase{"spin_saves",
                       "spin --system chain --spins 3 --random 20 --scheme comp2 --steps 9 --dt 0.05 --backend cpu "
                       "--quiet --save-every 4",
                       20},
        InvarianceCase{
            "spin_summary",
            "spin --system chain --spins 3 --random 20 --scheme comp2 --steps 9 --dt 0.05 --backend cpu --quiet", 20}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace

namespace {

// A large prime chunk has no divisor of HDF5-chunk size: the HDF5 chunks then straddle the run
// chunks' seams, and the datasets must still be those of one chunk.
TEST(Hdf5Invariance, APrimeChunkLargerThanAnHdf5ChunkGivesEqualDatasets) {
    ScratchFolder scratch;
    const std::string command =
        "pendulum --q0 0.1:3.1:200 --p0 -1:1:1000 --steps 4 --dt 0.01 --backend cpu --quiet --save-every 3";
    const auto prime = run_geomint(command + " --chunk-size 100003 --out " + scratch.file("prime.h5"), scratch);
    const auto whole = run_geomint(command + " --chunk-size 200000 --out " + scratch.file("whole.h5"), scratch);
    ASSERT_EQ(prime.exit_code, 0) << prime.error_output;
    ASSERT_EQ(whole.exit_code, 0) << whole.error_output;
    const auto a = Hdf5File(scratch.file("prime.h5")).all_datasets();
    const auto b = Hdf5File(scratch.file("whole.h5")).all_datasets();
    ASSERT_TRUE(a.count("/states"));
    EXPECT_TRUE(a == b);
}

}  // namespace
