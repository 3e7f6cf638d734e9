// LD_PRELOAD library for the fault-injection tests (tests/faults/): makes write(), fsync(),
// close() and O_TMPFILE opens of the program it is loaded into fail as a full or faulty disk
// would, as the environment says. Only descriptors >= GEOMINT_FAULT_FD_MIN (default 3, so not
// standard output and error) are touched. Every call goes to the kernel through syscall().
//
//   GEOMINT_FAULT_WRITE_LIMIT=N    N bytes in all are written; the write that crosses N is cut
//                                  short at N, every later one fails with GEOMINT_FAULT_ERRNO
//   GEOMINT_FAULT_FAIL_CALLS=K:M   write calls K .. K+M-1 (counted from 1) fail with
//                                  GEOMINT_FAULT_ERRNO and write nothing; later ones succeed
//                                  again (a disk that fills, then gets space back)
//   GEOMINT_FAULT_ERRNO=NAME       ENOSPC (default), EIO, EDQUOT or EFBIG
//   GEOMINT_FAULT_MAX_WRITE=B      every write transfers at most B bytes (short writes)
//   GEOMINT_FAULT_EINTR_EVERY=E    every E-th write call fails with EINTR, writing nothing
//   GEOMINT_FAULT_FSYNC=NAME       fsync and fdatasync fail with that error
//   GEOMINT_FAULT_CLOSE=NAME       close of any descriptor of a file that was written closes it,
//                                  then fails with that error
//   GEOMINT_FAULT_NO_TMPFILE=1     open with O_TMPFILE fails with EOPNOTSUPP (an old filesystem)
//   GEOMINT_FAULT_REPORT=FILE      at exit, what was done: "writes=.. bytes=.. short=.. eintr=..
//                                  failed=.. fsync_failed=.. close_failed=.. tmpfile_refused=.."
//                                  (so a test can tell that the fault it asked for happened)
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

static long counter_writes, counter_bytes, counter_short, counter_eintr, counter_failed, counter_fsync_failed,
    counter_close_failed, counter_tmpfile_refused;
// The files written (device and inode): a close of any descriptor of one of them, a duplicate
// too, is where a filesystem reports a deferred write error (NFS flushes on every close).
static struct {
    dev_t device;
    ino_t inode;
} written_files[64];
static int written_count;

static void remember_written(int fd) {
    struct stat status;
    if (syscall(SYS_fstat, fd, &status) != 0) return;
    for (int i = 0; i < __atomic_load_n(&written_count, __ATOMIC_SEQ_CST); ++i)
        if (written_files[i].device == status.st_dev && written_files[i].inode == status.st_ino) return;
    const int slot = __atomic_fetch_add(&written_count, 1, __ATOMIC_SEQ_CST);
    if (slot >= 64) return;
    written_files[slot].device = status.st_dev;
    written_files[slot].inode = status.st_ino;
}

static int was_written(int fd) {
    struct stat status;
    if (syscall(SYS_fstat, fd, &status) != 0) return 0;
    for (int i = 0; i < __atomic_load_n(&written_count, __ATOMIC_SEQ_CST) && i < 64; ++i)
        if (written_files[i].device == status.st_dev && written_files[i].inode == status.st_ino) return 1;
    return 0;
}

static long long env_number(const char* name, long long fallback) {
    const char* text = getenv(name);
    return text != NULL && *text != '\0' ? strtoll(text, NULL, 10) : fallback;
}

static int env_errno(const char* name, int fallback) {
    const char* text = getenv(name);
    if (text == NULL || *text == '\0') return fallback;
    if (strcmp(text, "ENOSPC") == 0) return ENOSPC;
    if (strcmp(text, "EIO") == 0) return EIO;
    if (strcmp(text, "EDQUOT") == 0) return EDQUOT;
    if (strcmp(text, "EFBIG") == 0) return EFBIG;
    return atoi(text) > 0 ? atoi(text) : fallback;
}

static int affected(int fd) { return fd >= env_number("GEOMINT_FAULT_FD_MIN", 3); }

