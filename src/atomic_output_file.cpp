// The run's output file: temporary then rename, direct writes for devices, FIFOs and standard
// output, every write error reported, signal clean-up (see atomic_output_file.hpp).
#include "atomic_output_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "input_files.hpp"
#include "option_values.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

// ---- Signal clean-up. The handler uses only async-signal-safe calls (unlinkat, sigaction,
// raise) on state written before it is armed: the directory descriptor and a short name.
constexpr int kCleanedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU, SIGUSR1, SIGUSR2, SIGALRM};
constexpr std::size_t kSignalCount = std::size(kCleanedSignals);

volatile std::sig_atomic_t temporary_armed = 0;
// While the output is put in place and what belongs to the unfinished run is removed
// (commit()'s once_in_place), a caught signal is only noted, and raised again at the end: ending
// the process between the two would leave a complete output beside a journal that says it is
// unfinished. One word, so that a handler on another thread and the end of the deferral cannot
// both miss the signal: kNotDeferring, kDeferring, or kDeferring + the signal noted.
constexpr int kNotDeferring = 0;
constexpr int kDeferring = 1;
std::atomic<int> deferral{kNotDeferring};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free atomic");
int temporary_directory_fd = -1;
char temporary_name[32] = {0};
struct sigaction previous_actions[kSignalCount];
bool handler_installed[kSignalCount] = {};
struct sigaction previous_file_size_action;
bool handlers_owned = false;  // an AtomicOutputFile holds the handlers

extern "C" void remove_temporary_and_reraise(int signal_number) {
    int expected = kDeferring;
    if (deferral.compare_exchange_strong(expected, kDeferring + signal_number) || expected != kNotDeferring)
        return;  // noted (or one already is): raised again once the output is in place
    if (temporary_armed) ::unlinkat(temporary_directory_fd, temporary_name, 0);
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    ::sigaction(signal_number, &default_action, nullptr);
    // Blocked while this handler runs: delivered, with the default action, when it returns.
    ::raise(signal_number);
}

// Arms the handler for `name` in the directory before the name is created, and disarms it after
// the name is gone, so that no order of events leaves the name behind after a caught signal (a
// handler running between arming and the name's creation finds nothing to remove).
void arm(int directory_fd, const std::string& name) {
    temporary_armed = 0;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    std::memcpy(temporary_name, name.c_str(), name.size() + 1);
    temporary_directory_fd = directory_fd;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    temporary_armed = 1;
}

void disarm() { temporary_armed = 0; }

// ".geomint-" and 12 random characters: short, so any --out name the filesystem accepts works
// (NAME_MAX is for the final name alone), and unguessable, so two runs never collide.
std::string random_temporary_name() {
    static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char bytes[12];
    if (::getrandom(bytes, sizeof bytes, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof bytes)) {
        static std::uint64_t counter = 0;
        std::uint64_t x = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                          (static_cast<std::uint64_t>(::getpid()) << 32) ^ (++counter * 0x9E3779B97F4A7C15ull);
        for (unsigned char& byte : bytes) {  // splitmix64
            x += 0x9E3779B97F4A7C15ull;
            std::uint64_t z = x;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            byte = static_cast<unsigned char>(z ^ (z >> 31));
        }
    }
    std::string name = ".geomint-";
    for (const unsigned char byte : bytes) name += kAlphabet[byte % (sizeof kAlphabet - 1)];
    return name;
}

std::string error_text(int error) { return std::strerror(error); }

// The directory part of `path` ("." when there is none) and the last component.
struct PathParts {
    std::string directory;
    std::string name;
};

PathParts split_path(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return {std::string("."), path};
    return {path.substr(0, slash == 0 ? 1 : slash), path.substr(slash + 1)};
}

