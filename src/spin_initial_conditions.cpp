// Initial spins from --s0, --wave, --random or --init (see spin_initial_conditions.hpp).
#include "spin_initial_conditions.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "geomint/spin/random_spins.hpp"
#include "number_parsing.hpp"
#include "usage_error.hpp"

namespace geomint {

spin::SpinWave<double> SpinInitialConditions::wave() const {
    spin::SpinWave<double> w = spin::paper_spin_wave<double>(spins);
    w.phi = wave_phi;
    return w;
}

void SpinInitialConditions::fill(std::uint64_t global_index, double* out) const {
    const spin::StridedSpins<double> view{out, 1, spins};
    switch (source) {
        case Source::s0:
            view.set(0, spin::Vec3<double>{s0[0], s0[1], s0[2]});
            return;
        case Source::wave:
            wave().fill(view, 0.0);
            return;
        case Source::random:
            spin::fill_random_spins(view, seed, global_index);
            return;
        case Source::file:
            for (int k = 0; k < 3 * spins; ++k) out[k] = rows[global_index][k];
            return;
        case Source::table:
            // Normalised as --init normalises what it reads: the same values give the same run.
            table->fill(global_index, out);
            for (int i = 0; i < spins; ++i) normalise_spin(out + 3 * i);
            return;
    }
}

bool normalise_spin(double* s) {
    const double square = s[0] * s[0] + s[1] * s[1] + s[2] * s[2];
    double length = std::sqrt(square);
    if (!(square >= std::numeric_limits<double>::min()) || !std::isfinite(square)) {
        // The squares overflowed, or underflowed into subnormals whose square root has lost digits
        // (components beyond about 1e±154): scale by the largest component first. Only then, so
        // that ordinary input keeps its exact rounding.
        const double largest = std::max({std::fabs(s[0]), std::fabs(s[1]), std::fabs(s[2])});
        if (!(largest > 0) || !std::isfinite(largest)) return false;
        for (int c = 0; c < 3; ++c) s[c] /= largest;
        length = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    }
    for (int c = 0; c < 3; ++c) s[c] /= length;
    return true;
}

std::vector<std::vector<double>> read_spin_file(const std::string& path, int& spins) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
        throw UsageError("--init", "'" + path + "' is a directory, not a file");
    std::ifstream in(path);
    if (!in) throw UsageError("--init", "cannot read '" + path + "': " + std::strerror(errno));
    std::vector<std::vector<double>> rows;
    std::string line;
    for (long line_number = 1; std::getline(in, line); ++line_number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const std::string where = "--init line " + std::to_string(line_number);
        const std::size_t values = 1 + static_cast<std::size_t>(std::count(line.begin(), line.end(), ','));
        if (spins == 0) {
            if (values % 3 != 0) throw UsageError(where, std::to_string(values) + " values is not 3 per spin");
            spins = static_cast<int>(values / 3);
        }
        std::vector<double> row = parse_real_list(line, 3 * static_cast<std::size_t>(spins), where);
        for (int i = 0; i < spins; ++i) {
            if (!normalise_spin(&row[3 * i])) throw UsageError(where, "spin " + std::to_string(i + 1) + " is zero");
        }
        rows.push_back(std::move(row));
    }
    if (rows.empty()) throw UsageError("--init", "'" + path + "' holds no trajectory");
    return rows;
}

}  // namespace geomint
