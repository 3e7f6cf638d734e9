// `geomint spin` (see spin_command.hpp): parse, pick a backend, stream the ensemble through
// chunks, write the CSV atomically.
#include "spin_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "atomic_output_file.hpp"
#include "backend_choice.hpp"
#include "backends/cuda_backend.hpp"
#include "csv_format.hpp"
#include "number_parsing.hpp"
#include "run_reporting.hpp"
#include "spin_batch.hpp"
#include "spin_initial_conditions.hpp"
#include "time_grid.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

// A chunk's state and workspace are kept under this many bytes, whatever --chunk-size says.
constexpr double kChunkBytes = 1 << 30;

struct SpinJob {
    SpinRunSettings settings;
    SpinInitialConditions initial;
    TimeGrid time;
    BackendChoice backend;
    int threads;
    std::uint64_t chunk_size;
    bool exact;
    bool quiet;
    std::string out;
};

SpinSystemParameters parse_system(const SpinOptions& o) {
    SpinSystemParameters p;
    if (o.system == "top") {
        p.kind = SpinSystemKind::top;
        const auto inertia = parse_real_list(o.inertia, 3, "--inertia");
        for (int k = 0; k < 3; ++k) {
            if (!(inertia[k] > 0)) throw UsageError("--inertia", "moments of inertia must be positive");
            p.inertia[k] = inertia[k];
        }
        if (!o.spins.empty()) throw UsageError("--spins", "applies to --system chain only");
        if (!o.field.empty() || !o.anisotropy.empty())
            throw UsageError(o.field.empty() ? "--anisotropy" : "--field", "applies to --system chain only");
        return p;
    }
    if (o.system != "chain") throw UsageError("--system", "unknown system '" + o.system + "' (valid: top, chain)");
    p.kind = SpinSystemKind::chain;
    if (!o.field.empty() || !o.anisotropy.empty()) {
        p.kind = SpinSystemKind::anisotropic_chain;
        if (!o.field.empty()) {
            const auto field = parse_real_list(o.field, 3, "--field");
            std::copy(field.begin(), field.end(), p.field);
        }
        if (!o.anisotropy.empty()) p.anisotropy = parse_finite_real(o.anisotropy, "--anisotropy");
    }
    return p;
}

int parse_spin_count(const SpinOptions& o) {
    if (o.system == "top") return 1;
    if (o.spins.empty()) return 0;  // from --init, or an error below
    const long long d = parse_positive_integer(o.spins, "--spins");
    if (d < 3) throw UsageError("--spins", "a periodic chain needs at least 3 spins, got " + o.spins);
    if (d > (1 << 24)) throw UsageError("--spins", "at most 16777216 spins per chain");
    return static_cast<int>(d);
}

SpinInitialConditions parse_initial(const SpinOptions& o, bool chain) {
    const int given = !o.s0.empty() + !o.wave.empty() + !o.random.empty() + !o.init.empty();
    if (given > 1) throw UsageError("--s0", "give at most one of --s0, --wave, --random, --init");
    SpinInitialConditions ic;
    ic.spins = parse_spin_count(o);
    if (!o.init.empty()) {
        ic.source = SpinInitialConditions::Source::file;
        ic.rows = read_spin_file(o.init, ic.spins);
        if (chain && ic.spins < 3) throw UsageError("--init", "a periodic chain needs at least 3 spins per row");
        if (!chain && ic.spins != 1) throw UsageError("--init", "a top has one spin: 3 values per row");
        ic.chains = ic.rows.size();
        return ic;
    }
    if (!o.random.empty()) {
        ic.source = SpinInitialConditions::Source::random;
        ic.chains = static_cast<std::uint64_t>(parse_positive_integer(o.random, "--random"));
        const double seed = parse_finite_real(o.seed, "--seed");
        if (seed < 0 || seed != std::floor(seed) || seed > 1.8e19)
            throw UsageError("--seed", "must be a non-negative integer");
        ic.seed = static_cast<std::uint64_t>(seed);
    } else if (chain) {
        if (!o.s0.empty()) throw UsageError("--s0", "applies to --system top; use --wave, --random or --init");
        ic.source = SpinInitialConditions::Source::wave;
        // Default: the paper's wave, phi = pi/3 (SPEC §2).
        ic.wave_phi = o.wave.empty() ? 1.0471975511965977 : parse_finite_real(o.wave, "--wave");
    } else {
        if (!o.wave.empty()) throw UsageError("--wave", "applies to --system chain");
        ic.source = SpinInitialConditions::Source::s0;
        // Default: the paper's top, s0 = (-1, -1, 1)/sqrt 3 (SPEC §2.5).
        ic.s0 = o.s0.empty() ? std::vector<double>{-1, -1, 1} : parse_real_list(o.s0, 3, "--s0");
        const double length = std::sqrt(ic.s0[0] * ic.s0[0] + ic.s0[1] * ic.s0[1] + ic.s0[2] * ic.s0[2]);
        if (!(length > 0) || !std::isfinite(length)) throw UsageError("--s0", "must be a non-zero finite vector");
        for (double& c : ic.s0) c /= length;
    }
    if (chain && ic.spins == 0) throw UsageError("--spins", "is required for --system chain (at least 3)");
    return ic;
}