// Follows symbolic links in the last component of `path` (the kernel follows the others), so the
// temporary is made beside the file that is finally replaced and the links survive. A dangling
// link resolves to its (missing) target, which the run then creates, as the shell's `>` would.
std::string resolve_symlinks(const std::string& path, const std::string& option) {
    std::string current = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat status {};
        if (::lstat(current.c_str(), &status) != 0 || !S_ISLNK(status.st_mode)) return current;
        std::vector<char> target(static_cast<std::size_t>(status.st_size > 0 ? status.st_size : 255) + 2);
        const ssize_t length = ::readlink(current.c_str(), target.data(), target.size());
        if (length < 0) throw UsageError(option, "cannot follow the link '" + current + "': " + error_text(errno));
        if (static_cast<std::size_t>(length) >= target.size()) continue;  // changed while read: again
        const std::string destination(target.data(), static_cast<std::size_t>(length));
        if (destination.empty()) return current;
        if (destination.front() == '/') {
            current = destination;
        } else {
            current = split_path(current).directory + "/" + destination;
        }
    }
    throw UsageError(option, "cannot follow the link '" + path + "': " + error_text(ELOOP));
}

// Whether an O_TMPFILE file can later be given a name: linkat() through /proc/self/fd works for
// any user; without /proc only CAP_DAC_READ_SEARCH could (AT_EMPTY_PATH), so use a named file.
bool can_link_unnamed(int fd) {
    char proc_path[64];
    std::snprintf(proc_path, sizeof proc_path, "/proc/self/fd/%d", fd);
    char target[16];
    return ::readlink(proc_path, target, sizeof target) >= 0;
}

}  // namespace

