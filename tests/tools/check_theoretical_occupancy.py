#!/usr/bin/python3
"""tools/kernel_resources.py's theoretical occupancy against the CUDA toolkit's own calculator
(tests/tools/occupancy_oracle.cpp, built from cuda_occupancy.h): the resident blocks of every
registers-a-thread count 1-255 at nine block sizes must agree.
  check_theoretical_occupancy.py ORACLE_PROGRAM"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import kernel_resources  # noqa: E402


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
    return 1 if mismatches or not lines else 0


if __name__ == "__main__":
    sys.exit(main())
