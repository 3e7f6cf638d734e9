// NumPy arrays as an ensemble's rows (src/row_table.hpp), read in place: a float64 or float32
// array of any strides (a broadcast view, a transposed or sliced array) is never copied.
#pragma once

#include <pybind11/numpy.h>

#include <memory>
#include <vector>

#include "row_table.hpp"

namespace geomint::python {

// Element i of an array in C order, whatever its strides, as a double. Holds no reference (so it
// may be copied and destroyed without the GIL): the caller keeps the array alive during the run.
class StridedReals {
public:
    explicit StridedReals(const pybind11::array& array);
    std::uint64_t size() const { return size_; }
    double operator[](std::uint64_t i) const;

private:
    const char* data_;
    bool single_;  // float32
    std::vector<std::uint64_t> shape_;
    std::vector<std::ptrdiff_t> strides_;  // bytes
    std::uint64_t size_ = 1;
};

// Pendulum rows from four arrays of one shape (mass, omega, q0, p0: PendulumAxis order).
std::shared_ptr<const RowTable> pendulum_rows(const std::vector<pybind11::array>& arrays);
// Spin rows from one array of `rows` x (3 * spins) values in C order.
std::shared_ptr<const RowTable> spin_rows(const pybind11::array& spins, std::uint64_t rows, int spins_per_row);

}  // namespace geomint::python
