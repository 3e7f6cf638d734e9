// The CUDA toolkit's own occupancy calculator (cuda_occupancy.h, host code: no GPU needed) for a
// compute capability 9.0 multiprocessor, as the oracle of tools/kernel_resources.py's theoretical
// occupancy (tests/tools/check_theoretical_occupancy.py): one line "registers threads blocks" per
// registers a thread (1-255) and block size, with no shared memory and one block barrier.
#include <cuda_occupancy.h>

#include <cstdio>
#include <initializer_list>

int main() {
    cudaOccDeviceProp h100;  // an H100 SXM's figures; an H200's multiprocessors are the same
    h100.computeMajor = 9;
    h100.computeMinor = 0;
    h100.maxThreadsPerBlock = 1024;
    h100.maxThreadsPerMultiprocessor = 2048;
    h100.regsPerBlock = 65536;
    h100.regsPerMultiprocessor = 65536;
    h100.warpSize = 32;
    h100.sharedMemPerBlock = 48 * 1024;
    h100.sharedMemPerMultiprocessor = 228 * 1024;
    h100.numSms = 132;
    h100.sharedMemPerBlockOptin = 227 * 1024;
    h100.reservedSharedMemPerBlock = 1024;
    const cudaOccDeviceState state;
    for (int threads : {32, 64, 96, 128, 160, 256, 320, 512, 1024}) {
        for (int registers = 1; registers <= 255; ++registers) {
            cudaOccFuncAttributes kernel;
            kernel.maxThreadsPerBlock = 1024;
            kernel.numRegs = registers;
            kernel.sharedSizeBytes = 0;
            kernel.numBlockBarriers = 1;
            cudaOccResult result;
            if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &h100, &kernel, &state, threads, 0) !=
                CUDA_OCC_SUCCESS) {
                std::fprintf(stderr, "cudaOccMaxActiveBlocksPerMultiprocessor failed at %d registers, %d threads\n",
                             registers, threads);
                return 1;
            }
            std::printf("%d %d %d\n", registers, threads, result.activeBlocksPerMultiprocessor);
        }
    }
    return 0;
}
