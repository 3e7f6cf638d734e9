// Pendulum ensembles in the run pipeline (see pendulum_ensemble.hpp).
#include "pendulum_ensemble.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "cuda_backend.hpp"
#include "geomint/counter_random.hpp"
#include "pendulum_batch.hpp"
#include "pendulum_exact.hpp"

namespace geomint {

namespace {

template <class Real>
class PendulumEnsemble final : public Ensemble {
public:
    PendulumEnsemble(const PendulumJob& job, const RunConfig& config)
        : job_(job),
          config_(config),
          step_{static_cast<Real>(config.time.dt), config.time.steps, {}},
          capacity_(static_cast<std::size_t>(std::min<std::uint64_t>(config.chunk_size, job.size()))) {
        step_.newton.max_iterations = config.newton_max_iterations;
        if (config.backend.backend == Backend::cuda)
            cuda_ = std::make_unique<PendulumCudaRunner<Real>>(job.model, step_, capacity_);
    }

    std::uint64_t size() const override { return job_.size(); }
    std::size_t chunk_capacity() const override { return capacity_; }

    void compute(std::uint64_t begin, std::size_t n, const ProgressCallback& progress) override {
        batch_.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            batch_.mass[i] = static_cast<Real>(job_.value(begin + i, kMassAxis));
            batch_.omega[i] = static_cast<Real>(job_.value(begin + i, kOmegaAxis));
            batch_.q0[i] = static_cast<Real>(job_.value(begin + i, kQ0Axis));
            batch_.p0[i] = static_cast<Real>(job_.value(begin + i, kP0Axis));
        }
        // NaN until written: a trajectory that fails before a save leaves NaN there.
        if (config_.save_every > 0)
            saves_.assign(static_cast<std::size_t>(save_count(config_.time.steps, config_.save_every)) * n * 2,
                          std::numeric_limits<Real>::quiet_NaN());
        if (cuda_) {
            cuda_->run(batch_.view(), n, saves_.empty() ? nullptr : saves_.data(), config_.save_every);
            if (progress) progress(n);
        } else if (config_.save_every > 0) {
            const SaveRecorder<Real> recorder{saves_.data(), n, 2, config_.save_every, config_.time.steps};
            run_pendulum_batch_cpu(job_.model, step_, batch_, config_.threads, progress, &recorder);
        } else {
            run_pendulum_batch_cpu(job_.model, step_, batch_, config_.threads, progress);
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
    const void* saved_states() const override { return saves_.empty() ? nullptr : saves_.data(); }

private:
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
    std::vector<Real> saves_;  // [save][trajectory][q, p] of the last chunk (save_every > 0)
    std::unique_ptr<PendulumCudaRunner<Real>> cuda_;
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

std::unique_ptr<Ensemble> make_pendulum_ensemble(const PendulumJob& job, const RunConfig& config) {
    if (config.precision == Precision::float32) return std::make_unique<PendulumEnsemble<float>>(job, config);
    return std::make_unique<PendulumEnsemble<double>>(job, config);
}

}  // namespace geomint
