// `geomint portrait` (see portrait_command.hpp): the family's options parsed as its own command
// parses them, the portrait's options on top, then the family's ensemble through the run
// pipeline into a portrait sink, which writes the PNG or the counts.
#include "portrait_command.hpp"

#include <map>

#include "atomic_output_file.hpp"
#include "geomint/portrait/pixel_grid.hpp"
#include "hdf5_sink.hpp"
#include "number_parsing.hpp"
#include "pendulum_portrait.hpp"
#include "portrait_counts_file.hpp"
#include "spin_portrait.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

constexpr int kDefaultWidth = 1024;

constexpr const char* kOutDescription =
    "output (required): FILE.png (the image) or FILE.h5 (the raw per-pixel counts, which `geomint "
    "portrait add` adds and renders); written atomically";
// The family's --save-every stays an option (the two commands share their parser) but is refused.
constexpr const char* kSaveEveryDescription = "not for portraits (refused: a portrait stores no trajectory)";

// Options of the family's command that have no meaning for a portrait, refused by name.
void refuse_family_only_options(const CommonOptions& common, bool exact) {
    if (exact) throw UsageError("--exact", "does not apply to portraits");
    if (given(common, "--save-every"))
        throw UsageError("--save-every", "does not apply to portraits (a portrait stores no trajectory)");
    if (given(common, "--resume"))
        throw UsageError("--resume", "does not apply to portraits (a portrait keeps no journal; run it again)");
}

// The PNG's Description: the run as a sweep file (with its [portrait] table), which `geomint run`
// runs again; only the command when the run cannot be written as one (a value that is not UTF-8).
std::string describe(const std::string& family, const RunConfig& config) {
    const std::string& text = config.description.configuration;
    return text.empty() ? "geomint portrait " + family + "\n" : text;
}

// What the counts file records of the run besides its histogram.
PortraitRecord record_of(const RunConfig& config, const PortraitLabels& labels, PortraitColouring colouring,
                         const PortraitSettings& settings, std::uint64_t trajectories) {
    PortraitRecord record;
    record.command = config.description.command;
    record.model = config.description.model;
    record.scheme = config.description.scheme;
    record.labels = labels;
    record.configuration = config.description.configuration;
    record.colouring = colouring;
    record.energy = settings.energy;
    record.skip_steps = settings.schedule.skip;
    record.record_every = settings.schedule.every;
    record.trajectories = trajectories;
    return record;
}

// The plan's sink into the output opened before the run, then the pipeline (which commits it).
void run_portrait_plan(const PortraitPlan& plan, AtomicOutputFile& file) {
    PortraitSink sink(plan.settings, plan.on_device, plan.config.threads, portrait_writer(plan, file));
    const std::unique_ptr<Ensemble> ensemble = plan.make_ensemble(plan.config, sink);
    run_pipeline(plan.config, *ensemble, sink, file);
}

}  // namespace

void open_portrait_output(std::optional<AtomicOutputFile>& file, const std::string& out) {
    // HDF5 opens its file by name, hence a named temporary for the counts.
    file.emplace(
        out, "--out",
        is_hdf5_path(out) ? AtomicOutputFile::Temporary::named : AtomicOutputFile::Temporary::unnamed_if_possible);
}

PortraitSink::Write portrait_writer(const PortraitPlan& plan, AtomicOutputFile& file) {
    return [out = plan.config.out, &file, record = plan.record,
            energy = plan.settings.energy](const DensityHistogram& histogram) {
        if (is_hdf5_path(out))
            write_portrait_counts(file, histogram, record);
        else
            write_portrait_png(file, histogram, record.labels, record.colouring, energy ? &*energy : nullptr);
    };
}

