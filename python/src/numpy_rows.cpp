// NumPy arrays as rows (see numpy_rows.hpp).
#include "numpy_rows.hpp"

#include <stdexcept>

namespace geomint::python {

namespace py = pybind11;

StridedReals::StridedReals(const py::array& array) : data_(static_cast<const char*>(array.data())) {
    if (array.dtype().is(py::dtype::of<float>())) {
        single_ = true;
    } else if (array.dtype().is(py::dtype::of<double>())) {
        single_ = false;
    } else {
        throw std::invalid_argument("geomint: internal error: rows must be float32 or float64");
    }
    for (py::ssize_t k = 0; k < array.ndim(); ++k) {
        shape_.push_back(static_cast<std::uint64_t>(array.shape(k)));
        strides_.push_back(array.strides(k));
        size_ *= shape_.back();
    }
}

double StridedReals::operator[](std::uint64_t i) const {
    std::ptrdiff_t offset = 0;
    // The last axis varies fastest: peel the index from the end.
    for (std::size_t k = shape_.size(); k-- > 0;) {
        offset += static_cast<std::ptrdiff_t>(i % shape_[k]) * strides_[k];
        i /= shape_[k];
    }
    if (single_) return static_cast<double>(*reinterpret_cast<const float*>(data_ + offset));
    return *reinterpret_cast<const double*>(data_ + offset);
}

std::shared_ptr<const RowTable> pendulum_rows(const std::vector<py::array>& arrays) {
    if (arrays.size() != 4) throw std::invalid_argument("geomint: internal error: four pendulum arrays expected");
    auto columns = std::make_shared<std::vector<StridedReals>>();
    for (const py::array& a : arrays) columns->emplace_back(a);
    for (const StridedReals& c : *columns)
        if (c.size() != (*columns)[0].size())
            throw std::invalid_argument("geomint: internal error: pendulum arrays of different sizes");
    auto table = std::make_shared<RowTable>();
    table->rows = (*columns)[0].size();
    table->fill = [columns](std::uint64_t row, double* out) {
        for (std::size_t k = 0; k < 4; ++k) out[k] = (*columns)[k][row];
    };
    return table;
}

std::shared_ptr<const RowTable> spin_rows(const py::array& spins, std::uint64_t rows, int spins_per_row) {
    auto values = std::make_shared<StridedReals>(spins);
    const std::uint64_t width = 3 * static_cast<std::uint64_t>(spins_per_row);
    if (values->size() != rows * width)
        throw std::invalid_argument("geomint: internal error: spin array of the wrong size");
    auto table = std::make_shared<RowTable>();
    table->rows = rows;
    table->fill = [values, width](std::uint64_t row, double* out) {
        for (std::uint64_t k = 0; k < width; ++k) out[k] = (*values)[row * width + k];
    };
    return table;
}

}  // namespace geomint::python
