// `geomint spin` (see spin_command.hpp): parse the options into a SpinJob and hand it to the
// run pipeline.
#include "spin_command.hpp"

#include <cmath>
#include <map>

#include "geomint/spin/registry.hpp"
#include "input_files.hpp"
#include "number_parsing.hpp"
#include "spin_ensemble.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

const std::vector<SchemeInfo>& schemes() {
    static const std::vector<SchemeInfo> list = describe_schemes(spin::SpinSchemes{});
    return list;
}

const std::vector<RegistryEntryInfo>& systems() {
    static const std::vector<RegistryEntryInfo> list = describe_entries(spin::SpinSystems{});
    return list;
}

bool is_chain(int system) {
    bool chain = false;
    with_type_at(spin::SpinSystems{}, system, [&](auto entry) { chain = decltype(entry)::is_chain; });
    return chain;
}

// The schemes that apply to `system`, in registry order.
std::vector<std::string> scheme_names_for(int system) {
    std::vector<std::string> names;
    for (std::size_t k = 0; k < schemes().size(); ++k)
        if (spin_scheme_applies(system, static_cast<int>(k))) names.push_back(schemes()[k].name);
    return names;
}

int parse_spin_count(const SpinOptions& o, bool chain) {
    if (!chain) {
        if (!o.spins.empty()) throw UsageError("--spins", "applies to chain systems only");
        return 1;
    }
    if (o.spins.empty()) return 0;  // from --init, or an error below
    const long long d = parse_positive_integer(o.spins, "--spins");
    if (d < 3) throw UsageError("--spins", "a periodic chain needs at least 3 spins, got " + o.spins);
    if (d > (1 << 24)) throw UsageError("--spins", "at most 16777216 spins per chain");
    return static_cast<int>(d);
}

SpinInitialConditions parse_initial(const SpinOptions& o, bool chain) {
    const int sources = !o.s0.empty() + !o.wave.empty() + !o.random.empty() + !o.init.empty();
    if (sources > 1) throw UsageError("--s0", "give at most one of --s0, --wave, --random, --init");
    if (o.random.empty() && given(o.common, "--seed")) throw UsageError("--seed", "applies to --random only");
    SpinInitialConditions ic;
    ic.spins = parse_spin_count(o, chain);
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
        ic.seed = parse_uint64(o.seed, "--seed");
    } else if (chain) {
        if (!o.s0.empty()) throw UsageError("--s0", "applies to --system top; use --wave, --random or --init");
        ic.source = SpinInitialConditions::Source::wave;
        // Default: the paper's wave, phi = pi/3 (math §2).
        ic.wave_phi = o.wave.empty() ? 1.0471975511965977 : parse_finite_real(o.wave, "--wave");
    } else {
        if (!o.wave.empty()) throw UsageError("--wave", "applies to --system chain");
        ic.source = SpinInitialConditions::Source::s0;
        // Default: the paper's top, s0 = (-1, -1, 1)/sqrt 3 (math §2.5).
        ic.s0 = o.s0.empty() ? std::vector<double>{-1, -1, 1} : parse_real_list(o.s0, 3, "--s0");
        if (!normalise_spin(ic.s0.data())) throw UsageError("--s0", "must be a non-zero vector");
    }
    if (chain && ic.spins == 0) throw UsageError("--spins", "is required for --system chain (at least 3)");
    return ic;
}

