// What a run keeps beside its output so that, killed at any moment (SIGKILL, a batch system's
// time limit, a power cut), it can be continued with --resume instead of started again:
//
// - OUT.geomint-partial: the completed chunks, as raw bytes (chunk_record.hpp), appended in order;
// - OUT.geomint-journal: a small TOML file saying how many trajectories those chunks hold, how
//   many bytes of the partial file are theirs, and the run's configuration (its sweep file). It
//   is replaced atomically (written under OUT.geomint-journal.new, then renamed) after every chunk.
//
// A resumed run checks that its configuration is the journal's (keys that cannot change the
// output — threads, quiet, out — excepted) and that it runs on the same backend (`auto` may
// choose another when a GPU comes or goes, and the backends round differently), cuts the partial file back to what the
// journal counts (a chunk being written when the run was killed is dropped), gives the stored chunks to the output as
// if just computed, and computes the rest. The output therefore equals that of an uninterrupted run. Both files are
// removed once the output is complete; a run that fails with an error removes them too, unless it was resumed (then
// they hold work done before and are kept). A caught signal and SIGKILL leave them for --resume.
//
// Ownership: a run holds an exclusive lock (flock) on the partial file for its whole life, taken
// before it reads or writes anything of its journal. A second run of the same output while the
// first lives is refused at once, naming the output; a run killed by any means drops its lock, so
// the next run of the output takes it over (on a filesystem without locks, such as some network
// mounts, runs go on unguarded). Only the lock's holder touches the journal, the
// partial file and the temporaries the journal names: a resumed run removes the named temporary
// (an HDF5 output's, atomic_output_file.hpp) that its killed predecessor left.
//
// Integrity: the journal records a CRC-32 of the partial file's bytes that it counts. A resume
// checks it before using any chunk, and refuses (keeping both files) when the bytes changed.
//
// Durability: the journal is renamed after the partial file's data is written, so a killed
// process never leaves a journal claiming more than the partial file holds. Against power loss
// the partial file and the journal are also fsync'd, at most every kSyncInterval: a journal that
// got ahead of its partial file is found (the file is too short) and refused as damaged.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <boost/crc.hpp>

#include "chunk_record.hpp"

namespace geomint {

class RunJournal {
public:
    struct Run {
        std::string out;            // the output's path, as given to --out
        std::string configuration;  // the run as a sweep file (never empty)
        std::uint64_t total = 0;    // trajectories
        std::uint64_t chunk = 0;    // trajectories per chunk
        std::string backend;        // "cpu" or "cuda": what `--backend auto` chose, which must not change
        ChunkShape shape;
        // The name the output's named temporary will have (AtomicOutputFile::new_temporary_name),
        // if it has one: recorded before the file is made, so no kill can leave it unrecorded.
        std::string temporary;
        std::string temporary_directory;  // where it is made (AtomicOutputFile::directory())
    };

    // Without `resume`: an existing journal is refused with UsageError("--out", ...) saying how
    // far that run got and what to do; otherwise a new journal (0 done) is started. With
    // `resume`: an existing journal is taken over (UsageError("--resume", ...) naming the first
    // key that differs, or what is damaged), or, when there is none, a new one is started and
    // `resumed()` is false. Either way UsageError("--out", ...) while another live run holds
    // the output (see Ownership above).
    RunJournal(Run run, bool resume);
    // Unless finish() ran: a journal this run started is removed with its partial file.
    ~RunJournal();
    RunJournal(const RunJournal&) = delete;
    RunJournal& operator=(const RunJournal&) = delete;

    bool resumed() const { return resumed_; }
    // Trajectories whose chunks the partial file holds: the run continues from here.
    std::uint64_t completed() const { return completed_; }
    const ChunkShape& shape() const { return run_.shape; }

    // Reads the stored chunk [begin, begin + n) back (begin < completed(), in order from 0).
    void read_chunk(StoredChunk& chunk);
    // Appends a computed chunk and records that `completed` trajectories are now stored.
    void append_chunk(const std::vector<std::string_view>& pieces, std::uint64_t completed);
    // The output is complete: removes the partial file, then the journal.
    void finish();

    // OUT.geomint-journal and OUT.geomint-partial; for an output name too long to take the suffix
    // (any name the filesystem accepts works as --out), its first characters and a hash of it.
    static std::string journal_path(const std::string& out) { return stem(out) + ".geomint-journal"; }
    static std::string partial_path(const std::string& out) { return stem(out) + ".geomint-partial"; }
    static constexpr std::chrono::seconds kSyncInterval{2};

private:
    static std::string stem(const std::string& out);
    void lock_partial();
    void open_journal(bool resume);
    void take_over(const std::string& text);
    void check_partial_checksum(std::uint64_t bytes);
    void remove_left_temporary(const std::string& name) const;
    void start_new();
    void write_journal();
    [[noreturn]] void fail(const std::string& what, int error) const;

    Run run_;
    std::string journal_, partial_;
    bool resumed_ = false;
    bool finished_ = false;
    bool created_partial_ = false;  // this run created the partial file (none was there)
    bool started_new_ = false;      // this run wrote the journal that is there now
    std::uint64_t completed_ = 0;
    std::uint64_t partial_bytes_ = 0;
    std::uint64_t read_offset_ = 0;
    int partial_fd_ = -1;          // open, and locked, for the run's whole life
    boost::crc_32_type checksum_;  // of the partial file's bytes so far
    std::chrono::steady_clock::time_point last_sync_ = std::chrono::steady_clock::now();
};

// The first key whose value differs between two configurations (sweep-file texts), as
// "KEY is A in the journal, B in this run" ("... not set ..." for a key only one has; `places`
// names the two texts otherwise); empty when they agree on every key but those in `ignored`.
struct ConfigurationPlaces {
    std::string first = "in the journal", second = "in this run";
};
std::string configuration_difference(const std::string& journal, const std::string& run,
                                     const std::vector<std::string>& ignored, const ConfigurationPlaces& places = {});

}  // namespace geomint
