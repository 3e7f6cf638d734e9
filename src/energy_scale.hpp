// Fixed-point initial energies for energy-coloured portraits: each trajectory's initial energy
// becomes an integer code in [0, 2^20] over the run's energy range, so that per-pixel sums are
// integers and identical whatever the thread count, schedule or backend (floating sums are not).
#pragma once

#include <cstdint>

#include "geomint/portrait/histogram_view.hpp"

namespace geomint {

class EnergyScale {
public:
    // The range of the run's initial energies (known before integrating). Throws
    // std::invalid_argument unless both are finite and emin <= emax.
    EnergyScale(double emin, double emax);

    double emin() const { return emin_; }
    double emax() const { return emax_; }
    // The energy one code step stands for: (emax - emin) / 2^20 (0 when emin == emax).
    double resolution() const;

    // round((e - emin) / (emax - emin) * 2^20), clamped into [0, 2^20]; emin == emax gives 0.
    // Throws std::invalid_argument for a non-finite e.
    std::uint32_t code(double e) const;
    // The energy a (possibly fractional) code stands for.
    double energy(double code) const;

    // The mean code of a pixel's visits, sum / count, in [0, 2^20]. Throws std::overflow_error
    // when count > portrait::kMaxEnergyCount (the sum might have wrapped) and std::invalid_argument
    // for count == 0.
    static double mean_code(portrait::HistogramCount sum, portrait::HistogramCount count);

private:
    double emin_, emax_;
};

}  // namespace geomint
