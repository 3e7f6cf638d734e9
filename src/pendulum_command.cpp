// `geomint pendulum` (see pendulum_command.hpp): parse the options into a PendulumJob and hand
// it to the run pipeline.
#include "pendulum_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "geomint/pendulum/registry.hpp"
#include "number_parsing.hpp"
#include "parameter_axis.hpp"
#include "pendulum_ensemble.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

const std::vector<SchemeInfo>& schemes() {
    static const std::vector<SchemeInfo> list = describe_schemes(PendulumSchemes{});
    return list;
}

const std::vector<RegistryEntryInfo>& potentials() {
    static const std::vector<RegistryEntryInfo> list = describe_entries(PendulumPotentials{});
    return list;
}

// Every value of an axis survives conversion to the run's floating type (its ends bound it).
void check_axis(const ParameterAxis& axis, Precision precision, const std::string& option, bool positive) {
    check_representable(axis.start, precision, option, positive);
    check_representable(axis.stop, precision, option, positive);
}

struct ParsedPendulum {
    PendulumJob job;
    ParameterAxis omega, q0;  // their extremes, for the warnings
};

// With --random: VALUE (fixed) or LOW:HIGH (uniform on [LOW, HIGH)).
RandomPendulumParameters::Range parse_random_range(const std::string& text, const std::string& option, bool positive) {
    const std::size_t colon = text.find(':');
    if (colon == std::string::npos) {
        const double value = parse_finite_real(text, option);
        if (positive && !(value > 0)) throw UsageError(option, "values must be positive, got '" + text + "'");
        return {value, value};
    }
    if (text.find(':', colon + 1) != std::string::npos)
        throw UsageError(option, "with --random, give VALUE or LOW:HIGH, not a START:STOP:COUNT grid ('" + text + "')");
    const double low = parse_finite_real(text.substr(0, colon), option),
                 high = parse_finite_real(text.substr(colon + 1), option);
    if (!(low < high)) throw UsageError(option, "LOW:HIGH needs LOW < HIGH, got '" + text + "'");
    if (!std::isfinite(high - low)) throw UsageError(option, "HIGH - LOW overflows in '" + text + "'");
    if (positive && !(low > 0)) throw UsageError(option, "values must be positive, got '" + text + "'");
    return {low, high};
}

// The rows: --random draws them, otherwise the Cartesian grid of the four axes.
ParsedPendulum parse_rows(const PendulumOptions& o, Precision precision) {
    const std::vector<std::string> options{"--mass", "--omega", "--q0", "--p0"};
    const std::vector<const std::string*> texts{&o.mass, &o.omega, &o.q0, &o.p0};
    const std::vector<bool> positive{true, true, false, false};
    const ParameterAxis single{0, 0, 1};
    ParsedPendulum parsed{
        {{}, ParameterGrid({single, single, single, single}, "--q0"), std::nullopt, o.exact, nullptr}, {}, {}};
    std::vector<ParameterAxis> axes;
    if (!o.random.empty()) {
        RandomPendulumParameters random;
        random.count = static_cast<std::uint64_t>(parse_positive_integer(o.random, "--random"));
        random.seed = parse_uint64(o.seed, "--seed");
        for (std::size_t k = 0; k < 4; ++k) {
            random.ranges[k] = parse_random_range(*texts[k], options[k], positive[k]);
            axes.push_back({random.ranges[k].low, random.ranges[k].high, 1});
        }
        parsed.job.random = random;
    } else {
        if (given(o.common, "--seed")) throw UsageError("--seed", "applies to --random only");
        for (std::size_t k = 0; k < 4; ++k) {
            axes.push_back(parse_parameter_axis(*texts[k], options[k]));
            if (positive[k] && !(std::min(axes[k].start, axes[k].stop) > 0))
                throw UsageError(options[k], "values must be positive, got '" + *texts[k] + "'");
        }
    }
    for (std::size_t k = 0; k < 4; ++k) check_axis(axes[k], precision, options[k], positive[k]);
    if (!parsed.job.random) parsed.job.grid = ParameterGrid(axes, "--q0/--p0/--mass/--omega");
    parsed.omega = axes[kOmegaAxis];
    parsed.q0 = axes[kQ0Axis];
    return parsed;
}

