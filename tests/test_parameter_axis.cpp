// Parsing of VALUE and START:STOP:COUNT and the row order of the Cartesian product.
#include <gtest/gtest.h>

#include "number_parsing.hpp"
#include "parameter_axis.hpp"
#include "time_grid.hpp"
#include "usage_error.hpp"

namespace {

using geomint::parse_parameter_axis;
using geomint::UsageError;

TEST(ParameterAxis, SingleValueAndRange) {
    const auto single = parse_parameter_axis("2.5", "--q0");
    EXPECT_EQ(single.count, 1u);
    EXPECT_EQ(single.value(0), 2.5);
    const auto range = parse_parameter_axis("0:1:5", "--q0");
    EXPECT_EQ(range.count, 5u);
    EXPECT_EQ(range.value(0), 0.0);
    EXPECT_EQ(range.value(2), 0.5);
    EXPECT_EQ(range.value(4), 1.0);
    EXPECT_EQ(parse_parameter_axis("-3:0.1:7", "--q0").value(6), 0.1);  // last is exactly STOP
}

TEST(ParameterAxis, MalformedTextNamesTheOption) {
    for (const char* bad : {"", "abc", "1:2", "1:2:3:4", "1:2:0", "1:2:-3", "1:x:3", "nan", "inf", "1e400", "1.5.2",
                            "1:2:2.5", "2:3:1"}) {
        try {
            parse_parameter_axis(bad, "--p0");
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const UsageError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("--p0", 0), 0u) << e.what();
        }
    }
}

TEST(ParameterGrid, LastAxisVariesFastest) {
    geomint::ParameterGrid grid({parse_parameter_axis("1:2:2", "a"), parse_parameter_axis("10:30:3", "b")}, "size");
    ASSERT_EQ(grid.size(), 6u);
    EXPECT_EQ(grid.value(0, 0), 1.0);
    EXPECT_EQ(grid.value(0, 1), 10.0);
    EXPECT_EQ(grid.value(1, 1), 20.0);
    EXPECT_EQ(grid.value(3, 0), 2.0);
    EXPECT_EQ(grid.value(3, 1), 10.0);
    EXPECT_EQ(grid.value(5, 1), 30.0);
}

TEST(ParameterGrid, SizeThatCannotFitIsAnError) {
    const auto huge = parse_parameter_axis("0:1:4294967296", "--q0");  // 2^32
    EXPECT_THROW(geomint::ParameterGrid({huge, huge, huge}, "--q0"), UsageError);
}

TEST(TimeGrid, StepsWithDtOrTEnd) {
    EXPECT_EQ(geomint::parse_time_grid("10", "0.5", "").dt, 0.5);
    EXPECT_EQ(geomint::parse_time_grid("4", "", "2").dt, 0.5);
    EXPECT_THROW(geomint::parse_time_grid("4", "1", "2"), UsageError);
    EXPECT_THROW(geomint::parse_time_grid("4", "", ""), UsageError);
    EXPECT_THROW(geomint::parse_time_grid("", "1", ""), UsageError);
    EXPECT_THROW(geomint::parse_time_grid("0", "1", ""), UsageError);
    EXPECT_THROW(geomint::parse_time_grid("3.5", "1", ""), UsageError);
    EXPECT_THROW(geomint::parse_time_grid("5", "-1", ""), UsageError);
    EXPECT_THROW(geomint::parse_time_grid("5", "", "0"), UsageError);
}

TEST(NumberParsing, RealLists) {
    EXPECT_EQ(geomint::parse_real_list("1,2,3", 3, "--s0"), (std::vector<double>{1, 2, 3}));
    EXPECT_THROW(geomint::parse_real_list("1,2", 3, "--s0"), UsageError);
    EXPECT_THROW(geomint::parse_real_list("1,,3", 3, "--s0"), UsageError);
    EXPECT_THROW(geomint::parse_real_list("1,2,nan", 3, "--s0"), UsageError);
}

}  // namespace
