// --out FILE.h5 and --save-every at the edges: refused combinations (one clear line, exit 2, no
// file), the output promise on errors, and the recorded configuration running to equal datasets.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include "cli_runner.hpp"
#include "hdf5/hdf5_reader.hpp"

namespace {

using geomint_test::Hdf5File;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

// `shell_prefix` runs before geomint in the same shell (a ulimit, a timeout): "PREFIX geomint ARGS".
geomint_test::CliResult run_with(const std::string& shell_prefix, const std::string& arguments,
                                 const ScratchFolder& scratch) {
    const std::string error_file = scratch.file("stderr.txt");
    const std::string command = "(" + shell_prefix + " " + GEOMINT_BINARY + " " + arguments + ") 2>" + error_file;
    const int status = std::system(command.c_str());
    const std::string text = geomint_test::read_file(error_file);
    std::filesystem::remove(error_file);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

const std::string kSmall = "pendulum --q0 0.1:3.1:4 --p0 -1:1:3 --steps 6 --dt 0.1 --backend cpu --quiet";

struct Refusal {
    const char* name;
    const char* options;  // added to kSmall; OUT stands for a file in the scratch folder
    const char* message;
};

void PrintTo(const Refusal& r, std::ostream* out) { *out << r.name; }

class Hdf5Refusals : public ::testing::TestWithParam<Refusal> {};

TEST_P(Hdf5Refusals, AreOneUsageErrorAndLeaveNoFile) {
    ScratchFolder scratch;
    std::string options = GetParam().options;
    options = std::regex_replace(options, std::regex("OUT"), scratch.file("out"));
    const auto r = run_geomint(kSmall + " " + options, scratch);
    EXPECT_EQ(r.exit_code, 2) << r.error_output;
    EXPECT_NE(r.error_output.find(GetParam().message), std::string::npos) << r.error_output;
    EXPECT_EQ(std::count(r.error_output.begin(), r.error_output.end(), '\n'), 1) << r.error_output;
    EXPECT_EQ(scratch.entries(), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Options, Hdf5Refusals,
    ::testing::Values(Refusal{"save_every_zero", "--save-every 0 --out OUT.h5", "--save-every: must be at least 1"},
                      Refusal{"save_every_negative", "--save-every -2 --out OUT.h5", "--save-every"},
                      Refusal{"save_every_text", "--save-every often --out OUT.h5", "--save-every"},
                      Refusal{"save_every_with_csv", "--save-every 2 --out OUT.csv", "give --out FILE.h5"},
                      Refusal{"save_every_with_standard_output", "--save-every 2 --out -", "give --out FILE.h5"},
                      Refusal{"missing_directory", "--out OUT/missing/run.h5", "does not exist"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Hdf5Usage, AFifoIsRefusedAtOnceForHdf5) {
    ScratchFolder scratch;
    const std::string fifo = scratch.file("pipe.h5");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    // No reader: opening the FIFO would block, so the refusal must come before.
    const auto r = run_with("timeout 20", kSmall + " --out " + fifo, scratch);
    EXPECT_EQ(r.exit_code, 2) << r.error_output;
    EXPECT_NE(r.error_output.find("HDF5 needs a seekable file"), std::string::npos) << r.error_output;
}

TEST(Hdf5Usage, AnUnwritableDirectoryIsRefusedBeforeAnyWork) {
    if (geteuid() == 0) GTEST_SKIP() << "root writes into a read-only directory (faults_hdf5_full_disk covers root)";
    ScratchFolder scratch;
    const std::string folder = scratch.file("locked");
    std::filesystem::create_directory(folder);
    chmod(folder.c_str(), 0500);
    const auto r = run_geomint(kSmall + " --save-every 2 --out " + folder + "/run.h5", scratch);
    chmod(folder.c_str(), 0700);
    EXPECT_EQ(r.exit_code, 2) << r.error_output;
    EXPECT_TRUE(std::filesystem::is_empty(folder));
}

TEST(Hdf5Usage, AWriteErrorKeepsThePreviousFileAndLeavesNoTemporary) {
    ScratchFolder scratch;
    const std::string out = scratch.file("run.h5");
    std::ofstream(out) << "previous results";
    // 10000 trajectories x 7 saves: about 1 MB, past a 16 KiB `ulimit -f` (SIGXFSZ is ignored, so
    // HDF5's writes fail with EFBIG).
    const std::string big =
        "pendulum --q0 0.1:3.1:100 --p0 -1:1:100 --steps 6 --dt 0.1 --backend cpu --quiet --save-every 1 --out " + out;
    const auto bad = run_with("ulimit -f 16;", big, scratch);
    EXPECT_EQ(bad.exit_code, 1) << bad.error_output;
    EXPECT_NE(bad.error_output.find("geomint: error: --out: writing '" + out + "' failed: File too large"),
              std::string::npos)
        << bad.error_output;
    EXPECT_EQ(std::count(bad.error_output.begin(), bad.error_output.end(), '\n'), 1) << bad.error_output;
    EXPECT_EQ(geomint_test::read_file(out), "previous results");
    EXPECT_EQ(scratch.entries(), 1u) << "a temporary was left behind";
    const auto good = run_geomint(big, scratch);
    ASSERT_EQ(good.exit_code, 0) << good.error_output;
    EXPECT_TRUE(Hdf5File(out).ok());
    EXPECT_EQ(scratch.entries(), 1u) << "a temporary was left behind";
}

TEST(Hdf5Usage, TheRecordedConfigurationRunsToEqualDatasets) {
    for (const std::string command :
         {kSmall + " --save-every 4 --chunk-size 5",
          std::string("spin --system chain --spins 3 --random 6 --seed 9 --steps 5 --dt 0.05 --backend cpu --quiet "
                      "--save-every 2")}) {
        ScratchFolder scratch;
        const std::string first = scratch.file("first.h5"), second = scratch.file("second.h5");
        const auto r = run_geomint(command + " --out " + first, scratch);
        ASSERT_EQ(r.exit_code, 0) << r.error_output;
        const std::string configuration = Hdf5File(first).text("/", "configuration");
        ASSERT_NE(configuration.find("out = "), std::string::npos) << configuration;
        // The same run, written elsewhere.
        std::ofstream(scratch.file("run.toml"))
            << std::regex_replace(configuration, std::regex("out = [^\n]*"), "out = \"" + second + "\"");
        const auto again = run_geomint("run " + scratch.file("run.toml"), scratch);
        ASSERT_EQ(again.exit_code, 0) << again.error_output << configuration;
        const auto a = Hdf5File(first).all_datasets(), b = Hdf5File(second).all_datasets();
        ASSERT_TRUE(a.count("/states")) << command;
        EXPECT_TRUE(a == b) << command;
        EXPECT_EQ(Hdf5File(second).text("/", "configuration"),
                  std::regex_replace(configuration, std::regex("out = [^\n]*"), "out = \"" + second + "\""));
    }
}

}  // namespace
