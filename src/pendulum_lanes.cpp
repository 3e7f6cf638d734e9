// Choice of the pendulum lanes (pendulum_lanes.hpp) for this CPU and run: the instruction set
// from the CPU's features at run time, the scheme and potential from the registry.
#include "pendulum_lanes.hpp"

#include <cmath>
#include <limits>
#include <string_view>

#include "geomint/scalar_newton.hpp"

namespace geomint {

#if GEOMINT_WITH_LANES
PendulumLaneBlock pendulum_lanes_avx512();  // pendulum_lanes_avx512.cpp
PendulumLaneBlock pendulum_lanes_avx2();    // pendulum_lanes_avx.cpp
PendulumLaneBlock pendulum_lanes_sse2();    // pendulum_lanes_sse2.cpp
#endif

std::vector<PendulumLaneRunner> pendulum_lanes_on_this_cpu() {
    std::vector<PendulumLaneRunner> runners;
#if GEOMINT_WITH_LANES
    if (__builtin_cpu_supports("avx512f")) runners.push_back({pendulum_lanes_avx512(), 8, "avx512"});
    if (__builtin_cpu_supports("avx2")) runners.push_back({pendulum_lanes_avx2(), 4, "avx2"});
    runners.push_back({pendulum_lanes_sse2(), 2, "sse2"});  // every x86-64 CPU has SSE2
#endif
    return runners;
}

PendulumLaneRunner widest_pendulum_lanes() {
    const std::vector<PendulumLaneRunner> runners = pendulum_lanes_on_this_cpu();
    return runners.empty() ? PendulumLaneRunner{} : runners.front();
}

namespace {

// The lane form of a registry scheme or potential, by name; false for one the engine lacks.
bool lane_scheme(std::string_view name, LaneScheme& scheme) {
    if (name == Newmark::name)
        scheme = LaneScheme::newmark;
    else if (name == Simpson::name)
        scheme = LaneScheme::simpson;
    else if (name == StormerVerlet::name)
        scheme = LaneScheme::verlet;
    else if (name == BlanesMoanRkn4::name)
        scheme = LaneScheme::rkn4;
    else
        return false;
    return true;
}

bool lane_potential(std::string_view name, LanePotential& potential) {
    if (name == PendulumPotential<double>::name)
        potential = LanePotential::pendulum;
    else if (name == DuffingPotential<double>::name)
        potential = LanePotential::duffing;
    else
        return false;
    return true;
}

struct LaneForm {
    bool found = false;
    LaneScheme scheme{};
    LanePotential potential{};
    double beta = 0;
};

LaneForm lane_form(const PendulumModel& model) {
    LaneForm form;
    with_pendulum_types<double>(model, [&](auto scheme, auto potential) {
        using Potential = decltype(potential);
        form.found =
            lane_scheme(decltype(scheme)::name, form.scheme) && lane_potential(Potential::name, form.potential);
        if constexpr (requires { potential.beta; }) form.beta = potential.beta;
    });
    return form;
}

}  // namespace

PendulumLaneRunner pendulum_lanes_for(const PendulumModel& model) {
    if (!lane_form(model).found) return {};
    return widest_pendulum_lanes();
}

PendulumLaneTask pendulum_lane_task(const PendulumModel& model, double h, long long steps,
                                    const NewtonOptions<double>& newton) {
    const LaneForm form = lane_form(model);
    PendulumLaneTask task{};
    task.scheme = form.scheme;
    task.potential = form.potential;
    task.beta = form.beta;
    task.h = h;
    task.steps = steps;
    task.max_iterations = newton.max_iterations;
    task.tolerance = scalar_newton_tolerance(newton);
    task.stagnation_level = std::sqrt(std::numeric_limits<double>::epsilon());
    return task;
}

}  // namespace geomint
