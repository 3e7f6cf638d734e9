// A float spin run's HDF5 output: the spins, energy_error, norm_error and saved states stored as
// float32, the counts as int64, the exact-wave distance as float64, and the summary equal to the
// CSV of the same run.
#include <gtest/gtest.h>

#include <string>

#include "cli_runner.hpp"
#include "hdf5/hdf5_reader.hpp"

namespace {

using geomint_test::Hdf5File;
using geomint_test::read_csv;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

TEST(Hdf5Output, FloatSpinRunsStoreFloat32) {
    ScratchFolder scratch;
    const std::string run =
        "spin --system chain --spins 4 --wave 0.9 --exact --scheme sia --steps 9 --dt 0.05 "
        "--precision float --backend cpu --quiet";
    const std::string h5 = scratch.file("float.h5"), csv = scratch.file("float.csv");
    auto r = run_geomint(run + " --save-every 4 --out " + h5, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    r = run_geomint(run + " --out " + csv, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    Hdf5File file(h5);
    ASSERT_TRUE(file.ok());
    EXPECT_EQ(file.text("/", "precision"), "float");
    for (const char* column : {"x1", "z4", "energy_error", "norm_error"})
        EXPECT_EQ(file.type_name(std::string("/summary/") + column), "float32") << column;
    EXPECT_EQ(file.type_name("/summary/newton_iterations"), "int64");
    EXPECT_EQ(file.type_name("/summary/steps_completed"), "int64");
    EXPECT_EQ(file.type_name("/summary/status"), "uint8");
    EXPECT_EQ(file.type_name("/summary/error"), "float64");  // computed in double from the float state
    EXPECT_EQ(file.type_name("/states"), "float32");
    // The summary is the CSV's row (CSV: %.17g of each float, which reads back to it exactly).
    const auto rows = read_csv(csv);
    ASSERT_EQ(rows.size(), 2u);
    const auto columns = file.texts("/summary", "columns");
    ASSERT_EQ(columns, rows[0]);
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (columns[c] == "status") continue;  // codes in HDF5, words in the CSV
        EXPECT_EQ(file.reals("/summary/" + columns[c])[0], std::stod(rows[1][c])) << columns[c];
    }
    // The last save is the final state.
    const auto states = file.reals("/states");
    ASSERT_EQ(states.size(), 4u * 12);  // steps 0, 4, 8, 9
    for (std::size_t k = 0; k < 12; ++k) EXPECT_EQ(states[3 * 12 + k], std::stod(rows[1][k])) << k;
}

}  // namespace
