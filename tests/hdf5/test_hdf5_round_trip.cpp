// HDF5 output read back with the C API: layout, types and attributes, the summary equal to the CSV
// of the same run, and saved states equal to integrate_trajectory run directly to those steps.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <regex>

#include "cli_runner.hpp"
#include "geomint/pendulum/integrate_trajectory.hpp"
#include "geomint/pendulum/newmark.hpp"
#include "geomint/pendulum/potentials.hpp"
#include "hdf5/hdf5_reader.hpp"

namespace {

using geomint_test::Hdf5File;
using geomint_test::read_csv;
using geomint_test::run_geomint;
using geomint_test::ScratchFolder;

// 15 trajectories, chunks of 4 (the last one short), saves at 0, 3, 6, 9 and the final step 10.
const std::string kPendulum =
    "pendulum --scheme newmark --q0 0.1:3.1:5 --p0 -1:1:3 --mass 1.5 --omega 2 --steps 10 --dt 0.1 --backend cpu "
    "--threads 2 --chunk-size 4 --quiet";

TEST(Hdf5Output, PendulumLayoutTypesAndAttributes) {
    ScratchFolder scratch;
    const std::string out = scratch.file("run.h5");
    const auto r = run_geomint(kPendulum + " --save-every 3 --out " + out, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    Hdf5File file(out);
    ASSERT_TRUE(file.ok());
    const std::vector<std::string> columns = {
        "q0", "p0", "mass", "omega", "q", "p", "energy_error", "newton_iterations", "status", "steps_completed"};
    EXPECT_EQ(file.texts("/summary", "columns"), columns);
    for (const std::string& c : columns) EXPECT_EQ(file.shape("/summary/" + c), std::vector<hsize_t>{15}) << c;
    EXPECT_EQ(file.type_name("/summary/q"), "float64");
    EXPECT_EQ(file.type_name("/summary/newton_iterations"), "int64");
    EXPECT_EQ(file.type_name("/summary/steps_completed"), "int64");
    EXPECT_EQ(file.type_name("/summary/status"), "uint8");
    EXPECT_EQ(file.texts("/summary/status", "status_names"),
              (std::vector<std::string>{"ok", "newton_max_iterations", "non_finite", "singular_jacobian",
                                        "root_not_unique"}));
    EXPECT_EQ(file.shape("/states"), (std::vector<hsize_t>{5, 15, 2}));
    EXPECT_EQ(file.type_name("/states"), "float64");
    EXPECT_EQ(file.texts("/states", "components"), (std::vector<std::string>{"q", "p"}));
    EXPECT_EQ(file.integers("/step"), (std::vector<std::int64_t>{0, 3, 6, 9, 10}));
    const std::vector<double> time = file.reals("/time");
    ASSERT_EQ(time.size(), 5u);
    EXPECT_EQ(time[4], 10 * 0.1);

    EXPECT_EQ(file.text("/", "command"), "pendulum");
    EXPECT_EQ(file.text("/", "scheme"), "newmark");
    EXPECT_EQ(file.text("/", "model"), "pendulum");
    EXPECT_EQ(file.text("/", "precision"), "double");
    EXPECT_EQ(file.text("/", "backend"), "cpu");
    EXPECT_EQ(file.text("/", "geomint_version"), "0.1.0");
    EXPECT_FALSE(file.text("/", "git_commit").empty());
    EXPECT_EQ(file.number("steps"), 10);
    EXPECT_EQ(file.number("dt"), 0.1);
    EXPECT_EQ(file.number("save_every"), 3);
    const std::regex iso(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)");
    EXPECT_TRUE(std::regex_match(file.text("/", "start_time"), iso)) << file.text("/", "start_time");
    EXPECT_TRUE(std::regex_match(file.text("/", "end_time"), iso)) << file.text("/", "end_time");
    EXPECT_NE(file.text("/", "configuration").find("save-every = 3"), std::string::npos)
        << file.text("/", "configuration");
}

TEST(Hdf5Output, SummaryEqualsTheCsvOfTheSameRun) {
    ScratchFolder scratch;
    const auto a = run_geomint(kPendulum + " --exact --save-every 4 --out " + scratch.file("run.h5"), scratch);
    const auto b = run_geomint(kPendulum + " --exact --out " + scratch.file("run.csv"), scratch);
    ASSERT_EQ(a.exit_code, 0) << a.error_output;
    ASSERT_EQ(b.exit_code, 0) << b.error_output;
    Hdf5File file(scratch.file("run.h5"));
    const auto rows = read_csv(scratch.file("run.csv"));
    ASSERT_EQ(rows.size(), 16u);
    const std::vector<std::string> columns = file.texts("/summary", "columns");
    ASSERT_EQ(columns, rows[0]);
    const std::vector<std::string> names = file.texts("/summary/status", "status_names");
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const std::string path = "/summary/" + columns[c];
        if (columns[c] == "status") {
            const auto status = file.integers(path);
            for (std::size_t r = 0; r < 15; ++r) EXPECT_EQ(names.at(status[r]), rows[r + 1][c]);
        } else if (file.type_name(path) == "int64") {
            const auto values = file.integers(path);
            for (std::size_t r = 0; r < 15; ++r) EXPECT_EQ(values[r], std::stoll(rows[r + 1][c])) << path;
        } else {
            const auto values = file.reals(path);
            // %.17g round-trips: the CSV text is the same double.
            for (std::size_t r = 0; r < 15; ++r)
                EXPECT_EQ(values[r], std::strtod(rows[r + 1][c].c_str(), nullptr)) << path;
        }
    }
}

TEST(Hdf5Output, SavedStatesEqualDirectIntegrationAndTheFinalSaveTheSummary) {
    ScratchFolder scratch;
    const std::string out = scratch.file("run.h5");
    const auto r = run_geomint(kPendulum + " --save-every 3 --out " + out, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    Hdf5File file(out);
    const auto states = file.reals("/states");
    const auto steps = file.integers("/step");
    const auto q0 = file.reals("/summary/q0"), p0 = file.reals("/summary/p0");
    const auto q = file.reals("/summary/q"), p = file.reals("/summary/p");
    ASSERT_EQ(states.size(), 5u * 15 * 2);
    for (std::size_t t = 0; t < 15; ++t) {
        const geomint::PendulumPotential<double> potential{1.5, 2.0};
        for (std::size_t s = 0; s < steps.size(); ++s) {
            const auto direct =
                geomint::integrate_trajectory(geomint::Newmark{}, potential, q0[t], p0[t], 0.1,
                                              static_cast<long long>(steps[s]), geomint::NewtonOptions<double>{});
            EXPECT_EQ(states[(s * 15 + t) * 2], direct.q) << "trajectory " << t << ", step " << steps[s];
            EXPECT_EQ(states[(s * 15 + t) * 2 + 1], direct.p) << "trajectory " << t << ", step " << steps[s];
        }
        EXPECT_EQ(states[(4 * 15 + t) * 2], q[t]);
        EXPECT_EQ(states[(4 * 15 + t) * 2 + 1], p[t]);
    }
}

TEST(Hdf5Output, AFailedTrajectoryHasNanAfterItsLastCompletedStep) {
    ScratchFolder scratch;
    const std::string out = scratch.file("run.h5");
    // One Newton iteration cannot converge: every trajectory fails in its first step.
    const auto r = run_geomint(kPendulum + " --newton-max-iterations 1 --save-every 5 --out " + out, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    Hdf5File file(out);
    const auto states = file.reals("/states");
    const auto completed = file.integers("/summary/steps_completed");
    const auto q0 = file.reals("/summary/q0");
    ASSERT_EQ(file.shape("/states"), (std::vector<hsize_t>{3, 15, 2}));
    for (std::size_t t = 0; t < 15; ++t) {
        ASSERT_EQ(completed[t], 0);
        EXPECT_EQ(states[t * 2], q0[t]);  // step 0: the initial state
        for (std::size_t s = 1; s < 3; ++s) EXPECT_TRUE(std::isnan(states[(s * 15 + t) * 2])) << "save " << s;
    }
}

TEST(Hdf5Output, SpinStatesHaveThreeComponentsPerSpinInColumnOrder) {
    ScratchFolder scratch;
    const std::string out = scratch.file("spin.h5");
    const auto r = run_geomint(
        "spin --system chain --spins 4 --random 9 --scheme comp2 --steps 7 --dt 0.05 --backend cpu --chunk-size 4 "
        "--quiet --save-every 2 --out " +
            out,
        scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    Hdf5File file(out);
    EXPECT_EQ(file.shape("/states"), (std::vector<hsize_t>{5, 9, 12}));
    EXPECT_EQ(file.integers("/step"), (std::vector<std::int64_t>{0, 2, 4, 6, 7}));
    const auto components = file.texts("/states", "components");
    ASSERT_EQ(components.size(), 12u);
    EXPECT_EQ(components[0], "x1");
    EXPECT_EQ(components[11], "z4");
    const auto states = file.reals("/states");
    for (std::size_t k = 0; k < 12; ++k) {
        const auto final_column = file.reals("/summary/" + components[k]);
        for (std::size_t t = 0; t < 9; ++t) EXPECT_EQ(states[(4 * 9 + t) * 12 + k], final_column[t]);
    }
    EXPECT_EQ(file.text("/", "command"), "spin");
    EXPECT_EQ(file.text("/", "model"), "chain");
}

TEST(Hdf5Output, FloatRunsStoreFloat32) {
    ScratchFolder scratch;
    const std::string out = scratch.file("float.h5");
    const auto r = run_geomint(kPendulum + " --precision float --save-every 5 --out " + out, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    Hdf5File file(out);
    EXPECT_EQ(file.type_name("/summary/q"), "float32");
    EXPECT_EQ(file.type_name("/states"), "float32");
    EXPECT_EQ(file.text("/", "precision"), "float");
}

TEST(Hdf5Output, WithoutSaveEveryThereAreNoStates) {
    ScratchFolder scratch;
    const std::string out = scratch.file("run.h5");
    const auto r = run_geomint(kPendulum + " --out " + out, scratch);
    ASSERT_EQ(r.exit_code, 0) << r.error_output;
    Hdf5File file(out);
    EXPECT_TRUE(file.exists("/summary"));
    EXPECT_FALSE(file.exists("/states"));
    EXPECT_FALSE(file.exists("/step"));
    EXPECT_EQ(file.number("save_every"), 0);
}

}  // namespace
