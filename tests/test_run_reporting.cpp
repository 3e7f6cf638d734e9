// Progress reporting: the text of a progress report, the self-updating terminal line (checked
// through a file and through a real pseudo-terminal), and the summary.
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "cli_runner.hpp"
#include "run_reporting.hpp"

namespace {

using geomint::ProgressStream;
using geomint::RunReporter;

std::string contents(std::FILE* file) {
    std::fflush(file);
    std::rewind(file);
    std::string text;
    char buffer[4096];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
    return text;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t found = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++found;
    return found;
}

TEST(RunReporting, ProgressTextHasCountsRateElapsedAndEta) {
    // 25 of 100 done in 10 s: 2500 trajectory-steps/s, and 75 left at the same rate take 30 s.
    EXPECT_EQ(RunReporter::progress_text(25, 100, 1000, 10.0),
              "25/100 trajectories (25.0%), 2.5e+03 trajectory-steps/s, 10 s elapsed, ETA 30 s");
    EXPECT_EQ(RunReporter::progress_text(1, 3, 0, 200.0),
              "1/3 trajectories (33.3%), 3 min 20 s elapsed, ETA 6 min 40 s");
    // Nothing done yet: no rate of work to extrapolate; all done: nothing left.
    EXPECT_EQ(RunReporter::progress_text(0, 10, 5, 7200.0),
              "0/10 trajectories (0.0%), 0 trajectory-steps/s, 2 h 00 min elapsed");
    EXPECT_EQ(RunReporter::progress_text(10, 10, 0, 1.0), "10/10 trajectories (100.0%), 1 s elapsed");
}

TEST(RunReporting, TerminalLineRewritesItselfAndIsClearedBeforeTheSummary) {
    std::FILE* file = std::tmpfile();
    ASSERT_NE(file, nullptr);
    {
        RunReporter reporter(4, false, 10, ProgressStream{file, true});
        reporter.advance(1);  // before the first interval: nothing yet
        std::this_thread::sleep_for(std::chrono::duration<double>(RunReporter::kTerminalInterval * 1.2));
        reporter.advance(1);
        std::this_thread::sleep_for(std::chrono::duration<double>(RunReporter::kTerminalInterval * 1.2));
        reporter.advance(2);
        const std::string during = contents(file);
        EXPECT_EQ(count(during, "\r\033[K"), 2u) << during;
        EXPECT_EQ(during.find('\n'), std::string::npos) << "a terminal progress line never ends itself";
        EXPECT_NE(during.find("geomint: 2/4 trajectories (50.0%)"), std::string::npos) << during;
        EXPECT_NE(during.find("ETA"), std::string::npos) << during;
        reporter.count_status("ok");
        reporter.finish("cpu", "out.csv");
    }
    const std::string after = contents(file);
    const std::string summary_start = "\r\033[Kgeomint: 4 trajectories in ";
    EXPECT_NE(after.find(summary_start), std::string::npos) << "the line is cleared before the summary: " << after;
    EXPECT_EQ(count(after, "\n"), 1u) << after;
    std::fclose(file);
}

TEST(RunReporting, AFailedRunEndsTheTerminalLineSoTheErrorStartsALine) {
    std::FILE* file = std::tmpfile();
    ASSERT_NE(file, nullptr);
    {
        RunReporter reporter(2, false, 1, ProgressStream{file, true});
        std::this_thread::sleep_for(std::chrono::duration<double>(RunReporter::kTerminalInterval * 1.2));
        reporter.advance(1);
    }  // no finish(): the run failed
    const std::string text = contents(file);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n');
    std::fclose(file);
}

TEST(RunReporting, QuietPrintsNothing) {
    std::FILE* file = std::tmpfile();
    ASSERT_NE(file, nullptr);
    {
        RunReporter reporter(2, true, 1, ProgressStream{file, true});
        std::this_thread::sleep_for(std::chrono::duration<double>(RunReporter::kTerminalInterval * 1.2));
        reporter.advance(2);
        reporter.finish("cpu", "out.csv");
    }
    EXPECT_EQ(contents(file), "");
    std::fclose(file);
}

// geomint with its standard error on a pseudo-terminal: the progress line rewrites itself and the
// output ends with the summary on a line of its own.
TEST(RunReporting, GeomintOnATerminalShowsOneSelfUpdatingLine) {
    geomint_test::ScratchFolder scratch;
    const std::string out = scratch.file("out.csv");
    int terminal = -1;
    const pid_t child = forkpty(&terminal, nullptr, nullptr, nullptr);
    ASSERT_GE(child, 0);
    if (child == 0) {
        // One thread, so that even a fast machine takes several rewrite intervals (about 3 s here).
        ::setenv("TERM", "xterm", 1);
        ::execl(GEOMINT_BINARY, "geomint", "pendulum", "--q0", "0:3:20000", "--steps", "2000", "--dt", "0.01",
                "--backend", "cpu", "--threads", "1", "--out", out.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    std::string text;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(terminal, buffer, sizeof buffer);
        if (n <= 0) break;  // EIO once the child has gone
        text.append(buffer, static_cast<std::size_t>(n));
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ::close(terminal);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << text;
    EXPECT_GE(count(text, "\r\033[Kgeomint: "), 2u) << "progress lines, then the summary: " << text;
    EXPECT_NE(text.find("trajectory-steps/s"), std::string::npos) << text;
    EXPECT_EQ(text.find("geomint: computed"), std::string::npos) << "no log-style lines on a terminal: " << text;
    // The terminal turns '\n' into "\r\n": the summary is the only line.
    EXPECT_EQ(count(text, "\n"), 1u) << text;
    EXPECT_NE(text.find("geomint: 20000 trajectories in "), std::string::npos) << text;
}

}  // namespace
