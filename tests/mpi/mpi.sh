#!/usr/bin/env bash
# Runs split across MPI ranks (issue 11, src/mpi_chunk_loop.hpp) against the one-process run of
# the same sweep file, over Open MPI's TCP transport on loopback, as root where CI runs so:
#
#   mpi.sh CASE GEOMINT [PROGRAM]     (CTest runs every case: tests/mpi/CMakeLists.txt)
#
# equal_csv, equal_hdf5: -np 1, 2, 3 give the one-process output, CSV byte for byte (cmp), HDF5
#   dataset for dataset and attribute for attribute but the times, `ranks` and `hosts`
#   (same_hdf5.py), with and without saved states, and those two name the run's ranks and hosts;
#   one summary line, from rank 0, naming the ranks and the chunks each computed.
# kill_rank: SIGKILL to rank 1 mid-run ends the run within a bounded time, with rank 0's line
#   naming the ranks, hosts and chunks in flight (and mpirun's naming the dead rank), no output
#   under the final name; --resume (with 2 ranks) completes it, equal to the uninterrupted run.
#   SIGPIPE to rank 0 does the same (with 3 ranks): it is what ends rank 0 when it writes to a
#   rank that died before mpirun's SIGTERM came (Open MPI's TCP transport writes without
#   MSG_NOSIGNAL; seen with mpirun stopped while rank 1 was killed, and under load).
# resume_ranks: runs killed mid-way, resumed with another rank count (3 -> 2, 2 -> 1 without
#   mpirun, 1 -> 3), equal the uninterrupted run.
# refusals: bad usage under mpirun is one error line and exit status 2; a refused output ends every
#   rank with rank 0's one line, in moments.
# portraits: the image and the counts file of 2 and 3 ranks are the one-process ones, byte for byte
#   (counts dataset by dataset), density and energy colouring, pendulum and spin.
# dynamic_assignment: of two workers, the one the scheduler slows down (pinned to the other's core,
#   at nice 19) computes fewer chunks, as rank 0's summary counts them: chunks go to whoever asks.
# progress: progress lines (a log's, every few seconds) and the summary come from rank 0 only
#   (mpirun --tag-output names each line's rank), shaped as a one-process run's; quiet = true
#   silences every rank, their CPU fallback notices under backend = "auto" too.
# mismatched_ranks: ranks given other options (dt, scheme) or an --init file of other contents are
#   refused at the start with one line naming the rank and what differs, writing nothing (other
#   threads or quiet are accepted, the output the one-process one); a rank
#   that cannot read its sweep file leaves no journal to block the next plain run.
# errors_return: PROGRAM (mpi_errors_return.cpp) under -np 1: a failed MPI call comes back to
#   mpi::check, which names it and MPI's reason in one line, instead of aborting the process.
# Exit 77 (skipped) without mpirun, h5py or taskset.
set -uo pipefail

case_name="$1"
geomint="$(realpath "$2")"
here="$(cd "$(dirname "$0")" && pwd)"
command -v mpirun >/dev/null || { echo "SKIP: no mpirun (Debian: openmpi-bin)"; exit 77; }
work="$(mktemp -d "${TMPDIR:-/tmp}/geomint-mpi-XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
host="$(hostname)"

# Loopback TCP between ranks, as on a cluster; root allowed (CI); 3 ranks on 2 cores.
# When a rank dies, mpirun sends the others SIGTERM and, odls_base_sigkill_timeout seconds later
# (default 1), SIGKILL. On a loaded machine one second can pass before rank 0 has written its
# "chunks in flight" line (kill_rank lost it in 3 of 11 runs beside three busy loops, and in none
# of 16 with 10 s), so these runs give the grace the README advises for loaded nodes.
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl self,tcp --mca btl_tcp_if_include lo
  --mca oob_tcp_if_include lo --mca odls_base_sigkill_timeout 10)

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# A sweep file NAME.toml writing OUT, with the given extra lines.
sweep() {
  local name="$1" out="$2"
  shift 2
  {
    echo 'command = "pendulum"'
    echo 'scheme = "newmark"'
    echo 'backend = "cpu"'
    echo 'threads = 1'
    echo "out = \"$out\""
    printf '%s\n' "$@"
  } >"$name.toml"
}

