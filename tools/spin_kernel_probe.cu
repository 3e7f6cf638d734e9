// One double spin kernel, for reading its resources quickly while working on it
// (tools/kernel-resources.sh --system I --scheme J [--block] [--save | --portrait]): scheme J of the
// registry on system I, one thread per chain, or with GEOMINT_PROBE_BLOCK one thread block per
// chain; plain, or with GEOMINT_PROBE_SAVE the kernel that saves states, or with
// GEOMINT_PROBE_PORTRAIT the one that records a portrait. Not part of the build.
#include "cuda_block_team.cuh"
#include "for_each_index.cuh"
#include "spin_portrait_cuda_launch.cuh"
#include "save_recorder.hpp"
#include "spin_body.hpp"
#include "spin_dispatch.hpp"

namespace geomint {

using ProbeSystem = typename TypeAt<GEOMINT_PROBE_SYSTEM, spin::SpinSystems>::type::template type<double>;
using ProbeScheme = typename TypeAt<GEOMINT_PROBE_SCHEME, spin::SpinSchemes>::type;
static_assert(spin::scheme_applies<ProbeScheme, ProbeSystem>(), "this scheme does not apply to this system");
#if defined(GEOMINT_PROBE_SAVE)
using ProbeBody = SpinChainBody<ProbeScheme, ProbeSystem, double, SaveRecorder<double>>;
#elif defined(GEOMINT_PROBE_PORTRAIT)
using ProbeBody = SpinChainBody<ProbeScheme, ProbeSystem, double, SpinPortraitDeviceRecorder>;
#else
using ProbeBody = SpinChainBody<ProbeScheme, ProbeSystem, double>;
#endif
#if defined(GEOMINT_PROBE_BLOCK)
template __global__ void spin_chain_per_block_kernel<ProbeBody>(ProbeBody, double*, std::size_t);
#else
template __global__ void for_each_index_kernel<ProbeBody>(ProbeBody, std::size_t);
#endif

}  // namespace geomint
