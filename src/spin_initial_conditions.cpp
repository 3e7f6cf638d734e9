// Initial spins from --s0, --wave, --random or --init (see spin_initial_conditions.hpp).
#include "spin_initial_conditions.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>

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
    }
}

std::vector<std::vector<double>> read_spin_file(const std::string& path, int& spins) {
    std::ifstream in(path);
    if (!in) throw UsageError("--init", "cannot read '" + path + "'");
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
            double* s = &row[3 * i];
            const double length = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
            if (!(length > 0) || !std::isfinite(length))
                throw UsageError(where, "spin " + std::to_string(i + 1) + " is zero or not finite");
            for (int c = 0; c < 3; ++c) s[c] /= length;
        }
        rows.push_back(std::move(row));
    }
    if (rows.empty()) throw UsageError("--init", "'" + path + "' holds no trajectory");
    return rows;
}

}  // namespace geomint