PortraitCommands add_portrait_command(CLI::App& app, PortraitPendulumOptions& pendulum, PortraitSpinOptions& spin,
                                      PortraitAddOptions& add) {
    PortraitCommands c;
    c.command = app.add_subcommand("portrait", "Phase portrait of a pendulum or spin ensemble as a PNG density image");
    c.command->require_subcommand(1);
    c.pendulum = add_pendulum_command(*c.command, pendulum.family);
    c.pendulum->description(
        "Phase portrait of a pendulum ensemble: every visited (q, p), rasterized while integrating");
    add_portrait_options(*c.pendulum, pendulum.portrait, true);
    c.pendulum->get_option("--out")->description(kOutDescription);
    c.pendulum->get_option("--save-every")->description(kSaveEveryDescription);
    c.pendulum->footer(
        "Every option of `geomint pendulum` chooses the ensemble (see `geomint pendulum --help`).\n"
        "Plane: (q wrapped to (-pi, pi], p) for an angle; (q, p) with --q-range otherwise. Each pixel counts\n"
        "the recorded states in it: the initial state and each step's, from --skip-steps on, every\n"
        "--record-every-th. The PNG's text chunks hold the axes and the extent (docs/portraits.md).\n"
        "A sweep file holds the portrait's own options in a [portrait] table (--print-config).");
    c.spin = add_spin_command(*c.command, spin.family);
    c.spin->description("Phase portrait of a spin ensemble: one spin on the sphere, or (s_I^z, s_I+1^z)");
    add_portrait_options(*c.spin, spin.portrait, false);
    c.spin->get_option("--out")->description(kOutDescription);
    c.spin->get_option("--save-every")->description(kSaveEveryDescription);
    c.spin->footer(
        "Every option of `geomint spin` chooses the ensemble (see `geomint spin --help`).\n"
        "--plane sphere: the Lambert azimuthal equal-area projection of spin I, northern hemisphere (z >= 0)\n"
        "seen from above in the left disc, southern seen from below in the right (extent [-2 sqrt 2, 2 sqrt 2]\n"
        "x [-sqrt 2, sqrt 2]); --plane z-pair: (s_I^z, s_I+1^z) in [-1, 1]^2, chains only.\n"
        "A sweep file holds the portrait's own options in a [portrait] table (--print-config).");
    c.add = add_portrait_add_command(*c.command, add);
    return c;
}

std::optional<PortraitPlan> plan_portrait_pendulum(const PortraitPendulumOptions& options,
                                                   const std::function<void(const RunConfig&)>& before_work,
                                                   std::shared_ptr<const RowTable> rows) {
    refuse_family_only_options(options.family.common, options.family.exact);
    PendulumRun run = prepare_pendulum_run(options.family);
    if (rows) run.job.table = std::move(rows);
    RunConfig& config = run.config;
    const PortraitOptions& o = options.portrait;
    const bool periodic = pendulum_potential_is_periodic(run.job.model);
    PortraitSettings settings;
    settings.grid.width = parse_image_dimension(o.width, "--width", kDefaultWidth);
    settings.grid.height = parse_image_dimension(o.height, "--height", 768);
    const std::optional<ValueRange> q_range = parse_value_range(o.q_range, "--q-range");
    std::optional<ValueRange> p_range = parse_value_range(o.p_range, "--p-range");
    if (!q_range && !periodic)
        throw UsageError("--q-range", "is required for --potential " + config.description.model +
                                          " (q is not an angle, so there is no natural range)");
    const ValueRange q = q_range ? *q_range : ValueRange{portrait::kPendulumQMin, portrait::kPendulumQMax};
    settings.schedule = parse_record_schedule(o, config.time.steps);
    const PortraitColouring colouring = parse_colouring(o.colour);
    const std::optional<ValueRange> energy_range = parse_energy_range(o, colouring);
    // Everything is checked: --print-config prints the file and stops here.
    if (record_configuration(options.family.common, config, implied_pendulum_configuration(options.family, run)))
        return std::nullopt;
    if (before_work) before_work(config);

    const PendulumEnsembleBounds bounds = scan_pendulum_ensemble(run.job, config.precision, q.low, q.high);
    if (!p_range) {
        // 5% above the largest reachable |p| (its sampled min V may be a little high); +-1 at rest.
        const double half = bounds.pmax > 0 ? 1.05 * bounds.pmax : 1.0;
        p_range = ValueRange{-half, half};
    }
    settings.grid.extent = {q.low, q.high, p_range->low, p_range->high};
    validate_pixel_grid(settings.grid);
    if (colouring == PortraitColouring::mean_energy)
        settings.energy =
            energy_range ? EnergyScale(energy_range->low, energy_range->high) : EnergyScale(bounds.emin, bounds.emax);
    const PortraitLabels labels{periodic ? "q wrapped to (-pi, pi]" : "q", "p", describe("pendulum", config)};
    PortraitPlan plan{config,
                      settings,
                      record_of(config, labels, colouring, settings, run.job.size()),
                      config.backend.backend == Backend::cuda,
                      {}};
    plan.make_ensemble = [job = std::move(run.job), periodic](const RunConfig& c, PortraitSink& sink) {
        return make_pendulum_portrait_ensemble(job, c, sink, periodic);
    };
    return plan;
}

