// geomint.portrait and geomint.run in the extension: a phase portrait's histogram recorded by the
// CLI's portrait ensembles into memory (and written as the CLI writes it when --out is given), and
// a sweep file's run, with errors located in the file as `geomint run` locates them.
#include "portrait_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "command_line.hpp"
#include "input_files.hpp"
#include "numpy_rows.hpp"
#include "run_in_memory.hpp"
#include "sweep_arguments.hpp"
#include "sweep_file.hpp"

namespace geomint::python {

namespace py = pybind11;

namespace {

py::array_t<std::uint64_t> image(std::span<const portrait::HistogramCount> values, const portrait::PixelGrid& grid) {
    py::array_t<std::uint64_t> out({static_cast<py::ssize_t>(grid.height), static_cast<py::ssize_t>(grid.width)});
    std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
}

}  // namespace

py::dict run_portrait(const std::string& family, const std::vector<std::string>& arguments,
                      const std::vector<py::array>& arrays, std::uint64_t rows, py::handle progress,
                      const std::vector<std::string>& inputs) {
    const CommandInputs scope(inputs);
    std::shared_ptr<const RowTable> table;
    if (arrays.size() == 4) table = pendulum_rows(arrays);
    // The chain's spins per row: the array's size over the rows (its last two axes are spins x 3).
    if (arrays.size() == 1)
        table = spin_rows(arrays[0], rows, rows == 0 ? 1 : static_cast<int>(arrays[0].size() / (3 * rows)));
    const PortraitPlan plan = parse_portrait_arguments(family, arguments, table);
    // The output is opened after the run (below), but one of the call's inputs is refused now.
    if (!plan.config.out.empty()) refuse_output_onto_input(plan.config.out, "--out");
    PortraitSink sink(plan.settings, plan.on_device, plan.config.threads);
    const std::unique_ptr<Ensemble> ensemble = plan.make_ensemble(plan.config, sink);
    run_released(*ensemble, sink, progress);
    const PortraitResult result = sink.take_result();
    if (!plan.config.out.empty()) {
        // As the CLI writes it: the PNG, or the counts for FILE.h5. Opened after the run, not
        // before as the CLI does: an open output's signal handlers end the process on SIGINT,
        // where Ctrl-C should raise KeyboardInterrupt between chunks.
        std::optional<AtomicOutputFile> file;
        open_portrait_output(file, plan.config.out);
        portrait_writer(plan, *file)(result.histogram);
        file->commit();
    }
    const portrait::PixelGrid& grid = result.histogram.grid();
    py::dict out;
    out["counts"] = image(result.histogram.counts(), grid);
    if (result.histogram.with_energy()) out["energy_sums"] = image(result.histogram.energy_sums(), grid);
    out["extent"] = py::make_tuple(grid.extent.xmin, grid.extent.xmax, grid.extent.ymin, grid.extent.ymax);
    out["x_label"] = plan.record.labels.x_axis;
    out["y_label"] = plan.record.labels.y_axis;
    out["statuses"] = result.statuses;
    return out;
}

namespace {

// The CLI's command tree (as geomint's main builds it), which a sweep file's table is read against.
struct SweepCommands {
    CLI::App root{"geomint", "geomint"};
    PendulumOptions pendulum;
    SpinOptions spin;
    PortraitPendulumOptions portrait_pendulum;
    PortraitSpinOptions portrait_spin;
    PortraitAddOptions portrait_add;

    SweepCommands() {
        add_pendulum_command(root, pendulum);
        add_spin_command(root, spin);
        add_portrait_command(root, portrait_pendulum, portrait_spin, portrait_add);
    }
};

}  // namespace

py::tuple sweep_file_command(const std::string& path) {
    const SweepFile file = read_sweep_file(path);
    SweepCommands commands;
    std::vector<std::string> arguments = sweep_arguments(file, commands.root);
    arguments.erase(arguments.begin(), arguments.begin() + (file.portrait ? 2 : 1));  // the command's words
    return py::make_tuple(file.portrait ? "portrait " + file.command : file.command, arguments);
}

py::object locate_sweep_error(const std::string& path, const std::string& message) {
    const SweepFile file = read_sweep_file(path);
    SweepCommands commands;
    return py::str(locate_in_file(file, sweep_command(file, commands.root), message).what());
}

}  // namespace geomint::python
