// The held-chunk table and its signal handler (see mpi_held_chunks.hpp). The handler may only call
// async-signal-safe functions, so the line is formatted beforehand into a static buffer, which is
// replaced with the signals blocked.
#include "mpi_held_chunks.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <cstring>

namespace geomint::mpi {

namespace {

// SIGPIPE too: Open MPI's TCP transport writes to a peer's socket without MSG_NOSIGNAL, so when
// rank 0 sends to a rank that died before mpirun's SIGTERM arrived, SIGPIPE is what ends rank 0
// (tests/mpi/mpi.sh, kill_rank with mpirun stopped).
constexpr std::array<int, 5> kSignals = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE};
std::array<struct sigaction, kSignals.size()> replaced{};
char line[8192];
std::size_t line_size = 0;
constexpr char kMarker = '#';  // where the signal number goes

sigset_t signal_set() {
    sigset_t set;
    sigemptyset(&set);
    for (const int s : kSignals) sigaddset(&set, s);
    return set;
}

extern "C" void print_held_chunks(int signal) {
    char number[8];
    int digits = 0;
    for (int v = signal; v > 0 && digits < 7; v /= 10) number[digits++] = static_cast<char>('0' + v % 10);
    for (std::size_t k = 0; k < line_size; ++k) {
        if (line[k] == kMarker) {
            for (int d = digits - 1; d >= 0; --d) (void)!write(STDERR_FILENO, &number[d], 1);
        } else {
            // One write per run of text: short lines, and no buffer to fill in a handler.
            std::size_t end = k;
            while (end < line_size && line[end] != kMarker) ++end;
            (void)!write(STDERR_FILENO, line + k, end - k);
            k = end - 1;
        }
    }
    // Hand the signal to the handler this one replaced (the output file's: remove the temporary,
    // then die of the signal). Raised while blocked here, it arrives as soon as this returns.
    for (std::size_t k = 0; k < kSignals.size(); ++k)
        if (kSignals[k] == signal) sigaction(signal, &replaced[k], nullptr);
    raise(signal);
}

}  // namespace

HeldChunks::HeldChunks(std::vector<std::string> hosts) : hosts_(std::move(hosts)), held_(hosts_.size()) {
    publish();
    struct sigaction action {};
    action.sa_handler = print_held_chunks;
    sigemptyset(&action.sa_mask);
    for (std::size_t k = 0; k < kSignals.size(); ++k) {
        sigaction(kSignals[k], nullptr, &replaced[k]);
        if (replaced[k].sa_handler == SIG_IGN) continue;  // nohup: stays ignored
        sigaction(kSignals[k], &action, nullptr);
    }
}

HeldChunks::~HeldChunks() {
    for (std::size_t k = 0; k < kSignals.size(); ++k)
        if (replaced[k].sa_handler != SIG_IGN) sigaction(kSignals[k], &replaced[k], nullptr);
}

void HeldChunks::add(int rank, std::uint64_t begin, std::size_t n) {
    held_[rank][begin] = n;
    publish();
}

void HeldChunks::remove(int rank, std::uint64_t begin) {
    held_[rank].erase(begin);
    publish();
}

std::string HeldChunks::describe() const {
    std::string text = "geomint: error: stopped by signal #; chunks in flight (computed again by --resume):";
    bool any = false;
    for (std::size_t r = 0; r < held_.size(); ++r) {
        if (held_[r].empty()) continue;
        text += std::string(any ? ";" : "") + " rank " + std::to_string(r) + " on " + hosts_[r] + ": trajectories";
        bool first = true;
        for (const auto& [begin, n] : held_[r]) {
            text += std::string(first ? " [" : ", [") + std::to_string(begin) + ", " + std::to_string(begin + n) + ")";
            first = false;
        }
        any = true;
    }
    if (!any) text += " none";
    text += ". When a rank fails, mpirun stops the others and names it; continue with --resume\n";
    for (char& c : text)
        if (c == kMarker && &c != &text[text.find(kMarker)]) c = '?';  // a host name's '#' is not the number
    return text;
}

void HeldChunks::publish() const {
    std::string text = describe();
    if (text.size() > sizeof line) text = text.substr(0, sizeof line - 5) + "...\n";
    const sigset_t set = signal_set();
    sigset_t previous;
    pthread_sigmask(SIG_BLOCK, &set, &previous);
    std::memcpy(line, text.data(), text.size());
    line_size = text.size();
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

}  // namespace geomint::mpi
