// Sums across the ranks of a split run, on rank 0: how a phase portrait split across ranks becomes
// one (its counts and energy sums are integer sums, so the order of the additions cannot matter).
#pragma once

#include <span>

namespace geomint::mpi {

// Rank 0's `values` become the element-wise sum of every rank's; the others' are left as they
// are. Collective: every rank of the job calls it with the same length. Outside a job: nothing.
void sum_on_rank0(std::span<unsigned long long> values);

}  // namespace geomint::mpi
