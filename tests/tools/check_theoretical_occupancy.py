#!/usr/bin/python3
"""tools/kernel_resources.py's theoretical occupancy against the CUDA toolkit's own calculator
(tests/tools/occupancy_oracle.cpp, built from cuda_occupancy.h): the resident blocks of every
registers-a-thread count 1-255 at nine block sizes must agree. And the block sizes the tool assumes
(THREADS_PER_BLOCK) must be the launches' in the sources, so that a changed launch cannot leave the
report's occupancy stale.
  check_theoretical_occupancy.py ORACLE_PROGRAM"""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

sys.path.insert(0, os.path.join(ROOT, "tools"))
import kernel_resources  # noqa: E402


def source(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def launch_mismatches():
    """Where the sources launch a kernel family with another block size than the tool assumes."""
    found = {
        # The spin kernels' one thread per chain: the block size both spin units pass.
        "SpinChainBody": [int(n) for path in ("kernels/spin_cuda_system.cu", "kernels/spin_portrait_cuda_system.cu")
                          for n in re.findall(r"enqueue_for_each_index\([^;]*?,\s*(\d+)\);", source(path), re.S)],
        # One block per chain at its largest: a thread per part, partition_max_parts parts.
        "SpinChainBody/block": [int(n) for n in re.findall(r"partition_max_parts = (\d+);",
                                                           source("include/geomint/spin/partitioned_block_cyclic.hpp"))],
        # The pendulum's launches take for_each_index.cuh's default.
        "PendulumTrajectoryBody": [int(n) for n in re.findall(r"int block_size = (\d+)\)",
                                                              source("kernels/for_each_index.cuh"))],
    }
    problems = []
    for family, sizes in found.items():
        expected = kernel_resources.THREADS_PER_BLOCK[family]
        if not sizes:
            problems.append("%s: no launch block size found in the sources" % family)
        problems += ["%s: launched with %d threads a block, the tool assumes %d" % (family, n, expected)
                     for n in sizes if n != expected]
    return problems


def main():
    lines = subprocess.run([sys.argv[1]], capture_output=True, text=True, check=True).stdout.splitlines()
    mismatches = []
    for line in lines:
        registers, threads, blocks = (int(x) for x in line.split())
        ours, _ = kernel_resources.theoretical_occupancy(registers, threads)
        if ours != blocks:
            mismatches.append("%d registers, %d threads: %d blocks, cuda_occupancy.h %d" % (registers, threads, ours, blocks))
    print("%d cases compared with cuda_occupancy.h, %d different" % (len(lines), len(mismatches)))
    for m in mismatches[:20]:
        print("FAIL " + m)
    launches = launch_mismatches()
    print("launch block sizes: %s" % ("as the tool assumes" if not launches else "%d different" % len(launches)))
    for m in launches:
        print("FAIL " + m)
    return 1 if mismatches or launches or not lines else 0


if __name__ == "__main__":
    sys.exit(main())
