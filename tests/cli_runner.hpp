// Runs the geomint binary from the tests: exit code, standard error, and a scratch folder.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace geomint_test {

struct CliResult {
    int exit_code;
    std::string error_output;
};

// A fresh empty folder, removed with the object.
class ScratchFolder {
public:
    ScratchFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "geomint-test-XXXXXX").string();
        path_ = mkdtemp(pattern.data());
    }
    ~ScratchFolder() { std::filesystem::remove_all(path_); }
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    std::size_t entries() const {
        return std::distance(std::filesystem::directory_iterator(path_), std::filesystem::directory_iterator{});
    }

private:
    std::filesystem::path path_;
};

// The geomint under test: GEOMINT_BINARY (the build's), or $GEOMINT_TEST_BINARY where the tests
// run away from their build folder (tools/gpu-check.sh stages the programs on the GPU machine).
inline std::string geomint_binary() {
    const char* staged = std::getenv("GEOMINT_TEST_BINARY");
    return staged != nullptr && *staged != '\0' ? staged : GEOMINT_BINARY;
}

inline CliResult run_geomint(const std::string& arguments, const ScratchFolder& scratch) {
    const std::string error_file = scratch.file("stderr.txt");
    const std::string command = geomint_binary() + " " + arguments + " 2>" + error_file;
    const int status = std::system(command.c_str());
    std::ifstream in(error_file);
    std::stringstream text;
    text << in.rdbuf();
    std::filesystem::remove(error_file);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

// Rows of a CSV file, each split at commas.
inline std::vector<std::vector<std::string>> read_csv(const std::string& path) {
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream stream(line);
        std::string cell;
        while (std::getline(stream, cell, ',')) cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

inline void write_file(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace geomint_test
