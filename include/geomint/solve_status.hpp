// Per-trajectory outcome of an implicit integration and the Newton settings shared by every scheme.
// A failed solve is recorded here and ends that trajectory only (math §3).
#pragma once

#include <cstdint>

#include "geomint/platform.hpp"

namespace geomint {

enum class SolveStatus : std::uint8_t {
    ok = 0,
    newton_max_iterations = 1,  // the iteration limit was reached before the tolerance
    non_finite = 2,             // a NaN or an infinity appeared in the state or the solve
    singular_jacobian = 3,      // the Newton derivative vanished
    root_not_unique = 4,        // the scalar equation's derivative changed sign during the solve: the
                                // step is past the bound that guarantees one root (math §1.1, §1.2)
};

// Word written in the `status` column; stable, later tools parse it.
inline const char* status_name(SolveStatus s) {
    switch (s) {
        case SolveStatus::ok:
            return "ok";
        case SolveStatus::newton_max_iterations:
            return "newton_max_iterations";
        case SolveStatus::non_finite:
            return "non_finite";
        case SolveStatus::singular_jacobian:
            return "singular_jacobian";
        case SolveStatus::root_not_unique:
            return "root_not_unique";
    }
    return "unknown";
}

template <class Real>
struct NewtonOptions {
    int max_iterations = 50;
    // Relative step size under which Newton has converged; a few ulps, since the
    // schemes are meant to be solved to machine accuracy (math §1.1).
    Real tolerance = Real(0);  // 0 means "a few machine epsilons of Real"
};

}  // namespace geomint