AtomicOutputFile::AtomicOutputFile(std::string path, std::string option, Temporary temporary,
                                   std::string temporary_name)
    : path_(std::move(path)), option_(std::move(option)) {
    check_file_name(path_, option_);
    refuse_output_onto_input(path_, option_);
    const std::string quoted = "'" + path_ + "'";
    try {
        if (path_ == "-") {
            kind_ = Kind::standard_output;
            const int flags = ::fcntl(STDOUT_FILENO, F_GETFL);
            if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
                throw UsageError(option_, "standard output is not open for writing");
            fd_ = STDOUT_FILENO;
            install_signal_handlers();
            return;
        }
        struct stat status {};
        if (::stat(path_.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
            if (S_ISDIR(status.st_mode)) throw UsageError(option_, quoted + " is a directory; give a file name");
            // A CSV on a disk's block device would only ever be a typo that destroys the disk.
            if (S_ISBLK(status.st_mode)) throw UsageError(option_, quoted + " is a block device; give a file name");
            // A character device, FIFO or socket: written in place, never replaced by a regular file.
            kind_ = Kind::direct;
            install_signal_handlers();
            fd_ = ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
            if (fd_ < 0) throw UsageError(option_, "cannot write " + quoted + ": " + error_text(errno));
            return;
        }
        if (path_.back() == '/') throw UsageError(option_, quoted + " names a directory; give a file name");

        PathParts target = split_path(resolve_symlinks(path_, option_));
        directory_ = std::move(target.directory);
        final_name_ = std::move(target.name);
        if (final_name_.empty() || final_name_ == "." || final_name_ == "..")
            throw UsageError(option_, quoted + " names a directory; give a file name");
        // O_PATH: enough for openat, linkat, renameat and unlinkat, and needs no read permission.
        directory_fd_ = ::open(directory_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (directory_fd_ < 0) {
            const int error = errno;
            if (error == ENOENT)
                throw UsageError(option_, "cannot write " + quoted + ": directory '" + directory_ + "' does not exist");
            if (error == ENOTDIR)
                throw UsageError(option_, "cannot write " + quoted + ": '" + directory_ + "' is not a directory");
            throw UsageError(option_,
                             "cannot write " + quoted + ": directory '" + directory_ + "': " + error_text(error));
        }

        struct stat existing {};
        const bool exists = ::fstatat(directory_fd_, final_name_.c_str(), &existing, AT_SYMLINK_NOFOLLOW) == 0;
        if (!exists && errno != ENOENT) throw UsageError(option_, "cannot write " + quoted + ": " + error_text(errno));
        if (exists) {
            if (S_ISDIR(existing.st_mode)) throw UsageError(option_, quoted + " is a directory; give a file name");
            if (!S_ISREG(existing.st_mode))
                throw UsageError(option_, "cannot write " + quoted + ": it changed while being opened");
            // Read-only: refused, for root too (the mode bits, not access(), decide): see the header.
            if ((existing.st_mode & 0222) == 0)
                throw UsageError(option_,
                                 quoted + " is read-only and is not replaced (remove it, or make it writable)");
            if (::faccessat(directory_fd_, final_name_.c_str(), W_OK, AT_EACCESS) != 0)
                throw UsageError(option_, "cannot write " + quoted + ": " + error_text(errno));
            // In a sticky directory (/tmp) only the file's or the directory's owner may replace it:
            // say so now rather than at rename, after all the work.
            struct stat directory {};
            if (::fstat(directory_fd_, &directory) == 0 && (directory.st_mode & S_ISVTX) != 0 && ::geteuid() != 0 &&
                existing.st_uid != ::geteuid() && directory.st_uid != ::geteuid())
                throw UsageError(option_,
                                 "cannot write " + quoted + ": it belongs to another user in a sticky directory");
        }

        install_signal_handlers();
        replaces_existing_ = exists;
        existing_ = existing;
        temporary_name_ = std::move(temporary_name);
        if (temporary != Temporary::named_later) open_temporary(temporary == Temporary::unnamed_if_possible);
    } catch (...) {
        release();
        throw;
    }
}

AtomicOutputFile::~AtomicOutputFile() { release(); }

void AtomicOutputFile::open_temporary(bool unnamed_if_possible) {
    const std::string quoted = "'" + path_ + "'";
    if (unnamed_if_possible)
        fd_ = ::openat(directory_fd_, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    else
        errno = EOPNOTSUPP;  // as a filesystem without O_TMPFILE: a named temporary below
    if (fd_ >= 0) {
        unnamed_ = can_link_unnamed(fd_);
        if (!unnamed_) {
            ::close(fd_);
            fd_ = -1;
        }
    } else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
        throw UsageError(
            option_, "cannot write " + quoted + ": cannot create a file in '" + directory_ + "': " + error_text(errno));
    }
    if (fd_ < 0) {  // no O_TMPFILE here: a named temporary, removed on error and on caught signals
        for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
            // A name given by the caller is the only one tried: the caller has recorded it.
            if (attempt > 0 && !temporary_name_.empty())
                throw UsageError(option_,
                                 "cannot write " + quoted + ": its temporary '" + temporary_name_ + "' exists already");
            const std::string name = temporary_name_.empty() ? random_temporary_name() : temporary_name_;
            if (signal_owner_) arm(directory_fd_, name);
            fd_ = ::openat(directory_fd_, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd_ >= 0) {
                temporary_ = name;
            } else {
                const int error = errno;
                if (signal_owner_) disarm();
                if (error != EEXIST)
                    throw UsageError(option_, "cannot write " + quoted + ": cannot create a file in '" + directory_ +
                                                  "': " + error_text(error));
            }
        }
        if (fd_ < 0) throw UsageError(option_, "cannot write " + quoted + ": no free temporary name");
    }
    if (replaces_existing_) {  // a replaced file keeps its permissions and, where allowed, its owner and group
        (void)::fchown(fd_, existing_.st_uid, existing_.st_gid);
        if (::fchmod(fd_, existing_.st_mode & 0777) != 0)
            throw UsageError(option_, "cannot write " + quoted + ": " + error_text(errno));
    }
}

void AtomicOutputFile::create_named_temporary() {
    if (kind_ != Kind::replace || fd_ >= 0) throw std::logic_error("AtomicOutputFile: no temporary to create");
    open_temporary(false);
}

std::string AtomicOutputFile::new_temporary_name() { return random_temporary_name(); }

bool AtomicOutputFile::is_temporary_name(const std::string& name) {
    constexpr std::size_t kPrefix = 9, kRandom = 12;  // ".geomint-", then random_temporary_name()'s characters
    return name.size() == kPrefix + kRandom && name.compare(0, kPrefix, ".geomint-") == 0 &&
           std::all_of(name.begin() + kPrefix, name.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
           });
}

