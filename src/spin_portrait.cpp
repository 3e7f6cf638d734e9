// Spin phase portraits: the chains' energies and the portrait run (see spin_portrait.hpp).
#include "spin_portrait.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "spin_dispatch.hpp"

namespace geomint {

namespace {

// Chain `chain`'s spins as the body sees them: filled from the source, rounded to Real.
template <class Real>
void fill_chain(const SpinJob& job, std::uint64_t chain, std::vector<double>& spins) {
    spins.resize(3 * static_cast<std::size_t>(job.initial.spins));
    job.initial.fill(chain, spins.data());
    for (double& v : spins) v = static_cast<double>(static_cast<Real>(v));
}

// The energy of a chain's spins as fill_chain gives them.
double energy_of_spins(const SpinJob& job, std::vector<double>& spins) {  // StridedSpins holds a non-const pointer
    double energy = 0;
    with_spin_system<double>(job.model, [&](const auto& system) {
        energy = spin::total_energy(system, spin::StridedSpins<double>{spins.data(), 1, job.initial.spins});
    });
    return energy;
}

template <class Real>
double energy_of_chain(const SpinJob& job, std::uint64_t chain) {
    std::vector<double> spins;
    fill_chain<Real>(job, chain, spins);
    return energy_of_spins(job, spins);
}

}  // namespace

double spin_initial_energy(const SpinJob& job, Precision precision, std::uint64_t chain) {
    return precision == Precision::float32 ? energy_of_chain<float>(job, chain) : energy_of_chain<double>(job, chain);
}

EnergyScale scan_spin_energies(const SpinJob& job, Precision precision) {
    double emin = HUGE_VAL, emax = -HUGE_VAL;
    for (std::uint64_t t = 0; t < job.initial.chains; ++t) {
        const double e = spin_initial_energy(job, precision, t);
        emin = std::min(emin, e);
        emax = std::max(emax, e);
    }
    return EnergyScale(emin, emax);
}

std::unique_ptr<Ensemble> make_spin_portrait_ensemble(const SpinJob& job, const RunConfig& config, PortraitSink& sink,
                                                      const portrait::SpinPlaneChoice& plane) {
    PortraitTarget target = sink.target();
    target.plane = plane;
    if (target.settings.energy)
        target.energy_code = [&job, scale = *target.settings.energy,
                              precision = config.precision](std::uint64_t chain) {
            return scale.code(spin_initial_energy(job, precision, chain));
        };
    return make_spin_ensemble(job, config, &target);
}

bool spin_portrait_on_device(const RunConfig& config) { return config.backend.backend == Backend::cuda; }

PortraitResult compute_spin_portrait(const SpinJob& job, const RunConfig& config, const PortraitSettings& settings,
                                     const portrait::SpinPlaneChoice& plane, const ProgressCallback& progress) {
    PortraitSink sink(settings, spin_portrait_on_device(config), config.threads);
    const std::unique_ptr<Ensemble> ensemble = make_spin_portrait_ensemble(job, config, sink, plane);
    run_chunks(*ensemble, sink, progress);
    sink.finish();
    return sink.take_result();
}

}  // namespace geomint
