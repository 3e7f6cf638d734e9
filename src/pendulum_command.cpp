// `geomint pendulum` (see pendulum_command.hpp): parse, pick a backend, stream the ensemble
// through chunks, write the CSV atomically.
#include "pendulum_command.hpp"

#include <algorithm>
#include <omp.h>

#include <cstdio>

#include "atomic_output_file.hpp"
#include "backend_choice.hpp"
#include "backends/cuda_backend.hpp"
#include "csv_format.hpp"
#include "number_parsing.hpp"
#include "parameter_axis.hpp"
#include "pendulum_batch.hpp"
#include "pendulum_exact.hpp"
#include "run_reporting.hpp"
#include "time_grid.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

// Ensemble axes in row order: the last (p0) varies fastest.
enum Axis : std::size_t { kMass, kOmega, kQ0, kP0 };

struct PendulumJob {
    PendulumScheme scheme;
    PotentialKind potential;
    double beta;
    ParameterGrid grid;
    TimeGrid time;
    BackendChoice backend;
    int threads;
    bool single_precision;
    std::uint64_t chunk_size;
    int newton_max_iterations;
    bool exact;
    bool quiet;
    std::string out;
};

PendulumScheme parse_scheme(const std::string& name) {
    if (name == "newmark") return PendulumScheme::newmark;
    if (name == "simpson") return PendulumScheme::simpson;
    throw UsageError("--scheme", "unknown scheme '" + name + "' (valid: newmark, simpson)");
}

PotentialKind parse_potential(const std::string& name) {
    if (name == "pendulum") return PotentialKind::pendulum;
    if (name == "duffing") return PotentialKind::duffing;
    throw UsageError("--potential", "unknown potential '" + name + "' (valid: pendulum, duffing)");
}

ParameterAxis parse_positive_axis(const std::string& text, const std::string& option) {
    const ParameterAxis axis = parse_parameter_axis(text, option);
    if (!(std::min(axis.start, axis.stop) > 0)) throw UsageError(option, "values must be positive, got '" + text + "'");
    return axis;
}

PendulumJob parse_job(const PendulumOptions& o) {
    const PendulumScheme scheme = parse_scheme(o.scheme);
    const PotentialKind potential = parse_potential(o.potential);
    const double beta = parse_finite_real(o.beta, "--beta");
    ParameterGrid grid({parse_positive_axis(o.mass, "--mass"), parse_positive_axis(o.omega, "--omega"),
                        parse_parameter_axis(o.q0, "--q0"), parse_parameter_axis(o.p0, "--p0")},
                       "--q0/--p0/--mass/--omega");
    const TimeGrid time = parse_time_grid(o.steps, o.dt, o.t_end);
    if (o.threads < 0) throw UsageError("--threads", "must be positive (0: all cores)");
    if (o.precision != "double" && o.precision != "float")
        throw UsageError("--precision", "unknown precision '" + o.precision + "' (valid: double, float)");
    const auto chunk_size = static_cast<std::uint64_t>(parse_positive_integer(o.chunk_size, "--chunk-size"));
    const long long newton_max = parse_positive_integer(o.newton_max_iterations, "--newton-max-iterations");
    if (newton_max > 1000000) throw UsageError("--newton-max-iterations", "must be at most 1000000");
    if (o.exact && potential != PotentialKind::pendulum)
        throw UsageError("--exact", "the exact solution exists for --potential pendulum only");
    if (o.out.empty()) throw UsageError("--out", "is required");
    BackendChoice backend = choose_backend(o.backend, o.threads);
    return {scheme,     potential, beta,         std::move(grid),           time, std::move(backend),
            o.threads,  o.precision == "float", chunk_size, static_cast<int>(newton_max), o.exact, o.quiet, o.out};
}

void write_header(std::FILE* out, bool exact) {
    std::fputs("q0,p0,mass,omega,q,p,energy_error,newton_iterations,status,steps_completed", out);
    std::fputs(exact ? ",q_exact,p_exact\n" : "\n", out);
}