ParsedPendulum parse_job(const PendulumOptions& o) {
    PendulumModel model;
    model.scheme = choose_by_name(names_of(schemes()), o.scheme, "--scheme", "scheme");
    model.potential = choose_by_name(names_of(potentials()), o.potential, "--potential", "potential");
    model.potential_parameters = o.potential_parameters.values_for(model.potential);
    const Precision precision = parse_precision(o.common.precision);
    ParsedPendulum parsed = parse_rows(o, precision);
    std::size_t value = 0;
    for (const ParameterSpec& p : potentials()[model.potential].parameters)
        for (int c = 0; c < p.components; ++c)
            check_representable(model.potential_parameters[value++], precision, std::string("--") + p.name, false);
    if (o.exact && potentials()[model.potential].name != "pendulum")
        throw UsageError("--exact", "the exact solution exists for --potential pendulum only");
    parsed.job.model = std::move(model);
    return parsed;
}

void warn(const std::string& message) { std::fprintf(stderr, "geomint: warning: %s\n", printable(message).c_str()); }

// The implicit equation x + c h^2/m V'(x) = rhs of a step has one root for every rhs while
// 1 + c h^2 min V''/m > 0 (math §1.1, §1.2): for the pendulum h w < 2 (Newmark) or sqrt 24
// (Simpson). Past it Newton may converge to a spurious root; such rows end with root_not_unique
// when the derivative changes sign during the solve, and the run says so up front. Explicit
// schemes declare c = 0 and get only the angle warning.
void warn_about_step(const ParsedPendulum& parsed, const RunConfig& config, const std::string& step_option) {
    double c = 0, lowest = 0;
    bool periodic = false;
    const PendulumModel& model = parsed.job.model;
    with_type_at(PendulumSchemes{}, model.scheme, [&](auto scheme) { c = decltype(scheme)::implicit_coefficient; });
    with_type_at(PendulumPotentials{}, model.potential, [&](auto entry) {
        using Potential = typename decltype(entry)::template type<double>;
        const double* values = model.potential_parameters.data();
        lowest = std::min(Potential::lowest_curvature(parsed.omega.start, values),
                          Potential::lowest_curvature(parsed.omega.stop, values));
        periodic = Potential::periodic;
    });
    const double h = config.time.dt;
    const std::string scheme = schemes()[model.scheme].name, potential = potentials()[model.potential].name;
    if (c == 0) {
        // An explicit scheme (math §1.4, §1.5) solves no equation: no root to keep unique.
    } else if (std::isinf(lowest) && lowest < 0) {
        warn(step_option + ": no step keeps the " + scheme + " equation to one root for --potential " + potential +
             " with these parameters; rows whose solve meets a second root end with status root_not_unique");
    } else if (lowest < 0 && h > std::sqrt(-1 / (c * lowest)) * (1 + 1e-12)) {
        // At h equal to the bound the derivative 1 + c h^2 V''/m vanishes only at isolated points,
        // so the root is still unique: the tolerance keeps a rounded bound (h = 2/w with w = 40
        // and h = 0.05) from warning.
        char text[200];
        std::snprintf(text, sizeof text,
                      "h = %.6g exceeds %.6g, the largest step for which the %s equation has one root", h,
                      std::sqrt(-1 / (c * lowest)), scheme.c_str());
        warn(step_option + ": " + text + " for --potential " + potential +
             " (at the largest --omega); rows whose solve meets a second root end with status root_not_unique");
    }
    // An angle of magnitude |q| is known to |q| eps: past 1e-3 the sine and cosine keep fewer than
    // three significant digits, and a large enough |q0| leaves none.
    const double eps = config.precision == Precision::float32 ? 1.1920929e-7 : 2.220446049250313e-16;
    const double largest = std::max(std::fabs(parsed.q0.start), std::fabs(parsed.q0.stop));
    if (periodic && largest * eps > 1e-3) {
        char text[200];
        std::snprintf(text, sizeof text, "|q0| up to %.6g leaves fewer than 3 significant digits of the angle in %s",
                      largest, config.precision == Precision::float32 ? "float" : "double");
        warn(std::string("--q0: ") + text + "; those rows carry no meaningful result");
    }
}

}  // namespace

