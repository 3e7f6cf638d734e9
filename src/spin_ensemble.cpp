// Spin ensembles in the run pipeline (see spin_ensemble.hpp).
#include "spin_ensemble.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "copy_outcome.hpp"
#include "cuda_backend.hpp"
#include "lookahead_compute.hpp"
#include "portrait_cpu_recording.hpp"
#include "spin_batch.hpp"
#include "spin_portrait_cuda.hpp"

namespace geomint {

namespace {

// A chunk's state and workspace are kept under this many bytes, whatever --chunk-size says.
constexpr double kChunkBytes = 1 << 30;

// "x1", "y1", "z1", "x2", ...: component k of spin i (from 1). Appended rather than built with
// operator+, on which g++ 12 warns falsely (-Wrestrict) once the float ensemble is inlined.
std::string component_name(int i, int k) {
    std::string name(1, "xyz"[k]);
    name += std::to_string(i);
    return name;
}

template <class Real>
class SpinEnsemble final : public Ensemble {
public:
    SpinEnsemble(const SpinJob& job, const RunConfig& config, const PortraitTarget* portrait)
        : job_(job), config_(config), step_{static_cast<Real>(config.time.dt), config.time.steps, {}} {
        if (portrait != nullptr) portrait_ = *portrait;
        step_.newton.max_iterations = config.newton_max_iterations;
        // Newton's tolerance stays 0: spin::newton_tolerance then takes 8 ulps of 1 in Real, so
        // 9.5e-7 in float against 1.8e-15 in double. The unknowns are of unit size and are stored
        // in Real, so a float Newton correction cannot shrink much below an ulp: a tolerance fixed
        // in double terms (or its round-off stagnation test at 64 tolerances, local_newton.hpp)
        // would never be met, and every float step would fail. The iteration limit is the same
        // (--newton-max-iterations), as for the pendulum (scalar_newton.hpp: 4 ulps of Real):
        // Newton converges quadratically, so float needs fewer iterations, not more. A failed
        // solve or a non-finite value ends the chain with its status in either precision.
        const int d = job.initial.spins;
        const double chain_bytes = double(sizeof(Real)) * (3.0 * d + double(spin_workspace_reals(job.model, d)) + 8);
        const std::uint64_t by_memory =
            std::max<std::uint64_t>(1, static_cast<std::uint64_t>(kChunkBytes / chain_bytes));
        capacity_ = static_cast<std::size_t>(std::min({config.chunk_size, by_memory, job.initial.chains}));
        if (portrait != nullptr) {
            // The portrait's own CUDA kernels (the body with atomic adds into the device histogram).
            if (portrait->device_view)
                portrait_cuda_ = std::make_unique<SpinPortraitCudaRunner<Real>>(
                    job.model, step_, d, capacity_, portrait->settings.grid, *portrait->device_view,
                    portrait->settings.schedule, portrait->plane);
        } else if (config.backend.backend == Backend::cuda) {
            cuda_ = std::make_unique<SpinCudaRunner<Real>>(job.model, step_, d, capacity_, config.save_every);
        }
        lookahead_ = ChunkLookahead(job.initial.chains, capacity_);
        chain_.resize(3 * static_cast<std::size_t>(d));
        if (job.exact) wave_ = job.initial.wave();
    }

    std::uint64_t size() const override { return job_.initial.chains; }
    std::size_t chunk_capacity() const override { return capacity_; }

    void compute(std::uint64_t begin, std::size_t n, const ProgressCallback& progress) override {
        const int d = job_.initial.spins;
        batch_.resize(d, n);
        // NaN until written: a chain that fails before a save leaves NaN there.
        if (config_.save_every > 0 && !cuda_)
            saves_.assign(static_cast<std::size_t>(save_count(config_.time.steps, config_.save_every)) * n * 3 * d,
                          std::numeric_limits<Real>::quiet_NaN());
        if (portrait_) fill_energy_codes(*portrait_, begin, n, codes_);
        if (!compute_on_device(begin, n, progress)) {
            fill_state(batch_.state.data(), begin, n);
            if (portrait_) {
                const CpuPortraitRecording recording = cpu_recording(*portrait_, codes_);
                run_spin_batch_cpu<Real>(job_.model, step_, batch_, config_.threads, progress, nullptr, &recording);
            } else if (config_.save_every > 0) {
                const SaveRecorder<Real> recorder{saves_.data(), n, 3 * d, config_.save_every, config_.time.steps};
                run_spin_batch_cpu(job_.model, step_, batch_, config_.threads, progress, &recorder);
            } else {
                run_spin_batch_cpu(job_.model, step_, batch_, config_.threads, progress);
            }
        }
        if (job_.exact) compute_wave_error(n);
    }

    ColumnSet columns() const override {
        constexpr ColumnKind real = Column::real_kind<Real>();
        const int d = job_.initial.spins;
        const std::size_t n = batch_.chains;
        ColumnSet c;
        for (int i = 1; i <= d; ++i)
            for (int k = 0; k < 3; ++k) {
                const std::size_t component = 3 * static_cast<std::size_t>(i - 1) + k;
                c.push_back(
                    {component_name(i, k), real, batch_.state.empty() ? nullptr : batch_.state.data() + component * n});
            }
        c.push_back({"energy_error", real, batch_.energy_error.data()});
        c.push_back({"newton_iterations", ColumnKind::int64, batch_.newton_iterations.data()});
        c.push_back({"status", ColumnKind::status, batch_.status.data()});
        c.push_back({"steps_completed", ColumnKind::int64, batch_.steps_completed.data()});
        c.push_back({"norm_error", real, batch_.norm_error.data()});
        if (job_.exact) c.push_back({"error", ColumnKind::real64, wave_error_.data()});
        return c;
    }

