// The registry of one-degree-of-freedom systems: every pendulum scheme and potential geomint
// offers. Names, help text, dispatch, CUDA instantiations and test lists are all generated from
// these two lists: a new scheme or potential is its header plus one line here (CONTRIBUTING.md).
#pragma once

#include "geomint/pendulum/blanes_moan_rkn4.hpp"
#include "geomint/pendulum/newmark.hpp"
#include "geomint/pendulum/potentials.hpp"
#include "geomint/pendulum/simpson.hpp"
#include "geomint/pendulum/stormer_verlet.hpp"
#include "geomint/registry_entry.hpp"
#include "geomint/type_list.hpp"

namespace geomint {

// New entries go last: a scheme's index (bench arguments, dispatch tests) must not move.
using PendulumSchemes = TypeList<Newmark, Simpson, StormerVerlet, BlanesMoanRkn4>;
using PendulumPotentials = TypeList<Entry<PendulumPotential>, Entry<DuffingPotential>>;

}  // namespace geomint
