// The registries drive the dispatch: every name of the spin and pendulum registries reaches the
// type of that name, a scheme reaches only the systems it applies to, the declared parameters
// build the system or potential, and anything else is refused.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "pendulum_dispatch.hpp"
#include "registry_lookup.hpp"
#include "spin_dispatch.hpp"
#include "spin_test_support.hpp"

namespace {

namespace gs = geomint::spin;
using geomint::SolveStatus;

TEST(SpinRegistry, NamesInPresentationOrder) {
    const std::vector<std::string> expected = {"avf",
                                               "mp",
                                               "mmp",
                                               "ia",
                                               "sia",
                                               "comp2",
                                               "compsia",
                                               "comp4",
                                               "coll4",
                                               "coll6",
                                               "coll8",
                                               "implicit_midpoint",
                                               "spherical_midpoint"};
    EXPECT_EQ(geomint::registry_names(gs::SpinSchemes{}), expected);
    EXPECT_EQ(geomint::registry_names(gs::SpinSystems{}), (std::vector<std::string>{"top", "chain", "anisotropic"}));
}

// Each index reaches the scheme of its name; on the top every scheme but mmp runs three steps.
TEST(SpinRegistry, EveryIndexReachesItsScheme) {
    const auto names = geomint::registry_names(gs::SpinSchemes{});
    int on_top = 0;
    for (int k = 0; k < static_cast<int>(names.size()); ++k) {
        std::string reached;
        geomint::with_spin_scheme_for<gs::HeisenbergChain<double>>(k, [&](auto s) { reached = decltype(s)::name; });
        EXPECT_EQ(reached, names[k]);
        if (!geomint::spin_scheme_applies(0, k)) {
            EXPECT_EQ(names[k], "mmp");
            EXPECT_THROW(geomint::with_spin_scheme_for<gs::SpinningTop<double>>(k, [](auto) {}), std::invalid_argument);
            continue;
        }
        ++on_top;
        std::vector<double> s = geomint_test::paper_top_start();
        geomint::with_spin_scheme_for<gs::SpinningTop<double>>(k, [&](auto scheme) {
            EXPECT_EQ(geomint_test::run(scheme, gs::SpinningTop<double>{}, 0.1, 3, s).status, SolveStatus::ok);
        });
    }
    EXPECT_EQ(on_top, 12);
    EXPECT_THROW(geomint::with_spin_scheme_for<gs::HeisenbergChain<double>>(13, [](auto) {}), std::invalid_argument);
    EXPECT_THROW(geomint::make_spin_model("chain", "rk4"), std::invalid_argument);
    EXPECT_THROW(geomint::make_spin_model("ring", "avf"), std::invalid_argument);
}

// Declared parameters, in declaration order, build the system the dispatch hands over.
TEST(SpinRegistry, DeclaredParametersBuildTheSystem) {
    geomint::SpinModel model = geomint::make_spin_model("anisotropic", "avf");
    EXPECT_EQ(model.system_parameters, (std::vector<double>{1, 0, 0, 0.3, 0.5}));  // the declared defaults
    model.system_parameters = {2, 0.1, 0.2, 0.3, -0.7};
    geomint::with_spin_system<double>(model, [](const auto& system) {
        if constexpr (std::is_same_v<std::decay_t<decltype(system)>, gs::AnisotropicChain<double>>) {
            EXPECT_EQ(system.exchange, 2);
            EXPECT_EQ(system.field.x, 0.1);
            EXPECT_EQ(system.field.z, 0.3);
            EXPECT_EQ(system.anisotropy, -0.7);
        } else {
            ADD_FAILURE() << "the anisotropic entry built another system";
        }
    });
    model = geomint::make_spin_model("top", "avf");
    model.system_parameters = {2, 4, 8};
    geomint::with_spin_system<double>(model, [](const auto& system) {
        if constexpr (std::is_same_v<std::decay_t<decltype(system)>, gs::SpinningTop<double>>) {
            EXPECT_EQ(system.inv_inertia.x, 0.5);
            EXPECT_EQ(system.inv_inertia.z, 0.125);
        } else {
            ADD_FAILURE() << "the top entry built another system";
        }
    });
}

TEST(PendulumRegistry, NamesAndDeclaredParameters) {
    EXPECT_EQ(geomint::registry_names(geomint::PendulumSchemes{}),
              (std::vector<std::string>{"newmark", "simpson", "verlet", "rkn4"}));
    EXPECT_EQ(geomint::registry_names(geomint::PendulumPotentials{}),
              (std::vector<std::string>{"pendulum", "duffing"}));
    geomint::PendulumModel model = geomint::make_pendulum_model("simpson", "duffing");
    EXPECT_EQ(model.potential_parameters, std::vector<double>{1});  // beta's declared default
    model.potential_parameters = {-0.25};
    int calls = 0;
    geomint::with_pendulum_types<float>(model, [&](auto scheme, auto potential) {
        ++calls;
        EXPECT_STREQ(decltype(scheme)::name, "simpson");
        if constexpr (std::is_same_v<decltype(potential), geomint::DuffingPotential<float>>) {
            EXPECT_EQ(potential.beta, -0.25f);
        } else {
            ADD_FAILURE() << "the duffing entry built another potential";
        }
    });
    EXPECT_EQ(calls, 1);
    model.scheme = 4;  // one past the last scheme
    EXPECT_THROW(geomint::with_pendulum_types<double>(model, [](auto, auto) {}), std::invalid_argument);
}

}  // namespace
