// The journal and partial file of a resumable run (see run_journal.hpp).
#include "run_journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <toml++/toml.h>

#include "atomic_output_file.hpp"
#include "sweep_file.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

// 2: with the partial file's CRC-32 and the output's named temporary.
constexpr std::int64_t kJournalFormat = 2;

// The whole file at `path`; false when it does not exist.
bool read_if_exists(const std::string& path, std::string& text) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        struct stat status {};
        if (::stat(path.c_str(), &status) != 0 && errno == ENOENT) return false;
        throw UsageError("--out", "cannot read the journal '" + path + "': " + std::strerror(errno));
    }
    std::ostringstream content;
    content << in.rdbuf();
    text = content.str();
    return true;
}

// Writes all of `bytes` to `fd` with write() (the fault-injection tests intercept it), retrying
// short writes and EINTR; returns 0, or the errno of the failure (EIO for a write of nothing).
int write_all(int fd, std::string_view bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t wrote = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote < 0) return errno;
        if (wrote == 0) return EIO;
        done += static_cast<std::size_t>(wrote);
    }
    return 0;
}

// The journal's fields; empty optional fields mean a damaged journal.
struct JournalFields {
    std::int64_t format = 0, total = -1, completed = -1, partial_bytes = -1;
    std::string configuration;
    std::string backend;
    std::int64_t partial_crc32 = -1;
    std::string temporary;
};

JournalFields parse_journal(const std::string& text, const std::string& path) {
    const auto damaged = [&](const std::string& why) {
        return UsageError("--resume", "the journal '" + path + "' is damaged (" + why +
                                          "); delete it and its partial file to start again");
    };
    // ASCII only, as geomint writes it (toml++ misbehaves on some other bytes).
    for (const char c : text)
        if (static_cast<unsigned char>(c) > 0x7e || (static_cast<unsigned char>(c) < 0x20 && c != '\n'))
            throw damaged("a byte that is not printable ASCII");
    toml::table table;
    try {
        table = toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        throw damaged(std::string(e.description()));
    }
    JournalFields fields;
    fields.format = table["journal"].value_or<std::int64_t>(0);
    fields.total = table["total"].value_or<std::int64_t>(-1);
    fields.completed = table["completed"].value_or<std::int64_t>(-1);
    fields.partial_bytes = table["partial_bytes"].value_or<std::int64_t>(-1);
    fields.configuration = table["configuration"].value_or<std::string>("");
    fields.backend = table["backend"].value_or<std::string>("");
    fields.partial_crc32 = table["partial_crc32"].value_or<std::int64_t>(-1);
    fields.temporary = table["temporary"].value_or<std::string>("");
    if (fields.format != kJournalFormat)
        throw damaged("not a geomint journal of format " + std::to_string(kJournalFormat) +
                      (fields.format == 1 ? " (an older geomint wrote it)" : ""));
    if (fields.total < 0 || fields.completed < 0 || fields.completed > fields.total || fields.partial_bytes < 0 ||
        fields.configuration.empty() || fields.backend.empty() || fields.partial_crc32 < 0 ||
        fields.partial_crc32 > 0xffffffffll)
        throw damaged("a key is missing or out of range");
    return fields;
}

}  // namespace

std::string configuration_difference(const std::string& journal, const std::string& run,
                                     const std::vector<std::string>& ignored, const ConfigurationPlaces& places) {
    const SweepFile before = parse_sweep_text(journal, "journal");
    const SweepFile now = parse_sweep_text(run, "run");
    if (before.command != now.command)
        return "command is '" + before.command + "' " + places.first + ", '" + now.command + "' " + places.second;
    std::map<std::string, std::string> old_values, new_values;
    for (const SweepSetting& s : before.settings) old_values[s.key] = s.text;
    for (const SweepSetting& s : now.settings) new_values[s.key] = s.text;
    const auto skip = [&](const std::string& key) {
        return std::find(ignored.begin(), ignored.end(), key) != ignored.end();
    };
    for (const SweepSetting& s : before.settings) {
        if (skip(s.key)) continue;
        const auto found = new_values.find(s.key);
        if (found == new_values.end())
            return s.key + " is " + s.text + " " + places.first + ", not set " + places.second;
        if (found->second != s.text)
            return s.key + " is " + s.text + " " + places.first + ", " + found->second + " " + places.second;
    }
    for (const SweepSetting& s : now.settings)
        if (!skip(s.key) && old_values.count(s.key) == 0)
            return s.key + " is not set " + places.first + ", " + s.text + " " + places.second;
    return {};
}

