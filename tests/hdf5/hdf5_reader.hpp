// Reading HDF5 outputs back in the tests with the C API: datasets as raw bytes or values, their
// shapes and classes, and string attributes.
#pragma once

#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace geomint_test {

class Hdf5File {
public:
    explicit Hdf5File(const std::string& path) : id_(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {}
    ~Hdf5File() {
        if (id_ >= 0) H5Fclose(id_);
    }
    Hdf5File(const Hdf5File&) = delete;
    Hdf5File& operator=(const Hdf5File&) = delete;
    bool ok() const { return id_ >= 0; }
    hid_t id() const { return id_; }

    bool exists(const std::string& name) const { return H5Lexists(id_, name.c_str(), H5P_DEFAULT) > 0; }

    std::vector<hsize_t> shape(const std::string& name) const {
        const hid_t d = H5Dopen2(id_, name.c_str(), H5P_DEFAULT);
        const hid_t s = H5Dget_space(d);
        std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(s)));
        H5Sget_simple_extent_dims(s, dims.data(), nullptr);
        H5Sclose(s);
        H5Dclose(d);
        return dims;
    }

    // "float64", "float32", "int64", "uint8", ...: the class, signedness and size of the stored type.
    std::string type_name(const std::string& name) const {
        const hid_t d = H5Dopen2(id_, name.c_str(), H5P_DEFAULT);
        const hid_t t = H5Dget_type(d);
        const std::size_t bits = 8 * H5Tget_size(t);
        std::string text = "other";
        if (H5Tget_class(t) == H5T_FLOAT) text = "float" + std::to_string(bits);
        if (H5Tget_class(t) == H5T_INTEGER)
            text = (H5Tget_sign(t) == H5T_SGN_NONE ? "uint" : "int") + std::to_string(bits);
        H5Tclose(t);
        H5Dclose(d);
        return text;
    }

    // The dataset converted to `T` (native memory type `memory_type`).
    template <class T>
    std::vector<T> read(const std::string& name, hid_t memory_type) const {
        std::size_t count = 1;
        for (hsize_t n : shape(name)) count *= n;
        std::vector<T> values(count);
        const hid_t d = H5Dopen2(id_, name.c_str(), H5P_DEFAULT);
        EXPECT_GE(H5Dread(d, memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0) << name;
        H5Dclose(d);
        return values;
    }
    std::vector<double> reals(const std::string& name) const { return read<double>(name, H5T_NATIVE_DOUBLE); }
    std::vector<std::int64_t> integers(const std::string& name) const {
        return read<std::int64_t>(name, H5T_NATIVE_INT64);
    }

    // The stored bytes of a dataset, in its own type: for bitwise comparisons of two files.
    std::vector<unsigned char> bytes(const std::string& name) const {
        const hid_t d = H5Dopen2(id_, name.c_str(), H5P_DEFAULT);
        const hid_t t = H5Dget_type(d);
        std::size_t count = H5Tget_size(t);
        for (hsize_t n : shape(name)) count *= n;
        std::vector<unsigned char> values(count);
        EXPECT_GE(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0) << name;
        H5Tclose(t);
        H5Dclose(d);
        return values;
    }

    // A string attribute (scalar) of the object at `object` ("/" for the root).
    std::string text(const std::string& object, const std::string& name) const {
        const auto list = texts(object, name);
        return list.empty() ? std::string("<missing>") : list.front();
    }
    std::vector<std::string> texts(const std::string& object, const std::string& name) const {
        if (H5Aexists_by_name(id_, object.c_str(), name.c_str(), H5P_DEFAULT) <= 0) return {};
        const hid_t a = H5Aopen_by_name(id_, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
        const hid_t s = H5Aget_space(a);
        const hssize_t count = H5Sget_simple_extent_npoints(s);
        const hid_t t = H5Tcopy(H5T_C_S1);
        H5Tset_size(t, H5T_VARIABLE);
        H5Tset_cset(t, H5T_CSET_UTF8);
        std::vector<char*> data(static_cast<std::size_t>(count), nullptr);
        std::vector<std::string> values;
        if (H5Aread(a, t, data.data()) >= 0)
            for (char* v : data) values.emplace_back(v != nullptr ? v : "");
        H5Dvlen_reclaim(t, s, H5P_DEFAULT, data.data());
        H5Tclose(t);
        H5Sclose(s);
        H5Aclose(a);
        return values;
    }
    double number(const std::string& name) const {
        double value = -1;
        const hid_t a = H5Aopen_by_name(id_, "/", name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
        H5Aread(a, H5T_NATIVE_DOUBLE, &value);
        H5Aclose(a);
        return value;
    }

    // Every dataset the sink writes, as bytes: /summary/<column> (in the `columns` order), and
    // /states, /step, /time when present.
    std::map<std::string, std::vector<unsigned char>> all_datasets() const {
        std::map<std::string, std::vector<unsigned char>> all;
        for (const std::string& column : texts("/summary", "columns"))
            all["/summary/" + column] = bytes("/summary/" + column);
        for (const char* name : {"/states", "/step", "/time"})
            if (exists(name)) all[name] = bytes(name);
        return all;
    }

private:
    hid_t id_;
};

}  // namespace geomint_test
