// geomint.portrait and geomint.run's parts in the extension (see portrait_binding.cpp).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>

#include <string>
#include <vector>

namespace geomint::python {

// `geomint portrait FAMILY ARGUMENTS` with the histogram kept: {"counts": (height, width) uint64
// with row 0 the top of the image, "energy_sums" (with --colour energy), "extent": (xmin, xmax,
// ymin, ymax), "x_label", "y_label", "statuses": {status: trajectories}}. With --out, also the
// CLI's PNG or counts file.
// `arrays`: none, or the pendulum's four (mass, omega, q0, p0) or the spins' one (rows x 3 d
// values), as geomint.pendulum and geomint.spin take them. `inputs`: the sweep file the arguments
// come from, if any (CommandInputs).
pybind11::dict run_portrait(const std::string& family, const std::vector<std::string>& arguments,
                            const std::vector<pybind11::array>& arrays, std::uint64_t rows, pybind11::handle progress,
                            const std::vector<std::string>& inputs);

// The command a sweep file stands for ("pendulum", "spin", "portrait pendulum", "portrait spin")
// and its arguments after the command's words. Throws UsageError "FILE:LINE: KEY: ..." as
// `geomint run` does.
pybind11::tuple sweep_file_command(const std::string& path);

// A message about the command's options as it reads for the file at `path` ("--q0: bad" becomes
// "FILE:LINE: q0: bad").
pybind11::object locate_sweep_error(const std::string& path, const std::string& message);

}  // namespace geomint::python