std::string RunJournal::stem(const std::string& out) {
    // Room for the longest suffix, ".geomint-journal.new", within the usual NAME_MAX of 255.
    constexpr std::size_t kLongestSuffix = 20, kNameMax = 255;
    const std::size_t slash = out.rfind('/');
    const std::size_t name_start = slash == std::string::npos ? 0 : slash + 1;
    const std::string name = out.substr(name_start);
    if (name.size() + kLongestSuffix <= kNameMax) return out;
    std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a: distinct long names get distinct journals
    for (const char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return out.substr(0, name_start) + name.substr(0, kNameMax - kLongestSuffix - 17) + "-" + hex;
}

RunJournal::RunJournal(Run run, bool resume)
    : run_(std::move(run)), journal_(journal_path(run_.out)), partial_(partial_path(run_.out)) {
    lock_partial();
    try {
        open_journal(resume);
    } catch (...) {
        // The destructor does not run for a constructor that throws: what this run created goes
        // now (it holds the lock, so no other run's files are touched), the rest stays.
        if (started_new_) {
            ::unlink((journal_ + ".new").c_str());
            ::unlink(journal_.c_str());
        }
        if (started_new_ || created_partial_) ::unlink(partial_.c_str());
        ::close(partial_fd_);
        throw;
    }
}

void RunJournal::lock_partial() {
    // The lock is on the partial file, which lives as long as the run (the journal is replaced by
    // rename after every chunk). A file locked and then unlinked by a run that just finished is
    // not the output's any more: taken again, until the locked file is the one under the name.
    for (int attempt = 0; attempt < 100; ++attempt) {
        created_partial_ = false;
        int fd = ::open(partial_.c_str(), O_RDWR | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT) {
            fd = ::open(partial_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd < 0 && errno == EEXIST) continue;  // another run created it meanwhile
            created_partial_ = fd >= 0;
        }
        if (fd < 0) fail("opening '" + partial_ + "'", errno);
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            // A filesystem without locks (some network mounts): the run goes on unguarded, as
            // runs did before they locked.
            if (error == ENOLCK || error == EOPNOTSUPP || error == EINVAL) {
                partial_fd_ = fd;
                return;
            }
            ::close(fd);
            if (error == EWOULDBLOCK)
                throw UsageError("--out", "another geomint run is writing '" + run_.out + "' now (it holds '" +
                                              partial_ + "'): wait for it to end, or give another --out");
            fail("locking '" + partial_ + "'", error);
        }
        struct stat locked {
        }, named{};
        if (::fstat(fd, &locked) == 0 && ::stat(partial_.c_str(), &named) == 0 && locked.st_dev == named.st_dev &&
            locked.st_ino == named.st_ino) {
            partial_fd_ = fd;
            return;
        }
        ::close(fd);
    }
    fail("locking '" + partial_ + "'", EAGAIN);
}

void RunJournal::open_journal(bool resume) {
    std::string text;
    const bool exists = read_if_exists(journal_, text);
    if (exists && !resume) {
        std::string progress;
        try {
            const JournalFields fields = parse_journal(text, journal_);
            progress =
                " (" + std::to_string(fields.completed) + " of " + std::to_string(fields.total) + " trajectories done)";
        } catch (const UsageError&) {
        }
        throw UsageError("--out", "'" + journal_ + "' holds an interrupted run of this output" + progress +
                                      ": add --resume to continue it, or delete it and '" + partial_ +
                                      "' to start again");
    }
    ::unlink((journal_ + ".new").c_str());  // left only by a kill while the journal was replaced
    if (exists)
        take_over(text);
    else
        start_new();
}