ssize_t write(int fd, const void* data, size_t size) {
    if (!affected(fd)) return syscall(SYS_write, fd, data, size);
    const long call = __atomic_add_fetch(&counter_writes, 1, __ATOMIC_SEQ_CST);
    const int error = env_errno("GEOMINT_FAULT_ERRNO", ENOSPC);
    const long long eintr_every = env_number("GEOMINT_FAULT_EINTR_EVERY", 0);
    if (eintr_every > 0 && call % eintr_every == 0) {
        __atomic_add_fetch(&counter_eintr, 1, __ATOMIC_SEQ_CST);
        errno = EINTR;
        return -1;
    }
    const char* window = getenv("GEOMINT_FAULT_FAIL_CALLS");
    if (window != NULL) {
        long first = 0, count = 0;
        if (sscanf(window, "%ld:%ld", &first, &count) == 2 && call >= first && call < first + count) {
            __atomic_add_fetch(&counter_failed, 1, __ATOMIC_SEQ_CST);
            errno = error;
            return -1;
        }
    }
    size_t allowed = size;
    const long long max_write = env_number("GEOMINT_FAULT_MAX_WRITE", 0);
    if (max_write > 0 && allowed > (size_t)max_write) allowed = (size_t)max_write;
    const long long limit = env_number("GEOMINT_FAULT_WRITE_LIMIT", -1);
    if (limit >= 0) {
        const long long room = limit - __atomic_load_n(&counter_bytes, __ATOMIC_SEQ_CST);
        if (room <= 0 && size > 0) {
            __atomic_add_fetch(&counter_failed, 1, __ATOMIC_SEQ_CST);
            errno = error;
            return -1;
        }
        if ((long long)allowed > room) allowed = (size_t)room;
    }
    if (allowed < size) __atomic_add_fetch(&counter_short, 1, __ATOMIC_SEQ_CST);
    const ssize_t written = syscall(SYS_write, fd, data, allowed);
    if (written > 0) {
        __atomic_add_fetch(&counter_bytes, written, __ATOMIC_SEQ_CST);
        if (getenv("GEOMINT_FAULT_CLOSE") != NULL) remember_written(fd);
    }
    return written;
}

int fsync(int fd) {
    const int error = env_errno("GEOMINT_FAULT_FSYNC", 0);
    if (error != 0 && affected(fd)) {
        __atomic_add_fetch(&counter_fsync_failed, 1, __ATOMIC_SEQ_CST);
        errno = error;
        return -1;
    }
    return (int)syscall(SYS_fsync, fd);
}

int fdatasync(int fd) {
    const int error = env_errno("GEOMINT_FAULT_FSYNC", 0);
    if (error != 0 && affected(fd)) {
        __atomic_add_fetch(&counter_fsync_failed, 1, __ATOMIC_SEQ_CST);
        errno = error;
        return -1;
    }
    return (int)syscall(SYS_fdatasync, fd);
}

int close(int fd) {
    const int error = env_errno("GEOMINT_FAULT_CLOSE", 0);
    const int written = error != 0 && affected(fd) && was_written(fd);
    const int result = (int)syscall(SYS_close, fd);
    if (result == 0 && written) {
        __atomic_add_fetch(&counter_close_failed, 1, __ATOMIC_SEQ_CST);
        errno = error;
        return -1;
    }
    return result;
}

static int shim_openat(int directory, const char* path, int flags, mode_t mode) {
    if ((flags & O_TMPFILE) == O_TMPFILE && env_number("GEOMINT_FAULT_NO_TMPFILE", 0) != 0) {
        __atomic_add_fetch(&counter_tmpfile_refused, 1, __ATOMIC_SEQ_CST);
        errno = EOPNOTSUPP;
        return -1;
    }
    return (int)syscall(SYS_openat, directory, path, flags, mode);
}

static mode_t mode_argument(int flags, va_list arguments) {
    return (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(arguments, int) : 0;
}

int open(const char* path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    return shim_openat(AT_FDCWD, path, flags, mode);
}

int open64(const char* path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    return shim_openat(AT_FDCWD, path, flags, mode);
}

int openat(int directory, const char* path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    return shim_openat(directory, path, flags, mode);
}

int openat64(int directory, const char* path, int flags, ...) {
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = mode_argument(flags, arguments);
    va_end(arguments);
    return shim_openat(directory, path, flags, mode);
}

__attribute__((destructor)) static void write_report(void) {
    const char* path = getenv("GEOMINT_FAULT_REPORT");
    if (path == NULL || *path == '\0') return;
    char text[512];
    const int length = snprintf(text, sizeof text,
                                "writes=%ld bytes=%ld short=%ld eintr=%ld failed=%ld fsync_failed=%ld close_failed=%ld "
                                "tmpfile_refused=%ld\n",
                                counter_writes, counter_bytes, counter_short, counter_eintr, counter_failed,
                                counter_fsync_failed, counter_close_failed, counter_tmpfile_refused);
    const int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    syscall(SYS_write, fd, text, (size_t)length);
    syscall(SYS_close, fd);
}
