// Writing attributes of an HDF5 object (a file's root, a group, a dataset) with every call checked
// through Hdf5Errors: shared by the result sink and the portrait counts file.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hdf5_handles.hpp"

namespace geomint {

// Attribute writers: scalar UTF-8 strings, string lists, and numbers.
class Hdf5Attributes {
public:
    Hdf5Attributes(const Hdf5Errors& errors, hid_t object) : errors_(errors), object_(object) {}

    void text(const char* name, const std::string& value) const {
        const Hdf5Id type = string_type();
        const Hdf5Id space(errors_.check(H5Screate(H5S_SCALAR), name), H5Sclose);
        const char* data = value.c_str();
        write(name, type.get(), space.get(), type.get(), &data);
    }
    void texts(const char* name, const std::vector<std::string>& values) const {
        const Hdf5Id type = string_type();
        const hsize_t size = values.size();
        const Hdf5Id space(errors_.check(H5Screate_simple(1, &size, nullptr), name), H5Sclose);
        std::vector<const char*> data;
        for (const std::string& v : values) data.push_back(v.c_str());
        write(name, type.get(), space.get(), type.get(), data.data());
    }
    void integer(const char* name, long long value) const {
        const Hdf5Id space(errors_.check(H5Screate(H5S_SCALAR), name), H5Sclose);
        const std::int64_t data = value;
        write(name, H5T_STD_I64LE, space.get(), H5T_NATIVE_INT64, &data);
    }
    void real(const char* name, double value) const {
        const Hdf5Id space(errors_.check(H5Screate(H5S_SCALAR), name), H5Sclose);
        write(name, H5T_IEEE_F64LE, space.get(), H5T_NATIVE_DOUBLE, &value);
    }
    void reals(const char* name, const std::vector<double>& values) const {
        const hsize_t size = values.size();
        const Hdf5Id space(errors_.check(H5Screate_simple(1, &size, nullptr), name), H5Sclose);
        write(name, H5T_IEEE_F64LE, space.get(), H5T_NATIVE_DOUBLE, values.data());
    }

private:
    Hdf5Id string_type() const {
        Hdf5Id type(errors_.check(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
        errors_.check(H5Tset_size(type.get(), H5T_VARIABLE), "string type");
        errors_.check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "string type");
        return type;
    }
    void write(const char* name, hid_t file_type, hid_t space, hid_t memory_type, const void* data) const {
        const Hdf5Id attribute(
            errors_.check(H5Acreate2(object_, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT), name), H5Aclose);
        errors_.check(H5Awrite(attribute.get(), memory_type, data), name);
    }

    const Hdf5Errors& errors_;
    hid_t object_;
};

}  // namespace geomint
