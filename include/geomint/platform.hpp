// Marker for code that runs unchanged on the host and in CUDA kernels.
// Headers under include/geomint/ use it instead of including any CUDA header.
#pragma once

#if defined(__CUDACC__)
#define GEOMINT_HD __host__ __device__
#else
#define GEOMINT_HD
#endif