RunJournal::~RunJournal() {
    // Removed while the lock is held (closing the descriptor releases it).
    if (!finished_ && !resumed_ && partial_fd_ >= 0) {
        ::unlink(partial_.c_str());
        ::unlink((journal_ + ".new").c_str());
        ::unlink(journal_.c_str());
    }
    if (partial_fd_ >= 0) ::close(partial_fd_);
}

void RunJournal::fail(const std::string& what, int error) const {
    throw std::runtime_error("--out: " + what + " failed: " + std::strerror(error));
}

void RunJournal::take_over(const std::string& text) {
    const JournalFields fields = parse_journal(text, journal_);
    const std::string difference =
        configuration_difference(fields.configuration, run_.configuration, {"threads", "quiet", "out"});
    if (!difference.empty())
        throw UsageError("--resume", "the journal '" + journal_ + "' is of another run: " + difference +
                                         " (resume with the same options, or delete the journal and its partial "
                                         "file to start again)");
    if (fields.backend != run_.backend)
        throw UsageError("--resume", "the journal '" + journal_ + "' was computed on " + fields.backend +
                                         ", this run would compute on " + run_.backend + " (give --backend " +
                                         fields.backend +
                                         ": the backends round differently, so the chunks would not match)");
    const auto completed = static_cast<std::uint64_t>(fields.completed);
    // Chunks are stored whole and in order: the bytes the journal counts follow from the count.
    std::uint64_t expected_bytes = 0;
    for (std::uint64_t begin = 0; begin < completed; begin += run_.chunk)
        expected_bytes += run_.shape.bytes(static_cast<std::size_t>(std::min(run_.chunk, completed - begin)));
    const auto damaged = [&](const std::string& why) {
        return UsageError("--resume", "the journal '" + journal_ + "' is damaged (" + why + "); delete it and '" +
                                          partial_ + "' to start again");
    };
    if (static_cast<std::uint64_t>(fields.total) != run_.total ||
        (completed % run_.chunk != 0 && completed != run_.total) ||
        static_cast<std::uint64_t>(fields.partial_bytes) != expected_bytes)
        throw damaged("its counts do not fit this run");
    struct stat status {};
    if (::fstat(partial_fd_, &status) != 0) fail("reading '" + partial_ + "'", errno);
    if (created_partial_) throw damaged("'" + partial_ + "' is missing");
    if (static_cast<std::uint64_t>(status.st_size) < expected_bytes)
        throw damaged("'" + partial_ + "' is shorter than the journal says");
    check_partial_checksum(expected_bytes);
    if (checksum_.checksum() != static_cast<std::uint32_t>(fields.partial_crc32))
        throw damaged("'" + partial_ + "' does not match the checksum the journal recorded: its bytes changed");
    // A chunk that was being appended when the run was killed is dropped.
    if (::ftruncate(partial_fd_, static_cast<off_t>(expected_bytes)) != 0) fail("truncating '" + partial_ + "'", errno);
    if (::lseek(partial_fd_, static_cast<off_t>(expected_bytes), SEEK_SET) < 0)
        fail("reading '" + partial_ + "'", errno);
    completed_ = completed;
    partial_bytes_ = expected_bytes;
    resumed_ = true;
    // The killed run's temporary goes, then the journal names this run's, before it is made: no
    // kill at any moment leaves a temporary that no journal names.
    remove_left_temporary(fields.temporary);
    write_journal();
}

void RunJournal::check_partial_checksum(std::uint64_t bytes) {
    std::vector<char> block(1 << 20);
    for (std::uint64_t offset = 0; offset < bytes;) {
        const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), bytes - offset));
        const ssize_t got = ::pread(partial_fd_, block.data(), want, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) fail("reading '" + partial_ + "'", errno);
        if (got == 0) throw std::runtime_error("--resume: '" + partial_ + "' ended before the journal says");
        checksum_.process_bytes(block.data(), static_cast<std::size_t>(got));
        offset += static_cast<std::uint64_t>(got);
    }
}

