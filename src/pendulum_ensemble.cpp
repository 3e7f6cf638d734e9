// Pendulum ensembles in the run pipeline (see pendulum_ensemble.hpp).
#include "pendulum_ensemble.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "copy_outcome.hpp"
#include "cuda_backend.hpp"
#include "geomint/counter_random.hpp"
#include "lookahead_compute.hpp"
#include "pendulum_batch.hpp"
#include "pendulum_exact.hpp"
#include "pendulum_portrait_cuda.hpp"
#include "portrait_cpu_recording.hpp"

namespace geomint {

namespace {

template <class Real>
class PendulumEnsemble final : public Ensemble {
public:
    PendulumEnsemble(const PendulumJob& job, const RunConfig& config, const PortraitTarget* portrait)
        : job_(job),
          config_(config),
          step_{static_cast<Real>(config.time.dt), config.time.steps, {}},
          capacity_(static_cast<std::size_t>(std::min<std::uint64_t>(config.chunk_size, job.size()))),
          lookahead_(job.size(), capacity_) {
        step_.newton.max_iterations = config.newton_max_iterations;
        if (portrait != nullptr) {
            portrait_ = *portrait;
            // The portrait's own CUDA kernels (the body with atomic adds into the device histogram).
            if (portrait->device_view)
                portrait_cuda_ = std::make_unique<PendulumPortraitCudaRunner<Real>>(
                    job.model, step_, capacity_, portrait->settings.grid, *portrait->device_view,
                    portrait->settings.schedule, portrait->wrap);
        } else if (config.backend.backend == Backend::cuda) {
            cuda_ = std::make_unique<PendulumCudaRunner<Real>>(job.model, step_, capacity_, config.save_every);
        }
    }

    std::uint64_t size() const override { return job_.size(); }
    std::size_t chunk_capacity() const override { return capacity_; }

    void compute(std::uint64_t begin, std::size_t n, const ProgressCallback& progress) override {
        batch_.resize(n);
        // NaN until written: a trajectory that fails before a save leaves NaN there.
        if (config_.save_every > 0 && !cuda_)
            saves_.assign(static_cast<std::size_t>(save_count(config_.time.steps, config_.save_every)) * n * 2,
                          std::numeric_limits<Real>::quiet_NaN());
        if (portrait_) fill_energy_codes(*portrait_, begin, n, codes_);
        if (portrait_cuda_) {
            fill_inputs(batch_.q0.data(), batch_.p0.data(), batch_.mass.data(), batch_.omega.data(), begin, n);
            portrait_cuda_->run(batch_.view(), codes_.empty() ? nullptr : codes_.data(), n);
            if (progress) progress(n);
        } else if (cuda_) {
            // Double-buffered: this chunk was (usually) launched ahead by the previous call, and the
            // next one is queued before returning, so the device works while the pipeline writes.
            const int slot = compute_with_lookahead(lookahead_, *cuda_, begin, n,
                                                    [&](int s, std::uint64_t first, std::size_t count) {
                                                        const PendulumInputArrays<Real> in = cuda_->slot_inputs(s);
                                                        fill_inputs(in.q0, in.p0, in.mass, in.omega, first, count);
                                                    })
                                 .slot;
            copy_from_slot(slot, n);
            if (progress) progress(n);
        } else {
            fill_inputs(batch_.q0.data(), batch_.p0.data(), batch_.mass.data(), batch_.omega.data(), begin, n);
            if (portrait_) {
                const CpuPortraitRecording recording = cpu_recording(*portrait_, codes_);
                run_pendulum_batch_cpu<Real>(job_.model, step_, batch_, config_.threads, progress, nullptr, &recording);
            } else if (config_.save_every > 0) {
                const SaveRecorder<Real> recorder{saves_.data(), n, 2, config_.save_every, config_.time.steps};
                run_pendulum_batch_cpu(job_.model, step_, batch_, config_.threads, progress, &recorder);
            } else {
                run_pendulum_batch_cpu(job_.model, step_, batch_, config_.threads, progress);
            }
        }
        if (job_.exact) compute_exact(n);
    }

    ColumnSet columns() const override {
        constexpr ColumnKind real = Column::real_kind<Real>();
        ColumnSet c = {{"q0", real, batch_.q0.data()},
                       {"p0", real, batch_.p0.data()},
                       {"mass", real, batch_.mass.data()},
                       {"omega", real, batch_.omega.data()},
                       {"q", real, batch_.q.data()},
                       {"p", real, batch_.p.data()},
                       {"energy_error", real, batch_.energy_error.data()},
                       {"newton_iterations", ColumnKind::int64, batch_.newton_iterations.data()},
                       {"status", ColumnKind::status, batch_.status.data()},
                       {"steps_completed", ColumnKind::int64, batch_.steps_completed.data()}};
        if (job_.exact) {
            c.push_back({"q_exact", ColumnKind::real64, exact_q_.data()});
            c.push_back({"p_exact", ColumnKind::real64, exact_p_.data()});
        }
        return c;
    }