void AtomicOutputFile::release() noexcept {
    if (fd_ >= 0 && kind_ != Kind::standard_output) ::close(fd_);  // an unnamed temporary vanishes here
    fd_ = -1;
    if (!temporary_.empty()) ::unlinkat(directory_fd_, temporary_.c_str(), 0);
    temporary_.clear();
    if (signal_owner_) {
        disarm();
        for (std::size_t i = 0; i < kSignalCount; ++i)
            if (handler_installed[i]) ::sigaction(kCleanedSignals[i], &previous_actions[i], nullptr);
        ::sigaction(SIGXFSZ, &previous_file_size_action, nullptr);
        handlers_owned = false;
        signal_owner_ = false;
    }
    if (directory_fd_ >= 0) ::close(directory_fd_);
    directory_fd_ = -1;
}

void AtomicOutputFile::install_signal_handlers() {
    if (handlers_owned) return;  // another AtomicOutputFile holds them: its temporary is the one covered
    handlers_owned = true;
    signal_owner_ = true;
    struct sigaction action {};
    action.sa_handler = remove_temporary_and_reraise;
    sigemptyset(&action.sa_mask);
    for (const int signal_number : kCleanedSignals) sigaddset(&action.sa_mask, signal_number);
    for (std::size_t i = 0; i < kSignalCount; ++i) {
        ::sigaction(kCleanedSignals[i], nullptr, &previous_actions[i]);
        // Only over the default action: an ignored signal (nohup, a background job) stays ignored.
        handler_installed[i] =
            (previous_actions[i].sa_flags & SA_SIGINFO) == 0 && previous_actions[i].sa_handler == SIG_DFL;
        if (handler_installed[i]) ::sigaction(kCleanedSignals[i], &action, nullptr);
    }
    // Past `ulimit -f`, write() then fails with EFBIG: a clean error, not a core dump.
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ::sigaction(SIGXFSZ, &ignore, &previous_file_size_action);
}

std::string AtomicOutputFile::description() const { return kind_ == Kind::standard_output ? "standard output" : path_; }

std::string AtomicOutputFile::temporary_path() const {
    if (kind_ != Kind::replace || fd_ < 0 || committed_ || temporary_.empty())
        throw std::logic_error("AtomicOutputFile::temporary_path: no named temporary");
    return directory_ + "/" + temporary_;
}

void AtomicOutputFile::fail_writing(const std::string& reason) {
    failed_ = true;
    const std::string what = kind_ == Kind::standard_output ? "standard output" : "'" + path_ + "'";
    throw std::runtime_error(option_ + ": writing " + what + " failed: " + reason);
}

void AtomicOutputFile::write(std::string_view bytes) {
    if (fd_ < 0 || failed_ || committed_) throw std::logic_error("AtomicOutputFile::write after failure or commit");
    const char* data = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        const ssize_t written = ::write(fd_, data, left);
        if (written < 0) {
            if (errno == EINTR) continue;
            fail_writing(error_text(errno));
        }
        if (written == 0) fail_writing("no byte written");
        data += written;
        left -= static_cast<std::size_t>(written);
    }
}

void AtomicOutputFile::commit(const std::function<void()>& once_in_place) {
    if (fd_ < 0 || failed_ || committed_) throw std::logic_error("AtomicOutputFile::commit after failure or commit");
    try {
        put_in_place();
        if (once_in_place) once_in_place();
    } catch (...) {
        end_signal_deferral();
        throw;
    }
    end_signal_deferral();
}

// Only from just before the final name appears: the fsync before it may take long, and a
// signal then must end the run at once, as anywhere else.
void AtomicOutputFile::begin_signal_deferral() {
    if (signal_owner_) deferral.store(kDeferring);
}