void RunJournal::remove_left_temporary(const std::string& name) const {
    // Only a name AtomicOutputFile makes, and never this run's own: a journal can make a run
    // remove no other file. This run holds the lock, so no live run is writing it.
    if (name.empty() || name == run_.temporary || !AtomicOutputFile::is_temporary_name(name) ||
        run_.temporary_directory.empty())
        return;
    ::unlink((run_.temporary_directory + "/" + name).c_str());
}

void RunJournal::start_new() {
    // What an earlier run of this output left without a journal goes (this run holds the lock).
    if (::ftruncate(partial_fd_, 0) != 0) fail("truncating '" + partial_ + "'", errno);
    started_new_ = true;
    write_journal();
}

void RunJournal::read_chunk(StoredChunk& chunk) {
    for (const ChunkTarget& target : chunk.targets()) {
        std::size_t done = 0;
        while (done < target.size) {
            const ssize_t got =
                ::pread(partial_fd_, target.data + done, target.size - done, static_cast<off_t>(read_offset_ + done));
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) fail("reading '" + partial_ + "'", errno);
            if (got == 0) throw std::runtime_error("--resume: '" + partial_ + "' ended before the journal says");
            done += static_cast<std::size_t>(got);
        }
        read_offset_ += target.size;
    }
}

void RunJournal::append_chunk(const std::vector<std::string_view>& pieces, std::uint64_t completed) {
    for (const std::string_view piece : pieces) {
        // At the end, where the descriptor stands (after a resume's truncation).
        if (const int error = write_all(partial_fd_, piece)) fail("writing '" + partial_ + "'", error);
        checksum_.process_bytes(piece.data(), piece.size());
        partial_bytes_ += piece.size();
    }
    completed_ = completed;
    write_journal();
}

void RunJournal::write_journal() {
    const auto now = std::chrono::steady_clock::now();
    const bool sync = now - last_sync_ >= kSyncInterval || completed_ == run_.total;
    if (sync && ::fsync(partial_fd_) != 0) fail("writing '" + partial_ + "'", errno);
    toml::table table{{"journal", kJournalFormat},
                      {"output", run_.out},
                      {"total", static_cast<std::int64_t>(run_.total)},
                      {"completed", static_cast<std::int64_t>(completed_)},
                      {"partial_bytes", static_cast<std::int64_t>(partial_bytes_)},
                      {"backend", run_.backend},
                      {"partial_crc32", static_cast<std::int64_t>(checksum_.checksum())},
                      {"temporary", run_.temporary},
                      {"configuration", run_.configuration}};
    std::ostringstream text;
    text << "# geomint run journal: how far the run writing '" << run_.out
         << "' got. Continue it with the same command plus --resume.\n"
         << toml::toml_formatter(table, toml::format_flags::none) << "\n";
    const std::string bytes = text.str();
    const std::string fresh = journal_ + ".new";
    const int fd = ::open(fresh.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) fail("writing '" + fresh + "'", errno);
    if (const int error = write_all(fd, bytes)) {
        ::close(fd);
        fail("writing '" + fresh + "'", error);
    }
    if (sync && ::fsync(fd) != 0) {
        const int error = errno;
        ::close(fd);
        fail("writing '" + fresh + "'", error);
    }
    if (::close(fd) != 0 && errno != EINTR) fail("writing '" + fresh + "'", errno);
    if (::rename(fresh.c_str(), journal_.c_str()) != 0) fail("renaming '" + fresh + "'", errno);
    if (sync) last_sync_ = now;
}

void RunJournal::finish() {
    // The journal first: a partial file left without one is only ever truncated by the next run,
    // while a journal left without its partial file would have to be refused as damaged. Both
    // while the lock is held: closing the partial file releases it.
    ::unlink(journal_.c_str());
    ::unlink((journal_ + ".new").c_str());
    ::unlink(partial_.c_str());
    if (partial_fd_ >= 0) ::close(partial_fd_);
    partial_fd_ = -1;
    finished_ = true;
}

}  // namespace geomint
