// Ensemble runs into NumPy arrays (see run_in_memory.hpp).
#include "run_in_memory.hpp"

#include <pybind11/numpy.h>

#include <algorithm>

#include "memory_sink.hpp"
#include "progress_monitor.hpp"
#include "save_recorder.hpp"

namespace geomint::python {

namespace py = pybind11;

namespace {

py::dtype dtype_of(ColumnKind kind) {
    switch (kind) {
        case ColumnKind::real32:
            return py::dtype::of<float>();
        case ColumnKind::real64:
            return py::dtype::of<double>();
        case ColumnKind::int64:
            return py::dtype::of<std::int64_t>();
        case ColumnKind::status:
            return py::dtype::of<std::uint8_t>();
    }
    return py::dtype::of<double>();
}

// The sink, and between chunks (with the GIL) the checks that may end the run.
class CheckedSink final : public ResultSink {
public:
    CheckedSink(ResultSink& out, ProgressMonitor& monitor) : out_(out), monitor_(monitor) {}
    void write_chunk(std::uint64_t begin, std::size_t n, const ColumnSet& columns, const void* states) override {
        out_.write_chunk(begin, n, columns, states);
        const py::gil_scoped_acquire gil;
        // Runs the Python signal handlers: Ctrl-C raises KeyboardInterrupt here.
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        monitor_.rethrow_callback_error();
    }
    void finish() override { out_.finish(); }

private:
    ResultSink& out_;
    ProgressMonitor& monitor_;
};

}  // namespace

py::dict run_in_memory(Ensemble& ensemble, const RunConfig& config, py::handle progress, const GroupedColumns& group) {
    const std::uint64_t size = ensemble.size();
    const auto rows = static_cast<py::ssize_t>(size);
    py::dict result;
    std::map<std::string, MemoryColumn> destinations;
    py::array grouped;  // allocated at the group's first column
    bool grouped_allocated = false;
    for (const Column& column : ensemble.columns()) {
        const auto at = std::find(group.columns.begin(), group.columns.end(), column.name);
        if (at != group.columns.end()) {
            const auto width = static_cast<py::ssize_t>(group.columns.size());
            if (!grouped_allocated) {
                grouped_allocated = true;
                grouped = py::array(dtype_of(column.kind), std::vector<py::ssize_t>{rows, width});
                result[group.name.c_str()] = grouped;
            }
            destinations[column.name] = {
                static_cast<char*>(grouped.mutable_data()) + (at - group.columns.begin()) * grouped.itemsize(),
                group.columns.size()};
            continue;
        }
        py::array array(dtype_of(column.kind), std::vector<py::ssize_t>{rows});
        destinations[column.name] = {array.mutable_data(), 1};
        result[column.name.c_str()] = array;
    }
    MemoryStates states;
    if (config.save_every > 0) {
        states.saves = static_cast<std::size_t>(save_count(config.time.steps, config.save_every));
        states.components = ensemble.state_components().size();
        states.real_size = config.precision == Precision::float32 ? sizeof(float) : sizeof(double);
        py::array saved(config.precision == Precision::float32 ? py::dtype::of<float>() : py::dtype::of<double>(),
                        {rows, static_cast<py::ssize_t>(states.saves), static_cast<py::ssize_t>(states.components)});
        states.data = saved.mutable_data();
        result["saved"] = saved;
        py::array_t<std::int64_t> steps(static_cast<py::ssize_t>(states.saves));
        py::array_t<double> times(static_cast<py::ssize_t>(states.saves));
        for (std::size_t s = 0; s < states.saves; ++s) {
            steps.mutable_at(s) = save_step(static_cast<long long>(s), config.time.steps, config.save_every);
            times.mutable_at(s) = static_cast<double>(steps.at(s)) * config.time.dt;  // as the HDF5 /time
        }
        result["saved_steps"] = steps;
        result["saved_t"] = times;
    }
    MemorySink memory(std::move(destinations), states);
    run_released(ensemble, memory, progress);
    return result;
}

void run_released(Ensemble& ensemble, ResultSink& out, py::handle progress) {
    {
        const py::gil_scoped_release released;
        ProgressMonitor monitor(progress, ensemble.size());  // destroyed (joined) before the GIL is taken back
        CheckedSink sink(out, monitor);
        run_chunks(ensemble, sink, monitor.counter());
        sink.finish();
    }
    if (!progress.is_none()) progress(ensemble.size(), ensemble.size());
}

}  // namespace geomint::python
