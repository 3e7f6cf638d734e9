// Fixed-point initial energies: the code of an energy, and the mean of a pixel's codes.
#include "energy_scale.hpp"

#include <cmath>
#include <stdexcept>

namespace geomint {

EnergyScale::EnergyScale(double emin, double emax) : emin_(emin), emax_(emax) {
    if (!std::isfinite(emin) || !std::isfinite(emax) || !(emin <= emax) || !std::isfinite(emax - emin)) {
        throw std::invalid_argument("energy range: needs finite emin <= emax");
    }
}

double EnergyScale::resolution() const { return (emax_ - emin_) / portrait::kEnergyCodeMax; }

std::uint32_t EnergyScale::code(double e) const {
    if (!std::isfinite(e)) throw std::invalid_argument("energy code: the initial energy is not finite");
    if (emax_ == emin_) return 0;
    const double t = (e - emin_) / (emax_ - emin_);
    if (!(t > 0.0)) return 0;
    if (t >= 1.0) return portrait::kEnergyCodeMax;
    return static_cast<std::uint32_t>(std::llround(t * portrait::kEnergyCodeMax));
}

double EnergyScale::energy(double code) const { return emin_ + code * resolution(); }

double EnergyScale::mean_code(portrait::HistogramCount sum, portrait::HistogramCount count) {
    if (count == 0) throw std::invalid_argument("mean energy of a pixel that no trajectory visits");
    if (count > portrait::kMaxEnergyCount) {
        throw std::overflow_error("a pixel has 2^44 visits or more: its energy sum may have wrapped");
    }
    // Quotient and remainder separately: exact up to the final rounding of one small division.
    return static_cast<double>(sum / count) + static_cast<double>(sum % count) / static_cast<double>(count);
}

}  // namespace geomint
