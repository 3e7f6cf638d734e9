// A family's ensemble run through the pipeline's chunk loop into NumPy arrays: the arrays are
// allocated (with the GIL) for the whole ensemble, each chunk is copied into them by the
// in-memory sink (src/memory_sink.hpp) while the GIL is released, and between chunks the GIL is
// taken back to check for Ctrl-C (KeyboardInterrupt ends the run there) and a failed callback.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "ensemble_pipeline.hpp"

namespace geomint::python {

// What goes into one array besides the plain columns: the named columns, in order, as the last
// axis of an array `name` of shape (size, columns.size()) (the spins' x1,y1,z1,...).
struct GroupedColumns {
    std::string name;
    std::vector<std::string> columns;
};

// Runs every chunk of `ensemble` and returns {column name: array of size()} (reals in the run's
// precision, int64, status codes as uint8) without the grouped columns, the group's array, and
// with config.save_every: "saved" [trajectory][save][component], "saved_steps" and "saved_t" [save].
// `progress(done, total)` is called from a helper thread, or is None.
pybind11::dict run_in_memory(Ensemble& ensemble, const RunConfig& config, pybind11::handle progress,
                             const GroupedColumns& group = {});

// The chunk loop of `ensemble` into `sink` (then sink.finish()) with the GIL released, taking it
// back between chunks for Ctrl-C and the callback's errors; `progress` as above.
void run_released(Ensemble& ensemble, ResultSink& sink, pybind11::handle progress);

}  // namespace geomint::python
