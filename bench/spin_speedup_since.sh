#!/usr/bin/env bash
# Issue 10, item 2, measured directly: bench/bench_spin_schemes.cpp compiled against an earlier
# commit's library (default 7529d6a, the last commit before issue 10's work) and against this
# tree's build, the two binaries run in alternation, ROUNDS times each, on one thread of the same
# machine (rates per CPU-second of that thread). Prints each case's median rate for both, the
# speed-up, both Newton iteration counts per step, and each scheme's cost per step against the
# implicit midpoint rule in this tree.
#
#   bash bench/spin_speedup_since.sh [--build DIR] [--rev REV] [--rounds N] [--work DIR] [--report-only]
#
# --build: this tree's configured build (default build/; bench_spin_schemes is built there).
# --work:  where REV is checked out and built on the CPU alone (default: a temporary folder,
#          removed at the end; a folder given here is kept and reused).
# --report-only: print the table again from the runs kept in --work, without building or running.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build rev=7529d6a rounds=5 work="" report_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build | --rev | --rounds | --work)
      [ $# -ge 2 ] || { echo "spin_speedup_since.sh: $1 needs a value" >&2; exit 2; } ;;&
    --build) build="$2"; shift 2 ;;
    --rev) rev="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --report-only) report_only=1; shift ;;
    *) echo "spin_speedup_since.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "spin_speedup_since.sh: --rounds must be a positive integer, not '$rounds'" >&2; exit 2; }
git rev-parse --verify -q "$rev^{commit}" >/dev/null || { echo "spin_speedup_since.sh: --rev '$rev' is not a commit here" >&2; exit 2; }

if [ "$report_only" = 1 ] && [ ! -f "$work/now-$rounds.json" ]; then
  echo "spin_speedup_since.sh: --report-only needs --work with the runs of an earlier call (no '$work/now-$rounds.json')" >&2
  exit 2
fi
keep_work=1
if [ -z "$work" ]; then
  work=$(mktemp -d)
  keep_work=0
fi
cleanup() {
  if [ "$keep_work" = 0 ]; then
    git worktree remove --force "$work/src" >/dev/null 2>&1 || true
    rm -rf "$work"
  fi
}
trap cleanup EXIT

# The earlier commit, with this tree's benchmark source dropped into its bench/ (its CMake builds
# every bench_*.cpp there), built without CUDA (only the CPU backend is measured); then the
# two binaries in alternation.
measure() {
  if [ ! -d "$work/src" ]; then
    git worktree add --detach -f "$work/src" "$rev" >/dev/null
  fi
  cp bench/bench_spin_schemes.cpp "$work/src/bench/"
  cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGEOMINT_CUDA=OFF \
    -DGEOMINT_BUILD_TESTS=OFF ${GEOMINT_CMAKE_ARGS:-} >/dev/null
  cmake --build "$work/build" --target bench_spin_schemes >/dev/null
  cmake --build "$build" --target bench_spin_schemes >/dev/null

  then_binary="$work/build/bench/bench_spin_schemes"
  now_binary="$build/bench/bench_spin_schemes"
  for round in $(seq 1 "$rounds"); do
    # Alternate which binary goes first, so that a drift of the machine's speed falls on both.
    if [ $((round % 2)) = 1 ]; then order="then now"; else order="now then"; fi
    for which in $order; do
      binary=then_binary
      [ "$which" = now ] && binary=now_binary
      OMP_NUM_THREADS=1 "${!binary}" --benchmark_out="$work/$which-$round.json" --benchmark_out_format=json >/dev/null
    done
    echo "spin_speedup_since.sh: round $round of $rounds done" >&2
  done
}
[ "$report_only" = 1 ] || measure

python3 - "$work" "$rounds" "$rev" <<'EOF'
import json, statistics, sys
work, rounds, rev = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def load(which):
    cases = {}
    for r in range(1, rounds + 1):
        with open(f"{work}/{which}-{r}.json") as f:
            for b in json.load(f)["benchmarks"]:
                c = cases.setdefault(b["label"], {"rate": [], "newton": [], "failed": 0, "checksum": b["checksum"]})
                c["rate"].append(b["chain_steps_per_s"])
                c["newton"].append(b["newton_per_step"])
                c["failed"] = max(c["failed"], b["failed_chains"])
    return cases

then, now = load("then"), load("now")
print(f"medians of {rounds} alternating rounds, one thread; rates in chain-steps per CPU-second (a top is a chain of one spin); "
      f"'then' = {rev}, 'now' = this tree")
print("| scheme | system | then | now | speed-up | range over rounds | Newton/step then | now | now / implicit midpoint (range) |")
print("|---|---|---|---|---|---|---|---|---|")
for label, c in now.items():
    scheme, system = label.split(" ")
    rate_now = statistics.median(c["rate"])
    # The cost of a step against the implicit midpoint rule's on the same system and d, and the
    # range of each round's own ratio (both cases ran in the same process).
    im = now[f"implicit_midpoint {system}"]["rate"]
    cost = statistics.median(im) / rate_now
    costs = [b / a for a, b in zip(c["rate"], im)]
    cost_text = f"{cost:.2f}x ({min(costs):.2f}-{max(costs):.2f}x)"
    t = then.get(label)
    failed = c["failed"] + (t["failed"] if t else 0)
    note = f" {int(failed)} chains failed" if failed else ""
    # Both ran the same steps from the same spins: their final states agree to the solves' tolerance.
    if t and abs(t["checksum"] - c["checksum"]) > 1e-9 * abs(c["checksum"]):
        note += f" final states differ: checksums {t['checksum']:.12g} and {c['checksum']:.12g}"
    name = "top" if system == "top" else "chain " + system.replace("=", " = ")
    if t:
        rate_then = statistics.median(t["rate"])
        # Each round's own ratio (the two binaries ran back to back): how far the machine moved it.
        paired = [n / o for n, o in zip(c["rate"], t["rate"])]
        print(f"| {scheme} | {name} | {rate_then:.4g} | {rate_now:.4g} | {rate_now / rate_then:.2f}x | "
              f"{min(paired):.2f}-{max(paired):.2f}x | "
              f"{statistics.median(t['newton']):.2f} | {statistics.median(c['newton']):.2f} | {cost_text} |{note}")
    else:
        print(f"| {scheme} | {name} | not run | {rate_now:.4g} | | | | {statistics.median(c['newton']):.2f} | {cost_text} |{note}")
EOF