PendulumOptions::PendulumOptions() : potential_parameters(describe_entries(PendulumPotentials{}), "--potential") {}

CLI::App* add_pendulum_command(CLI::App& app, PendulumOptions& o) {
    CLI::App* cmd = app.add_subcommand(
        "pendulum",
        "Integrate an ensemble of 1-DOF Lagrangian systems (docs/mathematics.md §1) with a variational scheme");
    cmd->add_option("--scheme", o.scheme, join_names(names_of(schemes())) + " (see below)")->capture_default_str();
    cmd->add_option("--potential", o.potential, join_names(names_of(potentials())) + " (see below)")
        ->capture_default_str();
    o.potential_parameters.add_to(*cmd);
    cmd->add_option("--mass", o.mass, "mass m: VALUE or START:STOP:COUNT (LOW:HIGH with --random)")
        ->capture_default_str();
    cmd->add_option("--omega", o.omega, "angular frequency w: VALUE or START:STOP:COUNT (LOW:HIGH with --random)")
        ->capture_default_str();
    cmd->add_option("--q0", o.q0, "initial angle: VALUE or START:STOP:COUNT (LOW:HIGH with --random)")
        ->capture_default_str();
    cmd->add_option("--p0", o.p0, "initial momentum m q': VALUE or START:STOP:COUNT (LOW:HIGH with --random)")
        ->capture_default_str();
    cmd->add_option("--random", o.random,
                    "COUNT rows, each of --mass --omega --q0 --p0 fixed (VALUE) or uniform on [LOW, HIGH)");
    cmd->add_option("--seed", o.seed, "seed of --random, 0 to 18446744073709551615 (default 0; reproducible)");
    add_common_options(*cmd, o.common, "1048576");
    cmd->add_flag("--exact", o.exact,
                  "add q_exact,p_exact: the exact solution at T (pendulum only, docs/mathematics.md §1.3)");
    cmd->footer(describe_schemes_for_help(schemes(), "--scheme") +
                describe_entries_for_help(potentials(), "--potential") +
                "Rows: the Cartesian product of --mass, --omega, --q0, --p0 in that order, --p0 varying fastest;\n"
                "with --random COUNT, COUNT rows whose values depend only on (--seed, row, parameter).\n"
                "Columns: q0,p0,mass,omega,q,p,energy_error,newton_iterations,status,steps_completed"
                "[,q_exact,p_exact].");
    return cmd;
}

PendulumRun prepare_pendulum_run(const PendulumOptions& options) {
    const ParsedPendulum parsed = parse_job(options);
    RunConfig config = parse_run_config(options.common);
    const PendulumModel& model = parsed.job.model;
    config.description = {"pendulum", schemes()[model.scheme].name, potentials()[model.potential].name, {}};
    warn_about_step(parsed, config, options.common.dt.empty() ? "--t-end" : "--dt");
    return {parsed.job, config};
}

std::map<std::string, std::string> implied_pendulum_configuration(const PendulumOptions& options,
                                                                  const PendulumRun& run) {
    std::map<std::string, std::string> implied;
    for (const ParameterSpec& p : potentials()[run.job.model.potential].parameters) implied[p.name] = p.default_value;
    if (!options.random.empty()) implied["seed"] = "0";
    return implied;
}

void run_pendulum_command(const PendulumOptions& options) {
    PendulumRun run = prepare_pendulum_run(options);
    RunConfig& config = run.config;
    if (record_configuration(options.common, config, implied_pendulum_configuration(options, run))) return;
    const std::unique_ptr<Ensemble> ensemble = make_pendulum_ensemble(run.job, config);
    run_ensemble(config, *ensemble);
}

}  // namespace geomint
