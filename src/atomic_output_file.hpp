// The run's output (--out): either it appears complete under its final name, or the run fails
// with a clear error and nothing new is left there — no partial file, no temporary file, and a
// file that was there before is intact. What each kind of destination gets:
//
// - a new file, or an existing regular file: written to a temporary file in the destination's
//   directory and, on commit(), fsync'd and renamed onto the final name (atomic replace). The
//   temporary is unnamed (O_TMPFILE) where the filesystem supports it, so even SIGKILL leaves
//   nothing behind; it is given a short name (".geomint-" + 12 random characters, so any name
//   the filesystem accepts works as --out) only for the instant between linkat() and rename()
//   when an existing file is replaced — a SIGKILL in that window, and only there, leaves that
//   complete temporary behind. Without O_TMPFILE (EOPNOTSUPP, EISDIR, EINVAL, or no
//   /proc/self/fd to link it from), and for HDF5 outputs (Temporary::named: the library opens
//   its file by name), the named temporary exists for the whole run: caught signals remove it,
//   SIGKILL leaves it.
// - a symbolic link: followed (chains too, and a dangling link creates its target); the target
//   is replaced as above, in the target's directory, and the link is kept.
// - an existing regular file with other hard links: replaced by rename, as `mv` would — the name
//   given to --out gets the new content, its other names keep the old file.
// - an existing read-only file (no write permission bit at all): refused with a UsageError
//   before any work, for root too. Replacing it by rename is what the directory's permissions
//   would allow, as `mv` does, but making a file read-only is how users protect a result, and a
//   run must not silently defeat that. An existing file the user may not write is refused too.
// - permissions: a new file gets 0666 & ~umask (and the directory's default ACL), like any file
//   the user creates; a replaced file keeps its permission bits (not set-id or sticky) and, where
//   the system allows it (root, or a group the user is in), its owner and group.
// - an existing character device (/dev/null, a terminal) or FIFO: opened and written directly
//   (no temporary, no rename; it is never replaced by a regular file). A FIFO's open waits for a
//   reader, as the shell's `>` does. A failed run cannot take back what was already written.
//   A block device is refused (a CSV written over a disk is only ever a typo).
// - "-": standard output, written directly; description() is "standard output".
//
// The constructor validates the destination before any work: an existing directory, a missing
// or unwritable directory, a read-only file, a name holding a NUL, and a file this run reads
// (input_files.hpp: the sweep file, --init, ...) give UsageError(option, ...). A write, fsync or close
// error is reported at once as std::runtime_error("OPTION: writing 'PATH' failed: REASON"); a run
// never reports success after a write error, even when space is freed later.
//
// While one AtomicOutputFile lives, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU, SIGUSR1,
// SIGUSR2 and SIGALRM remove a named temporary and are then re-raised with their default action
// (exit status 128 + n); a signal that was ignored when the file was opened (nohup, a background
// job) stays ignored. SIGXFSZ is ignored, so exceeding `ulimit -f` makes write() fail with EFBIG
// and the run ends with the one-line error above (exit status 1) instead of a core dump. The
// previous dispositions are restored by the destructor. One AtomicOutputFile at a time.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace geomint {

class AtomicOutputFile {
public:
    // How the temporary of a replaced file is made: unnamed (O_TMPFILE) where the filesystem
    // allows, or always named, for a library that opens its output by name (HDF5 resolves the
    // name it is given, which an unnamed file's /proc/self/fd link cannot give).
    // named_later: named, but made only by create_named_temporary(), so that a caller can record
    // its name (given as `temporary_name`) first, as the resume journal does.
    enum class Temporary { unnamed_if_possible, named, named_later };
    // Opens the destination (see above). Throws UsageError naming `option` when it cannot be
    // written, before any work is done.
    // A named temporary gets `temporary_name` when given (from new_temporary_name()).
    AtomicOutputFile(std::string path, std::string option, Temporary temporary = Temporary::unnamed_if_possible,
                     std::string temporary_name = {});
    // Without commit(): the temporary is removed (a directly written destination keeps what it got).
    ~AtomicOutputFile();
    AtomicOutputFile(const AtomicOutputFile&) = delete;
    AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

    // Writes all of `bytes` now (no buffering here: callers hand over large blocks), retrying
    // short writes and EINTR. Throws std::runtime_error on the first error.
    void write(std::string_view bytes);
    // Makes the output final: fsync, close and rename for a file. Throws std::runtime_error on
    // failure, in which case nothing new is left under the final name. `once_in_place` runs right
    // after (removing what only an unfinished run needs, such as a resume journal): a caught
    // signal that comes from before the rename until it returns is held back and raised after it,
    // so that the two happen together or not at all (SIGKILL excepted).
    void commit(const std::function<void()>& once_in_place = {});
    // What the summary line names: the path as given, or "standard output" for "-".
    std::string description() const;
    // The named temporary's path (Temporary::named), for a library that opens its output by name
    // and writes it through descriptors of its own; commit() after the library has closed it.
    // Kind::replace with a named temporary only (throws std::logic_error otherwise).
    std::string temporary_path() const;
    // Temporary::named_later: makes the named temporary (UsageError naming the option if it cannot).
    void create_named_temporary();
    // Kind::replace's directory (symbolic links followed): where the temporary is made.
    const std::string& directory() const { return directory_; }

    enum class Kind { replace, direct, standard_output };
    Kind kind() const { return kind_; }
    // A fresh temporary name (".geomint-" and 12 random letters and digits) and whether `name`
    // is one.
    static std::string new_temporary_name();
    static bool is_temporary_name(const std::string& name);

private:
    [[noreturn]] void fail_writing(const std::string& reason);
    void install_signal_handlers();
    void release() noexcept;
    void put_in_place();
    void begin_signal_deferral();
    void end_signal_deferral();
    void commit_replace();
    void link_unnamed_temporary();
    void open_temporary(bool unnamed_if_possible);

    std::string path_;    // as given
    std::string option_;  // "--out"
    Kind kind_ = Kind::replace;
    std::string directory_;           // replace: the directory of the final file (symlinks resolved)
    std::string final_name_;          // replace: the final file's name in directory_
    std::string temporary_;           // replace: the temporary's name in directory_ (empty while unnamed)
    int directory_fd_ = -1;           // replace: directory_, open for openat/linkat/renameat/fsync
    int fd_ = -1;                     // the output
    bool unnamed_ = false;            // replace: the temporary is an O_TMPFILE file
    bool replaces_existing_ = false;  // replace: a file is there (its permissions carry over)
    struct stat existing_ {};         // replace: that file's status
    std::string temporary_name_;      // replace: the named temporary's name, when the caller chose it
    bool signal_owner_ = false;       // this object installed the signal handlers
    bool failed_ = false;
    bool committed_ = false;
};

}  // namespace geomint
