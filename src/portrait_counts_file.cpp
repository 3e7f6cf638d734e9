// A phase portrait's counts as HDF5 (see portrait_counts_file.hpp): written in one piece after the
// run (the histogram is in memory anyway), read back for `geomint portrait add`.
#include "portrait_counts_file.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <span>

#include "build_info.hpp"
#include "hdf5_attributes.hpp"
#include "hdf5_handles.hpp"
#include "usage_error.hpp"

namespace geomint {

namespace {

// What the file says it is: `geomint portrait add` refuses other HDF5 files by this attribute.
constexpr const char* kFormat = "geomint portrait counts 1";

const char* colour_name(PortraitColouring c) { return c == PortraitColouring::log_density ? "density" : "energy"; }

// The [height, width] dataset `name`, row 0 the top of the image (as the PNG's rows).
void write_grid(const Hdf5Errors& errors, hid_t file, const char* name, const portrait::PixelGrid& grid,
                std::span<const portrait::HistogramCount> values) {
    const hsize_t dims[2] = {static_cast<hsize_t>(grid.height), static_cast<hsize_t>(grid.width)};
    // Chunked rows, deflated: most pixels of a portrait are 0.
    const hsize_t chunk[2] = {std::min<hsize_t>(dims[0], std::max<hsize_t>(1, 8192 / dims[1])), dims[1]};
    const Hdf5Id space(errors.check(H5Screate_simple(2, dims, nullptr), name), H5Sclose);
    const Hdf5Id properties(errors.check(H5Pcreate(H5P_DATASET_CREATE), name), H5Pclose);
    errors.check(H5Pset_chunk(properties.get(), 2, chunk), name);
    errors.check(H5Pset_deflate(properties.get(), 4), name);
    const Hdf5Id dataset(
        errors.check(H5Dcreate2(file, name, H5T_STD_U64LE, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT),
                     name),
        H5Dclose);
    // HistogramCount is unsigned long long: H5T_NATIVE_ULLONG, not NATIVE_UINT64 (unsigned long).
    errors.check(H5Dwrite(dataset.get(), H5T_NATIVE_ULLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), name);
}

// Reading: every failure is the one UsageError naming the file, with what was missing.
class Reader {
public:
    explicit Reader(std::string path) : path_(std::move(path)), errors_(path_) {}

    [[noreturn]] void fail(const std::string& problem) const {
        H5Eclear2(H5E_DEFAULT);
        throw UsageError(path_, problem);
    }
    hid_t check(hid_t result, const std::string& what) const {
        if (result < 0) fail("not a geomint portrait counts file (" + what + ")");
        return result;
    }

