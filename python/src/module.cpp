// The extension module geomint._geomint: the CLI's commands, parsed and run in memory, for the
// Python package around it (python/geomint/__init__.py holds the user-facing functions).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "geomint/pendulum/registry.hpp"
#include "geomint/spin/registry.hpp"
#include "numpy_rows.hpp"
#include "portrait_binding.hpp"
#include "registry_options.hpp"
#include "run_in_memory.hpp"
#include "usage_error.hpp"

namespace py = pybind11;
using namespace geomint;

namespace {

// `geomint pendulum ARGUMENTS` into arrays; with `arrays` (mass, omega, q0, p0 of one shape),
// their values are the rows instead of the arguments' grid (which then only bounds them, for the
// CLI's checks and warnings).
py::dict run_pendulum(const std::vector<std::string>& arguments, const std::vector<py::array>& arrays,
                      py::handle progress, const std::vector<std::string>& inputs) {
    const python::CommandInputs scope(inputs);
    PendulumRun run = python::parse_pendulum_arguments(arguments);
    if (!arrays.empty()) run.job.table = python::pendulum_rows(arrays);
    if (run.job.size() == 0) run.config.backend = {};  // nothing to run: no device buffers of size 0
    const std::unique_ptr<Ensemble> ensemble = make_pendulum_ensemble(run.job, run.config);
    return python::run_in_memory(*ensemble, run.config, progress);
}

// `geomint spin ARGUMENTS` into arrays; with `spins` (rows x 3 d values in C order, d the spins
// of a chain or 1 for a top), its rows are the initial spins (normalised as --init's are).
py::dict run_spin(const std::vector<std::string>& arguments, const py::object& spins, std::uint64_t rows,
                  py::handle progress, const std::vector<std::string>& inputs) {
    const python::CommandInputs scope(inputs);
    SpinRun run = python::parse_spin_arguments(arguments);
    SpinInitialConditions& initial = run.job.initial;
    if (!spins.is_none()) {
        initial.source = SpinInitialConditions::Source::table;
        initial.chains = rows;
        initial.table = python::spin_rows(spins.cast<py::array>(), rows, initial.spins);
        if (rows == 0) run.config.backend = {};  // nothing to run: no device buffers of size 0
    }
    const std::unique_ptr<Ensemble> ensemble = make_spin_ensemble(run.job, run.config);
    python::GroupedColumns group{"s", {}};
    for (int i = 1; i <= initial.spins; ++i)
        for (const char* axis : {"x", "y", "z"}) group.columns.push_back(axis + std::to_string(i));
    py::dict result = python::run_in_memory(*ensemble, run.config, progress, group);
    result["spins"] = initial.spins;
    return result;
}

std::vector<std::string> status_names() {
    std::vector<std::string> names;
    for (int code = 0; code <= static_cast<int>(SolveStatus::root_not_unique); ++code)
        names.push_back(status_name(static_cast<SolveStatus>(code)));
    return names;
}

py::dict registry() {
    py::dict names;
    names["pendulum_schemes"] = names_of(describe_schemes(PendulumSchemes{}));
    names["potentials"] = names_of(describe_entries(PendulumPotentials{}));
    names["spin_schemes"] = names_of(describe_schemes(spin::SpinSchemes{}));
    names["systems"] = names_of(describe_entries(spin::SpinSystems{}));
    std::vector<std::string> chains;
    for_each_type(spin::SpinSystems{}, [&](auto entry) {
        if constexpr (decltype(entry)::is_chain) chains.push_back(decltype(entry)::name);
    });
    names["chain_systems"] = chains;
    return names;
}

}  // namespace

PYBIND11_MODULE(_geomint, m) {
    m.doc() = "geomint's run pipeline for Python (use the package geomint, not this module)";
    // Bad input is a ValueError carrying the CLI's message; other failures stay RuntimeError.
    py::register_exception_translator([](std::exception_ptr error) {
        try {
            if (error) std::rethrow_exception(error);
        } catch (const UsageError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        }
    });
    m.def("run_pendulum", &run_pendulum, py::arg("arguments"), py::arg("arrays"), py::arg("progress"),
          py::arg("inputs") = std::vector<std::string>{});
    m.def("run_spin", &run_spin, py::arg("arguments"), py::arg("spins"), py::arg("rows"), py::arg("progress"),
          py::arg("inputs") = std::vector<std::string>{});
    m.def("run_portrait", &python::run_portrait, py::arg("family"), py::arg("arguments"), py::arg("arrays"),
          py::arg("rows"), py::arg("progress"), py::arg("inputs") = std::vector<std::string>{});
    m.def("sweep_file_command", &python::sweep_file_command, py::arg("path"));
    m.def("locate_sweep_error", &python::locate_sweep_error, py::arg("path"), py::arg("message"));
    m.def("command_options", &python::command_options, py::arg("family"));
    m.def("command_help", &python::command_help, py::arg("family"));
    m.def("status_names", &status_names);
    m.def("registry", &registry);
}
