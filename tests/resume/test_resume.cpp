// Resuming killed runs (--resume, src/run_journal.hpp): a run the test kills with SIGKILL in the
// middle, then resumes (once, or after a second kill), gives the very output of an uninterrupted
// run — CSV bytes, or HDF5 datasets and attributes other than the times — for pendulum and spin;
// and every refusal: a changed configuration (naming the key), an existing journal without
// --resume, a damaged journal or partial file (its CRC-32), a destination that keeps no journal
// (a FIFO refused without waiting for a reader), a second run of an output another run holds; and
// a killed HDF5 run's temporary removed by its resume.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>

#include "cli_runner.hpp"
#include "hdf5/hdf5_reader.hpp"
#include "run_journal.hpp"

namespace {

using geomint_test::Hdf5File;
using geomint_test::read_file;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

// Trajectories the journal `path` says are done (-1 while there is none).
long long journal_completed(const std::string& path) {
    static const std::regex completed(R"((^|\n)completed = (\d+))");
    std::smatch match;
    const std::string text = read_file(path);
    return std::regex_search(text, match, completed) ? std::stoll(match[2]) : -1;
}

// Starts geomint with `arguments` in the background.
pid_t start_run(const std::string& arguments) {
    const std::string command = "exec " + geomint_test::geomint_binary() + " " + arguments + " 2>/dev/null";
    const pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    return pid;
}

// Starts geomint with `arguments`, waits until its journal counts at least `done` trajectories
// and kills it with SIGKILL (or, with `keep`, leaves it running and returns it). Fails the test
// when the run ends on its own first.
void kill_after(const std::string& arguments, const std::string& journal, long long done, pid_t* keep = nullptr) {
    const pid_t pid = start_run(arguments);
    ASSERT_GE(pid, 0);
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    while (journal_completed(journal) < done && std::chrono::steady_clock::now() < deadline) {
        if (waitpid(pid, &status, WNOHANG) == pid) FAIL() << "the run ended before it could be killed: make it longer";
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (keep != nullptr) {
        *keep = pid;
        return;
    }
    kill(pid, SIGKILL);
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the run was not killed";
}

// Every root attribute of an HDF5 file as text (strings as they are, numbers printed), but the times.
std::map<std::string, std::string> attributes_but_times(const std::string& path) {
    std::map<std::string, std::string> values;
    const Hdf5File file(path);
    const int count = H5Aget_num_attrs(file.id());
    for (int k = 0; k < count; ++k) {
        char name[256] = {};
        H5Aget_name_by_idx(file.id(), "/", H5_INDEX_NAME, H5_ITER_INC, static_cast<hsize_t>(k), name, sizeof name,
                           H5P_DEFAULT);
        const std::string key = name;
        if (key == "start_time" || key == "end_time") continue;
        const hid_t attribute = H5Aopen_by_name(file.id(), "/", name, H5P_DEFAULT, H5P_DEFAULT);
        const hid_t type = H5Aget_type(attribute);
        const bool is_string = H5Tget_class(type) == H5T_STRING;
        H5Tclose(type);
        H5Aclose(attribute);
        values[key] = is_string ? file.text("/", key) : std::to_string(file.number(key));
    }
    return values;
}

struct ResumeCase {
    const char* name;
    const char* command;  // without --out
    const char* output;   // file name: .csv or .h5
    long long kill_at;    // trajectories done before the kill
};

void PrintTo(const ResumeCase& c, std::ostream* out) { *out << c.name; }

class ResumeAfterKill : public ::testing::TestWithParam<ResumeCase> {};

// Killed once, or killed again while resuming, then resumed: the output equals the reference.
TEST_P(ResumeAfterKill, GivesTheOutputOfAnUninterruptedRun) {
    const ResumeCase& c = GetParam();
    ScratchFolder scratch;
    const std::string reference = scratch.file(std::string("reference_") + c.output);
    const std::string command = std::string(c.command) + " --threads 1";
    const auto uninterrupted = run_geomint(command + " --quiet --out " + reference, scratch);
    ASSERT_EQ(uninterrupted.exit_code, 0) << uninterrupted.error_output;
    const bool hdf5 = std::string(c.output).find(".h5") != std::string::npos;
    for (const int kills : {1, 2}) {
        const std::string out = scratch.file(std::to_string(kills) + "_" + c.output);
        const std::string journal = geomint::RunJournal::journal_path(out);
        kill_after(command + " --out " + out, journal, c.kill_at);
        if (::testing::Test::HasFatalFailure()) return;
        ASSERT_FALSE(std::filesystem::exists(out)) << "a killed run left its output";
        const long long first = journal_completed(journal);
        ASSERT_GT(first, 0);
        if (kills == 2) {
            kill_after(command + " --resume --out " + out, journal, first + c.kill_at);
            if (::testing::Test::HasFatalFailure()) return;
            ASSERT_GT(journal_completed(journal), first) << "the resumed run did not go on from the journal";
        }
        // Resumed with another thread count: the output does not depend on it.
        const auto resumed = run_geomint(std::string(c.command) + " --threads 2 --resume --out " + out, scratch);
        ASSERT_EQ(resumed.exit_code, 0) << resumed.error_output;
        EXPECT_NE(resumed.error_output.find("computed before"), std::string::npos) << resumed.error_output;
        EXPECT_FALSE(std::filesystem::exists(journal)) << "the journal was left after the run completed";
        EXPECT_FALSE(std::filesystem::exists(geomint::RunJournal::partial_path(out)));
        if (hdf5) {
            const auto expected = Hdf5File(reference).all_datasets();
            const auto actual = Hdf5File(out).all_datasets();
            ASSERT_FALSE(expected.empty());
            EXPECT_TRUE(expected == actual) << "datasets differ after " << kills << " kill(s)";
            EXPECT_EQ(attributes_but_times(reference), attributes_but_times(out));
        } else {
            EXPECT_TRUE(read_file(reference) == read_file(out)) << "CSV differs after " << kills << " kill(s)";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Runs, ResumeAfterKill,
    ::testing::Values(
        ResumeCase{"pendulum_csv",
                   "pendulum --scheme newmark --q0 -2:2:2000 --p0 0.1 --steps 20000 --dt 0.01 --chunk-size 50 "
                   "--backend cpu",
                   "pendulum.csv", 200},
        ResumeCase{"pendulum_hdf5_saves",
                   "pendulum --scheme simpson --q0 -2:2:1500 --p0 0.1 --steps 20000 --dt 0.01 --chunk-size 70 "
                   "--backend cpu --save-every 3000 --precision float",
                   "pendulum.h5", 140},
        ResumeCase{"spin_csv",
                   "spin --system chain --spins 8 --random 60 --seed 3 --scheme comp2 --steps 200 --dt 0.05 "
                   "--chunk-size 2 --backend cpu",
                   "spin.csv", 4},
        ResumeCase{"spin_hdf5_saves",
                   "spin --system top --random 60 --seed 5 --scheme sia --steps 4000 --dt 0.01 --chunk-size 3 "
                   "--backend cpu --save-every 700",
                   "top.h5", 6}),
    [](const ::testing::TestParamInfo<ResumeCase>& info) { return std::string(info.param.name); });

// The journal of a run killed after its first chunks, in a fresh folder.
class InterruptedRun : public ::testing::Test {
protected:
    void SetUp() override {
        kill_after(command_ + " --out " + out_, journal_, 100);
        ASSERT_GT(journal_completed(journal_), 0);
        journal_text_ = read_file(journal_);
    }
    // The journal and its partial file are as the kill left them, and there is no output.
    void expect_untouched() {
        EXPECT_EQ(read_file(journal_), journal_text_);
        EXPECT_TRUE(std::filesystem::exists(geomint::RunJournal::partial_path(out_)));
        EXPECT_FALSE(std::filesystem::exists(out_));
    }
    ScratchFolder scratch_;
    const std::string command_ =
        "pendulum --scheme newmark --q0 -2:2:2000 --p0 0.1 --steps 20000 --dt 0.01 --chunk-size 50 --threads 1 "
        "--backend cpu";
    const std::string out_ = scratch_.file("run.csv");
    const std::string journal_ = geomint::RunJournal::journal_path(out_);
    std::string journal_text_;
};

TEST_F(InterruptedRun, ARunWithoutResumeReportsTheJournalAndLeavesIt) {
    const auto r = run_geomint(command_ + " --out " + out_, scratch_);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.error_output.find("holds an interrupted run"), std::string::npos) << r.error_output;
    EXPECT_NE(r.error_output.find("add --resume"), std::string::npos) << r.error_output;
    expect_untouched();
}

TEST_F(InterruptedRun, AResumeWithAnotherConfigurationNamesTheKey) {
    const auto replaced = [&](const std::string& from, const std::string& to) {
        std::string command = command_;
        return command.replace(command.find(from), from.size(), to);
    };
    for (const auto& [change, key] : std::vector<std::pair<std::string, std::string>>{
             {replaced("--dt 0.01", "--dt 0.02"), "dt is 0.01 in the journal, 0.02 in this run"},
             {replaced("--chunk-size 50", "--chunk-size 60"), "chunk-size is 50 in the journal, 60 in this run"},
             {command_ + " --precision float", "precision is double in the journal, float in this run"},
             {command_ + " --exact", "exact is false in the journal, true in this run"}}) {
        const auto r = run_geomint(change + " --resume --out " + out_, scratch_);
        EXPECT_EQ(r.exit_code, 2) << change;
        EXPECT_NE(r.error_output.find(key), std::string::npos) << change << ": " << r.error_output;
        expect_untouched();
    }
}

TEST_F(InterruptedRun, ADamagedJournalIsRefused) {
    const std::string partial = geomint::RunJournal::partial_path(out_);
    {  // a partial file cut short: the journal claims more than it holds
        std::filesystem::resize_file(partial, std::filesystem::file_size(partial) / 2);
        const auto r = run_geomint(command_ + " --resume --out " + out_, scratch_);
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_NE(r.error_output.find("damaged"), std::string::npos) << r.error_output;
        EXPECT_FALSE(std::filesystem::exists(out_));
    }
    {  // a journal that is not TOML
        std::ofstream(journal_) << "completed = = 3\n";
        const auto r = run_geomint(command_ + " --resume --out " + out_, scratch_);
        EXPECT_EQ(r.exit_code, 2);
        EXPECT_NE(r.error_output.find("damaged"), std::string::npos) << r.error_output;
    }
}

TEST_F(InterruptedRun, AResumeOverChangedBytesIsRefusedAndKeepsTheFiles) {
    const std::string partial = geomint::RunJournal::partial_path(out_);
    std::string bytes = read_file(partial);
    ASSERT_GT(bytes.size(), 100u);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x10);  // one flipped bit
    std::ofstream(partial, std::ios::binary) << bytes;
    const auto r = run_geomint(command_ + " --resume --out " + out_, scratch_);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.error_output.find("--resume: the journal '" + journal_ + "' is damaged ('" + partial +
                                  "' does not match the checksum the journal recorded: its bytes changed)"),
              std::string::npos)
        << r.error_output;
    EXPECT_EQ(std::count(r.error_output.begin(), r.error_output.end(), '\n'), 1) << r.error_output;
    expect_untouched();
    EXPECT_TRUE(read_file(partial) == bytes) << "the refused resume changed the partial file";
}

TEST_F(InterruptedRun, AJournalOfAnotherBackendIsRefused) {
    // As if --backend auto had chosen the GPU for the interrupted run.
    std::string text = journal_text_;
    const std::size_t at = text.find("backend = \"cpu\"");
    ASSERT_NE(at, std::string::npos) << text;
    text.replace(at, std::string("backend = \"cpu\"").size(), "backend = \"cuda\"");
    std::ofstream(journal_) << text;
    journal_text_ = text;
    const auto r = run_geomint(command_ + " --resume --out " + out_, scratch_);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.error_output.find("computed on cuda, this run would compute on cpu"), std::string::npos)
        << r.error_output;
    expect_untouched();
}

