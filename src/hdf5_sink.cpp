// HDF5 result sink (see hdf5_sink.hpp).
#include "hdf5_sink.hpp"

#include <algorithm>
#include <ctime>

#include "build_info.hpp"
#include "hdf5_attributes.hpp"
#include "mpi_session.hpp"
#include "geomint/solve_status.hpp"
#include "save_recorder.hpp"

namespace geomint {

namespace {

// Largest HDF5 chunk, in bytes, along the trajectory axis: big enough to compress well, small
// enough for HDF5's chunk cache and for readers that take one chunk at a time.
constexpr double kChunkBytes = 1 << 20;
constexpr unsigned kDeflateLevel = 4;

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm parts{};
    gmtime_r(&now, &parts);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
    return text;
}

// A divisor of `capacity` (trajectories per run chunk) whose rows fit kChunkBytes, so that every
// run chunk but the last writes whole HDF5 chunks. Without a divisor near that size (a large
// prime --chunk-size), the largest size that fits: correct, with a partial chunk at each seam.
hsize_t chunk_rows(std::size_t capacity, std::size_t row_bytes) {
    const std::size_t wanted = std::max<std::size_t>(1, static_cast<std::size_t>(kChunkBytes / double(row_bytes)));
    if (capacity <= wanted) return capacity;
    const std::size_t fewest = (capacity + wanted - 1) / wanted;
    for (std::size_t parts = fewest; parts <= 4 * fewest; ++parts)
        if (capacity % parts == 0) return capacity / parts;
    return wanted;
}

hid_t file_real(Precision p) { return p == Precision::float32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE; }
hid_t memory_real(Precision p) { return p == Precision::float32 ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE; }

struct ColumnTypes {
    hid_t file, memory;
    std::size_t bytes;
};

ColumnTypes column_types(ColumnKind kind) {
    switch (kind) {
        case ColumnKind::real32:
            return {H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, 4};
        case ColumnKind::real64:
            return {H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 8};
        case ColumnKind::int64:
            return {H5T_STD_I64LE, H5T_NATIVE_INT64, 8};
        case ColumnKind::status:
            break;
    }
    return {H5T_STD_U8LE, H5T_NATIVE_UINT8, 1};
}

// A chunked, compressed dataset of `rank` dimensions.
Hdf5Id create_dataset(const Hdf5Errors& errors, hid_t parent, const char* name, hid_t type, int rank,
                      const hsize_t* dims, const hsize_t* chunk, const char* what) {
    const Hdf5Id space(errors.check(H5Screate_simple(rank, dims, nullptr), what), H5Sclose);
    const Hdf5Id properties(errors.check(H5Pcreate(H5P_DATASET_CREATE), what), H5Pclose);
    errors.check(H5Pset_chunk(properties.get(), rank, chunk), what);
    errors.check(H5Pset_shuffle(properties.get()), what);
    errors.check(H5Pset_deflate(properties.get(), kDeflateLevel), what);
    return Hdf5Id(
        errors.check(H5Dcreate2(parent, name, type, space.get(), H5P_DEFAULT, properties.get(), H5P_DEFAULT), what),
        H5Dclose);
}

// Writes `count` (rank dims) from contiguous memory at `start` of `dataset`.
void write_block(const Hdf5Errors& errors, hid_t dataset, hid_t memory_type, int rank, const hsize_t* start,
                 const hsize_t* count, const void* data, const char* what) {
    const Hdf5Id file_space(errors.check(H5Dget_space(dataset), what), H5Sclose);
    errors.check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), what);
    const Hdf5Id memory_space(errors.check(H5Screate_simple(rank, count, nullptr), what), H5Sclose);
    errors.check(H5Dwrite(dataset, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data), what);
}

}  // namespace

bool is_hdf5_path(const std::string& path) { return path.size() > 3 && path.ends_with(".h5"); }