SpinJob parse_job(const SpinOptions& o) {
    SpinJob job;
    job.model.system = choose_by_name(names_of(systems()), o.system, "--system", "system");
    job.model.system_parameters = o.system_parameters.values_for(job.model.system);
    // The system is built in the run's precision: a parameter float cannot hold is refused, as
    // the pendulum's are (a positive one that underflows to 0 would change the system).
    const Precision precision = parse_precision(o.common.precision);
    std::size_t value = 0;
    for (const ParameterSpec& p : systems()[job.model.system].parameters)
        for (int c = 0; c < p.components; ++c)
            check_representable(job.model.system_parameters[value++], precision, std::string("--") + p.name,
                                p.domain == ParameterDomain::positive);
    const bool chain = is_chain(job.model.system);
    job.initial = parse_initial(o, chain);
    job.model.scheme = choose_by_name(names_of(schemes()), o.scheme, "--scheme", "spin scheme");
    if (!spin_scheme_applies(job.model.system, job.model.scheme))
        throw UsageError("--scheme", "spin scheme '" + o.scheme + "' does not apply to --system " + o.system +
                                         " (valid: " + join_names(scheme_names_for(job.model.system)) + ")");
    job.exact = o.exact;
    if (job.exact && job.initial.source != SpinInitialConditions::Source::wave)
        throw UsageError("--exact", "the exact solution is known for --wave only");
    if (job.exact && o.system != "chain")
        throw UsageError("--exact", "the spin wave is exact for the plain Heisenberg chain (--system chain) only");
    return job;
}

}  // namespace

SpinOptions::SpinOptions() : system_parameters(describe_entries(spin::SpinSystems{}), "--system") {}

CLI::App* add_spin_command(CLI::App& app, SpinOptions& o) {
    CLI::App* cmd = app.add_subcommand(
        "spin",
        "Integrate an ensemble of spin systems on (S^2)^d with an energy-preserving scheme (docs/mathematics.md §2)");
    cmd->add_option("--system", o.system, join_names(names_of(systems())) + " (see below)")->capture_default_str();
    o.system_parameters.add_to(*cmd);
    cmd->add_option("--spins", o.spins, "chains: number of spins d (at least 3)");
    cmd->add_option("--scheme", o.scheme, join_names(names_of(schemes())) + " (see below)")->capture_default_str();
    cmd->add_option("--s0", o.s0, "top: initial spin x,y,z (normalised; default (-1,-1,1)/sqrt 3)");
    cmd->add_option("--wave", o.wave,
                    "chains: the spin wave of docs/mathematics.md §2, with latitude PHI (default pi/3)");
    cmd->add_option("--random", o.random, "COUNT trajectories with spins uniform on each sphere");
    // No captured default: a configuration names the seed only where it applies (with --random).
    cmd->add_option("--seed", o.seed, "seed of --random, 0 to 18446744073709551615 (default 0; reproducible)");
    cmd->add_option("--init", o.init, "CSV file, one trajectory per line: x,y,z of spin 1, then spin 2, ...");
    add_common_options(*cmd, o.common, "65536");
    cmd->add_flag("--exact", o.exact, "with --wave: add column error, the largest distance to the exact wave at T");
    cmd->footer(describe_schemes_for_help(schemes(), "--scheme") + describe_entries_for_help(systems(), "--system") +
                "Columns: x1,y1,z1,...,xd,yd,zd,energy_error,newton_iterations,status,steps_completed,norm_error"
                "[,error].");
    return cmd;
}

SpinRun prepare_spin_run(const SpinOptions& options) {
    SpinJob job = parse_job(options);
    RunConfig config = parse_run_config(options.common);
    config.description = {"spin", schemes()[job.model.scheme].name, systems()[job.model.system].name, {}};
    // The output is checked against it when opened (input_files.hpp): the input is never written.
    if (!options.init.empty()) register_input_file(options.init, "the --init file");
    return {std::move(job), std::move(config)};
}

std::map<std::string, std::string> implied_spin_configuration(const SpinOptions& options, const SpinRun& run) {
    std::map<std::string, std::string> implied;
    for (const ParameterSpec& p : systems()[run.job.model.system].parameters) implied[p.name] = p.default_value;
    if (!options.random.empty()) implied["seed"] = "0";
    return implied;
}

void run_spin_command(const SpinOptions& options) {
    SpinRun run = prepare_spin_run(options);
    const SpinJob& job = run.job;
    RunConfig& config = run.config;
    if (record_configuration(options.common, config, implied_spin_configuration(options, run))) return;
    const std::unique_ptr<Ensemble> ensemble = make_spin_ensemble(job, config);
    run_ensemble(config, *ensemble);
}

}  // namespace geomint