    Hdf5Id attribute(hid_t object, const char* name) const {
        if (H5Aexists(object, name) <= 0)
            fail(std::string("not a geomint portrait counts file (no attribute ") + name + ")");
        return Hdf5Id(check(H5Aopen(object, name, H5P_DEFAULT), name), H5Aclose);
    }
    // Elements of a numeric attribute (scalar: 1), checked against `expected`.
    void numbers(hid_t object, const char* name, hid_t memory_type, void* data, hssize_t expected) const {
        const Hdf5Id a = attribute(object, name);
        const Hdf5Id space(check(H5Aget_space(a.get()), name), H5Sclose);
        const Hdf5Id type(check(H5Aget_type(a.get()), name), H5Tclose);
        if (H5Sget_simple_extent_npoints(space.get()) != expected || H5Tget_class(type.get()) == H5T_STRING)
            fail(std::string("attribute ") + name + " has the wrong type or size");
        check(H5Aread(a.get(), memory_type, data), name);
    }
    long long integer(hid_t object, const char* name) const {
        std::int64_t value = 0;
        numbers(object, name, H5T_NATIVE_INT64, &value, 1);
        return value;
    }
    std::vector<double> reals(hid_t object, const char* name, hssize_t count) const {
        std::vector<double> values(static_cast<std::size_t>(count));
        numbers(object, name, H5T_NATIVE_DOUBLE, values.data(), count);
        return values;
    }
    std::vector<std::string> texts(hid_t object, const char* name, bool scalar) const {
        const Hdf5Id a = attribute(object, name);
        const Hdf5Id space(check(H5Aget_space(a.get()), name), H5Sclose);
        const Hdf5Id file_type(check(H5Aget_type(a.get()), name), H5Tclose);
        const hssize_t n = H5Sget_simple_extent_npoints(space.get());
        if (H5Tget_class(file_type.get()) != H5T_STRING || H5Tis_variable_str(file_type.get()) <= 0 || n < 0 ||
            (scalar && n != 1))
            fail(std::string("attribute ") + name + " is not a string");
        Hdf5Id type(check(H5Tcopy(H5T_C_S1), name), H5Tclose);
        check(H5Tset_size(type.get(), H5T_VARIABLE), name);
        check(H5Tset_cset(type.get(), H5T_CSET_UTF8), name);
        std::vector<char*> data(static_cast<std::size_t>(n), nullptr);
        check(H5Aread(a.get(), type.get(), data.data()), name);
        std::vector<std::string> values;
        for (char* d : data) {
            values.emplace_back(d != nullptr ? d : "");
            H5free_memory(d);
        }
        return values;
    }
    std::string text(hid_t object, const char* name) const { return texts(object, name, true).front(); }

    // The [height, width] uint64 dataset `name` into `values`.
    void grid(hid_t file, const char* name, const portrait::PixelGrid& grid,
              std::span<portrait::HistogramCount> values) const {
        if (H5Lexists(file, name, H5P_DEFAULT) <= 0)
            fail(std::string("not a geomint portrait counts file (no dataset /") + name + ")");
        const Hdf5Id dataset(check(H5Dopen2(file, name, H5P_DEFAULT), name), H5Dclose);
        const Hdf5Id space(check(H5Dget_space(dataset.get()), name), H5Sclose);
        hsize_t dims[2] = {0, 0};
        if (H5Sget_simple_extent_ndims(space.get()) != 2 ||
            H5Sget_simple_extent_dims(space.get(), dims, nullptr) != 2 ||
            dims[0] != static_cast<hsize_t>(grid.height) || dims[1] != static_cast<hsize_t>(grid.width))
            fail(std::string("dataset /") + name + " is not [height, width] = [" + std::to_string(grid.height) + ", " +
                 std::to_string(grid.width) + "]");
        check(H5Dread(dataset.get(), H5T_NATIVE_ULLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), name);
    }

private:
    std::string path_;
    Hdf5Errors errors_;  // silences the library's printing of its error stack
};

int dimension(const Reader& reader, long long value, const char* name) {
    if (value < 1 || value > kMaxPortraitDimension) reader.fail(std::string("attribute ") + name + " out of range");
    return static_cast<int>(value);
}

}  // namespace

void write_portrait_counts(AtomicOutputFile& out, const DensityHistogram& histogram, const PortraitRecord& record) {
    const Hdf5Errors errors(out.description());
    const std::string path = out.temporary_path();
    const Hdf5Id access(errors.check(H5Pcreate(H5P_FILE_ACCESS), "creating the file"), H5Pclose);
    // The file is our own temporary: a filesystem without locks (NFS) must not stop the run.
    errors.check(H5Pset_file_locking(access.get(), false, true), "creating the file");
    Hdf5Id file(errors.check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), "creating the file"),
                H5Fclose);
    const portrait::PixelGrid& grid = histogram.grid();
    write_grid(errors, file.get(), "counts", grid, histogram.counts());
    if (histogram.with_energy()) write_grid(errors, file.get(), "energy_sums", grid, histogram.energy_sums());

    const Hdf5Attributes root(errors, file.get());
    root.text("format", kFormat);
    root.text("geomint_version", kGeomintVersion);
    root.text("git_commit", kGeomintGitCommit);
    root.text("command", record.command);
    root.text("model", record.model);
    root.text("scheme", record.scheme);
    root.integer("width", grid.width);
    root.integer("height", grid.height);
    root.reals("extent", {grid.extent.xmin, grid.extent.xmax, grid.extent.ymin, grid.extent.ymax});
    root.text("x_axis", record.labels.x_axis);
    root.text("y_axis", record.labels.y_axis);
    root.integer("skip_steps", record.skip_steps);
    root.integer("record_every", record.record_every);
    root.text("colour", colour_name(record.colouring));
    if (record.energy) root.reals("energy_range", {record.energy->emin(), record.energy->emax()});
    root.integer("trajectories", static_cast<long long>(record.trajectories));
    root.text("configuration", record.configuration);
    root.text("description", record.labels.description);
    if (!record.sources.empty()) root.texts("sources", record.sources);
    // Flushes everything: where a full disk shows up last.
    errors.check(H5Fclose(file.release()), "closing the file");
}