Hdf5Sink::Hdf5Sink(const std::string& path, const std::string& shown_path, const RunConfig& config,
                   const ColumnSet& columns, const Hdf5Layout& layout)
    : errors_(shown_path), precision_(config.precision), dim_(layout.components.size()) {
    const std::string start_time = utc_now();
    const Hdf5Id access(errors_.check(H5Pcreate(H5P_FILE_ACCESS), "creating the file"), H5Pclose);
    // The file is our own temporary: a filesystem without locks (NFS) must not stop the run.
    errors_.check(H5Pset_file_locking(access.get(), false, true), "creating the file");
    file_ =
        Hdf5Id(errors_.check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), "creating the file"),
               H5Fclose);

    const Hdf5Attributes root(errors_, file_.get());
    const RunConfig::Description& d = config.description;
    root.text("geomint_version", kGeomintVersion);
    root.text("git_commit", kGeomintGitCommit);
    root.text("command", d.command);
    root.text("scheme", d.scheme);
    root.text("model", d.model);
    root.text("precision", config.precision == Precision::float32 ? "float" : "double");
    root.text("backend", config.backend.backend == Backend::cuda ? "cuda" : "cpu");
    root.text("device", config.backend.description);
    root.text("configuration", d.configuration);
    root.text("start_time", start_time);
    root.integer("steps", config.time.steps);
    root.real("dt", config.time.dt);
    root.integer("save_every", config.save_every);
    // The processes that computed the file: 1 and this host for one process; for a run split
    // across MPI ranks, their count and every rank's host in rank order (a resumed run: those of
    // the run that completed it). With the times, all that differs from the one-process file.
    root.integer("ranks", mpi::size());
    root.texts("hosts", mpi::hosts());

    const hsize_t total = std::max<std::uint64_t>(1, layout.trajectories);
    const std::size_t capacity = std::max<std::size_t>(1, std::min<std::uint64_t>(layout.chunk_capacity, total));
    const Hdf5Id summary(
        errors_.check(H5Gcreate2(file_.get(), "summary", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "creating /summary"),
        H5Gclose);
    std::vector<std::string> names;
    for (const Column& column : columns) {
        const ColumnTypes types = column_types(column.kind);
        const hsize_t chunk = chunk_rows(capacity, types.bytes);
        summary_.push_back(create_dataset(errors_, summary.get(), column.name.c_str(), types.file, 1, &total, &chunk,
                                          "creating /summary"));
        names.push_back(column.name);
        if (column.kind == ColumnKind::status) {
            std::vector<std::string> statuses;
            for (int s = 0; s <= static_cast<int>(SolveStatus::root_not_unique); ++s)
                statuses.push_back(status_name(static_cast<SolveStatus>(s)));
            Hdf5Attributes(errors_, summary_.back().get()).texts("status_names", statuses);
        }
    }
    Hdf5Attributes(errors_, summary.get()).texts("columns", names);

    if (dim_ == 0 || config.save_every <= 0) return;
    saves_ = save_count(config.time.steps, config.save_every);
    const std::size_t real_bytes = config.precision == Precision::float32 ? 4 : 8;
    const hsize_t dims[3] = {static_cast<hsize_t>(saves_), total, dim_};
    const hsize_t chunk[3] = {1, chunk_rows(capacity, real_bytes * dim_), dim_};
    states_ =
        create_dataset(errors_, file_.get(), "states", file_real(config.precision), 3, dims, chunk, "creating /states");
    Hdf5Attributes(errors_, states_.get()).texts("components", layout.components);
    std::vector<std::int64_t> steps(static_cast<std::size_t>(saves_));
    std::vector<double> times(steps.size());
    for (long long s = 0; s < saves_; ++s) {
        steps[s] = save_step(s, config.time.steps, config.save_every);
        times[s] = static_cast<double>(steps[s]) * config.time.dt;
    }
    const hsize_t axis = steps.size();
    const hsize_t origin = 0;
    const Hdf5Id step(create_dataset(errors_, file_.get(), "step", H5T_STD_I64LE, 1, &axis, &axis, "creating /step"));
    write_block(errors_, step.get(), H5T_NATIVE_INT64, 1, &origin, &axis, steps.data(), "writing /step");
    const Hdf5Id time(create_dataset(errors_, file_.get(), "time", H5T_IEEE_F64LE, 1, &axis, &axis, "creating /time"));
    write_block(errors_, time.get(), H5T_NATIVE_DOUBLE, 1, &origin, &axis, times.data(), "writing /time");
}

Hdf5Sink::~Hdf5Sink() {
    // Reached without close() only when the run fails. HDF5 1.10 cannot close a file whose flush
    // failed (a full disk): its exit-time clean-up then crashes. So the identifiers are left to
    // the process's end (the library's atexit clean-up is off: Hdf5Errors), and the temporary is
    // removed by the output file as for any failed run.
    for (Hdf5Id& dataset : summary_) (void)dataset.release();
    (void)states_.release();
    (void)file_.release();
}

void Hdf5Sink::write_chunk(std::uint64_t begin, std::size_t n, const ColumnSet& columns, const void* states) {
    if (n == 0) return;
    const hsize_t start = begin, count = n;
    for (std::size_t c = 0; c < columns.size() && c < summary_.size(); ++c)
        write_block(errors_, summary_[c].get(), column_types(columns[c].kind).memory, 1, &start, &count,
                    columns[c].data, "writing /summary");
    if (states_.get() < 0 || states == nullptr) return;
    const hsize_t block_start[3] = {0, begin, 0};
    const hsize_t block_count[3] = {static_cast<hsize_t>(saves_), n, dim_};
    write_block(errors_, states_.get(), memory_real(precision_), 3, block_start, block_count, states,
                "writing /states");
}

void Hdf5Sink::close() {
    Hdf5Attributes(errors_, file_.get()).text("end_time", utc_now());
    for (Hdf5Id& dataset : summary_) errors_.check(H5Dclose(dataset.release()), "closing /summary");
    summary_.clear();
    if (states_.get() >= 0) errors_.check(H5Dclose(states_.release()), "closing /states");
    // Flushes the chunk caches and metadata: where a full disk shows up last.
    errors_.check(H5Fclose(file_.release()), "closing the file");
}

}  // namespace geomint