SpinJob parse_job(const SpinOptions& o) {
    SpinJob job;
    job.settings.system = parse_system(o);
    const bool chain = is_chain(job.settings.system.kind);
    job.initial = parse_initial(o, chain);
    job.settings.scheme = o.scheme;
    std::size_t workspace_reals = 0;
    try {
        workspace_reals = spin_workspace_reals(job.settings, job.initial.spins);  // validates the scheme too
    } catch (const std::invalid_argument& e) {
        throw UsageError("--scheme", e.what());
    }
    job.time = parse_time_grid(o.steps, o.dt, o.t_end);
    job.settings.step.h = job.time.dt;
    job.settings.step.steps = job.time.steps;
    job.settings.step.newton.max_iterations =
        static_cast<int>(std::min<long long>(parse_positive_integer(o.newton_max_iterations, "--newton-max-iterations"),
                                             1000000));
    if (o.threads < 0) throw UsageError("--threads", "must be positive (0: all cores)");
    job.threads = o.threads;
    job.chunk_size = static_cast<std::uint64_t>(parse_positive_integer(o.chunk_size, "--chunk-size"));
    const double chain_bytes =
        8.0 * (3.0 * job.initial.spins + double(workspace_reals) + 8);
    job.chunk_size = std::max<std::uint64_t>(1, std::min<std::uint64_t>(job.chunk_size, kChunkBytes / chain_bytes));
    job.exact = o.exact;
    if (job.exact && job.initial.source != SpinInitialConditions::Source::wave)
        throw UsageError("--exact", "the exact solution is known for --wave only");
    if (job.exact && job.settings.system.kind != SpinSystemKind::chain)
        throw UsageError("--exact", "the spin wave is exact for the plain Heisenberg chain only");
    job.quiet = o.quiet;
    if (o.out.empty()) throw UsageError("--out", "is required");
    job.out = o.out;
    job.backend = choose_backend(o.backend, o.threads);
    return job;
}

void write_header(std::FILE* out, int spins, bool exact) {
    for (int i = 1; i <= spins; ++i) std::fprintf(out, "x%d,y%d,z%d,", i, i, i);
    std::fputs("energy_error,newton_iterations,status,steps_completed,norm_error", out);
    std::fputs(exact ? ",error\n" : "\n", out);
}

// Largest distance, over the spins, between the state and the exact wave at T.
double wave_error(const SpinJob& job, SpinBatch& batch, std::size_t t) {
    const spin::SpinWave<double> wave = job.initial.wave();
    double error = 0;
    for (int i = 0; i < batch.spins; ++i) {
        const spin::Vec3<double> exact = wave.spin(i, job.time.t_end());
        const double dx = batch.component(t, i, 0) - exact.x, dy = batch.component(t, i, 1) - exact.y,
                     dz = batch.component(t, i, 2) - exact.z;
        error = std::max(error, std::sqrt(dx * dx + dy * dy + dz * dz));
    }
    return error;
}