# same OUTPUT REFERENCE WHAT: equal bytes (CSV) or datasets and attributes (HDF5).
same() {
  if [[ "$1" == *.h5 ]]; then
    /usr/bin/python3 "$here/same_hdf5.py" "$1" "$2" >compare.txt || fail "$3: $(cat compare.txt)"
  else
    cmp -s "$1" "$2" || fail "$3: $1 differs from $2"
  fi
}

# has_ranks FILE.h5 R: the root attributes `ranks` = R and `hosts` = R times this host.
has_ranks() {
  /usr/bin/python3 - "$1" "$2" "$host" <<'PY' || fail "$1: ranks and hosts are not those of $2 ranks on $host"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    ranks, hosts = int(f.attrs["ranks"]), [str(h) for h in f.attrs["hosts"]]
want = int(sys.argv[2])
if ranks != want or hosts != [sys.argv[3]] * want:
    print(f"{sys.argv[1]}: ranks = {ranks}, hosts = {hosts}")
    sys.exit(1)
PY
}

# The chunks per rank of rank 0's summary line in FILE, space-separated (empty without one).
chunks_per_rank() {
  sed -n 's/.* MPI ranks, chunks per rank: \([0-9, ]*\):.*/\1/p' "$1" | tr -d ','
}

# Trajectories the journal of OUT counts as done (0 while there is none).
completed() {
  sed -n 's/^completed = \([0-9]*\)$/\1/p' "$1.geomint-journal" 2>/dev/null | head -1 | grep . || echo 0
}

# The pid of rank R among the children of mpirun MPIRUN_PID (empty while not started).
rank_pid() {
  local p
  for p in $(pgrep -P "$1"); do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2" && echo "$p"
  done
}

# Waits (at most 60 s) for the process PID to end; its exit status, or "hang".
wait_bounded() {
  local pid="$1" deadline=$((SECONDS + 60))
  while kill -0 "$pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid"
    wait "$pid" 2>/dev/null
    echo hang
  else
    wait "$pid"
    echo $?
  fi
}

# kill_at RANKS TOML OUT DONE [RANK [SIGNAL]]: runs TOML on RANKS ranks (1: without mpirun), waits
# until the journal of OUT counts DONE trajectories and sends SIGNAL (default KILL) to rank RANK
# (default 0, the whole run with RANKS = 1). Sets `status` to the run's exit status, stderr in
# kill.err.
kill_at() {
  local ranks="$1" toml="$2" out="$3" done="$4" victim_rank="${5:-0}" signal="${6:-KILL}" pid victim=""
  local deadline=$((SECONDS + 120))
  if [ "$ranks" -eq 1 ]; then
    "$geomint" run "$toml" 2>kill.err &
  else
    "${mpi[@]}" -np "$ranks" "$geomint" run "$toml" 2>kill.err &
  fi
  pid=$!
  while [ "$(completed "$out")" -lt "$done" ] && [ $SECONDS -lt $deadline ]; do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.02
  done
  if [ "$ranks" -eq 1 ]; then victim=$pid; else victim="$(rank_pid "$pid" "$victim_rank")"; fi
  if [ -z "$victim" ] || [ "$(completed "$out")" -lt "$done" ]; then
    fail "$toml on $ranks ranks ended or stalled before $done trajectories: make it longer"
    wait "$pid"
    status=0
    return
  fi
  kill -s "$signal" "$victim"
  status="$(wait_bounded "$pid")"
  [ -e "$out" ] && fail "$toml: killed on $ranks ranks, yet '$out' exists"
  [ -e "$out.geomint-journal" ] || fail "$toml: killed on $ranks ranks, no journal left for --resume"
}

# resume RANKS TOML: continues TOML's run on RANKS ranks.
resume() {
  if [ "$1" -eq 1 ]; then
    "$geomint" run "$2" --resume 2>resume.err || fail "$2: --resume without mpirun failed: $(cat resume.err)"
  else
    "${mpi[@]}" -np "$1" "$geomint" run "$2" --resume 2>resume.err || fail "$2: --resume on $1 ranks failed: $(cat resume.err)"
  fi
}

# Long enough to kill mid-way (about 3 s on one core): 30 chunks of 50.
# Long enough that a kill lands mid-run with chunks held by every rank (the SIMD lanes do about
# 40 M steps/s per core here).
long_lines=('q0 = "-2:2:1500"' 'p0 = "0.1"' 'steps = 200000' 'dt = 0.001' 'chunk-size = 50')

