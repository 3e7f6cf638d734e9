// HDF5 error reporting (see hdf5_handles.hpp).
#include "hdf5_handles.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace geomint {

namespace {

struct StackReading {
    int error_number = 0;   // the system error a file driver recorded ("errno = 28"), if any
    std::string innermost;  // the description where the error was first detected
};

herr_t read_entry(unsigned position, const H5E_error2_t* entry, void* data) {
    auto* reading = static_cast<StackReading*>(data);
    const char* text = entry->desc != nullptr ? entry->desc : "";
    if (position == 0) reading->innermost = text;
    if (reading->error_number == 0) {
        if (const char* found = std::strstr(text, "errno = ")) reading->error_number = std::atoi(found + 8);
    }
    return 0;
}

}  // namespace

Hdf5Errors::Hdf5Errors(std::string shown_path) : shown_path_(std::move(shown_path)) {
    // Before the library starts: no exit-time clean-up, which crashes on a file left open after a
    // failed flush (hdf5_sink.cpp); a complete run closes everything itself. Fails harmlessly
    // when the library has started already.
    H5dont_atexit();
    // geomint reports each failure as one line of its own; the stack dump would bury it.
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

void Hdf5Errors::fail(const char* what) const {
    StackReading reading;
    // Upward: the most specific entry first, where a file driver records the system error.
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, read_entry, &reading);
    H5Eclear2(H5E_DEFAULT);
    std::string reason;
    if (reading.error_number > 0)
        reason = std::strerror(reading.error_number);
    else if (!reading.innermost.empty())
        reason = "HDF5: " + reading.innermost;
    else
        reason = "HDF5 error";
    throw std::runtime_error("--out: writing '" + shown_path_ + "' failed: " + reason + " (" + what + ")");
}

}  // namespace geomint
