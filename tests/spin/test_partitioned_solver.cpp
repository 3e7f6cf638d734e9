// The partitioned (team-parallel) block cyclic tridiagonal solve against the sequential solver, on
// random well-conditioned systems, for teams of 1 to many OpenMP threads and every number of parts
// up to d/2 (math §3.2); and its failure statuses.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <vector>

#include "geomint/spin/block_cyclic_tridiagonal.hpp"
#include "geomint/spin/partitioned_block_cyclic.hpp"
#include "geomint/spin/team.hpp"
#include "openmp_team.hpp"
#include "spin_test_support.hpp"

namespace {

using geomint::SolveStatus;
using geomint::spin::BlockCyclicTridiagonal;
using geomint::spin::PartitionedBlockCyclic;
using geomint::spin::StridedReals;

// A strictly column diagonally dominant system: blocks with entries in [-1, 1) and 4 B added to the
// diagonal of D_i (a column's other entries, from D_i, A_{i+1} and C_{i-1}, sum to less than
// 3 B). Its condition number is below (4B + 3B) / (4B - 3B) = 7 in the 1-norm, and Gaussian
// elimination in any block order keeps the dominance (no growth), so two elimination orders agree to
// a few ulps times the condition number: the 1e-12 is far above that.
template <int B>
std::vector<double> random_rows(int d, std::uint64_t seed) {
    using Rows = BlockCyclicTridiagonal<B, double>;
    std::vector<double> work(Rows::workspace_reals(d));
    geomint_test::Lcg rng{seed};
    const Rows rows{{work.data(), 1}, d};
    for (int i = 0; i < d; ++i)
        for (int r = 0; r < B; ++r) {
            for (int c = 0; c < B; ++c) {
                rows.lower(i, r, c) = rng.next();
                rows.diag(i, r, c) = rng.next() + (r == c ? 4.0 * B : 0.0);
                rows.upper(i, r, c) = rng.next();
            }
            rows.rhs(i, r) = rng.next();
        }
    return work;
}

// Solves `work` (d rows) with `parts` parts on a team of `workers` OpenMP threads; returns the
// status every worker saw (they must agree).
template <int B>
SolveStatus partitioned_solve(std::vector<double>& work, int d, int parts, int workers) {
    using Solver = PartitionedBlockCyclic<B, double>;
    std::vector<double> scratch(Solver::scratch_reals(parts));
    std::vector<int> seen(static_cast<std::size_t>(workers), -1);
    const Solver solver{{{work.data(), 1}, d}, parts, {scratch.data(), 1}};
#pragma omp parallel num_threads(workers)
    {
        const geomint::OpenMpTeam<double> team{omp_get_thread_num(), omp_get_num_threads(), {scratch.data(), 1}};
        seen[static_cast<std::size_t>(team.rank())] = static_cast<int>(solver.solve(team));
    }
    for (int w = 1; w < workers; ++w) EXPECT_EQ(seen[w], seen[0]) << "worker " << w;
    return static_cast<SolveStatus>(seen[0]);
}

template <int B>
void check_against_sequential(int d, const std::vector<int>& part_counts, const std::vector<int>& team_sizes) {
    using Rows = BlockCyclicTridiagonal<B, double>;
    std::vector<double> reference = random_rows<B>(d, 1000 + d);
    ASSERT_EQ((Rows{{reference.data(), 1}, d}.solve()), SolveStatus::ok);
    double scale = 0;
    for (int i = 0; i < d; ++i)
        for (int r = 0; r < B; ++r) scale = std::fmax(scale, std::fabs(Rows{{reference.data(), 1}, d}.solution(i, r)));
    for (int parts : part_counts) {
        if (parts < 1 || (parts > d / 2 && parts != 1)) continue;  // 1 .. d/2 parts
        std::vector<double> first;
        for (int workers : team_sizes) {
            SCOPED_TRACE(testing::Message() << "B " << B << " d " << d << " parts " << parts << " workers " << workers);
            std::vector<double> work = random_rows<B>(d, 1000 + d);
            ASSERT_EQ(partitioned_solve<B>(work, d, parts, workers), SolveStatus::ok);
            const Rows rows{{work.data(), 1}, d};
            const Rows ref{{reference.data(), 1}, d};
            double worst = 0;
            std::vector<double> x;
            for (int i = 0; i < d; ++i)
                for (int r = 0; r < B; ++r) {
                    worst = std::fmax(worst, std::fabs(rows.solution(i, r) - ref.solution(i, r)));
                    x.push_back(rows.solution(i, r));
                }
            EXPECT_LE(worst, 1e-12 * scale);
            // The same bits whatever the team size: the parts, not the workers, fix the arithmetic.
            if (first.empty())
                first = x;
            else
                EXPECT_EQ(x, first);
        }
    }
}

TEST(PartitionedSolver, MatchesTheSequentialSolverBlock3) {
    for (int d : {1, 2, 3, 4, 5, 7, 8, 33, 100, 1000, 4099})
        check_against_sequential<3>(d, {1, 2, 3, 5, d / 3, d / 2 - 1, d / 2, geomint::spin::partition_parts(d)},
                                    {1, 2, 3, 8});
}

// A collocation-sized block (coll4 has B = 6).
TEST(PartitionedSolver, MatchesTheSequentialSolverBlock6) {
    for (int d : {1, 2, 4, 9, 64, 515})
        check_against_sequential<6>(d, {1, 2, 3, d / 2, geomint::spin::partition_parts(d)}, {1, 3, 4});
}

// More workers than parts (some idle) and parts of exactly two rows (no interior).
TEST(PartitionedSolver, MoreWorkersThanPartsAndTwoRowParts) {
    check_against_sequential<3>(12, {2, 6}, {7, 16});
    check_against_sequential<3>(13, {6}, {5});
}

TEST(PartitionedSolver, PartCountIsAFunctionOfTheLengthOnly) {
    EXPECT_EQ(geomint::spin::partition_parts(1), 1);
    EXPECT_EQ(geomint::spin::partition_parts(2 * geomint::spin::partition_min_rows - 1), 1);
    EXPECT_EQ(geomint::spin::partition_parts(2 * geomint::spin::partition_min_rows), 2);
    EXPECT_EQ(geomint::spin::partition_parts(100000), geomint::spin::partition_max_parts);
    for (int d = 1; d < 5000; d += 7) EXPECT_LE(geomint::spin::partition_parts(d), std::max(1, d / 2));
}

// A zero block row makes the matrix singular: reported as singular_jacobian whether the row is in
// a part's interior (its pivot block) or one of its ends (the reduced system's), as the sequential
// solver reports it. A NaN in the right-hand side is non_finite.
TEST(PartitionedSolver, ReportsSingularAndNonFiniteSystems) {
    using Rows = BlockCyclicTridiagonal<3, double>;
    const int d = 64, parts = 4;  // parts of 16 rows: rows 0, 15, 16, ... are ends
    for (int zero_row : {0, 5, 15, 16, 40, 63}) {
        SCOPED_TRACE(zero_row);
        std::vector<double> work = random_rows<3>(d, 7);
        const Rows rows{{work.data(), 1}, d};
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c)
                rows.lower(zero_row, r, c) = rows.diag(zero_row, r, c) = rows.upper(zero_row, r, c) = 0;
        std::vector<double> sequential = work;
        EXPECT_EQ((Rows{{sequential.data(), 1}, d}.solve()), SolveStatus::singular_jacobian);
        EXPECT_EQ(partitioned_solve<3>(work, d, parts, 3), SolveStatus::singular_jacobian);
    }
    for (int nan_row : {0, 7, 31}) {
        SCOPED_TRACE(nan_row);
        std::vector<double> work = random_rows<3>(d, 7);
        Rows{{work.data(), 1}, d}.rhs(nan_row, 1) = std::numeric_limits<double>::quiet_NaN();
        EXPECT_EQ(partitioned_solve<3>(work, d, parts, 2), SolveStatus::non_finite);
    }
}

}  // namespace