case "$case_name" in
  equal_csv | equal_hdf5)
    if [ "$case_name" = equal_csv ]; then
      sweep a run.csv 'random = 2000' 'q0 = "-3:3"' 'p0 = "-1:1"' 'seed = 11' 'steps = 300' 'dt = 0.05' 'chunk-size = 70'
      sweep b spin.csv 'random = 90' 'seed = 3' 'steps = 200' 'dt = 0.05' 'chunk-size = 4'
      sed -i 's/"pendulum"/"spin"/; s/newmark/comp2/; $a system = "chain"\nspins = 8' b.toml
      runs=(a:run.csv b:spin.csv)
    else
      sweep a run.h5 'random = 2000' 'q0 = "-3:3"' 'p0 = "-1:1"' 'seed = 11' 'steps = 300' 'dt = 0.05' \
        'chunk-size = 70' 'save-every = 70'
      sweep b plain.h5 'q0 = "-3:3:40"' 'p0 = "-1:1:30"' 'steps = 200' 'dt = 0.05' 'chunk-size = 64' \
        'precision = "float"'
      sweep c top.h5 'random = 60' 'seed = 5' 'steps = 700' 'dt = 0.01' 'chunk-size = 3' 'save-every = 100'
      sed -i 's/"pendulum"/"spin"/; s/newmark/sia/; $a system = "top"' c.toml
      runs=(a:run.h5 b:plain.h5 c:top.h5)
    fi
    for run in "${runs[@]}"; do
      toml="${run%%:*}.toml" out="${run#*:}"
      "$geomint" run "$toml" 2>/dev/null || fail "$toml: the one-process run failed"
      [[ "$out" == *.h5 ]] && has_ranks "$out" 1
      mv "$out" "reference-$out"
      for ranks in 1 2 3; do
        "${mpi[@]}" -np "$ranks" "$geomint" run "$toml" 2>run.err || fail "$toml on $ranks ranks failed: $(cat run.err)"
        same "$out" "reference-$out" "$toml on $ranks ranks"
        [[ "$out" == *.h5 ]] && has_ranks "$out" "$ranks"
        # Progress and the summary come from rank 0 only: one line, which names the ranks.
        lines="$(grep -c '^geomint: .*trajectories in' run.err)"
        [ "$lines" -eq 1 ] || fail "$toml on $ranks ranks: $lines summary lines: $(cat run.err)"
        if [ "$ranks" -gt 1 ]; then
          grep -Eq "x $ranks MPI ranks, chunks per rank: [1-9]" run.err ||
            fail "$toml on $ranks ranks: the summary does not show the split: $(cat run.err)"
        fi
        ls | grep -q geomint- && fail "$toml on $ranks ranks left $(ls | grep geomint-)"
        rm -f "$out"
      done
    done
    ;;
  kill_rank)
    sweep long long.csv "${long_lines[@]}"
    "$geomint" run long.toml 2>/dev/null || fail "the uninterrupted run failed"
    mv long.csv reference.csv
    kill_at 3 long.toml long.csv 300 1
    [ "$status" = hang ] && fail "killing rank 1 left the run hanging for 60 s"
    [ "$status" != hang ] && [ "$status" -ne 0 ] || fail "killing rank 1: exit status $status, expected non-zero"
    # mpirun names the killed rank; or, when rank 0 wrote to it before mpirun's SIGTERM came,
    # rank 0, ended by SIGPIPE, and rank 0's own line says signal 13.
    grep -q "mpirun noticed that process rank 1 .* on node .* exited on signal 9" kill.err ||
      { grep -q "mpirun noticed that process rank 0 .* on node .* exited on signal 13" kill.err &&
        grep -q "^geomint: error: stopped by signal 13;" kill.err; } ||
      fail "no line names the killed rank: $(cat kill.err)"
    grep -Eq "^geomint: error: stopped by signal [0-9]+; chunks in flight .*rank 1 on $host: trajectories \[[0-9]+, [0-9]+\)" kill.err ||
      fail "rank 0 does not name rank 1's host and chunks: $(cat kill.err)"
    resume 2 long.toml
    same long.csv reference.csv "killed rank 1 of 3, resumed on 2 ranks"
    rm -f long.csv
    kill_at 3 long.toml long.csv 300 0 PIPE
    [ "$status" = hang ] && fail "SIGPIPE to rank 0 left the run hanging for 60 s"
    [ "$status" != hang ] && [ "$status" -ne 0 ] || fail "SIGPIPE to rank 0: exit status $status, expected non-zero"
    grep -Eq "^geomint: error: stopped by signal 13; chunks in flight .*rank [12] on $host: trajectories \[[0-9]+, [0-9]+\)" kill.err ||
      fail "after SIGPIPE, rank 0 does not name the workers' hosts and chunks: $(cat kill.err)"
    resume 3 long.toml
    same long.csv reference.csv "SIGPIPE to rank 0 of 3, resumed on 3 ranks"
    ;;
  resume_ranks)
    sweep long long.csv "${long_lines[@]}"
    "$geomint" run long.toml 2>/dev/null || fail "the uninterrupted run failed"
    mv long.csv reference.csv
    for plan in 3:2 2:1 1:3; do
      kill_at "${plan%%:*}" long.toml long.csv 300
      resume "${plan#*:}" long.toml
      same long.csv reference.csv "killed on ${plan%%:*} ranks, resumed on ${plan#*:}"
      rm -f long.csv
    done
    sweep saved saved.h5 "${long_lines[@]}" 'save-every = 4000'
    "$geomint" run saved.toml 2>/dev/null || fail "the uninterrupted HDF5 run failed"
    mv saved.h5 reference.h5
    kill_at 2 saved.toml saved.h5 300
    resume 3 saved.toml
    same saved.h5 reference.h5 "HDF5 with saves killed on 2 ranks, resumed on 3"
    ;;
  refusals)
    "${mpi[@]}" -np 2 "$geomint" pendulum --steps 0 --out x.csv 2>usage.err
    status=$?
    [ "$status" -eq 2 ] || fail "bad usage on 2 ranks: exit status $status, expected 2"
    lines="$(grep -c '^geomint: error:' usage.err)"
    [ "$lines" -eq 1 ] || fail "bad usage on 2 ranks: $lines error lines: $(cat usage.err)"
    mkdir taken.csv
    SECONDS=0
    "${mpi[@]}" -np 3 "$geomint" pendulum --q0 0:1:100 --steps 10 --dt 0.1 --out taken.csv 2>taken.err
    status=$?
    [ "$status" -eq 2 ] || fail "a refused output on 3 ranks: exit status $status, expected 2: $(cat taken.err)"
    [ "$(grep -c '^geomint: error: --out' taken.err)" -eq 1 ] || fail "a refused output: $(cat taken.err)"
    [ $SECONDS -lt 30 ] || fail "a refused output took $SECONDS s to end every rank"
    ;;
  portraits)
    # Counts are sums: the ranks' histograms added on rank 0 give the one-process image (and counts
    # file), density and energy colouring, pendulum and spin.
    portraits=(
      "pendulum --random 3000 --seed 2 --q0=-3:3 --p0=-2:2 --steps 300 --dt 0.05 --chunk-size 100 --width 64 --height 48"
      "pendulum --q0=-3:3:50 --p0=-2:2:40 --steps 200 --dt 0.05 --chunk-size 90 --width 80 --height 60 --colour energy"
      "spin --system top --random 200 --seed 4 --steps 300 --dt 0.02 --chunk-size 16 --width 64 --colour energy")
    for k in "${!portraits[@]}"; do
      for out in p.png p.h5; do
        arguments="portrait ${portraits[$k]} --backend cpu --threads 1 --out $out"
        "$geomint" $arguments 2>/dev/null || fail "portrait $k: the one-process run failed"
        mv "$out" "reference-$out"
        for ranks in 2 3; do
          "${mpi[@]}" -np "$ranks" "$geomint" $arguments 2>run.err || fail "portrait $k on $ranks ranks: $(cat run.err)"
          same "$out" "reference-$out" "portrait $k ($out) on $ranks ranks"
          grep -Eq "x $ranks MPI ranks, chunks per rank: [1-9]" run.err ||
            fail "portrait $k on $ranks ranks: the summary does not show the split: $(cat run.err)"
          rm -f "$out"
        done
      done
    done
    ;;
  dynamic_assignment)
    command -v taskset >/dev/null || { echo "SKIP: no taskset (util-linux)"; exit 77; }
    # Ranks 1 and 2 share one core, rank 1 at nice 19: under Linux's fair scheduler it gets 15/1039
    # of the core while rank 2 computes (weights 15 and 1024), so it computes far slower than rank
    # 2 whatever else runs on the machine. Chunks go to the rank that returns one, so rank 2 must
    # compute more than rank 1; a static round-robin split gives them counts within one of each
    # other. (Rank 0 also computes when idle: it is not compared.)
    core="$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')"  # the first core this test may use
    sweep d d.csv 'q0 = "-2:2:3000"' 'p0 = "0.1"' 'steps = 20000' 'dt = 0.001' 'chunk-size = 100'
    "$geomint" run d.toml 2>/dev/null || fail "the one-process run failed"
    mv d.csv reference.csv
    "${mpi[@]}" -np 1 "$geomint" run d.toml : -np 1 taskset -c "$core" nice -n 19 "$geomint" run d.toml \
      : -np 1 taskset -c "$core" "$geomint" run d.toml 2>run.err || fail "the run with a slow rank 1 failed: $(cat run.err)"
    same d.csv reference.csv "the run with a slow rank 1"
    read -r c0 c1 c2 <<<"$(chunks_per_rank run.err)"
    echo "chunks per rank: $c0 (rank 0), $c1 (rank 1, slowed), $c2 (rank 2)"
    [ -n "$c2" ] || fail "no chunk counts in rank 0's summary: $(cat run.err)"
    [ -n "$c2" ] && [ "$c2" -gt $((c1 + 1)) ] ||
      fail "the slowed rank 1 computed $c1 chunks, the fast rank 2 $c2: not more than round-robin would give"
    ;;
  progress)
    # A run of more than one progress interval (RunReporter::kProgressInterval, 5 s) on 3 ranks,
    # every line tagged with its rank by mpirun: only rank 0 writes, and its lines have the shape
    # of the one-process run's: progress lines "geomint: computed D/T trajectories ..." (T the
    # whole run, D growing), at most one per interval of the run's time, then the summary. The
    # ensemble doubles until the run lasts 6 s, however fast or busy the machine.
    total=600
    for _ in 1 2 3 4 5; do
      sweep p p.csv "q0 = \"-2:2:$total\"" 'p0 = "0.1"' 'steps = 200000' 'dt = 0.001' 'chunk-size = 50'
      rm -f p.csv
      "${mpi[@]}" --tag-output -np 3 "$geomint" run p.toml 2>tagged.err ||
        fail "the run on 3 ranks failed: $(cat tagged.err)"
      seconds="$(sed -n "s/.*geomint: $total trajectories in \([0-9]*\)\.[0-9]* s on .*/\1/p" tagged.err)"
      [ "${seconds:-0}" -ge 6 ] && break
      total=$((total * 2))
    done
    "$geomint" run p.toml 2>one.err || fail "the one-process run failed: $(cat one.err)"
    others="$(grep -v '^\[[0-9]*,0\]<stderr>:' tagged.err)"
    [ -z "$others" ] || fail "lines not from rank 0: $others"
    sed 's/^\[[0-9]*,0\]<stderr>://' tagged.err >three.err
    for log in one.err three.err; do
      progress="$(grep -c '^geomint: computed ' "$log")"
      seconds="$(sed -n "s/^geomint: $total trajectories in \([0-9]*\)\.[0-9]* s on .*/\1/p" "$log")"
      [ -n "$seconds" ] || { fail "$log: no summary line: $(cat "$log")"; continue; }
      [ "$(grep -vc "^geomint: computed [0-9]*/$total trajectories " "$log")" -eq 1 ] ||
        fail "$log: lines other than progress and one summary: $(cat "$log")"
      [ "$progress" -ge 1 ] || fail "$log: no progress line in a run of $seconds s"
      [ "$progress" -le $((seconds / 5)) ] || fail "$log: $progress progress lines in $seconds s, more than one per 5 s"
      sed -n 's|^geomint: computed \([0-9]*\)/.*|\1|p' "$log" | sort -c -n -u ||
        fail "$log: the progress does not grow: $(cat "$log")"
      tail -1 "$log" | grep -q "^geomint: $total trajectories in " || fail "$log: the summary is not the last line"
    done
    sed -i '$a quiet = true' p.toml
    "${mpi[@]}" --tag-output -np 3 "$geomint" run p.toml 2>quiet.err || fail "the quiet run failed: $(cat quiet.err)"
    [ -s quiet.err ] && fail "quiet = true on 3 ranks wrote: $(cat quiet.err)"
    # backend = "auto": in a build with CUDA on a machine without a GPU, each rank would say that
    # it falls back to the CPU; quiet silences that too.
    sed -i 's/^backend = "cpu"$/backend = "auto"/' p.toml
    "${mpi[@]}" --tag-output -np 3 "$geomint" run p.toml 2>quiet.err || fail "the quiet auto run failed: $(cat quiet.err)"
    [ -s quiet.err ] && fail "quiet = true with backend auto on 3 ranks wrote: $(cat quiet.err)"
    ;;
  mismatched_ranks)
    # Ranks given different configurations (options, or contents of an input file) are refused at
    # the start with one line naming the rank and what differs; nothing is written.
    sweep a out.csv 'q0 = "0.1:3:1000"' 'steps = 100' 'dt = 0.1' 'chunk-size = 100'
    sed 's/^dt = 0.1$/dt = 0.2/' a.toml >b.toml
    sed 's/^scheme = "newmark"$/scheme = "simpson"/' a.toml >c.toml
    check_refused() {
      local what="$1" text="$2" status lines
      status="$3"
      [ "$status" -eq 2 ] || fail "$what: exit status $status, expected 2: $(cat mismatch.err)"
      lines="$(grep -c '^geomint: error:' mismatch.err)"
      [ "$lines" -eq 1 ] || fail "$what: $lines error lines: $(cat mismatch.err)"
      grep -qF "$text" mismatch.err || fail "$what: no '$text' in: $(cat mismatch.err)"
      [ -z "$(ls out.csv* 2>/dev/null)" ] || fail "$what: left $(ls out.csv*)"
    }
    # Threads and quietness may differ: they do not change the output.
    sed -e 's/^threads = 1$/threads = 2/' -e '$a quiet = true' a.toml >quiet.toml
    "$geomint" run a.toml 2>run.err && mv out.csv reference.csv || fail "the one-process run failed: $(cat run.err)"
    "${mpi[@]}" -np 1 "$geomint" run a.toml : -np 1 "$geomint" run quiet.toml 2>run.err ||
      fail "ranks differing in threads and quiet were refused: $(cat run.err)"
    same out.csv reference.csv "ranks differing in threads and quiet"
    rm -f out.csv reference.csv
    "${mpi[@]}" -np 1 "$geomint" run a.toml : -np 1 "$geomint" run b.toml 2>mismatch.err
    check_refused "dt" "rank 1 on $host: runs another configuration than rank 0: dt is 0.1 on rank 0, 0.2 on rank 1" $?
    "${mpi[@]}" -np 2 "$geomint" run a.toml : -np 1 "$geomint" run c.toml 2>mismatch.err
    check_refused "scheme" "rank 2 on $host: runs another configuration than rank 0: scheme is newmark on rank 0, simpson on rank 2" $?
    # The same --init name, other contents (each rank in its own folder).
    mkdir one two
    echo "1,0,0,0,1,0,0,0,1" >one/init.csv
    echo "0,1,0,0,0,1,1,0,0" >two/init.csv
    spin=(spin --system chain --init init.csv --steps 5 --dt 0.1 --backend cpu --out "$work/out.csv")
    "${mpi[@]}" -np 1 -wdir one "$geomint" "${spin[@]}" : -np 1 -wdir two "$geomint" "${spin[@]}" 2>mismatch.err
    check_refused "--init" "the contents of the --init file 'init.csv' differ between rank 0 and rank 1" $?
    # A rank that cannot read its sweep file: the job ends, leaving no journal to block the next run.
    "${mpi[@]}" -np 1 "$geomint" run a.toml : -np 1 "$geomint" run missing.toml 2>mismatch.err
    check_refused "a missing sweep file" "missing.toml" $?
    "$geomint" run a.toml 2>run.err || fail "a plain run after the refused job failed: $(cat run.err)"
    [ "$(wc -l <out.csv)" -eq 1001 ] || fail "the plain run after the refused job wrote $(wc -l <out.csv) lines"
    ;;
  errors_return)
    "${mpi[@]}" -np 1 "$3" || fail "the MPI error checks failed (above)"
    ;;
  *)
    echo "unknown case '$case_name'"
    exit 2
    ;;
esac

if [ "$failures" -gt 0 ]; then
  echo "mpi $case_name: $failures failure(s)"
  exit 1
fi
echo "mpi $case_name: passed"
