// Strided (structure-of-arrays) views of one chain's spins and of its workspace (INTERFACE.md):
// component c of spin i of chain t lives at base[(3 i + c) * n_chains + t].
#pragma once

#include <cstddef>

#include "geomint/platform.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

template <class Real>
struct StridedSpins {
    Real* base;          // component 0 of spin 0 of this chain
    std::size_t stride;  // n_chains in the ensemble layout, 1 for one contiguous chain
    int d;               // number of spins

    GEOMINT_HD Vec3<Real> get(int i) const {
        const std::size_t k = 3 * static_cast<std::size_t>(i);
        return Vec3<Real>{base[k * stride], base[(k + 1) * stride], base[(k + 2) * stride]};
    }
    GEOMINT_HD void set(int i, const Vec3<Real>& s) const {
        const std::size_t k = 3 * static_cast<std::size_t>(i);
        base[k * stride] = s.x;
        base[(k + 1) * stride] = s.y;
        base[(k + 2) * stride] = s.z;
    }
    // Periodic neighbour index (chains are periodic, math §2).
    GEOMINT_HD int wrap(int i) const { return i < 0 ? i + d : (i >= d ? i - d : i); }
};

template <class Real>
struct StridedReals {
    Real* base;
    std::size_t stride;

    GEOMINT_HD Real& operator[](std::size_t k) const { return base[k * stride]; }
    // The view starting `offset` elements further on, same stride (workspace carving).
    GEOMINT_HD StridedReals at(std::size_t offset) const { return StridedReals{base + offset * stride, stride}; }
    // The same memory seen as d spins (3 d reals).
    GEOMINT_HD StridedSpins<Real> spins(int d) const { return StridedSpins<Real>{base, stride, d}; }
};

}  // namespace geomint::spin