void AtomicOutputFile::end_signal_deferral() {
    if (!signal_owner_) return;
    const int noted = deferral.exchange(kNotDeferring);
    // Handled now, as it would have been when it came: the temporary (if any is left) is removed
    // and the signal ends the process with its default action.
    if (noted > kDeferring) ::raise(noted - kDeferring);
}

void AtomicOutputFile::put_in_place() {
    switch (kind_) {
        case Kind::standard_output:
            break;  // nothing buffered here; what stdout leads to is the caller's
        case Kind::direct: {
            // A pipe or device may not support fsync (EINVAL): what matters is that write() took it all.
            if (::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS && errno != ENOTSUP)
                fail_writing(error_text(errno));
            const int closed = ::close(fd_);
            fd_ = -1;
            if (closed != 0 && errno != EINTR) fail_writing(error_text(errno));
            break;
        }
        case Kind::replace:
            commit_replace();
            break;
    }
    committed_ = true;
}

void AtomicOutputFile::commit_replace() {
    // Data on disk first: a full disk or an I/O error deferred by the filesystem shows up here.
    if (::fsync(fd_) != 0) fail_writing(error_text(errno));
    if (unnamed_) {
        // close() reports delayed write errors (NFS) through the file's flush, which runs on every
        // close: close a duplicate, since the unnamed file vanishes with its last descriptor.
        const int duplicate = ::dup(fd_);
        if (duplicate < 0) fail_writing(error_text(errno));
        if (::close(duplicate) != 0 && errno != EINTR) fail_writing(error_text(errno));
        begin_signal_deferral();  // the link below may already be the final name
        link_unnamed_temporary();
    } else {
        const int closed = ::close(fd_);
        fd_ = -1;
        if (closed != 0 && errno != EINTR) fail_writing(error_text(errno));
        begin_signal_deferral();
    }
    if (!temporary_.empty()) {
        if (::renameat(directory_fd_, temporary_.c_str(), directory_fd_, final_name_.c_str()) != 0) {
            const int error = errno;
            ::unlinkat(directory_fd_, temporary_.c_str(), 0);
            temporary_.clear();
            if (signal_owner_) disarm();
            fail_writing(error_text(error));
        }
        temporary_.clear();
        if (signal_owner_) disarm();
    }
    // In place, synced and flushed: this close only releases the descriptor.
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    // The rename made durable, best effort: the file is complete and in place either way.
    const int directory = ::openat(directory_fd_, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (directory >= 0) {
        ::fsync(directory);
        ::close(directory);
    }
}

void AtomicOutputFile::link_unnamed_temporary() {
    char proc_path[64];
    std::snprintf(proc_path, sizeof proc_path, "/proc/self/fd/%d", fd_);
    const auto link_as = [&](const std::string& name) {
        if (::linkat(AT_FDCWD, proc_path, directory_fd_, name.c_str(), AT_SYMLINK_FOLLOW) == 0) return 0;
        const int error = errno;
        if (error != ENOENT) return error;
        // /proc went away: AT_EMPTY_PATH works with CAP_DAC_READ_SEARCH.
        return ::linkat(fd_, "", directory_fd_, name.c_str(), AT_EMPTY_PATH) == 0 ? 0 : error;
    };
    // Nothing under the final name: link the complete file there directly, atomically, with no
    // window in which a temporary name exists.
    int error = link_as(final_name_);
    if (error == 0) return;
    if (error != EEXIST) fail_writing(error_text(error));
    // linkat cannot replace: a short-lived name, renamed onto the final one by the caller. A
    // SIGKILL between the two leaves this (complete) file behind; caught signals remove it.
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string name = random_temporary_name();
        if (signal_owner_) arm(directory_fd_, name);
        error = link_as(name);
        if (error == 0) {
            temporary_ = name;
            return;
        }
        if (signal_owner_) disarm();
        if (error != EEXIST) fail_writing(error_text(error));
    }
    fail_writing("no free temporary name");
}

}  // namespace geomint
