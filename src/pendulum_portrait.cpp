// Pendulum phase portraits: the ensemble's bounds and energies, and its portrait run (see pendulum_portrait.hpp).
#include "pendulum_portrait.hpp"

#include <algorithm>
#include <cmath>

#include "geomint/pendulum/registry.hpp"

namespace geomint {

namespace {

// Calls f(potential) with the model's potential in double, its parameters from the model.
template <class F>
void with_double_potential(const PendulumModel& model, F&& f) {
    with_type_at(PendulumPotentials{}, model.potential, [&](auto entry) {
        using Potential = typename decltype(entry)::template type<double>;
        f(Potential::from_parameters(model.potential_parameters.data()));
    });
}

// What the run's floating type makes of an input (the body sees the rounded value).
double rounded(double value, Precision precision) {
    return precision == Precision::float32 ? static_cast<double>(static_cast<float>(value)) : value;
}

template <class Potential>
double energy_of_row(Potential potential, const PendulumJob& job, Precision precision, std::uint64_t row) {
    potential.mass = rounded(job.value(row, kMassAxis), precision);
    potential.omega = rounded(job.value(row, kOmegaAxis), precision);
    return hamiltonian(potential, rounded(job.value(row, kQ0Axis), precision),
                       rounded(job.value(row, kP0Axis), precision));
}

}  // namespace

bool pendulum_potential_is_periodic(const PendulumModel& model) {
    bool periodic = false;
    with_type_at(PendulumPotentials{}, model.potential,
                 [&](auto entry) { periodic = decltype(entry)::template type<double>::periodic; });
    return periodic;
}

double pendulum_initial_energy(const PendulumJob& job, Precision precision, std::uint64_t row) {
    double energy = 0;
    with_double_potential(job.model, [&](auto potential) { energy = energy_of_row(potential, job, precision, row); });
    return energy;
}

PendulumEnsembleBounds scan_pendulum_ensemble(const PendulumJob& job, Precision precision, double qmin, double qmax) {
    PendulumEnsembleBounds bounds{HUGE_VAL, -HUGE_VAL, 0};
    with_double_potential(job.model, [&](auto base) {
        constexpr int kSamples = 256;
        for (std::uint64_t row = 0; row < job.size(); ++row) {
            auto potential = base;
            potential.mass = rounded(job.value(row, kMassAxis), precision);
            potential.omega = rounded(job.value(row, kOmegaAxis), precision);
            const double q0 = rounded(job.value(row, kQ0Axis), precision);
            const double p0 = rounded(job.value(row, kP0Axis), precision);
            const double energy = hamiltonian(potential, q0, p0);
            bounds.emin = std::min(bounds.emin, energy);
            bounds.emax = std::max(bounds.emax, energy);
            // The lowest potential the trajectory could pass: sampled, so p may be slightly larger
            // than this bound (the caller leaves a margin).
            double lowest = potential.value(q0);
            for (int k = 0; k <= kSamples; ++k)
                lowest = std::min(lowest, potential.value(qmin + (qmax - qmin) * k / kSamples));
            const double reach = std::sqrt(std::max(0.0, 2 * potential.mass * (energy - lowest)));
            bounds.pmax = std::max({bounds.pmax, reach, std::fabs(p0)});
        }
    });
    return bounds;
}

std::unique_ptr<Ensemble> make_pendulum_portrait_ensemble(const PendulumJob& job, const RunConfig& config,
                                                          PortraitSink& sink, bool wrap) {
    PortraitTarget target = sink.target();
    target.wrap = wrap;
    if (target.settings.energy)
        target.energy_code = [&job, scale = *target.settings.energy, precision = config.precision](std::uint64_t row) {
            return scale.code(pendulum_initial_energy(job, precision, row));
        };
    return make_pendulum_ensemble(job, config, &target);
}

PortraitResult compute_pendulum_portrait(const PendulumJob& job, const RunConfig& config,
                                         const PortraitSettings& settings, bool wrap,
                                         const ProgressCallback& progress) {
    PortraitSink sink(settings, config.backend.backend == Backend::cuda, config.threads);
    const std::unique_ptr<Ensemble> ensemble = make_pendulum_portrait_ensemble(job, config, sink, wrap);
    run_chunks(*ensemble, sink, progress);
    sink.finish();
    return sink.take_result();
}

}  // namespace geomint
