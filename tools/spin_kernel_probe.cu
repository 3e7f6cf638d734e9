// One plain double spin kernel, for reading its resources quickly while working on it
// (tools/kernel-resources.sh --system I --scheme J): scheme J of the registry on system I.
// Not part of the build.
#include "for_each_index.cuh"
#include "spin_body.hpp"
#include "spin_dispatch.hpp"

namespace geomint {

using ProbeSystem = typename TypeAt<GEOMINT_PROBE_SYSTEM, spin::SpinSystems>::type::template type<double>;
using ProbeScheme = typename TypeAt<GEOMINT_PROBE_SCHEME, spin::SpinSchemes>::type;
static_assert(spin::scheme_applies<ProbeScheme, ProbeSystem>(), "this scheme does not apply to this system");
using ProbeBody = SpinChainBody<ProbeScheme, ProbeSystem, double>;
template __global__ void for_each_index_kernel<ProbeBody>(ProbeBody, std::size_t);

}  // namespace geomint
