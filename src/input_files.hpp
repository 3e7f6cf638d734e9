// The files a run reads (its sweep file, --init, the inputs of `portrait add`), so that no output
// of the run is ever one of them: outputs are compared by identity (device and inode), so that no
// spelling, symbolic link or hard link can make a run write over its input. The MPI start also
// compares their contents across ranks (mpi_configuration.hpp).
#pragma once

#include <string>
#include <vector>

namespace geomint {

struct InputFile {
    std::string path;  // as given
    std::string role;  // how messages name it: "the sweep file", "the --init file", ...
};

// The role of a sweep file (`geomint run FILE`, geomint.run).
inline constexpr char kSweepFileRole[] = "the sweep file";

// Records `path` as read by this run (nothing for a file that does not exist yet: it is refused
// by its reader). The file name is checked first (option_values.hpp: no NUL, not empty).
void register_input_file(const std::string& path, const std::string& role);
// The files recorded since the current InputFilesScope began, in order.
std::vector<InputFile> input_files();
// Throws UsageError(option, ...) when `path` (followed through links) is a regular file that was
// recorded as an input: writing it would destroy the input.
void refuse_output_onto_input(const std::string& path, const std::string& option);

// One command's inputs: the record is empty while a scope lives and is emptied again when it ends
// (the Python module runs many commands in one process; none sees another's inputs).
class InputFilesScope {
public:
    InputFilesScope();
    ~InputFilesScope();
    InputFilesScope(const InputFilesScope&) = delete;
    InputFilesScope& operator=(const InputFilesScope&) = delete;
};

}  // namespace geomint
