// Initial spins of a spin ensemble from the command line: one top (--s0), the spin wave of
// math §2 (--wave), reproducible random spins (--random/--seed), or a CSV file (--init).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "geomint/spin/spin_wave.hpp"
#include "row_table.hpp"

namespace geomint {

struct SpinInitialConditions {
    enum class Source { s0, wave, random, file, table } source = Source::s0;
    int spins = 1;
    std::uint64_t chains = 1;
    std::vector<double> s0;                 // Source::s0: the normalised spin
    double wave_phi = 0;                    // Source::wave
    std::uint64_t seed = 0;                 // Source::random
    std::vector<std::vector<double>> rows;  // Source::file: 3 * spins normalised values per chain
    std::shared_ptr<const RowTable> table;  // Source::table: 3 * spins values per chain, normalised by fill()

    // Source::wave: the paper's wave (math §2) with latitude wave_phi.
    spin::SpinWave<double> wave() const;

    // Writes chain `global_index` (its row in the ensemble) into `spins_out` (3 * spins values);
    // depends on nothing but the index, so chunking cannot change a trajectory.
    void fill(std::uint64_t global_index, double* spins_out) const;
};

// Scales the 3 finite values at s to unit length; false when they are all zero. Components of
// any finite size work (1e300 included), and ordinary ones are divided by sqrt(x^2 + y^2 + z^2).
bool normalise_spin(double* s);

// Reads an --init CSV: one chain per line, x,y,z of spin 1, then spin 2, ...; blank lines and
// lines starting with '#' are skipped. `spins` 0 means "take the count from the first line".
// Every spin is normalised; a zero or non-finite spin, or a line of the wrong length, is a
// UsageError naming --init and the line.
std::vector<std::vector<double>> read_spin_file(const std::string& path, int& spins);

}  // namespace geomint