void run_job(const SpinJob& job, AtomicOutputFile& file, RunReporter& reporter) {
    const std::uint64_t total = job.initial.chains;
    const std::uint64_t chunk_count = (total + job.chunk_size - 1) / job.chunk_size;
    const int d = job.initial.spins;
    SpinBatch batch;
    std::vector<double> chain(3 * static_cast<std::size_t>(d));
    std::FILE* out = file.stream();
    for (std::uint64_t chunk = 0; chunk < chunk_count; ++chunk) {
        const std::uint64_t begin = chunk * job.chunk_size;
        const std::uint64_t n = std::min(job.chunk_size, total - begin);
        batch.resize(d, n);
        for (std::uint64_t t = 0; t < n; ++t) {
            job.initial.fill(begin + t, chain.data());
            for (int k = 0; k < 3 * d; ++k) batch.state[k * n + t] = chain[k];
        }
        if (job.backend.backend == Backend::cuda) {
            run_spin_batch_cuda(job.settings, batch);
            reporter.advance(n);
        } else {
            run_spin_batch_cpu(job.settings, batch, job.threads, reporter.callback());
        }
        for (std::uint64_t t = 0; t < n; ++t) {
            for (int k = 0; k < 3 * d; ++k) {
                write_csv_number(out, batch.state[k * n + t]);
                std::fputc(',', out);
            }
            write_csv_number(out, batch.energy_error[t]);
            const char* status = status_name(static_cast<SolveStatus>(batch.status[t]));
            reporter.count_status(status);
            std::fprintf(out, ",%lld,%s,%lld,", batch.newton_iterations[t], status, batch.steps_completed[t]);
            write_csv_number(out, batch.norm_error[t]);
            if (job.exact) {
                std::fputc(',', out);
                write_csv_number(out, wave_error(job, batch, t));
            }
            std::fputc('\n', out);
        }
    }
}

}  // namespace

CLI::App* add_spin_command(CLI::App& app, SpinOptions& o) {
    CLI::App* cmd = app.add_subcommand(
        "spin", "Integrate an ensemble of spin systems on (S^2)^d with an energy-preserving scheme (SPEC 2)");
    cmd->add_option("--system", o.system, "top (one spin) or chain (periodic Heisenberg chain)")->capture_default_str();
    cmd->add_option("--inertia", o.inertia, "top: principal moments I1,I2,I3")->capture_default_str();
    cmd->add_option("--spins", o.spins, "chain: number of spins d (at least 3)");
    cmd->add_option("--field", o.field, "chain: add a Zeeman term bx,by,bz . s_i to H");
    cmd->add_option("--anisotropy", o.anisotropy, "chain: add an easy-axis term D (s_i^z)^2 to H");
    cmd->add_option("--scheme", o.scheme,
                    "avf, mp, mmp (chain), ia, sia, comp2, compsia, comp4, coll4, coll6, coll8, implicit_midpoint, "
                    "spherical_midpoint")
        ->capture_default_str();
    cmd->add_option("--s0", o.s0, "top: initial spin x,y,z (normalised; default (-1,-1,1)/sqrt 3)");
    cmd->add_option("--wave", o.wave, "chain: the spin wave of SPEC 2 with latitude PHI (default pi/3)");
    cmd->add_option("--random", o.random, "COUNT trajectories with spins uniform on each sphere");
    cmd->add_option("--seed", o.seed, "seed of --random (results are reproducible)")->capture_default_str();
    cmd->add_option("--init", o.init, "CSV file, one trajectory per line: x,y,z of spin 1, then spin 2, ...");
    cmd->add_option("--steps", o.steps, "number of steps N (required)");
    cmd->add_option("--dt", o.dt, "step size h (or give --t-end)");
    cmd->add_option("--t-end", o.t_end, "final time T; h = T / N (or give --dt)");
    cmd->add_option("--backend", o.backend, "auto (CUDA when a device is usable), cpu or cuda")->capture_default_str();
    cmd->add_option("--threads", o.threads, "CPU threads (0: all cores)")->capture_default_str();
    cmd->add_option("--chunk-size", o.chunk_size, "trajectories held in memory at once")->capture_default_str();
    cmd->add_option("--newton-max-iterations", o.newton_max_iterations, "Newton iteration limit per step")
        ->capture_default_str();
    cmd->add_flag("--exact", o.exact, "with --wave: add column error, the largest distance to the exact wave at T");
    cmd->add_flag("--quiet", o.quiet, "no progress or summary on standard error");
    cmd->add_option("--out", o.out, "output CSV file (required); written atomically");
    cmd->footer(
        "Columns: x1,y1,z1,...,xd,yd,zd,energy_error,newton_iterations,status,steps_completed,norm_error[,error].");
    return cmd;
}

void run_spin_command(const SpinOptions& options) {
    const SpinJob job = parse_job(options);
    AtomicOutputFile file(job.out, "--out");
    write_header(file.stream(), job.initial.spins, job.exact);
    RunReporter reporter(job.initial.chains, job.quiet);
    run_job(job, file, reporter);
    file.commit();
    reporter.finish(job.backend.description, job.out);
}

}  // namespace geomint
