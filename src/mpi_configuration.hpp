// Every rank of a split run must run the same configuration: the same resolved options (the run
// as a sweep file) and the same contents of every input file. Compared once at the start, before
// rank 0 opens the output, so a job whose ranks were given different files or options is refused
// with one line and leaves nothing behind.
#pragma once

#include <string>

namespace geomint::mpi {

// What the ranks compare: `configuration` (the run as sweep-file text) and, for each input file
// of the run (input_files.hpp), its role, path and a CRC-32 of its contents.
std::string run_fingerprint(const std::string& configuration);

// Collective over every rank of a split run (nothing outside one). Rank 0 compares each rank's
// fingerprint with its own; on the first that differs, rank 0 throws UsageError naming that rank,
// its host and the first key (or input file) that differs, and the others throw QuietExit{2}.
void agree_on_configuration(const std::string& fingerprint);

}  // namespace geomint::mpi
