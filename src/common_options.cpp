// The shared options (see common_options.hpp).
#include "common_options.hpp"

#include "number_parsing.hpp"
#include "usage_error.hpp"

namespace geomint {

void add_common_options(CLI::App& cmd, CommonOptions& o, const std::string& default_chunk_size) {
    o.chunk_size = default_chunk_size;
    cmd.add_option("--steps", o.steps, "number of steps N (required)");
    cmd.add_option("--dt", o.dt, "step size h (or give --t-end)");
    cmd.add_option("--t-end", o.t_end, "final time T; h = T / N (or give --dt)");
    cmd.add_option("--backend", o.backend, "auto (CUDA when a device is usable), cpu or cuda")->capture_default_str();
    cmd.add_option("--threads", o.threads, "CPU threads (0: all cores)")->capture_default_str();
    cmd.add_option("--precision", o.precision, "double or float")->capture_default_str();
    cmd.add_option("--chunk-size", o.chunk_size, "trajectories held in memory at once")->capture_default_str();
    cmd.add_option("--newton-max-iterations", o.newton_max_iterations, "Newton iteration limit per step")
        ->capture_default_str();
    cmd.add_flag("--quiet", o.quiet, "no progress or summary on standard error");
    cmd.add_option("--out", o.out, "output CSV file (required); written atomically");
}

RunConfig parse_run_config(const CommonOptions& o) {
    RunConfig config;
    config.time = parse_time_grid(o.steps, o.dt, o.t_end);
    if (o.threads < 0) throw UsageError("--threads", "must be positive (0: all cores)");
    config.threads = o.threads;
    if (o.precision != "double" && o.precision != "float")
        throw UsageError("--precision", "unknown precision '" + o.precision + "' (valid: double, float)");
    config.precision = o.precision == "float" ? Precision::float32 : Precision::float64;
    config.chunk_size = static_cast<std::uint64_t>(parse_positive_integer(o.chunk_size, "--chunk-size"));
    const long long newton_max = parse_positive_integer(o.newton_max_iterations, "--newton-max-iterations");
    if (newton_max > 1000000) throw UsageError("--newton-max-iterations", "must be at most 1000000");
    config.newton_max_iterations = static_cast<int>(newton_max);
    config.quiet = o.quiet;
    if (o.out.empty()) throw UsageError("--out", "is required");
    config.out = o.out;
    config.backend = choose_backend(o.backend, o.threads);
    return config;
}

}  // namespace geomint