PortraitCounts read_portrait_counts(const std::string& path) {
    if (!std::ifstream(path, std::ios::binary))
        throw UsageError(path, std::string("cannot read: ") + std::strerror(errno));
    const Reader reader(path);
    const Hdf5Id access(reader.check(H5Pcreate(H5P_FILE_ACCESS), "file access"), H5Pclose);
    reader.check(H5Pset_file_locking(access.get(), false, true), "file access");
    const hid_t opened = H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.get());
    if (opened < 0) reader.fail("not an HDF5 file");
    const Hdf5Id file(opened, H5Fclose);
    const hid_t f = file.get();
    if (H5Aexists(f, "format") <= 0 || reader.text(f, "format") != kFormat)
        reader.fail(std::string("not a geomint portrait counts file (attribute format is not '") + kFormat + "')");

    portrait::PixelGrid grid{};
    grid.width = dimension(reader, reader.integer(f, "width"), "width");
    grid.height = dimension(reader, reader.integer(f, "height"), "height");
    const std::vector<double> extent = reader.reals(f, "extent", 4);
    grid.extent = {extent[0], extent[1], extent[2], extent[3]};
    try {
        validate_pixel_grid(grid);
    } catch (const std::invalid_argument& e) {
        reader.fail(e.what());
    }
    PortraitRecord record;
    record.command = reader.text(f, "command");
    record.model = reader.text(f, "model");
    record.scheme = reader.text(f, "scheme");
    record.labels = {reader.text(f, "x_axis"), reader.text(f, "y_axis"), reader.text(f, "description")};
    record.configuration = reader.text(f, "configuration");
    record.skip_steps = reader.integer(f, "skip_steps");
    record.record_every = reader.integer(f, "record_every");
    record.trajectories = static_cast<std::uint64_t>(reader.integer(f, "trajectories"));
    if (H5Aexists(f, "sources") > 0) record.sources = reader.texts(f, "sources", false);
    const std::string colour = reader.text(f, "colour");
    if (colour == "density") {
        record.colouring = PortraitColouring::log_density;
    } else if (colour == "energy") {
        record.colouring = PortraitColouring::mean_energy;
        const std::vector<double> range = reader.reals(f, "energy_range", 2);
        try {
            record.energy.emplace(range[0], range[1]);
        } catch (const std::invalid_argument& e) {
            reader.fail(std::string("attribute energy_range: ") + e.what());
        }
    } else {
        reader.fail("attribute colour is '" + colour + "' (valid: density, energy)");
    }
    PortraitCounts result{DensityHistogram(grid, record.energy.has_value()), std::move(record)};
    reader.grid(f, "counts", grid, result.histogram.counts());
    if (result.histogram.with_energy()) reader.grid(f, "energy_sums", grid, result.histogram.energy_sums());
    return result;
}

}  // namespace geomint