template <class Real>
void run_job(const PendulumJob& job, AtomicOutputFile& file, RunReporter& reporter) {
    PendulumRunSettings<Real> settings;
    settings.scheme = job.scheme;
    settings.potential = job.potential;
    settings.step = {static_cast<Real>(job.time.dt), job.time.steps, static_cast<Real>(job.beta), {}};
    settings.step.newton.max_iterations = job.newton_max_iterations;

    const std::uint64_t total = job.grid.size();
    const std::uint64_t chunk_count = (total + job.chunk_size - 1) / job.chunk_size;
    PendulumBatch<Real> batch;
    std::FILE* out = file.stream();
    for (std::uint64_t chunk = 0; chunk < chunk_count; ++chunk) {
        const std::uint64_t begin = chunk * job.chunk_size;
        const std::uint64_t n = std::min(job.chunk_size, total - begin);
        batch.resize(n);
        for (std::uint64_t i = 0; i < n; ++i) {
            batch.mass[i] = static_cast<Real>(job.grid.value(begin + i, kMass));
            batch.omega[i] = static_cast<Real>(job.grid.value(begin + i, kOmega));
            batch.q0[i] = static_cast<Real>(job.grid.value(begin + i, kQ0));
            batch.p0[i] = static_cast<Real>(job.grid.value(begin + i, kP0));
        }
        if (job.backend.backend == Backend::cuda) {
            run_pendulum_batch_cuda(settings, batch);
            reporter.advance(n);
        } else {
            run_pendulum_batch_cpu(settings, batch, job.threads, reporter.callback());
        }
        std::vector<PendulumPhasePoint> exact(job.exact ? n : 0);
        if (job.exact) {
#pragma omp parallel for schedule(static) num_threads(job.threads > 0 ? job.threads : omp_get_max_threads())
            for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
                exact[i] = pendulum_exact(batch.mass[i], batch.omega[i], batch.q0[i], batch.p0[i], job.time.t_end());
        }
        for (std::uint64_t i = 0; i < n; ++i) {
            for (double v : {double(batch.q0[i]), double(batch.p0[i]), double(batch.mass[i]), double(batch.omega[i]),
                             double(batch.q[i]), double(batch.p[i]), double(batch.energy_error[i])}) {
                write_csv_number(out, v);
                std::fputc(',', out);
            }
            const char* status = status_name(static_cast<SolveStatus>(batch.status[i]));
            reporter.count_status(status);
            std::fprintf(out, "%lld,%s,%lld", batch.newton_iterations[i], status, batch.steps_completed[i]);
            if (job.exact) {
                std::fputc(',', out);
                write_csv_number(out, exact[i].q);
                std::fputc(',', out);
                write_csv_number(out, exact[i].p);
            }
            std::fputc('\n', out);
        }
    }
}

}  // namespace

CLI::App* add_pendulum_command(CLI::App& app, PendulumOptions& o) {
    CLI::App* cmd = app.add_subcommand(
        "pendulum", "Integrate an ensemble of 1-DOF Lagrangian systems (SPEC 1) with a variational scheme");
    cmd->add_option("--scheme", o.scheme, "newmark (order 2) or simpson (order 4)")->capture_default_str();
    cmd->add_option("--potential", o.potential, "pendulum: m w^2 (1 - cos q); duffing: m (w^2 q^2/2 + beta q^4/4)")
        ->capture_default_str();
    cmd->add_option("--beta", o.beta, "quartic coefficient of the Duffing potential")->capture_default_str();
    cmd->add_option("--mass", o.mass, "mass m: VALUE or START:STOP:COUNT")->capture_default_str();
    cmd->add_option("--omega", o.omega, "angular frequency w: VALUE or START:STOP:COUNT")->capture_default_str();
    cmd->add_option("--q0", o.q0, "initial angle: VALUE or START:STOP:COUNT")->capture_default_str();
    cmd->add_option("--p0", o.p0, "initial momentum m q': VALUE or START:STOP:COUNT")->capture_default_str();
    cmd->add_option("--steps", o.steps, "number of steps N (required)");
    cmd->add_option("--dt", o.dt, "step size h (or give --t-end)");
    cmd->add_option("--t-end", o.t_end, "final time T; h = T / N (or give --dt)");
    cmd->add_option("--backend", o.backend, "auto (CUDA when a device is usable), cpu or cuda")->capture_default_str();
    cmd->add_option("--threads", o.threads, "CPU threads (0: all cores)")->capture_default_str();
    cmd->add_option("--precision", o.precision, "double or float")->capture_default_str();
    cmd->add_option("--chunk-size", o.chunk_size, "trajectories held in memory at once")->capture_default_str();
    cmd->add_option("--newton-max-iterations", o.newton_max_iterations, "Newton iteration limit per step")
        ->capture_default_str();
    cmd->add_flag("--exact", o.exact, "add q_exact,p_exact: the exact solution at T (pendulum only, SPEC 1.3)");
    cmd->add_flag("--quiet", o.quiet, "no progress or summary on standard error");
    cmd->add_option("--out", o.out, "output CSV file (required); written atomically");
    cmd->footer(
        "Rows: the Cartesian product of --mass, --omega, --q0, --p0 in that order, --p0 varying fastest.\n"
        "Columns: q0,p0,mass,omega,q,p,energy_error,newton_iterations,status,steps_completed[,q_exact,p_exact].");
    return cmd;
}

void run_pendulum_command(const PendulumOptions& options) {
    const PendulumJob job = parse_job(options);
    AtomicOutputFile file(job.out, "--out");
    write_header(file.stream(), job.exact);
    RunReporter reporter(job.grid.size(), job.quiet);
    if (job.single_precision) {
        run_job<float>(job, file, reporter);
    } else {
        run_job<double>(job, file, reporter);
    }
    file.commit();
    reporter.finish(job.backend.description, job.out);
}

}  // namespace geomint
