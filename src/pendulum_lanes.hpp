// The CPU's SIMD path for pendulum ensembles: W trajectories of a chunk advance together in the
// lanes of one vector register (W = 8 with AVX-512, 4 with AVX2, 2 with SSE2), sin and cos from
// SLEEF's deterministic vector functions. What a lane computes is what the scalar body computes
// (integrate_trajectory with the scheme's increment), operation for operation, with the same sin
// and cos (geomint/elementary_functions.hpp), so the two agree bit for bit (math §1.7). The engine is
// pendulum_lanes_engine.hpp; the batch loop (pendulum_batch_cpu.cpp) chooses it through
// pendulum_lanes_for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pendulum_dispatch.hpp"

namespace geomint {

// The schemes and potentials the lanes run (the registry's implicit and explicit schemes and both
// potentials); anything else runs the scalar body.
enum class LaneScheme : int { newmark, simpson, verlet, rkn4 };
enum class LanePotential : int { pendulum, duffing };

// What a lane shows the portrait or save recorders: the batch loop implements it over the scalar
// body's recorder, in a translation unit compiled for the baseline instruction set.
class PendulumLaneObserver {
public:
    virtual ~PendulumLaneObserver() = default;
    // Trajectory i of the chunk after `step` completed steps (0: its initial state).
    virtual void observe(std::size_t i, long long step, double q, double p) const = 0;
};

// One run's settings and the chunk's arrays (PendulumBatchView<double>, as raw pointers so that the
// engine's translation units instantiate nothing of the scalar body).
struct PendulumLaneTask {
    LaneScheme scheme;
    LanePotential potential;
    double beta;  // the Duffing potential's quartic coefficient
    double h;
    long long steps;
    int max_iterations;       // NewtonOptions::max_iterations
    double tolerance;         // scalar_newton_tolerance(options)
    double stagnation_level;  // sqrt(epsilon), as newton_scalar computes it
    const double *q0, *p0, *mass, *omega;
    double *q, *p, *energy_error;
    long long *newton_iterations, *steps_completed;
    std::uint8_t* status;
    const PendulumLaneObserver* observer;  // null: nothing recorded
};

// Runs trajectories [first, first + count) of the task, count <= width; the lanes past count
// repeat the last trajectory's inputs and are never stored.
using PendulumLaneBlock = void (*)(const PendulumLaneTask& task, std::size_t first, int count);

struct PendulumLaneRunner {
    PendulumLaneBlock run_block = nullptr;  // null: no SIMD path for this run
    int width = 1;
    const char* instruction_set = "scalar";
};

// The widest lanes this CPU runs: AVX-512 (8 lanes), AVX2 (4) or SSE2 (2); none without SLEEF or
// x86-64 at build time. Every width gives the same bits.
PendulumLaneRunner widest_pendulum_lanes();
// Every width this CPU runs, widest first (for the tests: each must give the scalar body's bits).
std::vector<PendulumLaneRunner> pendulum_lanes_on_this_cpu();
// The lanes for `model` in double precision, or none when its scheme or potential has no lane form.
PendulumLaneRunner pendulum_lanes_for(const PendulumModel& model);
// The task of `model` (scheme and potential must have a lane form: pendulum_lanes_for).
PendulumLaneTask pendulum_lane_task(const PendulumModel& model, double h, long long steps,
                                    const NewtonOptions<double>& newton);

}  // namespace geomint
