// Joining and leaving the MPI job, and the rank's GPU (see mpi_session.hpp). Without MPI (built
// with GEOMINT_MPI=OFF) every function describes a job of one process.
#include "mpi_session.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#if GEOMINT_WITH_MPI
#include <mpi.h>
#endif

namespace geomint::mpi {

namespace {

bool joined = false;
bool dismissed = false;
bool started = false;
int job_rank = 0;
int job_size = 1;

// Open MPI's launcher (mpirun, or a batch system's through PMIx) sets these in every rank.
[[maybe_unused]] bool started_by_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr; }

// One rank per GPU: the node-local rank k uses the k-th visible device. Done by narrowing
// CUDA_VISIBLE_DEVICES before the CUDA runtime starts, so that the backends (which use device 0)
// need not know about ranks. A rank past the node's device list gets an empty list: `--backend
// auto` then runs it on the CPU, `--backend cuda` refuses. GEOMINT_MPI_GPU=all leaves the list alone.
[[maybe_unused]] void choose_gpu() {
    const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    const char* keep = std::getenv("GEOMINT_MPI_GPU");
    if (local == nullptr || (keep != nullptr && std::string(keep) == "all")) return;
    const int index = std::atoi(local);
    std::vector<std::string> devices;
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
        std::string list = visible, item;
        for (const char c : list + ",") {
            if (c == ',') {
                if (!item.empty()) devices.push_back(item);
                item.clear();
            } else {
                item += c;
            }
        }
    } else {
        for (int k = 0; k <= index; ++k) devices.push_back(std::to_string(k));  // unknown count: ask for k
    }
    const std::string chosen = index < static_cast<int>(devices.size()) ? devices[index] : "";
    setenv("CUDA_VISIBLE_DEVICES", chosen.c_str(), 1);
}

}  // namespace

#if GEOMINT_WITH_MPI

Session::Session(int& argc, char**& argv) {
    if (!started_by_mpirun()) return;
    choose_gpu();
    MPI_Init(&argc, &argv);
    joined = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &job_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &job_size);
}

Session::~Session() {
    if (joined) MPI_Finalize();
}

[[noreturn]] void abort_job(int status) {
    if (joined) MPI_Abort(MPI_COMM_WORLD, status);
    std::exit(status);
}

#else

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

void set_workers_dismissed() { dismissed = true; }
bool workers_dismissed() { return dismissed; }
void set_split_run_started() { started = true; }
bool split_run_started() { return started; }

}  // namespace geomint::mpi
