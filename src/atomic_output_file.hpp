// An output file that appears under its final name only when complete: written to a
// temporary file beside it and renamed on commit(), removed if never committed
// (error, exception, or a kill), so no partial or corrupt result is ever left behind.
#pragma once

#include <cstdio>
#include <string>

namespace geomint {

class AtomicOutputFile {
public:
    // Creates the temporary file now, so an unwritable destination is reported before any work.
    // Throws UsageError naming `option` when it cannot be created.
    AtomicOutputFile(std::string path, std::string option);
    ~AtomicOutputFile();
    AtomicOutputFile(const AtomicOutputFile&) = delete;
    AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

    std::FILE* stream() { return stream_; }
    // Flushes, closes and renames onto the final path. Throws std::runtime_error on failure.
    void commit();

private:
    std::string path_;
    std::string option_;
    std::string temporary_path_;
    std::FILE* stream_ = nullptr;
};

}  // namespace geomint
