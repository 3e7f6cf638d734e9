#!/usr/bin/python3
"""Registers, stack and spills of geomint's CUDA kernels, read from what ptxas reports (-Xptxas -v).

  kernel_resources.py table < ptxas-output      one line per kernel (tools/kernel-resources.sh), with
                                                its theoretical occupancy on sm_90 (below)
  kernel_resources.py ceilings BUILD_OBJECT_DIR  the kernels above the limits now, as lines of
                                                tests/spin_kernel_ceilings.txt
  kernel_resources.py check BUILD_OBJECT_DIR     the reports the build kept next to its objects
                                                (tools/ptxas-report-launcher.sh); exits 1 when a
                                                double spin kernel exceeds the limits of issue 10
                                                item 3, or the ceiling its name has in --ceilings

The scheme, system and recorder of a kernel are read from its demangled name (cu++filt, or
c++filt where the CUDA toolkit lacks it), so the check follows the registry by itself.

Theoretical occupancy: the share of a multiprocessor's 64 warp slots that the kernel's resident
blocks fill, computed from its registers and its launch's block size by CUDA's occupancy rules for
compute capability 9.0 (H100, H200), as the CUDA occupancy calculator computes it: no kernel here
uses shared memory, so registers alone bound it below the warp and block limits. It is an upper
bound on what a profiler measures (achieved occupancy), not a measurement.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

# Issue 10 item 3: every spin kernel for sm_90 in double fits these.
MAX_REGISTERS = 128
MAX_STACK_BYTES = 512
MAX_SPILL_STORE_BYTES = 0
ARCH = "sm_90"

# Compute capability 9.0, per multiprocessor (CUDA C++ Programming Guide, "Technical
# Specifications per Compute Capability"; the allocation unit is the occupancy calculator's).
SM_REGISTERS = 65536
SM_MAX_WARPS = 64
SM_MAX_BLOCKS = 32
SM_SUB_PARTITIONS = 4  # each holds a quarter of the registers and the warps they serve
BLOCK_MAX_REGISTERS = 65536
THREAD_MAX_REGISTERS = 255
REGISTER_ALLOCATION_UNIT = 256  # registers are given to a warp in multiples of this
WARP = 32

# Threads per block of each kernel family's launch: the spin kernels' one thread per chain
# (kernels/spin_cuda_system.cu and spin_portrait_cuda_system.cu: enqueue_for_each_index(..., 64)),
# their one block per chain at its largest (kernels/spin_chain_layout.hpp, spin_block_threads: a
# warp per 32 parts, 256 parts from 4096 spins on; fewer threads for shorter chains), and the
# pendulum's (for_each_index.cuh's default, 128).
THREADS_PER_BLOCK = {"SpinChainBody": 64, "SpinChainBody/block": 256, "PendulumTrajectoryBody": 128}


def round_up(value, unit):
    return -(-value // unit) * unit


def theoretical_occupancy(registers, threads):
    """(resident blocks per multiprocessor, share of its warp slots) for a kernel of `registers`
    registers a thread launched with `threads` threads a block, without shared memory: the rules of
    the toolkit's cuda_occupancy.h (cudaOccMaxBlocksPerSMRegsLimit), which
    tests/tools/check_theoretical_occupancy.py compares this with. A warp's registers come from one
    sub-partition, so the warps that fit are those of one sub-partition times four, and a block's
    warps are counted in multiples of four against the per-block limit."""
    warps_per_block = -(-threads // WARP)
    registers_per_warp = round_up(registers * WARP, REGISTER_ALLOCATION_UNIT)
    if (registers > THREAD_MAX_REGISTERS or
            registers_per_warp * round_up(warps_per_block, SM_SUB_PARTITIONS) > BLOCK_MAX_REGISTERS):
        return 0, 0.0
    warps_by_registers = (SM_REGISTERS // SM_SUB_PARTITIONS) // registers_per_warp * SM_SUB_PARTITIONS
    blocks = min(SM_MAX_BLOCKS, SM_MAX_WARPS // warps_per_block, warps_by_registers // warps_per_block)
    return blocks, blocks * warps_per_block / SM_MAX_WARPS


def launch_threads(key):
    """Threads per block of the kernel described by `key` (describe), or None when not known."""
    if key is None:
        return None
    return THREADS_PER_BLOCK.get(key[0] + ("/block" if key[4].endswith("/block") else ""))


def demangle(names):
    tool = shutil.which("cu++filt") or shutil.which("/usr/local/cuda/bin/cu++filt") or shutil.which("c++filt")
    if tool is None or not names:
        return dict((n, n) for n in names)
    out = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True, check=True).stdout
    return dict(zip(names, out.splitlines()))


def split_args(text):
    depth, start, parts = 0, 0, []
    for i, c in enumerate(text):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def parse(lines):
    """Rows (mangled name, arch or None, registers or None, stack B, spill store B): one per kernel
    (arch and registers set) and one per non-inlined device function (its own frame and spills)."""
    rows, entry_arch, name, stack, spill = [], {}, None, 0, 0
    for line in lines:
        m = re.search(r"Compiling entry function '(\w+)' for '(\w+)'", line)
        if m:
            entry_arch[m.group(1)] = m.group(2)
            continue
        m = re.search(r"Function properties for (\w+)", line)
        if m:
            name = m.group(1)
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores", line)
        if m and name:
            stack, spill = int(m.group(1)), int(m.group(2))
            if name not in entry_arch:  # a called function: no register line follows
                rows.append((name, None, None, stack, spill))
                name = None
            continue
        m = re.search(r"Used (\d+) registers.*?(\d+) bytes cumulative stack size", line)
        if m and name in entry_arch:
            # The cumulative stack includes the frames of the functions the kernel calls.
            rows.append((name, entry_arch[name], int(m.group(1)), max(stack, int(m.group(2))), spill))
            name = None
    return rows


def describe(rows):
    """Adds (scheme, system, real, recorder) from the demangled names; None for other kernels."""
    names = demangle(sorted(set(r[0] for r in rows)))
    described = []
    for row in rows:
        text = names.get(row[0], row[0]).replace("geomint::spin::", "").replace("geomint::", "")
        body = re.search(r"(PendulumTrajectoryBody|SpinChainBody)<(.*)>\s*>?\(", text)
        key = None
        if body:
            parts = split_args(body.group(2))
            recorder = parts[3].split("<")[0].rstrip("> ").replace("portrait::", "") if len(parts) > 3 else "-"
            if "spin_chain_per_block_kernel" in text:  # the block-per-chain kernel of the same body
                recorder += "/block"
            key = (body.group(1), parts[0], parts[1], parts[2], recorder)
        described.append((key, text) + row[1:])
    return described


def table(_):
    print("%-22s %-34s %-7s %-20s %s" % ("scheme", "system/potential", "real", "recorder",
                                         "resources (ptxas, sm_90); theoretical occupancy (threads a block)"))
    for key, _, _, registers, stack, spill in describe(parse(sys.stdin)):
        if key and registers is not None:
            occupancy = ""
            threads = launch_threads(key)
            if threads:
                blocks, share = theoretical_occupancy(registers, threads)
                occupancy = "  %5.1f%% (%d x %d)" % (100 * share, blocks, threads)
            print("%-22s %-34s %-7s %-20s %4s registers %6s B stack %6s B spill stores%s" %
                  (key[1:] + (registers, stack, spill, occupancy)))
    return 0


def read_ceilings(path):
    """(scheme, system, recorder) -> (registers, stack B, spill store B), from lines
    `scheme system recorder registers stack spills` ('#' starts a comment)."""
    ceilings = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            fields = line.split("#")[0].split()
            if not fields:
                continue
            if len(fields) != 6:
                raise SystemExit("%s:%d: expected 6 fields: scheme system recorder registers stack spills" % (path, number))
            ceilings[tuple(fields[:3])] = tuple(int(x) for x in fields[3:])
    return ceilings


def spin_rows(args):
    """(exit status, rows) of the double spin kernels for ARCH in the reports under args.objects."""
    reports, units = [], 0
    for root, _, files in os.walk(args.objects):
        for f in files:
            if re.search(r"spin(_portrait)?_cuda_system_\d+\.cu\.o$", f):
                units += 1
                if not os.path.exists(os.path.join(root, f + ".ptxas")):
                    print("no ptxas report for %s: was it built through tools/ptxas-report-launcher.sh?" % f)
                    return 1, []
            if f.endswith(".ptxas"):
                reports.append(os.path.join(root, f))
    if units == 0:
        print("no spin kernel objects under %s (build geomint_cuda first)" % args.objects)
        return 1, []
    lines = []
    for path in reports:
        with open(path) as f:
            lines += f.readlines()
    rows = describe(parse(lines))
    if not any(arch == ARCH for _, _, arch, _, _, _ in rows):
        print("no kernel compiled for %s (CMAKE_CUDA_ARCHITECTURES lacks 90): nothing to check" % ARCH)
        return 77, []
    return 0, rows


def kernel_name(key):
    return (key[1], key[2].replace(" ", ""), key[4])


def is_checked(key, arch):
    return key is not None and key[0] == "SpinChainBody" and key[3] == "double" and arch == ARCH


def ceilings_now(args):
    """Prints, in the format of --ceilings, the kernels above the limits and their figures now."""
    status, rows = spin_rows(args)
    if status:
        return status
    limits = (args.max_registers, args.max_stack, args.max_spill_stores)
    print("# scheme system recorder registers stack_bytes spill_store_bytes")
    for key, _, arch, registers, stack, spill in sorted(rows, key=lambda r: str(r[0])):
        if registers is not None and is_checked(key, arch) and any(v > l for v, l in zip((registers, stack, spill), limits)):
            print("%s %s %s %d %d %d" % (kernel_name(key) + (registers, stack, spill)))
    return 0


def check(args):
    status, rows = spin_rows(args)
    if status:
        return status
    ceilings = read_ceilings(args.ceilings) if args.ceilings else {}
    limits = (args.max_registers, args.max_stack, args.max_spill_stores)
    failures, checked, matched = [], 0, set()
    for key, text, arch, registers, stack, spill in rows:
        if registers is None:  # a non-inlined function: its frame counts in its callers' stacks
            if spill > args.max_spill_stores:
                failures.append("%s: %d B spill stores (limit %d)" % (text, spill, args.max_spill_stores))
            continue
        if not is_checked(key, arch):
            continue
        checked += 1
        name = kernel_name(key)
        figures = (registers, stack, spill)
        bound = limits
        if name in ceilings:
            matched.add(name)
            bound = tuple(max(l, c) for l, c in zip(limits, ceilings[name]))
        label = "%s on %s, recorder %s" % name
        over = [
            "%s %d > %d" % (what, value, limit)
            for what, value, limit in zip(("registers", "stack B", "spill store B"), figures, bound)
            if value > limit
        ]
        if over:
            failures.append("%s: %s" % (label, ", ".join(over)))
        elif name in ceilings and all(v <= l for v, l in zip(figures, limits)):
            print("note: %s is now within the limits; remove it from %s" % (label, args.ceilings))
    for name in sorted(set(ceilings) - matched):
        failures.append("ceiling for %s %s %s names no compiled kernel" % name)
    print("%d double spin kernels for %s checked against %d registers, %d B stack, %d B spill stores "
          "(%d held to the ceilings of %s)" % ((checked, ARCH) + limits + (len(matched), args.ceilings or "-")))
    for failure in failures:
        print("FAIL " + failure)
    if checked == 0:
        print("FAIL no double spin kernel found in the reports")
        return 1
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("table").set_defaults(run=table)
    c = sub.add_parser("check")
    c.add_argument("objects", help="folder searched for OBJECT.ptxas reports (the geomint_cuda object folder)")
    c.add_argument("--ceilings", help="kernels still above the limits and the figures they may not exceed")
    c.add_argument("--max-registers", type=int, default=MAX_REGISTERS)
    c.add_argument("--max-stack", type=int, default=MAX_STACK_BYTES)
    c.add_argument("--max-spill-stores", type=int, default=MAX_SPILL_STORE_BYTES)
    c.set_defaults(run=check)
    n = sub.add_parser("ceilings", help="print the kernels above the limits, in the format of --ceilings")
    n.add_argument("objects")
    n.add_argument("--max-registers", type=int, default=MAX_REGISTERS)
    n.add_argument("--max-stack", type=int, default=MAX_STACK_BYTES)
    n.add_argument("--max-spill-stores", type=int, default=MAX_SPILL_STORE_BYTES)
    n.set_defaults(run=ceilings_now)
    args = parser.parse_args()
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
