// Temporary-then-rename output files (see atomic_output_file.hpp).
#include "atomic_output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "usage_error.hpp"

namespace geomint {

namespace {

// The temporary file being written, for the signal handler: an interrupted run
// (Ctrl-C, kill) removes it rather than leaving a partial file behind.
char pending_path[4096] = {0};

extern "C" void remove_pending_and_reraise(int signal_number) {
    if (pending_path[0] != '\0') ::unlink(pending_path);
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}

void watch_pending(const std::string& path) {
    if (path.size() >= sizeof pending_path) return;
    std::memcpy(pending_path, path.c_str(), path.size() + 1);
    for (int s : {SIGINT, SIGTERM, SIGHUP}) std::signal(s, remove_pending_and_reraise);
}

void forget_pending() { pending_path[0] = '\0'; }

}  // namespace

AtomicOutputFile::AtomicOutputFile(std::string path, std::string option)
    : path_(std::move(path)), option_(std::move(option)) {
    if (path_.empty()) throw UsageError(option_, "empty file name");
    std::string pattern = path_ + ".partial-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    const int descriptor = mkstemp(buffer.data());
    if (descriptor < 0) throw UsageError(option_, "cannot write '" + path_ + "': " + std::strerror(errno));
    temporary_path_ = buffer.data();
    watch_pending(temporary_path_);
    stream_ = fdopen(descriptor, "w");
    if (stream_ == nullptr) {
        ::close(descriptor);
        std::remove(temporary_path_.c_str());
        throw UsageError(option_, "cannot write '" + path_ + "': " + std::strerror(errno));
    }
    // Large buffer: rows are many and small.
    std::setvbuf(stream_, nullptr, _IOFBF, 1 << 20);
}

AtomicOutputFile::~AtomicOutputFile() {
    if (stream_ != nullptr) std::fclose(stream_);
    if (!temporary_path_.empty()) std::remove(temporary_path_.c_str());
    forget_pending();
}

void AtomicOutputFile::commit() {
    const bool written = std::fflush(stream_) == 0 && ::fsync(fileno(stream_)) == 0;
    const bool closed = std::fclose(stream_) == 0;
    stream_ = nullptr;
    if (!written || !closed)
        throw std::runtime_error(option_ + ": writing '" + path_ + "' failed: " + std::strerror(errno));
    ::chmod(temporary_path_.c_str(), 0644);  // mkstemp creates 0600
    if (std::rename(temporary_path_.c_str(), path_.c_str()) != 0)
        throw std::runtime_error(option_ + ": cannot rename onto '" + path_ + "': " + std::strerror(errno));
    temporary_path_.clear();
}

}  // namespace geomint