    std::vector<std::string> state_components() const override { return {"q", "p"}; }
    const void* saved_states() const override {
        if (cuda_) return cuda_saves_;
        return saves_.empty() ? nullptr : saves_.data();
    }

private:
    // Rows [begin, begin + n) of the source, rounded to Real: the CPU batch or a CUDA slot.
    void fill_inputs(Real* q0, Real* p0, Real* mass, Real* omega, std::uint64_t begin, std::size_t n) const {
        for (std::size_t i = 0; i < n; ++i) {
            mass[i] = static_cast<Real>(job_.value(begin + i, kMassAxis));
            omega[i] = static_cast<Real>(job_.value(begin + i, kOmegaAxis));
            q0[i] = static_cast<Real>(job_.value(begin + i, kQ0Axis));
            p0[i] = static_cast<Real>(job_.value(begin + i, kP0Axis));
        }
    }

    // A finished CUDA slot's chunk into the batch (and saves), where columns() and the derived
    // columns read it; the slot is refilled by the next call.
    void copy_from_slot(int slot, std::size_t n) {
        const PendulumBatchView<Real> v = cuda_->slot_view(slot);
        std::copy_n(v.q0, n, batch_.q0.data());
        std::copy_n(v.p0, n, batch_.p0.data());
        std::copy_n(v.mass, n, batch_.mass.data());
        std::copy_n(v.omega, n, batch_.omega.data());
        std::copy_n(v.q, n, batch_.q.data());
        std::copy_n(v.p, n, batch_.p.data());
        copy_outcome(v.outcome, batch_.view().outcome, n);
        // The saves stay in the slot's pinned buffer, which is not refilled before the next call.
        cuda_saves_ = cuda_->slot_saves(slot);
    }

    // The exact solution at T from each row's (rounded) inputs, in double (Boost.Math elliptic functions).
    void compute_exact(std::size_t n) {
        exact_q_.resize(n);
        exact_p_.resize(n);
        const double t_end = config_.time.t_end();
        // An exception must not leave an OpenMP region (it would terminate): a row whose exact
        // solution cannot be evaluated gets NaN, and the run fails after the loop.
        std::atomic<bool> failed{false};
#pragma omp parallel for schedule(static) num_threads(config_.threads > 0 ? config_.threads : omp_get_max_threads())
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
            try {
                const PendulumPhasePoint x =
                    pendulum_exact(batch_.mass[i], batch_.omega[i], batch_.q0[i], batch_.p0[i], t_end);
                exact_q_[i] = x.q;
                exact_p_[i] = x.p;
            } catch (...) {
                exact_q_[i] = exact_p_[i] = std::numeric_limits<double>::quiet_NaN();
                failed = true;
            }
        }
        if (failed) throw std::runtime_error("--exact: the exact solution could not be evaluated for some rows");
    }

    PendulumJob job_;
    RunConfig config_;
    PendulumStepSettings<Real> step_;
    std::size_t capacity_;
    PendulumBatch<Real> batch_;
    std::vector<double> exact_q_, exact_p_;
    std::vector<Real> saves_;           // [save][trajectory][q, p] of the last chunk (save_every > 0)
    ChunkLookahead lookahead_;          // the CUDA path's chunk launched ahead
    const Real* cuda_saves_ = nullptr;  // the CUDA path's saves of the last chunk (in its slot)
    std::unique_ptr<PendulumCudaRunner<Real>> cuda_;
    std::optional<PortraitTarget> portrait_;  // set: a portrait's ensemble
    std::vector<std::uint32_t> codes_;        // the portrait's energy codes of the chunk
    std::unique_ptr<PendulumPortraitCudaRunner<Real>> portrait_cuda_;
};

}  // namespace

double RandomPendulumParameters::value(std::uint64_t row, std::size_t axis) const {
    const Range& r = ranges[axis];
    if (r.low == r.high) return r.low;
    const double u = unit_interval(counter_hash(seed, row, axis, 0));
    // high - low is finite (checked when parsed); rounding may land on `high`, which the range
    // excludes: the largest double below it instead.
    const double v = r.low + (r.high - r.low) * u;
    return v < r.high ? v : std::nextafter(r.high, r.low);
}

std::unique_ptr<Ensemble> make_pendulum_ensemble(const PendulumJob& job, const RunConfig& config,
                                                 const PortraitTarget* portrait) {
    if (config.precision == Precision::float32) return std::make_unique<PendulumEnsemble<float>>(job, config, portrait);
    return std::make_unique<PendulumEnsemble<double>>(job, config, portrait);
}

}  // namespace geomint