    std::vector<std::string> state_components() const override {
        std::vector<std::string> names;  // x1, y1, z1, x2, ...: the order of the columns
        for (int i = 1; i <= job_.initial.spins; ++i)
            for (int k = 0; k < 3; ++k) names.push_back(component_name(i, k));
        return names;
    }
    const void* saved_states() const override {
        if (cuda_) return cuda_saves_;
        return saves_.empty() ? nullptr : saves_.data();
    }

private:
    // Chains [begin, begin + n) of the source, rounded to Real, into `state` (stride n): the CPU
    // batch or a CUDA slot.
    void fill_state(Real* state, std::uint64_t begin, std::size_t n) {
        const int d = job_.initial.spins;
        for (std::size_t t = 0; t < n; ++t) {
            job_.initial.fill(begin + t, chain_.data());
            for (int k = 0; k < 3 * d; ++k) state[k * n + t] = static_cast<Real>(chain_[k]);
        }
    }

    // Chains [begin, begin + n) on the device, when the run has a CUDA runner; false otherwise.
    bool compute_on_device(std::uint64_t begin, std::size_t n, const ProgressCallback& progress) {
        if (portrait_cuda_) {
            fill_state(batch_.state.data(), begin, n);
            portrait_cuda_->run(batch_.state.data(), codes_.empty() ? nullptr : codes_.data(), n, batch_.status.data());
        } else if (cuda_) {
            // Double-buffered: this chunk was (usually) launched ahead by the previous call, and the
            // next one is queued before returning, so the device works while the pipeline writes.
            const int slot = compute_with_lookahead(lookahead_, *cuda_, begin, n,
                                                    [&](int s, std::uint64_t first, std::size_t count) {
                                                        fill_state(cuda_->slot_view(s, count).state, first, count);
                                                    })
                                 .slot;
            copy_from_slot(slot, n);
        } else {
            return false;
        }
        if (progress) progress(n);
        return true;
    }

    // A finished CUDA slot's chunk into the batch (and saves), where columns() and the derived
    // column read it; the slot is refilled by the next call.
    void copy_from_slot(int slot, std::size_t n) {
        const SpinBatchView<Real> v = cuda_->slot_view(slot, n);
        std::copy_n(v.state, batch_.state.size(), batch_.state.data());
        std::copy_n(v.norm_error, n, batch_.norm_error.data());
        copy_outcome(v.outcome, batch_.outcome(), n);
        // The saves stay in the slot's pinned buffer, which is not refilled before the next call.
        cuda_saves_ = cuda_->slot_saves(slot);
    }

    // Largest distance, over the spins, between each chain and the exact wave at T.
    void compute_wave_error(std::size_t n) {
        wave_error_.assign(n, 0.0);
        const double t_end = config_.time.t_end();
        for (std::size_t t = 0; t < n; ++t) {
            double error = 0;
            for (int i = 0; i < batch_.spins; ++i) {
                const spin::Vec3<double> exact = wave_.spin(i, t_end);
                const double dx = double(batch_.component(t, i, 0)) - exact.x,
                             dy = double(batch_.component(t, i, 1)) - exact.y,
                             dz = double(batch_.component(t, i, 2)) - exact.z;
                error = std::max(error, std::sqrt(dx * dx + dy * dy + dz * dz));
            }
            wave_error_[t] = error;
        }
    }

    SpinJob job_;
    RunConfig config_;
    SpinStepSettings<Real> step_;
    std::size_t capacity_ = 1;
    SpinBatch<Real> batch_;
    std::vector<double> chain_;  // one chain's initial spins, as the source gives them
    spin::SpinWave<double> wave_{};
    std::vector<double> wave_error_;
    std::vector<Real> saves_;                     // [save][chain][x1, y1, z1, ...] of the last chunk (save_every > 0)
    ChunkLookahead lookahead_{0, 1};              // the CUDA path's chunk launched ahead
    const Real* cuda_saves_ = nullptr;            // the CUDA path's saves of the last chunk (in its slot)
    std::unique_ptr<SpinCudaRunner<Real>> cuda_;  // set: the CUDA backend
    std::optional<PortraitTarget> portrait_;      // set: a portrait's ensemble
    std::vector<std::uint32_t> codes_;            // the portrait's energy codes of the chunk
    std::unique_ptr<SpinPortraitCudaRunner<Real>> portrait_cuda_;
};

}  // namespace

std::unique_ptr<Ensemble> make_spin_ensemble(const SpinJob& job, const RunConfig& config,
                                             const PortraitTarget* portrait) {
    if (config.precision == Precision::float32) return std::make_unique<SpinEnsemble<float>>(job, config, portrait);
    return std::make_unique<SpinEnsemble<double>>(job, config, portrait);
}

}  // namespace geomint