TEST_F(InterruptedRun, ASweepFileRunIsResumedWithRunResume) {
    const auto printed =
        run_geomint(command_ + " --out " + out_ + " --print-config >" + scratch_.file("run.toml"), scratch_);
    ASSERT_EQ(printed.exit_code, 0) << printed.error_output;
    const auto resumed = run_geomint("run " + scratch_.file("run.toml") + " --resume", scratch_);
    ASSERT_EQ(resumed.exit_code, 0) << resumed.error_output;
    const std::string reference = scratch_.file("reference.csv");
    ASSERT_EQ(run_geomint(command_ + " --quiet --out " + reference, scratch_).exit_code, 0);
    EXPECT_TRUE(read_file(reference) == read_file(out_));
}

// An HDF5 output is written through a named temporary (the library opens its file by name): the
// one a killed run leaves is removed by the run that resumes it.
TEST(Resume, AKilledHdf5RunsTemporaryIsRemovedByItsResume) {
    ScratchFolder scratch;
    const std::string command =
        "pendulum --q0 -2:2:2000 --p0 0.1 --steps 20000 --dt 0.01 --chunk-size 50 --threads 1 "
        "--backend cpu --save-every 5000";
    const std::string out = scratch.file("run.h5");
    const auto temporaries = [&] {
        int count = 0;
        for (const auto& entry : std::filesystem::directory_iterator(scratch.file("")))
            count += entry.path().filename().string().rfind(".geomint-", 0) == 0;
        return count;
    };
    kill_after(command + " --out " + out, geomint::RunJournal::journal_path(out), 100);
    EXPECT_EQ(temporaries(), 1) << "the killed run's temporary";
    kill_after(command + " --resume --out " + out, geomint::RunJournal::journal_path(out), 300);
    EXPECT_EQ(temporaries(), 1) << "the first temporary was not removed by the resume";
    const auto r = run_geomint(command + " --resume --quiet --out " + out, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    EXPECT_EQ(temporaries(), 0);
    EXPECT_EQ(scratch.entries(), 1u) << "only the output";
}

// Two runs of one output: the second is refused at once while the first lives, and the first's
// files are untouched (then resumed, they give the uninterrupted output).
TEST(Resume, ASecondRunOfALiveOutputIsRefused) {
    ScratchFolder scratch;
    const std::string command =
        "pendulum --q0 -2:2:2000 --p0 0.1 --steps 20000 --dt 0.01 --chunk-size 50 --threads 1 "
        "--backend cpu --quiet";
    const std::string out = scratch.file("run.csv"), journal = geomint::RunJournal::journal_path(out);
    pid_t first = -1;
    kill_after(command + " --out " + out, journal, 100, &first);
    ASSERT_GT(first, 0);
    for (const char* mode : {"", " --resume"}) {
        const auto r = run_geomint(command + mode + " --out " + out, scratch);
        EXPECT_EQ(r.exit_code, 2) << mode;
        EXPECT_EQ(r.error_output, "geomint: error: --out: another geomint run is writing '" + out +
                                      "' now (it holds '" + geomint::RunJournal::partial_path(out) +
                                      "'): wait for it to end, or give another --out\n");
    }
    kill(first, SIGKILL);
    int status = 0;
    ASSERT_EQ(waitpid(first, &status, 0), first);
    ASSERT_EQ(run_geomint(command + " --resume --out " + out, scratch).exit_code, 0);
    ASSERT_EQ(run_geomint(command + " --out " + scratch.file("reference.csv"), scratch).exit_code, 0);
    EXPECT_TRUE(read_file(out) == read_file(scratch.file("reference.csv")));
    EXPECT_EQ(scratch.entries(), 2u);
}

// A FIFO keeps no journal: --resume is refused at once, not after waiting for a reader.
TEST(Resume, AFifoOutputIsRefusedWithoutWaitingForAReader) {
    ScratchFolder scratch;
    ASSERT_EQ(mkfifo(scratch.file("fifo").c_str(), 0600), 0);
    // timeout's status 124 if it waits.
    const std::string command = "timeout 20 " + geomint_test::geomint_binary() +
                                " pendulum --q0 0.5 --steps 5 --dt 0.1 --resume --out " + scratch.file("fifo") + " 2>" +
                                scratch.file("err");
    const int status = std::system(command.c_str());
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << status;
    EXPECT_EQ(read_file(scratch.file("err")),
              "geomint: error: --resume: needs --out to be a regular file (a pipe or device keeps no journal)\n");
}

TEST(Resume, WithoutAJournalRunsFromTheStart) {
    ScratchFolder scratch;
    const std::string command = "pendulum --q0 -1:1:30 --p0 0 --steps 50 --dt 0.1 --chunk-size 7 --backend cpu";
    const auto r = run_geomint(command + " --resume --out " + scratch.file("a.csv"), scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    ASSERT_EQ(run_geomint(command + " --quiet --out " + scratch.file("b.csv"), scratch).exit_code, 0);
    EXPECT_TRUE(read_file(scratch.file("a.csv")) == read_file(scratch.file("b.csv")));
    EXPECT_EQ(scratch.entries(), 2u) << "a journal or partial file was left";
}

TEST(Resume, StandardOutputKeepsNoJournalSoResumeIsRefused) {
    ScratchFolder scratch;
    const auto r = run_geomint("pendulum --q0 0.5 --p0 0 --steps 5 --dt 0.1 --resume --out - >/dev/null", scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.error_output.find("--resume"), std::string::npos) << r.error_output;
}

TEST(Resume, ASweepFileCannotSetResume) {
    ScratchFolder scratch;
    std::ofstream(scratch.file("bad.toml")) << "command = \"pendulum\"\nq0 = 0.5\np0 = 0\nsteps = 5\ndt = 0.1\n"
                                               "out = \"x.csv\"\nresume = true\n";
    const auto r = run_geomint("run " + scratch.file("bad.toml"), scratch);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.error_output.find(":7: resume"), std::string::npos) << r.error_output;
}

TEST(Resume, AnOutputNameTooLongForTheSuffixGetsAHashedJournalName) {
    const std::string a = "dir/" + std::string(250, 'a') + ".csv", b = "dir/" + std::string(250, 'a') + ".h5";
    for (const std::string& path : {geomint::RunJournal::journal_path(a), geomint::RunJournal::partial_path(a)}) {
        const std::string name = path.substr(path.rfind('/') + 1);
        EXPECT_LE(name.size() + 4, 255u) << name;  // ".new" fits too
        EXPECT_EQ(path.rfind("dir/", 0), 0u);
    }
    EXPECT_NE(geomint::RunJournal::journal_path(a), geomint::RunJournal::journal_path(b));
    EXPECT_EQ(geomint::RunJournal::journal_path("x/out.csv"), "x/out.csv.geomint-journal");
}

TEST(ConfigurationDifference, IgnoresThreadsQuietAndOutButNamesAnyOtherKey) {
    const std::string a = "command = \"pendulum\"\nsteps = 5\nthreads = 1\nquiet = false\nout = \"a.csv\"\n";
    const std::string b = "command = \"pendulum\"\nsteps = 5\nthreads = 4\nquiet = true\nout = \"./a.csv\"\n";
    EXPECT_EQ(geomint::configuration_difference(a, b, {"threads", "quiet", "out"}), "");
    EXPECT_EQ(geomint::configuration_difference(a, b, {"threads", "quiet"}),
              "out is a.csv in the journal, ./a.csv in this run");
    EXPECT_EQ(geomint::configuration_difference(a, "command = \"spin\"\nsteps = 5\n", {}),
              "command is 'pendulum' in the journal, 'spin' in this run");
    EXPECT_EQ(geomint::configuration_difference(a, a + "dt = 0.1\n", {}),
              "dt is not set in the journal, 0.1 in this run");
    EXPECT_EQ(geomint::configuration_difference(a, b, {"threads", "quiet"}, {"on rank 0", "on rank 2"}),
              "out is a.csv on rank 0, ./a.csv on rank 2");
}

}  // namespace