void run_portrait_pendulum_command(const PortraitPendulumOptions& options) {
    std::optional<AtomicOutputFile> file;
    // A bad destination is refused before any work.
    const std::optional<PortraitPlan> plan =
        plan_portrait_pendulum(options, [&](const RunConfig& config) { open_portrait_output(file, config.out); });
    if (plan) run_portrait_plan(*plan, *file);
}

std::optional<PortraitPlan> plan_portrait_spin(const PortraitSpinOptions& options,
                                               const std::function<void(const RunConfig&)>& before_work,
                                               std::shared_ptr<const RowTable> rows) {
    refuse_family_only_options(options.family.common, options.family.exact);
    SpinRun run = prepare_spin_run(options.family);
    if (rows) {
        run.job.initial.source = SpinInitialConditions::Source::table;
        run.job.initial.chains = rows->rows;
        run.job.initial.table = std::move(rows);
    }
    RunConfig& config = run.config;
    const PortraitOptions& o = options.portrait;
    const int d = run.job.initial.spins;
    portrait::SpinPlaneChoice plane;
    if (o.plane == "sphere") {
        plane.kind = portrait::SpinPlaneKind::sphere;
    } else if (o.plane == "z-pair") {
        plane.kind = portrait::SpinPlaneKind::z_pair;
        if (d < 2) throw UsageError("--plane", "z-pair needs a chain (neighbouring spins); a top has one spin");
    } else {
        throw UsageError("--plane", "unknown plane '" + o.plane + "' (valid: sphere, z-pair)");
    }
    const long long spin = parse_nonnegative_integer(o.spin, "--spin");
    if (spin < 1 || spin > d)
        throw UsageError("--spin",
                         d == 1 ? "a top has one spin: give 1 or leave it out, got " + o.spin
                                : "must be 1 to " + std::to_string(d) + " (the spins of the chain), got " + o.spin);
    plane.spin = static_cast<int>(spin - 1);
    plane.next = static_cast<int>(spin % d);  // periodic chain: spin d's neighbour is spin 1
    const bool sphere = plane.kind == portrait::SpinPlaneKind::sphere;
    PortraitSettings settings;
    settings.grid.width = parse_image_dimension(o.width, "--width", kDefaultWidth);
    settings.grid.height =
        parse_image_dimension(o.height, "--height", sphere ? (settings.grid.width + 1) / 2 : settings.grid.width);
    settings.grid.extent = sphere ? portrait::kSpherePlaneExtent : portrait::kZPairPlaneExtent;
    validate_pixel_grid(settings.grid);
    settings.schedule = parse_record_schedule(o, config.time.steps);
    const PortraitColouring colouring = parse_colouring(o.colour);
    const std::optional<ValueRange> energy_range = parse_energy_range(o, colouring);
    // Everything is checked: --print-config prints the file and stops here.
    if (record_configuration(options.family.common, config, implied_spin_configuration(options.family, run)))
        return std::nullopt;
    if (before_work) before_work(config);

    if (colouring == PortraitColouring::mean_energy)
        settings.energy = energy_range ? EnergyScale(energy_range->low, energy_range->high)
                                       : scan_spin_energies(run.job, config.precision);
    const std::string i = std::to_string(spin), next = std::to_string(plane.next + 1);
    const PortraitLabels labels{
        sphere ? "spin " + i + ", Lambert equal-area: north (z >= 0) left, seen from above; south right, from below"
               : "s" + i + "^z",
        sphere ? "spin " + i + ", Lambert equal-area (y)" : "s" + next + "^z", describe("spin", config)};
    PortraitPlan plan{config,
                      settings,
                      record_of(config, labels, colouring, settings, run.job.initial.chains),
                      spin_portrait_on_device(config),
                      {}};
    plan.make_ensemble = [job = std::move(run.job), plane](const RunConfig& c, PortraitSink& sink) {
        return make_spin_portrait_ensemble(job, c, sink, plane);
    };
    return plan;
}

void run_portrait_spin_command(const PortraitSpinOptions& options) {
    std::optional<AtomicOutputFile> file;
    // A bad destination is refused before any work.
    const std::optional<PortraitPlan> plan =
        plan_portrait_spin(options, [&](const RunConfig& config) { open_portrait_output(file, config.out); });
    if (plan) run_portrait_plan(*plan, *file);
}

}  // namespace geomint
