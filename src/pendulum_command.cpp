// `geomint pendulum` (see pendulum_command.hpp): parse the options into a PendulumJob and hand
// it to the run pipeline.
#include "pendulum_command.hpp"

#include <algorithm>

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

PendulumJob parse_job(const PendulumOptions& o) {
    PendulumModel model;
    model.scheme = choose_by_name(names_of(schemes()), o.scheme, "--scheme", "scheme");
    model.potential = choose_by_name(names_of(potentials()), o.potential, "--potential", "potential");
    model.potential_parameters = o.potential_parameters.values_for(model.potential);
    ParameterGrid grid({parse_positive_axis(o.mass, "--mass"), parse_positive_axis(o.omega, "--omega"),
                        parse_parameter_axis(o.q0, "--q0"), parse_parameter_axis(o.p0, "--p0")},
                       "--q0/--p0/--mass/--omega");
    if (o.exact && potentials()[model.potential].name != "pendulum")
        throw UsageError("--exact", "the exact solution exists for --potential pendulum only");
    return {std::move(model), std::move(grid), o.exact};
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
    const PendulumJob job = parse_job(options);
    const RunConfig config = parse_run_config(options.common);
    const std::unique_ptr<Ensemble> ensemble = make_pendulum_ensemble(job, config);
    run_ensemble(config, *ensemble);
}

}  // namespace geomint
