// libFuzzer target: the --init reader read_spin_file (src/spin_initial_conditions.hpp). The input is
// written to a temporary file and read with spins = 0 (count from the first line) and spins = 2.
// UsageError naming --init is the expected failure; an accepted file must give at least one row of
// 3 * spins finite values whose spins are unit vectors. Anything else is a finding.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "spin_initial_conditions.hpp"
#include "usage_error.hpp"

namespace {

using geomint::UsageError;
using geomint_fuzz::names_option;

// One scratch file per process, under $TMPDIR (tools/run-fuzz.sh points it into build-fuzz/).
const std::string& scratch_path() {
    static const std::string path = [] {
        const char* dir = std::getenv("TMPDIR");
        std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/geomint-fuzz-init-XXXXXX";
        const int fd = mkstemp(pattern.data());
        if (fd < 0) {
            std::perror("fuzz_spin_file: mkstemp");
            std::abort();
        }
        close(fd);
        std::atexit([] { std::remove(scratch_path().c_str()); });
        return pattern;
    }();
    return path;
}

void write_file(const std::string& path, const std::uint8_t* data, std::size_t size) {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0) {
        std::perror("fuzz_spin_file: writing the scratch file");
        std::abort();
    }
}

// Reads the file with `spins` as given; checks what an accepted file must hold.
void check_read(const std::string& path, int spins_in, const std::string& text) {
    int spins = spins_in;
    std::vector<std::vector<double>> rows;
    try {
        rows = geomint::read_spin_file(path, spins);
    } catch (const UsageError& e) {
        FUZZ_CHECK(names_option(e.what(), "--init"), text);
        return;
    }
    FUZZ_CHECK(!rows.empty(), text);
    FUZZ_CHECK(spins >= 1, text);
    if (spins_in != 0) FUZZ_CHECK(spins == spins_in, text);
    for (const std::vector<double>& row : rows) {
        FUZZ_CHECK(row.size() == 3 * static_cast<std::size_t>(spins), text);
        for (int i = 0; i < spins; ++i) {
            const double x = row[3 * i], y = row[3 * i + 1], z = row[3 * i + 2];
            FUZZ_CHECK(std::isfinite(x) && std::isfinite(y) && std::isfinite(z), text);
            // Normalised: a unit vector to within a few rounding errors.
            const double norm = std::sqrt(x * x + y * y + z * z);
            FUZZ_CHECK(std::fabs(norm - 1) <= 1e-14, text + " spin " + std::to_string(i + 1));
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string& path = scratch_path();
    write_file(path, data, size);
    const std::string text(reinterpret_cast<const char*>(data), size);
    check_read(path, 0, text);
    check_read(path, 2, text);
    return 0;
}
