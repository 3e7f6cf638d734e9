// The output promise of issue 7 for each kind of --out destination: a new file (permissions from
// the umask), a replaced file (keeps its mode), a symlink (followed, kept), a hard link, a
// read-only file (refused), a character device, a FIFO, standard output, a directory (refused
// before any work), a 250-character name, and no temporary file after a failure. Both through
// the CLI and on AtomicOutputFile itself. tests/faults/ covers full disks and signals.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "atomic_output_file.hpp"
#include "cli_runner.hpp"
#include "usage_error.hpp"

namespace {

using geomint::AtomicOutputFile;
using geomint::UsageError;
using geomint_test::read_file;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

const std::string kSmallRun = "pendulum --q0 0.1:3.1:7 --p0 -1:1:3 --steps 10 --dt 0.01 --backend cpu --quiet";
// Minutes of work: a destination must be refused before it starts (the runs have a timeout).
const std::string kLongRun =
    "pendulum --q0 0.1:3.1:100000 --p0 -1:1:1000 --steps 200 --dt 0.01 --backend cpu --chunk-size 10000 --quiet";
const std::string kOld = "previous results\n";

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

struct stat status_of(const std::string& path) {
    struct stat status {};
    if (::lstat(path.c_str(), &status) != 0) throw std::runtime_error("no such file: " + path);
    return status;
}

unsigned permissions(const std::string& path) { return status_of(path).st_mode & 07777; }

std::vector<std::string> entries(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
}

using Names = std::vector<std::string>;

// The output of kSmallRun, computed once.
const std::string& reference_output() {
    static const std::string text = [] {
        ScratchFolder scratch;
        const auto result = run_geomint(kSmallRun + " --out " + scratch.file("reference.csv"), scratch);
        if (result.exit_code != 0) throw std::runtime_error("reference run failed: " + result.error_output);
        return read_file(scratch.file("reference.csv"));
    }();
    return text;
}

// A shell command line (for umask, ulimit, timeout, redirections): exit status, or -1 if killed.
int run_shell(const std::string& command) {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The umask for one test, restored after it.
class ScopedUmask {
public:
    explicit ScopedUmask(mode_t mask) : previous_(::umask(mask)) {}
    ~ScopedUmask() { ::umask(previous_); }

private:
    mode_t previous_;
};

bool is_root() { return ::geteuid() == 0; }

// ---- through the CLI ----

TEST(OutputFile, NewFilePermissionsFollowTheUmask) {
    for (const auto& [mask, expected] : {std::pair{022u, 0644u}, std::pair{077u, 0600u}, std::pair{0u, 0666u}}) {
        ScopedUmask umask_for_this(static_cast<mode_t>(mask));
        ScratchFolder scratch;
        const auto result = run_geomint(kSmallRun + " --out " + scratch.file("out.csv"), scratch);
        ASSERT_EQ(result.exit_code, 0) << result.error_output;
        EXPECT_EQ(permissions(scratch.file("out.csv")), expected) << "umask " << std::oct << mask;
        EXPECT_EQ(read_file(scratch.file("out.csv")), reference_output());
        EXPECT_EQ(entries(scratch.file("")), Names{"out.csv"});
    }
}

TEST(OutputFile, ReplacedFileKeepsItsMode) {
    ScopedUmask umask_for_this(022);
    ScratchFolder scratch;
    const std::string out = scratch.file("out.csv");
    write_text(out, kOld);
    ::chmod(out.c_str(), 0620);
    const auto result = run_geomint(kSmallRun + " --out " + out, scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    EXPECT_EQ(permissions(out), 0620u);
    EXPECT_EQ(read_file(out), reference_output());
    EXPECT_EQ(entries(scratch.file("")), Names{"out.csv"});
}

// As root, a replaced file keeps its owner and group too (others cannot give files away).
TEST(OutputFile, ReplacedFileKeepsItsOwnerWhenRootReplacesIt) {
    if (!is_root()) GTEST_SKIP() << "only root can make a file of another user to replace";
    ScratchFolder scratch;
    const std::string out = scratch.file("out.csv");
    write_text(out, kOld);
    ASSERT_EQ(::chown(out.c_str(), 65534, 65534), 0);
    const auto result = run_geomint(kSmallRun + " --out " + out, scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    EXPECT_EQ(status_of(out).st_uid, 65534u);
    EXPECT_EQ(status_of(out).st_gid, 65534u);
    EXPECT_EQ(read_file(out), reference_output());
}

TEST(OutputFile, ReadOnlyFileIsRefusedBeforeAnyWork) {
    ScratchFolder scratch;
    const std::string out = scratch.file("out.csv");
    write_text(out, kOld);
    ::chmod(out.c_str(), 0444);
    const int status = run_shell("timeout 60 " + std::string(GEOMINT_BINARY) + " " + kLongRun + " --out " + out +
                                 " 2>" + scratch.file("err"));
    const std::string error = read_file(scratch.file("err"));
    EXPECT_EQ(status, 2) << error;  // 124: it computed instead of refusing
    EXPECT_NE(error.find("geomint: error: --out: '" + out + "' is read-only"), std::string::npos) << error;
    EXPECT_EQ(read_file(out), kOld);
    EXPECT_EQ(permissions(out), 0444u);
    EXPECT_EQ(entries(scratch.file("")), (Names{"err", "out.csv"}));
}

TEST(OutputFile, SymlinkIsFollowedAndKept) {
    ScratchFolder scratch;
    std::filesystem::create_directory(scratch.file("data"));
    const std::string target = scratch.file("data/target.csv");
    write_text(target, kOld);
    ::chmod(target.c_str(), 0640);
    // A chain: out.csv -> hop.csv -> data/target.csv (relative links, resolved from their folder).
    ASSERT_EQ(::symlink("data/target.csv", scratch.file("hop.csv").c_str()), 0);
    ASSERT_EQ(::symlink("hop.csv", scratch.file("out.csv").c_str()), 0);
    const auto result = run_geomint(kSmallRun + " --out " + scratch.file("out.csv"), scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    EXPECT_TRUE(S_ISLNK(status_of(scratch.file("out.csv")).st_mode));
    EXPECT_TRUE(S_ISLNK(status_of(scratch.file("hop.csv")).st_mode));
    EXPECT_EQ(std::filesystem::read_symlink(scratch.file("out.csv")), "hop.csv");
    EXPECT_EQ(read_file(target), reference_output());
    EXPECT_EQ(permissions(target), 0640u);
    EXPECT_EQ(entries(scratch.file("")), (Names{"data", "hop.csv", "out.csv"}));
    EXPECT_EQ(entries(scratch.file("data")), Names{"target.csv"});
}

TEST(OutputFile, DanglingSymlinkCreatesItsTarget) {
    ScopedUmask umask_for_this(022);
    ScratchFolder scratch;
    std::filesystem::create_directory(scratch.file("data"));
    ASSERT_EQ(::symlink(scratch.file("data/new.csv").c_str(), scratch.file("out.csv").c_str()), 0);
    const auto result = run_geomint(kSmallRun + " --out " + scratch.file("out.csv"), scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    EXPECT_TRUE(S_ISLNK(status_of(scratch.file("out.csv")).st_mode));
    EXPECT_EQ(read_file(scratch.file("data/new.csv")), reference_output());
    EXPECT_EQ(permissions(scratch.file("data/new.csv")), 0644u);
}

// Documented: replaced by rename, so the other names of the old file keep the old content.
TEST(OutputFile, HardLinkedFileIsReplacedAndOtherLinksKeepTheOldContent) {
    ScratchFolder scratch;
    const std::string out = scratch.file("out.csv");
    write_text(out, kOld);
    ASSERT_EQ(::link(out.c_str(), scratch.file("other.csv").c_str()), 0);
    const auto result = run_geomint(kSmallRun + " --out " + out, scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    EXPECT_EQ(read_file(out), reference_output());
    EXPECT_EQ(read_file(scratch.file("other.csv")), kOld);
    EXPECT_EQ(status_of(out).st_nlink, 1u);
    EXPECT_EQ(entries(scratch.file("")), (Names{"other.csv", "out.csv"}));
}

// Character devices made here (root may mknod; others skip), not /dev's: a wrong implementation
// would replace them by a regular file.
TEST(OutputFile, CharacterDeviceIsWrittenInPlace) {
    ScratchFolder scratch;
    const std::string null_device = scratch.file("null");
    const std::string full_device = scratch.file("full");
    if (::mknod(null_device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
        ::mknod(full_device.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
        GTEST_SKIP() << "cannot make device nodes here (needs root): " << std::strerror(errno);
    const auto written = run_geomint(kSmallRun + " --out " + null_device, scratch);
    EXPECT_EQ(written.exit_code, 0) << written.error_output;
    EXPECT_TRUE(S_ISCHR(status_of(null_device).st_mode));
    // A full device: the first write fails, one line, exit 1, the device still a device.
    const auto full = run_geomint(kSmallRun + " --out " + full_device, scratch);
    EXPECT_EQ(full.exit_code, 1);
    EXPECT_EQ(full.error_output,
              "geomint: error: --out: writing '" + full_device + "' failed: No space left on device\n");
    EXPECT_TRUE(S_ISCHR(status_of(full_device).st_mode));
    EXPECT_EQ(entries(scratch.file("")), (Names{"full", "null"}));
}

TEST(OutputFile, BlockDeviceIsRefused) {
    ScratchFolder scratch;
    const std::string disk = scratch.file("disk");
    // A loop device's numbers; the node is never opened.
    if (::mknod(disk.c_str(), S_IFBLK | 0600, makedev(7, 0)) != 0)
        GTEST_SKIP() << "cannot make device nodes here (needs root): " << std::strerror(errno);
    const auto result = run_geomint(kSmallRun + " --out " + disk, scratch);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(result.error_output, "geomint: error: --out: '" + disk + "' is a block device; give a file name\n");
    EXPECT_TRUE(S_ISBLK(status_of(disk).st_mode));
}

TEST(OutputFile, FifoIsWrittenInPlace) {
    ScratchFolder scratch;
    const std::string fifo = scratch.file("pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] {
        std::ifstream in(fifo, std::ios::binary);
        received.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    });
    const auto result = run_geomint(kSmallRun + " --out " + fifo, scratch);
    reader.join();
    EXPECT_EQ(result.exit_code, 0) << result.error_output;
    EXPECT_EQ(received, reference_output());
    EXPECT_TRUE(S_ISFIFO(status_of(fifo).st_mode));
    EXPECT_EQ(entries(scratch.file("")), Names{"pipe"});
}

TEST(OutputFile, DashIsStandardOutput) {
    ScratchFolder scratch;
    const auto quiet = run_geomint(kSmallRun + " --out - >" + scratch.file("stdout.csv"), scratch);
    ASSERT_EQ(quiet.exit_code, 0) << quiet.error_output;
    EXPECT_EQ(read_file(scratch.file("stdout.csv")), reference_output());
    EXPECT_EQ(entries(scratch.file("")), Names{"stdout.csv"});  // no file named "-", no temporary
    // Not quiet: the summary says where the output went.
    std::string loud = kSmallRun;
    loud.erase(loud.find(" --quiet"));
    const auto summary = run_geomint(loud + " --out - >" + scratch.file("stdout2.csv"), scratch);
    ASSERT_EQ(summary.exit_code, 0) << summary.error_output;
    EXPECT_NE(summary.error_output.find("; wrote standard output\n"), std::string::npos) << summary.error_output;
    EXPECT_EQ(read_file(scratch.file("stdout2.csv")), reference_output());
}

TEST(OutputFile, DirectoryIsRefusedBeforeAnyWork) {
    ScratchFolder scratch;
    std::filesystem::create_directory(scratch.file("existing"));
    for (const std::string& out : {scratch.file("existing"), scratch.file("existing") + "/", std::string(".")}) {
        const auto start = std::chrono::steady_clock::now();
        const int status = run_shell("cd " + scratch.file("") + " && timeout 60 " + GEOMINT_BINARY + " " + kLongRun +
                                     " --out " + out + " 2>" + scratch.file("err"));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const std::string error = read_file(scratch.file("err"));
        EXPECT_EQ(status, 2) << out << ": " << error;  // 124: it computed instead of refusing
        EXPECT_LT(seconds, 30.0) << out;
        EXPECT_NE(error.find("geomint: error: --out: '" + out + "' is a directory"), std::string::npos) << error;
        EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 1) << error;
        EXPECT_EQ(entries(scratch.file("")), (Names{"err", "existing"}));
        EXPECT_TRUE(entries(scratch.file("existing")).empty());
    }
}

TEST(OutputFile, MissingOrNonDirectoryParentIsRefusedBeforeAnyWork) {
    ScratchFolder scratch;
    write_text(scratch.file("plain"), kOld);
    const std::pair<std::string, std::string> cases[] = {
        {scratch.file("missing/out.csv"), "directory '" + scratch.file("missing") + "' does not exist"},
        {scratch.file("plain/out.csv"), "'" + scratch.file("plain") + "' is not a directory"}};
    for (const auto& [out, reason] : cases) {
        const int status = run_shell("timeout 60 " + std::string(GEOMINT_BINARY) + " " + kLongRun + " --out " + out +
                                     " 2>" + scratch.file("err"));
        const std::string error = read_file(scratch.file("err"));
        EXPECT_EQ(status, 2) << error;
        EXPECT_EQ(error, "geomint: error: --out: cannot write '" + out + "': " + reason + "\n");
    }
    EXPECT_EQ(entries(scratch.file("")), (Names{"err", "plain"}));
}

TEST(OutputFile, UnwritableDirectoryIsRefusedBeforeAnyWork) {
    if (is_root()) GTEST_SKIP() << "root writes in any directory; tests/faults covers a read-only filesystem";
    ScratchFolder scratch;
    std::filesystem::create_directory(scratch.file("locked"));
    ::chmod(scratch.file("locked").c_str(), 0555);
    const int status = run_shell("timeout 60 " + std::string(GEOMINT_BINARY) + " " + kLongRun + " --out " +
                                 scratch.file("locked/out.csv") + " 2>" + scratch.file("err"));
    EXPECT_EQ(status, 2) << read_file(scratch.file("err"));
    EXPECT_NE(read_file(scratch.file("err")).find("Permission denied"), std::string::npos);
    EXPECT_TRUE(entries(scratch.file("locked")).empty());
    ::chmod(scratch.file("locked").c_str(), 0755);
}

// 250 characters: the old "NAME.partial-XXXXXX" temporary would have been 265, past NAME_MAX.
TEST(OutputFile, LongFileName) {
    ScratchFolder scratch;
    const std::string name = std::string(246, 'n') + ".csv";
    ASSERT_EQ(name.size(), 250u);
    const auto result = run_geomint(kSmallRun + " --out " + scratch.file(name), scratch);
    ASSERT_EQ(result.exit_code, 0) << result.error_output;
    EXPECT_EQ(read_file(scratch.file(name)), reference_output());
    EXPECT_EQ(entries(scratch.file("")), Names{name});
    // Replacing it takes the temporary-and-rename path.
    const auto again = run_geomint(kSmallRun + " --out " + scratch.file(name), scratch);
    ASSERT_EQ(again.exit_code, 0) << again.error_output;
    EXPECT_EQ(entries(scratch.file("")), Names{name});
}

TEST(OutputFile, NoTemporaryAfterAWriteFailure) {
    ScratchFolder scratch;
    write_text(scratch.file("old.csv"), kOld);
    const std::string large = "pendulum --q0 0.1:3.1:1000 --p0 -1:1:10 --steps 10 --dt 0.01 --backend cpu --quiet";
    for (const std::string out : {"new.csv", "old.csv"}) {
        // 64 KiB allowed, 1 MB needed: write() fails with EFBIG (SIGXFSZ is ignored).
        const int status = run_shell("cd " + scratch.file("") + " && ulimit -f 64 && " + GEOMINT_BINARY + " " + large +
                                     " --out " + out + " 2>err");
        const std::string error = read_file(scratch.file("err"));
        EXPECT_EQ(status, 1) << error;
        EXPECT_EQ(error, "geomint: error: --out: writing '" + out + "' failed: File too large\n");
        EXPECT_EQ(entries(scratch.file("")), (Names{"err", "old.csv"}));
        EXPECT_EQ(read_file(scratch.file("old.csv")), kOld);
    }
}

// ---- AtomicOutputFile itself ----

// Only the final name, and only after commit(); before it, at most a ".geomint-" temporary
// (none where O_TMPFILE works).
TEST(AtomicOutputFile, AppearsOnlyOnCommit) {
    ScopedUmask umask_for_this(027);
    ScratchFolder scratch;
    {
        AtomicOutputFile file(scratch.file("out.csv"), "--out");
        file.write("header\n");
        file.write(std::string(3 << 20, 'x'));
        for (const std::string& name : entries(scratch.file(""))) EXPECT_EQ(name.rfind(".geomint-", 0), 0u) << name;
        EXPECT_FALSE(std::filesystem::exists(scratch.file("out.csv")));
        file.commit();
        EXPECT_EQ(file.description(), scratch.file("out.csv"));
    }
    EXPECT_EQ(entries(scratch.file("")), Names{"out.csv"});
    EXPECT_EQ(read_file(scratch.file("out.csv")), "header\n" + std::string(3 << 20, 'x'));
    EXPECT_EQ(permissions(scratch.file("out.csv")), 0640u);
}

TEST(AtomicOutputFile, WithoutCommitNothingIsLeftAndTheOldFileIsIntact) {
    ScratchFolder scratch;
    write_text(scratch.file("old.csv"), kOld);
    for (const std::string name : {"new.csv", "old.csv"}) {
        AtomicOutputFile file(scratch.file(name), "--out");
        file.write("partial");
    }
    EXPECT_EQ(entries(scratch.file("")), Names{"old.csv"});
    EXPECT_EQ(read_file(scratch.file("old.csv")), kOld);
}

TEST(AtomicOutputFile, RefusesDirectoriesAndReadOnlyFiles) {
    ScratchFolder scratch;
    write_text(scratch.file("locked.csv"), kOld);
    ::chmod(scratch.file("locked.csv").c_str(), 0400);
    for (const std::string& path :
         {scratch.file(""), scratch.file("missing/x.csv"), scratch.file("locked.csv"), std::string("")}) {
        EXPECT_THROW(AtomicOutputFile(path, "--out"), UsageError) << path;
    }
    EXPECT_EQ(entries(scratch.file("")), Names{"locked.csv"});
}

TEST(AtomicOutputFile, WriteErrorsAreReportedAtOnce) {
    ScratchFolder scratch;
    const std::string full_device = scratch.file("full");
    if (::mknod(full_device.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
        GTEST_SKIP() << "cannot make a device node here (needs root)";
    AtomicOutputFile file(full_device, "--out");
    EXPECT_EQ(file.kind(), AtomicOutputFile::Kind::direct);
    try {
        file.write("a");
        FAIL() << "a write to a full device succeeded";
    } catch (const std::runtime_error& error) {
        EXPECT_EQ(std::string(error.what()), "--out: writing '" + full_device + "' failed: No space left on device");
    }
    EXPECT_THROW(file.commit(), std::logic_error);  // no success after a failed write
}

}  // namespace

// A caught signal while the output is put in place and what follows it runs (a resume journal is
// removed there) is held back and raised after both: the process ends with the signal, the
// output complete, and the follow-up done; never a complete output beside an unfinished journal.
// The signal is sent to the process (any thread may take it) while an idle thread exists, for a
// new file (unnamed temporary where the filesystem allows) and a replaced one (named temporary).
TEST(AtomicOutputFile, ASignalDuringCommitWaitsUntilTheFollowUpHasRun) {
    for (const bool replace : {false, true}) {
        for (const auto temporary :
             {AtomicOutputFile::Temporary::unnamed_if_possible, AtomicOutputFile::Temporary::named}) {
            ScratchFolder scratch;
            const std::string out = scratch.file("out.csv");
            const std::string journal = scratch.file("out.csv.journal");
            if (replace) write_text(out, kOld);
            write_text(journal, "unfinished\n");
            std::fflush(nullptr);
            const pid_t child = ::fork();
            ASSERT_GE(child, 0) << std::strerror(errno);
            if (child == 0) {
                std::thread idle([] { std::this_thread::sleep_for(std::chrono::seconds(2)); });
                idle.detach();
                AtomicOutputFile file(out, "--out", temporary);
                file.write("complete\n");
                file.commit([&] {
                    ::kill(::getpid(), SIGTERM);
                    // Past the point where an unheld signal would long have ended the process.
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                    ::unlink(journal.c_str());
                });
                ::_exit(0);  // not reached: the held signal is raised when commit() returns
            }
            int status = 0;
            ASSERT_EQ(::waitpid(child, &status, 0), child);
            const std::string what = std::string(replace ? "replaced" : "new") + " file, " +
                                     (temporary == AtomicOutputFile::Temporary::named ? "named" : "unnamed") +
                                     " temporary";
            EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << what << ": status " << status;
            EXPECT_EQ(entries(scratch.file("")), Names{"out.csv"}) << what;
            EXPECT_EQ(read_file(out), "complete\n") << what;
        }
    }
}

// A signal before the output is put in place is not held back: it ends the run at once, and the
// temporary goes with it.
TEST(AtomicOutputFile, ASignalBeforeCommitEndsTheRunAtOnce) {
    ScratchFolder scratch;
    const std::string out = scratch.file("out.csv");
    std::fflush(nullptr);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0) << std::strerror(errno);
    if (child == 0) {
        AtomicOutputFile file(out, "--out", AtomicOutputFile::Temporary::named);
        file.write("partial\n");
        ::kill(::getpid(), SIGTERM);
        ::_exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << "status " << status;
    EXPECT_TRUE(entries(scratch.file("")).empty());
}
