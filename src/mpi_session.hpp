// The process's place in an MPI job (issue 11): main() starts a Session, which joins the job when
// geomint was started by mpirun and was built with MPI; otherwise (and with one rank) the process
// is the whole run, exactly as without MPI. Which rank computes what is in mpi_chunk_loop.hpp.
#pragma once

#include <string>
#include <vector>

namespace geomint::mpi {

// Joins the MPI job (MPI_Init) when Open MPI's launcher started this process; leaves it
// (MPI_Finalize) when destroyed, unless the job was aborted. Before joining, points the CUDA
// runtime at the GPU of the node-local rank (one rank per GPU), see mpi_session.cpp.
class Session {
public:
    Session(int& argc, char**& argv);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
};

// This process's rank and the job's size (0 and 1 outside a job).
int rank();
int size();
// True in a job of two ranks or more: the run is split.
inline bool split() { return size() > 1; }
// This process's host name (for messages naming a rank).
std::string host();
// Every rank's host name, in rank order (gathered when the Session joins the job): for the
// messages naming a rank and the HDF5 output's `hosts` attribute. Outside a job: {host()}.
const std::vector<std::string>& hosts();

// Throws std::runtime_error "MPI: <what> failed (<MPI's description of code>)" unless `code` is
// success (0). A joined job returns MPI's errors to their callers (MPI_ERRORS_RETURN) instead of
// aborting in Open MPI's words, so every MPI call is checked by this: main() then prints the one
// line of a runtime failure (a worker's names its rank and host) and ends the job (abort_job).
void check(int code, const char* what);

// Ends the whole job now with `status` (MPI_Abort; mpirun stops every rank). Outside a job: exit.
[[noreturn]] void abort_job(int status);

// Set by rank 0 once the workers know how the run ends (told to give up before it began, or to
// stop after the last chunk): from then on an error of rank 0 ends it normally; before, only
// aborting the job (abort_job) frees workers that wait for rank 0.
void set_workers_dismissed();
bool workers_dismissed();
// Set on every rank when a run split across ranks begins (run_ensemble); run_pipeline refuses to
// run a split job that did not begin so (a portrait, which is not split yet).
void set_split_run_started();
bool split_run_started();

// A worker's way out when rank 0 told it that the run ended before it began (rank 0 reports why):
// main() exits with `status`, printing nothing.
struct QuietExit {
    int status;
};

}  // namespace geomint::mpi
