// The shared options (see common_options.hpp).
#include "common_options.hpp"

#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "hdf5_sink.hpp"
#include "number_parsing.hpp"
#include "sweep_arguments.hpp"
#include "usage_error.hpp"

namespace geomint {

void add_common_options(CLI::App& cmd, CommonOptions& o, const std::string& default_chunk_size) {
    o.chunk_size = default_chunk_size;
    o.command = &cmd;
    cmd.add_option("--steps", o.steps, "number of steps N (required)");
    cmd.add_option("--dt", o.dt, "step size h (or give --t-end)");
    cmd.add_option("--t-end", o.t_end, "final time T; h = T / N (or give --dt)");
    cmd.add_option("--backend", o.backend, "auto (CUDA when a device is usable), cpu or cuda")->capture_default_str();
    cmd.add_option("--threads", o.threads, "CPU threads (0: all cores; at most 64 per core)")->capture_default_str();
    cmd.add_option("--precision", o.precision, "double or float")->capture_default_str();
    cmd.add_option("--chunk-size", o.chunk_size, "trajectories held in memory at once")->capture_default_str();
    cmd.add_option("--newton-max-iterations", o.newton_max_iterations, "Newton iteration limit per step")
        ->capture_default_str();
    cmd.add_flag("--quiet", o.quiet, "no progress or summary on standard error");
    cmd.add_option("--out", o.out,
                   "output file (required): FILE.csv, FILE.h5 (HDF5), or - for standard output (CSV); written "
                   "atomically");
    cmd.add_option("--save-every", o.save_every,
                   "save the state at step 0, every K steps and the last step (K >= 1; needs --out FILE.h5)");
    cmd.add_flag("--resume", o.resume,
                 "continue the interrupted run of the same --out from its journal (OUT.geomint-journal), "
                 "with the same options; the output equals that of an uninterrupted run");
    cmd.add_flag("--print-config", o.print_config,
                 "check the options, print the equivalent sweep file (for `geomint run`) and run nothing");
}

namespace {

// The states saved for one trajectory must fit in this machine's memory (a chunk holds them), so
// a --save-every that asks for more is refused now, naming it, rather than failing after the
// start (or overflowing the count of saves).
void check_saves_fit(const RunConfig& config) {
    const auto steps = static_cast<unsigned long long>(config.time.steps);
    const auto every = static_cast<unsigned long long>(config.save_every);
    const unsigned long long saves = steps / every + 1 + (steps % every != 0 ? 1 : 0);  // save_count, unsigned
    const unsigned long long real_size = config.precision == Precision::float32 ? sizeof(float) : sizeof(double);
    const long pages = ::sysconf(_SC_PHYS_PAGES), page_size = ::sysconf(_SC_PAGE_SIZE);
    const unsigned long long memory =
        pages > 0 && page_size > 0 ? static_cast<unsigned long long>(pages) * static_cast<unsigned long long>(page_size)
                                   : ~0ull;
    // The smallest state (q, p) of one trajectory; division keeps the product from overflowing.
    if (saves <= memory / (2 * real_size)) return;
    throw UsageError("--save-every", "saving every " + std::to_string(every) + " of " + std::to_string(steps) +
                                         " steps keeps " + std::to_string(saves) +
                                         " states per trajectory, more than this machine's memory holds (" +
                                         std::to_string(memory >> 30) + " GiB): give a larger --save-every");
}

// --resume needs a regular file (only it keeps a journal): standard output, a FIFO or a device is
// refused now, before opening a FIFO would wait for a reader.
void check_resumable_destination(const std::string& out) {
    struct stat status {};
    if (out == "-" || (::stat(out.c_str(), &status) == 0 && !S_ISREG(status.st_mode) && !S_ISDIR(status.st_mode)))
        throw UsageError("--resume", "needs --out to be a regular file (a pipe or device keeps no journal)");
}

// An existing FIFO or device named FILE.h5 is refused now: HDF5 seeks, and opening a FIFO for
// writing would wait for a reader before the refusal could come.
void check_hdf5_destination(const std::string& out) {
    if (!is_hdf5_path(out)) return;
    struct stat status {};
    if (::stat(out.c_str(), &status) == 0 && !S_ISREG(status.st_mode) && !S_ISDIR(status.st_mode))
        throw UsageError("--out", "'" + out + "' is not a regular file; HDF5 needs a seekable file");
}

}  // namespace

RunConfig parse_run_config(const CommonOptions& o) {
    RunConfig config;
    config.time = parse_time_grid(o.steps, o.dt, o.t_end);
    const long long threads = parse_nonnegative_integer(o.threads, "--threads");
    if (threads > max_threads())
        throw UsageError("--threads", "at most " + std::to_string(max_threads()) + " (64 per core), got " + o.threads);
    config.threads = static_cast<int>(threads);
    config.precision = parse_precision(o.precision);
    config.chunk_size = static_cast<std::uint64_t>(parse_positive_integer(o.chunk_size, "--chunk-size"));
    const long long newton_max = parse_positive_integer(o.newton_max_iterations, "--newton-max-iterations");
    if (newton_max > 1000000) throw UsageError("--newton-max-iterations", "must be at most 1000000");
    config.newton_max_iterations = static_cast<int>(newton_max);
    config.quiet = o.quiet;
    config.resume = o.resume;
    if (o.out.empty() && !o.in_memory) throw UsageError("--out", "is required");
    config.out = o.out;
    check_hdf5_destination(config.out);
    if (config.resume) check_resumable_destination(config.out);
    if (given(o, "--save-every")) {
        if (o.save_every == "0")
            throw UsageError("--save-every", "must be at least 1 (leave it out to save no states)");
        config.save_every = parse_positive_integer(o.save_every, "--save-every");
        check_saves_fit(config);
        if (!o.in_memory && !is_hdf5_path(config.out))
            throw UsageError("--save-every", "saved states need an HDF5 output: give --out FILE.h5 (not '" +
                                                 config.out + "'; CSV holds the final state only)");
    }
    check_representable(config.time.dt, config.precision, o.dt.empty() ? "--t-end" : "--dt", true);
    config.backend = choose_backend(o.backend, config.threads, config.quiet);
    return config;
}

bool record_configuration(const CommonOptions& o, RunConfig& config,
                          const std::map<std::string, std::string>& implied) {
    if (o.command == nullptr) return false;
    try {
        config.description.configuration = canonical_configuration(*o.command, implied);
    } catch (const UsageError&) {
        if (o.print_config) throw;
        config.description.configuration.clear();
        return false;
    }
    if (!o.print_config) return false;
    std::fputs(config.description.configuration.c_str(), stdout);
    if (std::fflush(stdout) != 0 || std::ferror(stdout))
        throw std::runtime_error("--print-config: cannot write standard output");
    return true;
}

bool given(const CommonOptions& o, const std::string& option) {
    return o.command != nullptr && o.command->count(option) > 0;
}

Precision parse_precision(const std::string& text) {
    if (text == "double") return Precision::float64;
    if (text == "float") return Precision::float32;
    throw UsageError("--precision", "unknown precision '" + text + "' (valid: double, float)");
}

void check_representable(double value, Precision precision, const std::string& option, bool nonzero) {
    if (precision == Precision::float64) return;  // every parsed value is a finite double already
    const float converted = static_cast<float>(value);
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    if (!std::isfinite(converted))
        throw UsageError(option, std::string(text) + " overflows --precision float (largest 3.4e38)");
    if (nonzero && value != 0 && converted == 0.0f)
        throw UsageError(option, std::string(text) + " underflows to 0 in --precision float (smallest 1.4e-45)");
}

int max_threads() { return 64 * omp_get_num_procs(); }

}  // namespace geomint
