// The ranks' agreement on one configuration (see mpi_configuration.hpp).
#include "mpi_configuration.hpp"

#include <algorithm>
#include <boost/crc.hpp>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "input_files.hpp"
#include "mpi_session.hpp"
#include "run_journal.hpp"
#include "usage_error.hpp"

#if GEOMINT_WITH_MPI
#include <mpi.h>
#endif

namespace geomint::mpi {

namespace {

// Written between the configuration and the input files' lines; never in a sweep file's text.
constexpr char kInputsMarker[] = "\n#geomint-inputs\n";

// `text` split at its newlines (no empty last line for a text that ends with one).
std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    for (std::size_t begin = 0; begin < text.size();) {
        const std::size_t end = std::min(text.find('\n', begin), text.size());
        lines.push_back(text.substr(begin, end - begin));
        begin = end + 1;
    }
    return lines;
}

std::string contents_crc(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "unreadable";
    boost::crc_32_type crc;
    std::vector<char> block(1 << 16);
    while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0)
        crc.process_bytes(block.data(), static_cast<std::size_t>(in.gcount()));
    char text[16];
    std::snprintf(text, sizeof text, "%08x", static_cast<unsigned>(crc.checksum()));
    return text;
}

[[maybe_unused]] std::string difference(const std::string& first, const std::string& other, int rank) {
    const std::size_t first_end = first.find(kInputsMarker), other_end = other.find(kInputsMarker);
    const std::string first_configuration = first.substr(0, first_end);
    const std::string other_configuration = other.substr(0, other_end);
    const std::string here = "on rank 0", there = "on rank " + std::to_string(rank);
    if (first_configuration != other_configuration) {
        if (first_configuration.empty() || other_configuration.empty()) return "its options differ from rank 0's";
        std::string key;
        try {
            key =
                configuration_difference(first_configuration, other_configuration, {"threads", "quiet"}, {here, there});
        } catch (const UsageError&) {
        }
        if (!key.empty()) return key;
    }
    const std::string first_inputs = first_end == std::string::npos ? "" : first.substr(first_end);
    const std::string other_inputs = other_end == std::string::npos ? "" : other.substr(other_end);
    if (first_inputs != other_inputs) {
        // One line per input: "ROLE\tPATH\tCRC"; name the first that differs.
        const std::vector<std::string> mine = lines_of(first_inputs), theirs = lines_of(other_inputs);
        for (std::size_t k = 0; k < std::max(mine.size(), theirs.size()); ++k) {
            const std::string& line = k < mine.size() ? mine[k] : theirs[k];
            if (k < mine.size() && k < theirs.size() && mine[k] == theirs[k]) continue;
            const std::size_t tab = line.find('\t'), tab2 = line.find('\t', tab + 1);
            if (tab == std::string::npos || tab2 == std::string::npos) break;
            return "the contents of " + line.substr(0, tab) + " '" + line.substr(tab + 1, tab2 - tab - 1) +
                   "' differ between rank 0 and rank " + std::to_string(rank);
        }
        return "its input files differ from rank 0's";
    }
    return "its configuration differs from rank 0's";
}

}  // namespace

std::string run_fingerprint(const std::string& configuration) {
    // Each rank may use its own thread count and quietness: neither changes the output. The text
    // is render_sweep_file's, one "key = value" line per key (strings escaped onto one line).
    std::string text;
    for (const std::string& line : lines_of(configuration))
        if (line.rfind("threads = ", 0) != 0 && line.rfind("quiet = ", 0) != 0) text += line + "\n";
    text += kInputsMarker;
    // A sweep file is compared through the configuration it resolves to (two files may differ in
    // name or comments and still describe one run); the files the options name, by contents.
    for (const InputFile& file : input_files())
        if (file.role != kSweepFileRole) text += file.role + "\t" + file.path + "\t" + contents_crc(file.path) + "\n";
    return text;
}

#if GEOMINT_WITH_MPI

void agree_on_configuration(const std::string& fingerprint) {
    if (!split()) return;
    const auto length = static_cast<long long>(fingerprint.size());
    std::vector<long long> lengths(rank() == 0 ? static_cast<std::size_t>(size()) : 0);
    check(MPI_Gather(&length, 1, MPI_LONG_LONG, lengths.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD),
          "gathering the ranks' configurations");
    std::vector<int> counts, offsets;
    std::vector<char> all;
    if (rank() == 0) {
        long long total = 0;
        for (const long long n : lengths) {
            // A sweep file's text and its inputs' lines: far below MPI's int counts.
            if (n < 0 || n > (1 << 24) || total > (1ll << 30))
                throw std::runtime_error("MPI: a rank's configuration is too long");
            offsets.push_back(static_cast<int>(total));
            counts.push_back(static_cast<int>(n));
            total += n;
        }
        all.resize(static_cast<std::size_t>(total));
    }
    check(MPI_Gatherv(fingerprint.data(), static_cast<int>(length), MPI_CHAR, all.data(), counts.data(), offsets.data(),
                      MPI_CHAR, 0, MPI_COMM_WORLD),
          "gathering the ranks' configurations");
    int differing = 0;
    for (int r = 1; rank() == 0 && r < size() && differing == 0; ++r)
        if (std::string(all.data() + offsets[r], static_cast<std::size_t>(counts[r])) != fingerprint) differing = r;
    check(MPI_Bcast(&differing, 1, MPI_INT, 0, MPI_COMM_WORLD), "comparing the ranks' configurations");
    if (differing == 0) return;
    set_workers_dismissed();
    if (rank() != 0) throw QuietExit{2};
    const std::string other(all.data() + offsets[differing], static_cast<std::size_t>(counts[differing]));
    throw UsageError("rank " + std::to_string(differing) + " on " + hosts()[differing],
                     "runs another configuration than rank 0: " + difference(fingerprint, other, differing) +
                         " (every rank must run the same options and input files)");
}

#else

void agree_on_configuration(const std::string&) {}

#endif

}  // namespace geomint::mpi
