// The record of a run's input files and the output check against it (see input_files.hpp).
#include "input_files.hpp"

#include <sys/stat.h>

#include "option_values.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

struct Recorded {
    InputFile file;
    dev_t device;
    ino_t inode;
};

std::vector<Recorded>& recorded() {
    static std::vector<Recorded> files;
    return files;
}

}  // namespace

void register_input_file(const std::string& path, const std::string& role) {
    check_file_name(path, role);
    struct stat status {};
    if (::stat(path.c_str(), &status) != 0) return;
    recorded().push_back({{path, role}, status.st_dev, status.st_ino});
}

std::vector<InputFile> input_files() {
    std::vector<InputFile> files;
    for (const Recorded& input : recorded()) files.push_back(input.file);
    return files;
}

void refuse_output_onto_input(const std::string& path, const std::string& option) {
    struct stat output {};
    if (::stat(path.c_str(), &output) != 0 || !S_ISREG(output.st_mode)) return;
    for (const Recorded& input : recorded())
        if (input.device == output.st_dev && input.inode == output.st_ino)
            throw UsageError(option, "'" + path + "' is " + input.file.role + " ('" + input.file.path +
                                         "'); writing it would destroy the input");
}

InputFilesScope::InputFilesScope() { recorded().clear(); }

InputFilesScope::~InputFilesScope() { recorded().clear(); }

}  // namespace geomint
