// Test-only registry entries, written the way CONTRIBUTING.md says a scheme or a Hamiltonian is
// added: one header each (here both in one) plus one registry line each (the two macros, which
// include/geomint/spin/registry.hpp appends to its lists in the test build only). The test
// suite checks that the CLI's names, --help, parameter options and dispatch all pick them up.
#pragma once

#include <cmath>
#include <cstddef>

#include "geomint/parameter_spec.hpp"
#include "geomint/platform.hpp"
#include "geomint/solve_status.hpp"
#include "geomint/spin/local_newton.hpp"
#include "geomint/spin/spin_view.hpp"
#include "geomint/spin/vec3.hpp"

namespace geomint::spin {

// A spin in a fixed field, H = b.s: ds/dt = s x b precesses about b at rate |b| (exact solution
// known, so the test can check what the dispatch ran).
template <class Real>
struct TestZeemanSpin {
    static constexpr bool is_chain = false;
    static constexpr const char* name = "test_zeeman";
    static constexpr const char* summary = "test only: one spin in a field, H = b.s";
    static constexpr auto parameters = parameter_list(ParameterSpec{"test-field", 3, "0,0,1", "the field b"});
    Vec3<Real> field{Real(0), Real(0), Real(1)};

    GEOMINT_HD static TestZeemanSpin from_parameters(const Real* b) { return {Vec3<Real>{b[0], b[1], b[2]}}; }
    template <class T>
    GEOMINT_HD T energy_density(const Vec3<T>&, const Vec3<T>& s, const Vec3<T>&) const {
        return dot(field, s);
    }
    template <class T>
    GEOMINT_HD T site_energy(const Vec3<T>& l, const Vec3<T>& s, const Vec3<T>& r) const {
        return energy_density(l, s, r);
    }
    template <class T>
    GEOMINT_HD Vec3<T> gradient(const Vec3<T>&, const Vec3<T>&, const Vec3<T>&) const {
        return vec3_cast<T>(field);
    }
    template <class T>
    GEOMINT_HD Vec3<T> site_discrete_gradient(const Vec3<T>&, const Vec3<T>&, const Vec3<T>&, const Vec3<T>&) const {
        return vec3_cast<T>(field);
    }
};

// Projected explicit Euler, v_i = (u_i + h u_i x dH/ds_i(u)) / |...|: order 1, keeps |s_i| = 1
// and nothing else; no Newton solve.
struct TestProjectedEuler {
    static constexpr const char* name = "test_projected_euler";
    static constexpr int order = 1;
    static constexpr const char* preserves = "unit length";
    static constexpr const char* summary = "test only: projected explicit Euler";

    GEOMINT_HD std::size_t workspace_reals(int d) const { return 3 * static_cast<std::size_t>(d); }

    template <class System, class Real>
    GEOMINT_HD NewtonOutcome<Real> step(const System& system, Real h, StridedSpins<Real> state, StridedReals<Real> work,
                                        const NewtonOptions<Real>&) const {
        const StridedSpins<Real> next = work.spins(state.d);
        for (int i = 0; i < state.d; ++i) {
            const Vec3<Real> u = state.get(i);
            const Vec3<Real> v =
                u + h * cross(u, system.gradient(state.get(state.wrap(i - 1)), u, state.get(state.wrap(i + 1))));
            next.set(i, v / norm(v));
        }
        for (int i = 0; i < state.d; ++i) state.set(i, next.get(i));
        return {SolveStatus::ok, 0};
    }
};

}  // namespace geomint::spin

// The registry lines.
#define GEOMINT_EXTRA_SPIN_SCHEMES , TestProjectedEuler
#define GEOMINT_EXTRA_SPIN_SYSTEMS , SystemEntry<TestZeemanSpin>
