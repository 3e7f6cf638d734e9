// Element-wise sums on rank 0 (see mpi_sum.hpp).
#include "mpi_sum.hpp"

#include <algorithm>
#include <climits>

#include "mpi_session.hpp"

#if GEOMINT_WITH_MPI
#include <mpi.h>
#endif

namespace geomint::mpi {

void sum_on_rank0([[maybe_unused]] std::span<unsigned long long> values) {
#if GEOMINT_WITH_MPI
    if (!split()) return;
    // In pieces: an MPI count is an int.
    for (std::size_t offset = 0; offset < values.size(); offset += INT_MAX) {
        const int count = static_cast<int>(std::min<std::size_t>(INT_MAX, values.size() - offset));
        unsigned long long* data = values.data() + offset;
        check(MPI_Reduce(rank() == 0 ? MPI_IN_PLACE : data, data, count, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0,
                         MPI_COMM_WORLD),
              "adding the ranks' histograms");
    }
#endif
}

}  // namespace geomint::mpi
