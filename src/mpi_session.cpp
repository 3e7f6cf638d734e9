// Joining and leaving the MPI job, and the rank's GPU (see mpi_session.hpp). Without MPI (built
// with GEOMINT_MPI=OFF) every function describes a job of one process.
#include "mpi_session.hpp"

#include "mpi_gpu_choice.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#if GEOMINT_WITH_MPI
#include <mpi.h>
#endif

namespace geomint::mpi {

namespace {

[[maybe_unused]] bool joined = false;  // read only where MPI is built in
bool dismissed = false;
bool started = false;
int job_rank = 0;
int job_size = 1;
std::vector<std::string> job_hosts;  // filled when joining the job (or on first use outside one)

// Open MPI's launcher (mpirun, or a batch system's through PMIx) sets these in every rank.
[[maybe_unused]] bool started_by_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr; }

// One rank per GPU (mpi_gpu_choice.hpp): done by narrowing CUDA_VISIBLE_DEVICES before the CUDA
// runtime starts, so that the backends (which use device 0) need not know about ranks. A node
// without devices gives an empty list: `--backend auto` then runs the rank on the CPU, with a
// notice, and `--backend cuda` refuses. GEOMINT_MPI_GPU=all leaves the list alone.
[[maybe_unused]] void choose_gpu() {
    const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    const char* keep = std::getenv("GEOMINT_MPI_GPU");
    if (local == nullptr || (keep != nullptr && std::string(keep) == "all")) return;
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    const std::string chosen =
        rank_visible_devices(std::atoi(local), visible ? std::optional<std::string>(visible) : std::nullopt,
                             visible ? -1 : node_device_count());
    setenv("CUDA_VISIBLE_DEVICES", chosen.c_str(), 1);
}

}  // namespace

#if GEOMINT_WITH_MPI

void check(int code, const char* what) {
    if (code == MPI_SUCCESS) return;
    char description[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    if (MPI_Error_string(code, description, &length) != MPI_SUCCESS) length = 0;
    throw std::runtime_error(std::string("MPI: ") + what + " failed (" +
                             (length > 0 ? std::string(description, static_cast<std::size_t>(length))
                                         : "error code " + std::to_string(code)) +
                             ")");
}

namespace {

// Joining runs before main() can report errors: a failure there is its one line, and the job ends.
void check_joining(int code, const char* what) {
    try {
        check(code, what);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "geomint: error: joining the MPI job: %s\n", e.what());
        std::fflush(stderr);
        abort_job(1);
    }
}

}  // namespace

Session::Session(int& argc, char**& argv) {
    if (!started_by_mpirun()) return;
    choose_gpu();
    // A failed MPI_Init ends the process in MPI's words: no error handler can be set before it.
    MPI_Init(&argc, &argv);
    joined = true;
    // Errors come back to check() (mpi_session.hpp), where geomint reports them in its own line.
    check_joining(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "setting its error handler");
    check_joining(MPI_Comm_rank(MPI_COMM_WORLD, &job_rank), "asking this process's rank");
    check_joining(MPI_Comm_size(MPI_COMM_WORLD, &job_size), "asking the job's size");
    // Every rank's host, for the messages naming a rank and the output's attributes.
    constexpr int kLength = 256;
    char mine[kLength] = {};
    const std::string name = host();
    std::memcpy(mine, name.data(), std::min<std::size_t>(name.size(), kLength - 1));
    std::vector<char> all(static_cast<std::size_t>(kLength) * job_size);
    check_joining(MPI_Allgather(mine, kLength, MPI_CHAR, all.data(), kLength, MPI_CHAR, MPI_COMM_WORLD),
                  "gathering the ranks' hosts");
    for (int r = 0; r < job_size; ++r) job_hosts.emplace_back(all.data() + static_cast<std::size_t>(r) * kLength);
}

Session::~Session() {
    if (joined) MPI_Finalize();
}

[[noreturn]] void abort_job(int status) {
    if (joined) MPI_Abort(MPI_COMM_WORLD, status);
    std::exit(status);
}

#else

void check(int code, const char* what) {
    if (code != 0)
        throw std::runtime_error(std::string("MPI: ") + what + " failed (error code " + std::to_string(code) + ")");
}

Session::Session(int&, char**&) {}
Session::~Session() = default;
[[noreturn]] void abort_job(int status) { std::exit(status); }

#endif

int rank() { return job_rank; }
int size() { return job_size; }

std::string host() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) return "unknown host";
    return name;
}

const std::vector<std::string>& hosts() {
    if (job_hosts.empty()) job_hosts.push_back(host());
    return job_hosts;
}

void set_workers_dismissed() { dismissed = true; }
bool workers_dismissed() { return dismissed; }
void set_split_run_started() { started = true; }
bool split_run_started() { return started; }

}  // namespace geomint::mpi
