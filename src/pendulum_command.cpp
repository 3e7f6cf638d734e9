// `geomint pendulum` (see pendulum_command.hpp): parse the options into a PendulumJob and hand
// it to the run pipeline.
#include "pendulum_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

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

ParameterAxis parse_positive_axis(const std::string& text, const std::string& option) {
    const ParameterAxis axis = parse_parameter_axis(text, option);
    if (!(std::min(axis.start, axis.stop) > 0)) throw UsageError(option, "values must be positive, got '" + text + "'");
    return axis;
}

// Every value of an axis survives conversion to the run's floating type (its ends bound it).
void check_axis(const ParameterAxis& axis, Precision precision, const std::string& option, bool positive) {
    check_representable(axis.start, precision, option, positive);
    check_representable(axis.stop, precision, option, positive);
}

struct ParsedPendulum {
    PendulumJob job;
    ParameterAxis omega, q0;
};

ParsedPendulum parse_job(const PendulumOptions& o) {
    PendulumModel model;
    model.scheme = choose_by_name(names_of(schemes()), o.scheme, "--scheme", "scheme");
    model.potential = choose_by_name(names_of(potentials()), o.potential, "--potential", "potential");
    model.potential_parameters = o.potential_parameters.values_for(model.potential);
    const Precision precision = parse_precision(o.common.precision);
    const ParameterAxis mass = parse_positive_axis(o.mass, "--mass"), omega = parse_positive_axis(o.omega, "--omega"),
                        q0 = parse_parameter_axis(o.q0, "--q0"), p0 = parse_parameter_axis(o.p0, "--p0");
    check_axis(mass, precision, "--mass", true);
    check_axis(omega, precision, "--omega", true);
    check_axis(q0, precision, "--q0", false);
    check_axis(p0, precision, "--p0", false);
    std::size_t value = 0;
    for (const ParameterSpec& p : potentials()[model.potential].parameters)
        for (int c = 0; c < p.components; ++c)
            check_representable(model.potential_parameters[value++], precision, std::string("--") + p.name, false);
    ParameterGrid grid({mass, omega, q0, p0}, "--q0/--p0/--mass/--omega");
    if (o.exact && potentials()[model.potential].name != "pendulum")
        throw UsageError("--exact", "the exact solution exists for --potential pendulum only");
    return {{std::move(model), std::move(grid), o.exact}, omega, q0};
}

void warn(const std::string& message) { std::fprintf(stderr, "geomint: warning: %s\n", printable(message).c_str()); }

// The implicit equation x + c h^2/m V'(x) = rhs of a step has one root for every rhs while
// 1 + c h^2 min V''/m > 0 (SPEC §1.1, §1.2): for the pendulum h w < 2 (Newmark) or sqrt 24
// (Simpson). Past it Newton may converge to a spurious root; such rows end with root_not_unique
// when the derivative changes sign during the solve, and the run says so up front.
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
    if (std::isinf(lowest) && lowest < 0) {
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
        "pendulum", "Integrate an ensemble of 1-DOF Lagrangian systems (SPEC 1) with a variational scheme");
    cmd->add_option("--scheme", o.scheme, join_names(names_of(schemes())) + " (see below)")->capture_default_str();
    cmd->add_option("--potential", o.potential, join_names(names_of(potentials())) + " (see below)")
        ->capture_default_str();
    o.potential_parameters.add_to(*cmd);
    cmd->add_option("--mass", o.mass, "mass m: VALUE or START:STOP:COUNT")->capture_default_str();
    cmd->add_option("--omega", o.omega, "angular frequency w: VALUE or START:STOP:COUNT")->capture_default_str();
    cmd->add_option("--q0", o.q0, "initial angle: VALUE or START:STOP:COUNT")->capture_default_str();
    cmd->add_option("--p0", o.p0, "initial momentum m q': VALUE or START:STOP:COUNT")->capture_default_str();
    add_common_options(*cmd, o.common, "1048576");
    cmd->add_flag("--exact", o.exact, "add q_exact,p_exact: the exact solution at T (pendulum only, SPEC 1.3)");
    cmd->footer(describe_schemes_for_help(schemes(), "--scheme") +
                describe_entries_for_help(potentials(), "--potential") +
                "Rows: the Cartesian product of --mass, --omega, --q0, --p0 in that order, --p0 varying fastest.\n"
                "Columns: q0,p0,mass,omega,q,p,energy_error,newton_iterations,status,steps_completed"
                "[,q_exact,p_exact].");
    return cmd;
}

void run_pendulum_command(const PendulumOptions& options) {
    const ParsedPendulum parsed = parse_job(options);
    RunConfig config = parse_run_config(options.common);
    const PendulumModel& model = parsed.job.model;
    config.description = {"pendulum", schemes()[model.scheme].name, potentials()[model.potential].name, {}};
    warn_about_step(parsed, config, options.common.dt.empty() ? "--t-end" : "--dt");
    const std::unique_ptr<Ensemble> ensemble = make_pendulum_ensemble(parsed.job, config);
    run_ensemble(config, *ensemble);
}

}  // namespace geomint
