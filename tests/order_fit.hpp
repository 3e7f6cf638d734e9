// Observed order of convergence for the tests: least-squares slope of log(error) against log(h).
#pragma once

#include <cmath>
#include <vector>

namespace geomint_test {

inline double observed_order(const std::vector<double>& h, const std::vector<double>& error) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double n = static_cast<double>(h.size());
    for (std::size_t k = 0; k < h.size(); ++k) {
        const double x = std::log(h[k]), y = std::log(error[k]);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace geomint_test
