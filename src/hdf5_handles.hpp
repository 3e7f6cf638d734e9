// Owned HDF5 identifiers and the checking of every HDF5 call: a failure becomes one
// std::runtime_error "--out: writing 'PATH' failed: REASON" (the C API's error stack is silenced).
#pragma once

#include <hdf5.h>

#include <string>

namespace geomint {

// Turns failed HDF5 calls into exceptions naming the output as the user gave it.
class Hdf5Errors {
public:
    // Silences the library's own printing of its error stack and turns its exit-time clean-up off.
    explicit Hdf5Errors(std::string shown_path);
    // `result` < 0 (an HDF5 failure): throws, with the reason read from the error stack.
    hid_t check(hid_t result, const char* what) const {
        if (result < 0) fail(what);
        return result;
    }
    [[noreturn]] void fail(const char* what) const;

private:
    std::string shown_path_;
};

// One identifier closed by its closing function (H5Dclose, H5Sclose, ...), errors ignored: the
// paths that must see close errors (the file) close explicitly through Hdf5Errors::check.
class Hdf5Id {
public:
    using Closer = herr_t (*)(hid_t);
    Hdf5Id() = default;
    Hdf5Id(hid_t id, Closer closer) : id_(id), closer_(closer) {}
    ~Hdf5Id() { reset(); }
    Hdf5Id(Hdf5Id&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }
    Hdf5Id& operator=(Hdf5Id&& other) noexcept {
        if (this != &other) {
            reset();
            id_ = other.id_;
            closer_ = other.closer_;
            other.id_ = -1;
        }
        return *this;
    }
    Hdf5Id(const Hdf5Id&) = delete;
    Hdf5Id& operator=(const Hdf5Id&) = delete;

    hid_t get() const { return id_; }
    // Gives the identifier up without closing it (for an explicit, checked close).
    hid_t release() {
        const hid_t id = id_;
        id_ = -1;
        return id;
    }
    void reset() noexcept {
        if (id_ >= 0 && closer_ != nullptr) closer_(id_);
        id_ = -1;
    }

private:
    hid_t id_ = -1;
    Closer closer_ = nullptr;
};

}  // namespace geomint
