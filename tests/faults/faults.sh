#!/usr/bin/env bash
# Fault injection for the output promise of issue 7 ("Reliability"): a run either completes and
# says so, or fails with one line "geomint: error: ...", a non-zero status, no file under the
# final name (or the previous file there intact) and no temporary file left behind.
#
#   faults.sh CASE GEOMINT FAULT_SHIM      (CTest runs every case: tests/faults/CMakeLists.txt)
#
# FAULT_SHIM is the LD_PRELOAD library built from fault_shim.c. A case whose facility is missing
# (mount namespaces, root) prints "SKIP: why" and exits 77, which CTest reports as skipped.
# GEOMINT_FAULT_SEED fixes the random signal moments (default 7; the seed is printed).
# shellcheck disable=SC2086,SC2046  # geomint's argument lists are split on spaces on purpose
set -uo pipefail

case_name="$1"
geomint="$(realpath "$2")"
shim="$(realpath "$3")"
seed="${GEOMINT_FAULT_SEED:-7}"
work="$(mktemp -d "${TMPDIR:-/tmp}/geomint-faults-XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
ulimit -c 0  # SIGQUIT and SIGXCPU dump core by default: no core files in the folders checked

# A sanitizer build cannot run under a small `ulimit -v`, and wants its runtime first.
sanitized=0
if grep -qaE '__(asan|tsan|msan)_init' "$geomint"; then sanitized=1; fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
skip() {
  echo "SKIP: $*"
  exit 77
}

# Whether two HDF5 outputs hold the same datasets (the root's attributes differ in their times only).
same_datasets() {
  local object
  for object in /summary /states /step /time; do
    h5diff -q "$1" "$2" "$object" "$object" >/dev/null 2>&1 || return 1
  done
}

# After a run stopped by a signal: its journal and partial file (kept for --resume) are the only
# new names; `--resume` then completes the output, equal to REFERENCE, and leaves only the output.
# resume_after_signal WHAT OUTPUT REFERENCE ARGS...; sets `resumed` to a word for the log.
resume_after_signal() {
  local what="$1" output="$2" reference="$3"
  shift 3
  resumed="no journal"
  [ -e "$output.geomint-journal" ] || return 0
  "$geomint" "$@" --resume --out "$output" 2>err_resume
  local status=$?
  [ "$status" -eq 0 ] || { fail "$what: --resume failed with status $status: $(cat err_resume)"; return; }
  if [ "${output%.h5}" != "$output" ]; then
    same_datasets "$reference" "$output" || fail "$what: the resumed output's datasets differ from the reference"
  else
    cmp -s "$output" "$reference" || fail "$what: the resumed output differs from the reference"
  fi
  [ ! -e "$output.geomint-journal" ] && [ ! -e "$output.geomint-partial" ] || fail "$what: --resume left its journal"
  resumed="resumed"
}

# A pendulum ensemble with 20 chunks, so writes are spread over the run. Rows: 1000 * COUNT.
ensemble_args() { echo "pendulum --q0 0.1:3.1:$1 --p0 -1:1:1000 --steps 200 --dt 0.01 --backend cpu --threads 2 --chunk-size $((50 * $1))"; }
small_args="$(ensemble_args 10) --quiet" # 10000 rows, 1.2 MB

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Runs geomint with the shim and the given GEOMINT_FAULT_* settings: run_shim 'VAR=x ...' ARGS...
run_shim() {
  local settings="$1"
  shift
  # shellcheck disable=SC2086  # the settings are NAME=VALUE words
  env $settings GEOMINT_FAULT_REPORT="$work/report" LD_PRELOAD="$shim" "$geomint" "$@"
}

# The folder holds exactly the names given (sorted), nothing else: no temporary, no new file.
expect_entries() {
  local folder="$1" what="$2"
  shift 2
  local actual expected
  actual="$(ls -A "$folder" | sort | tr '\n' ' ')"
  expected="$(printf '%s\n' "$@" | sed '/^$/d' | sort | tr '\n' ' ')"
  [ "$actual" = "$expected" ] || fail "$what: folder holds [$actual], expected [$expected]"
}

# Exit status STATUS, and standard error (in FILE) one line "geomint: error: ..." containing TEXT.
expect_clean_failure() {
  local status="$1" expected_status="$2" error_file="$3" text="$4" what="$5"
  [ "$status" -eq "$expected_status" ] || fail "$what: exit status $status, expected $expected_status"
  local lines
  lines="$(wc -l <"$error_file")"
  [ "$lines" -eq 1 ] || fail "$what: $lines lines on standard error, expected 1: $(cat "$error_file")"
  grep -q "^geomint: error: .*$text" "$error_file" || fail "$what: no 'geomint: error: ...$text' in: $(cat "$error_file")"
}

reference() {
  [ -f "$work/reference.csv" ] && return
  "$geomint" $small_args --out "$work/reference.csv" || { echo "FAIL: the reference run failed"; exit 1; }
}

old_content="previous results, to be kept intact"

# Whether this process may mount a tmpfs in a mount namespace of its own (root may).
have_mount_namespace() {
  mkdir -p "$work/probe"
  unshare -m bash -c "mount -t tmpfs -o size=64k tmpfs '$work/probe'" 2>/dev/null
}

case "$case_name" in

full_disk)  # a real full filesystem: a 256 KiB tmpfs, 1.2 MB of output
  have_mount_namespace || skip "no mount namespace (unshare -m; mount -t tmpfs) here: needs root"
  mkdir disk
  cat >full_disk_inner.sh <<EOF
set -u
mount -t tmpfs -o size=256k tmpfs '$work/disk' || exit 99
cd '$work'
'$geomint' $small_args --out disk/new.csv 2>err_new; echo \$? >status_new
ls -A disk >entries_new
echo '$old_content' >disk/old.csv
'$geomint' $small_args --out disk/old.csv 2>err_old; echo \$? >status_old
ls -A disk >entries_old
cp disk/old.csv old_after.csv
# Space given back: a smaller output fits now, so the failed runs left nothing allocated.
'$geomint' pendulum --q0 0.1:3.1:1000 --steps 10 --dt 0.01 --backend cpu --quiet --out disk/fits.csv 2>err_fits
echo \$? >status_fits
EOF
  unshare -m bash full_disk_inner.sh || fail "the tmpfs could not be mounted"
  expect_clean_failure "$(cat status_new)" 1 err_new "writing 'disk/new.csv[.a-z-]*' failed: No space left on device" "full disk, new file"
  [ -s entries_new ] && fail "full disk, new file: left behind: $(cat entries_new)"
  expect_clean_failure "$(cat status_old)" 1 err_old "No space left on device" "full disk, existing file"
  [ "$(cat entries_old)" = "old.csv" ] || fail "full disk, existing file: folder holds $(cat entries_old | tr '\n' ' ')"
  [ "$(cat old_after.csv)" = "$old_content" ] || fail "full disk: the previous file was changed"
  [ "$(cat status_fits)" -eq 0 ] || fail "full disk: a small run afterwards failed: $(cat err_fits)"
  ;;

write_errors)  # write() failing after N bytes, for N from 0 to one short of the whole output
  reference
  size="$(stat -c %s reference.csv)"
  mkdir out
  echo "$old_content" >out/result.csv
  for limit in 0 1 100 4096 65536 1048576 $((size - 1)); do
    for errno_name in ENOSPC EIO EDQUOT; do
      run_shim "GEOMINT_FAULT_WRITE_LIMIT=$limit GEOMINT_FAULT_ERRNO=$errno_name" $small_args --out out/result.csv 2>err
      status=$?
      grep -q "failed=[1-9]" report || fail "limit $limit: the shim injected no failure ($(cat report))"
      # The first failed write ends the run: nothing is written after it (nor computed, at 0).
      [ "$limit" -ne 0 ] || grep -q "^writes=1 " report || fail "limit 0: writes went on after the first failure ($(cat report))"
      case "$errno_name" in ENOSPC) text="No space left on device" ;; EIO) text="Input/output error" ;; *) text="Disk quota exceeded" ;; esac
      expect_clean_failure "$status" 1 err "writing 'out/result.csv[.a-z-]*' failed: $text" "write limit $limit, $errno_name"
      expect_entries out "write limit $limit, $errno_name" result.csv
      [ "$(cat out/result.csv)" = "$old_content" ] || fail "write limit $limit: the previous file was changed"
    done
  done
  # The same, to a new file, with the run's own end as the limit (the bytes a complete run writes:
  # the output, the journal and its partial file): one byte short fails, the exact count
  # succeeds (so the limit is where the test says it is).
  rm out/result.csv
  run_shim "" $small_args --out out/new.csv 2>err || fail "a run under the shim without faults failed: $(cat err)"
  written="$(sed -n 's/^writes=[0-9]* bytes=\([0-9]*\) .*/\1/p' report)"
  [ "$written" -ge "$size" ] || fail "the shim counted $written bytes written, less than the output's $size"
  rm out/new.csv
  run_shim "GEOMINT_FAULT_WRITE_LIMIT=$((written - 1))" $small_args --out out/new.csv 2>err
  expect_clean_failure $? 1 err "No space left on device" "one byte short, new file"
  expect_entries out "one byte short, new file"
  run_shim "GEOMINT_FAULT_WRITE_LIMIT=$written" $small_args --out out/new.csv 2>err
  [ $? -eq 0 ] || fail "a limit of exactly the run's bytes failed: $(cat err)"
  cmp -s out/new.csv reference.csv || fail "a limit of exactly the run's bytes: output differs"
  rm out/new.csv
  # fsync and close errors at commit, with and without O_TMPFILE.
  for tmpfile in 0 1; do
    for fault in FSYNC CLOSE; do
      run_shim "GEOMINT_FAULT_NO_TMPFILE=$tmpfile GEOMINT_FAULT_$fault=EIO" $small_args --out out/new.csv 2>err
      status=$?
      grep -qi "${fault}_failed=[1-9]" report || fail "$fault error: the shim injected none ($(cat report))"
      expect_clean_failure "$status" 1 err "writing 'out/new.csv[.a-z-]*' failed: Input/output error" "$fault error (no O_TMPFILE: $tmpfile)"
      expect_entries out "$fault error (no O_TMPFILE: $tmpfile)"
    done
  done
  ;;

fill_then_free)  # write() fails for a few calls, then succeeds again: the run must still fail
  reference
  mkdir out
  echo "$old_content" >out/result.csv
  for window in 1:1 2:1 2:3 5:1 9:2 19:1; do
    for tmpfile in 0 1; do
      run_shim "GEOMINT_FAULT_FAIL_CALLS=$window GEOMINT_FAULT_NO_TMPFILE=$tmpfile" $small_args --out out/result.csv 2>err
      status=$?
      grep -q "failed=[1-9]" report || fail "window $window: the shim injected no failure ($(cat report))"
      expect_clean_failure "$status" 1 err "No space left on device" "full disk for write calls $window"
      expect_entries out "full disk for write calls $window" result.csv
      [ "$(cat out/result.csv)" = "$old_content" ] || fail "window $window: the previous file was changed"
    done
  done
  ;;

short_writes)  # short writes and EINTR are retried: the output is complete and identical
  reference
  mkdir out
  for tmpfile in 0 1; do
    run_shim "GEOMINT_FAULT_MAX_WRITE=1000 GEOMINT_FAULT_EINTR_EVERY=3 GEOMINT_FAULT_NO_TMPFILE=$tmpfile" \
      $small_args --out out/result.csv 2>err
    [ $? -eq 0 ] || fail "short writes: the run failed: $(cat err)"
    grep -q "short=[1-9][0-9]* eintr=[1-9]" report || fail "short writes: the shim did not cut writes ($(cat report))"
    cmp -s out/result.csv reference.csv || fail "short writes (no O_TMPFILE: $tmpfile): output differs from the reference"
    expect_entries out "short writes" result.csv
    rm -f out/result.csv
  done
  ;;

no_tmpfile)  # without O_TMPFILE: a named temporary, same output, permissions from the umask
  reference
  mkdir out
  (umask 027 && run_shim "GEOMINT_FAULT_NO_TMPFILE=1" $small_args --out out/result.csv 2>err)
  [ $? -eq 0 ] || fail "no O_TMPFILE: the run failed: $(cat err)"
  grep -q "tmpfile_refused=[1-9]" report || fail "no O_TMPFILE: the shim refused nothing ($(cat report))"
  cmp -s out/result.csv reference.csv || fail "no O_TMPFILE: output differs from the reference"
  [ "$(stat -c %a out/result.csv)" = 640 ] || fail "no O_TMPFILE: mode $(stat -c %a out/result.csv) under umask 027, expected 640"
  expect_entries out "no O_TMPFILE" result.csv
  ;;

signals | signals_named)  # signals at random moments of a 1-3 s run, then --resume; signals_named: no O_TMPFILE
  env --default-signal true 2>/dev/null || skip "env --default-signal (coreutils 8.31+) is missing"
  settings=""
  [ "$case_name" = signals_named ] && settings="GEOMINT_FAULT_NO_TMPFILE=1"
  signal_args="$(ensemble_args 100) --quiet" # 100000 rows, 12 MB, 20 chunks
  start="$(now_ms)"
  run_shim "$settings" $signal_args --out reference.csv 2>err || { echo "FAIL: the reference run failed: $(cat err)"; exit 1; }
  duration=$(($(now_ms) - start))
  echo "seed $seed; a run lasts $duration ms; signals sent at moments up to $((duration * 12 / 10)) ms"
  RANDOM="$seed"
  mkdir out
  seen_temporary=0
  for round in 1 2; do
    for signal in INT TERM HUP QUIT PIPE USR1 USR2 ALRM XCPU KILL; do
      echo "$old_content" >out/result.csv
      delay_ms=$((RANDOM * 32768 + RANDOM))
      delay_ms=$((delay_ms % (duration * 12 / 10 + 1)))
      # Every signal at its default action when geomint starts (bash ignores SIGINT and SIGQUIT in
      # background jobs); env execs geomint, so $! is geomint.
      env --default-signal $settings GEOMINT_FAULT_REPORT="$work/report" LD_PRELOAD="$shim" "$geomint" $signal_args \
        --out out/result.csv 2>err &
      pid=$!
      sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
      if compgen -G 'out/.geomint-*' >/dev/null; then seen_temporary=$((seen_temporary + 1)); fi
      kill -s "$signal" "$pid" 2>/dev/null
      wait "$pid" 2>/dev/null
      status=$?
      number="$(kill -l "$signal")"
      what="round $round, SIG$signal at $delay_ms ms"
      if [ "$status" -ne 0 ] && [ "$status" -ne $((128 + number)) ]; then
        fail "$what: exit status $status, expected 0 or $((128 + number)) ($(cat err))"
      fi
      if cmp -s out/result.csv reference.csv; then
        outcome="complete"
      elif [ "$(cat out/result.csv)" = "$old_content" ]; then
        outcome="previous file intact"
        [ "$status" -eq 0 ] && fail "$what: exit status 0 but the output was not written"
      else
        outcome="CORRUPT"
        fail "$what: out/result.csv is neither the previous file nor the complete output"
      fi
      # The output is complete, or the previous file is intact and the journal lets --resume finish it.
      [ "$outcome" = complete ] || resume_after_signal "$what" out/result.csv reference.csv $signal_args
      leftovers="$(find out -mindepth 1 ! -name result.csv -printf '%f ')"
      if [ -n "$leftovers" ]; then
        if [ "$signal" = KILL ] && [ "$case_name" = signals_named ]; then
          outcome="$outcome; SIGKILL left the named temporary, as documented without O_TMPFILE"
        elif [ "$signal" = KILL ] && cmp -s "out/${leftovers%% *}" reference.csv; then
          outcome="$outcome; SIGKILL hit the documented linkat-rename instant"
        else
          fail "$what: left behind: $leftovers"
        fi
        for name in $leftovers; do rm -f "out/$name"; done
      fi
      echo "$what: status $status, $outcome, ${resumed:-}"
      resumed=""
    done
  done
  if [ "$case_name" = signals_named ]; then
    [ "$seen_temporary" -gt 0 ] || fail "no run was caught with its named temporary present: the clean-up was not exercised"
  else
    [ "$seen_temporary" -eq 0 ] || fail "a named temporary was seen during $seen_temporary runs with O_TMPFILE"
  fi
  # A signal ignored at the start (nohup) stays ignored: the run completes.
  echo "$old_content" >out/result.csv
  (trap '' HUP && exec env $settings LD_PRELOAD="$shim" "$geomint" $signal_args --out out/result.csv) 2>err &
  pid=$!
  sleep "$(printf '%d.%03d' $((duration / 4000)) $((duration / 4 % 1000)))"
  kill -s HUP "$pid"
  wait "$pid"
  status=$?
  [ "$status" -eq 0 ] || fail "an ignored SIGHUP stopped the run: status $status"
  cmp -s out/result.csv reference.csv || fail "an ignored SIGHUP: output not complete"
  expect_entries out "an ignored SIGHUP" result.csv
  ;;

sigpipe_stderr)  # the progress line (after 5 s) to a closed pipe: SIGPIPE removes the temporary, keeps the journal
  env --default-signal=PIPE true 2>/dev/null || skip "env --default-signal (coreutils 8.31+) is missing"
  mkdir out
  for tmpfile in 1 0; do
    echo "$old_content" >out/result.csv
    # Big enough to still be running at the first progress line; SIGPIPE ends it there. 10^6
    # trajectories of 2000 steps take 25 s on 2 idle cores here; with 200 steps (4.4 s) the run
    # could finish before the line.
    { timeout 300 env --default-signal=PIPE GEOMINT_FAULT_NO_TMPFILE=$tmpfile LD_PRELOAD="$shim" "$geomint" \
        pendulum --q0 0.1:3.1:1000 --p0 -1:1:1000 --steps 2000 --dt 0.001 --backend cpu --threads 2 \
        --chunk-size 50000 --out out/result.csv 2>&1 >/dev/null; echo $? >status; } | head -c 0
    status="$(cat status)"
    [ "$status" -eq 141 ] || fail "closed standard error (no O_TMPFILE: $tmpfile): exit status $status, expected 141 (SIGPIPE)"
    # The journal and partial file stay for --resume (tests/resume/ resumes such runs).
    expect_entries out "closed standard error (no O_TMPFILE: $tmpfile)" result.csv result.csv.geomint-journal \
      result.csv.geomint-partial
    rm -f out/result.csv.geomint-journal out/result.csv.geomint-partial
    [ "$(cat out/result.csv)" = "$old_content" ] || fail "closed standard error: the previous file was changed"
  done
  ;;

file_size_limit)  # ulimit -f: SIGXFSZ is ignored, write() fails with EFBIG, a clean error
  mkdir out
  (ulimit -f 256 && "$geomint" $small_args --out out/new.csv 2>err)
  expect_clean_failure $? 1 err "writing 'out/new.csv[.a-z-]*' failed: File too large" "ulimit -f, new file"
  expect_entries out "ulimit -f, new file"
  echo "$old_content" >out/result.csv
  (ulimit -f 256 && GEOMINT_FAULT_NO_TMPFILE=1 LD_PRELOAD="$shim" "$geomint" $small_args --out out/result.csv 2>err)
  expect_clean_failure $? 1 err "File too large" "ulimit -f, existing file, no O_TMPFILE"
  expect_entries out "ulimit -f, existing file" result.csv
  [ "$(cat out/result.csv)" = "$old_content" ] || fail "ulimit -f: the previous file was changed"
  ;;

out_of_memory)  # a chunk too large for `ulimit -v`: one line about memory, exit 1, no file
  [ "$sanitized" -eq 0 ] || skip "a sanitizer build reserves more address space than any small ulimit -v"
  mkdir out
  limit_kb=100000
  (ulimit -v "$limit_kb" && "$geomint" pendulum --q0 1 --steps 10 --dt 0.1 --backend cpu --threads 2 --quiet \
    --out out/small.csv 2>err)
  [ $? -eq 0 ] || fail "a small run fails under ulimit -v $limit_kb already: $(cat err)"
  rm -f out/small.csv
  echo "$old_content" >out/result.csv
  (ulimit -v "$limit_kb" && timeout 300 "$geomint" spin --system chain --spins 100000 --random 100 --steps 10 \
    --dt 0.05 --backend cpu --threads 2 --quiet --out out/result.csv 2>err)
  expect_clean_failure $? 1 err "memory" "ulimit -v $limit_kb, 100 chains of 100000 spins"
  expect_entries out "out of memory" result.csv
  [ "$(cat out/result.csv)" = "$old_content" ] || fail "out of memory: the previous file was changed"
  ;;

unwritable_directory)  # a read-only filesystem (root writes anywhere else): refused before any work
  have_mount_namespace || skip "no mount namespace (unshare -m; mount -t tmpfs) here: needs root"
  mkdir ro
  long_args="pendulum --q0 0.1:3.1:100000 --p0 -1:1:1000 --steps 200 --dt 0.01 --backend cpu --chunk-size 10000 --quiet"
  cat >ro_inner.sh <<EOF
set -u
mount -t tmpfs -o size=64k tmpfs '$work/ro' || exit 99
echo '$old_content' >'$work/ro/result.csv'
mount -o remount,ro '$work/ro' || exit 99
cd '$work'
# This ensemble would run for minutes: the refusal must come first.
timeout 60 '$geomint' $long_args --out ro/new.csv 2>err_new; echo \$? >status_new
timeout 60 '$geomint' $long_args --out ro/result.csv 2>err_old; echo \$? >status_old
ls -A ro >entries
cp ro/result.csv old_after.csv
EOF
  unshare -m bash ro_inner.sh || fail "the read-only tmpfs could not be mounted"
  expect_clean_failure "$(cat status_new)" 2 err_new "--out: cannot write 'ro/new.csv'.*Read-only file system" "read-only filesystem, new file"
  expect_clean_failure "$(cat status_old)" 2 err_old "--out: cannot write 'ro/result.csv'.*Read-only file system" "read-only filesystem, existing file"
  [ "$(cat entries)" = "result.csv" ] || fail "read-only filesystem: folder holds $(cat entries | tr '\n' ' ')"
  [ "$(cat old_after.csv)" = "$old_content" ] || fail "read-only filesystem: the previous file was changed"
  ;;

hdf5_full_disk)  # --out FILE.h5 on a full filesystem: HDF5's own writes fail, the promise holds
  have_mount_namespace || skip "no mount namespace (unshare -m; mount -t tmpfs) here: needs root"
  mkdir disk
  cat >hdf5_full_disk_inner.sh <<EOF
set -u
mount -t tmpfs -o size=256k tmpfs '$work/disk' || exit 99
cd '$work'
'$geomint' $small_args --save-every 20 --out disk/new.h5 2>err_new; echo \$? >status_new
ls -A disk >entries_new
echo '$old_content' >disk/old.h5
'$geomint' $small_args --save-every 20 --out disk/old.h5 2>err_old; echo \$? >status_old
ls -A disk >entries_old
cp disk/old.h5 old_after.h5
'$geomint' pendulum --q0 0.1:3.1:100 --steps 10 --dt 0.01 --backend cpu --quiet --save-every 5 --out disk/fits.h5 2>err_fits
echo \$? >status_fits
EOF
  unshare -m bash hdf5_full_disk_inner.sh || fail "the tmpfs could not be mounted"
  expect_clean_failure "$(cat status_new)" 1 err_new "writing 'disk/new.h5[.a-z-]*' failed: No space left on device" "HDF5, full disk, new file"
  [ -s entries_new ] && fail "HDF5, full disk, new file: left behind: $(cat entries_new)"
  expect_clean_failure "$(cat status_old)" 1 err_old "No space left on device" "HDF5, full disk, existing file"
  [ "$(cat entries_old)" = "old.h5" ] || fail "HDF5, full disk, existing file: folder holds $(cat entries_old | tr '\n' ' ')"
  [ "$(cat old_after.h5)" = "$old_content" ] || fail "HDF5, full disk: the previous file was changed"
  [ "$(cat status_fits)" -eq 0 ] || fail "HDF5, full disk: a small run afterwards failed: $(cat err_fits)"
  ;;

hdf5_file_size_limit)  # ulimit -f with --out FILE.h5: EFBIG from HDF5's writes, a clean error
  mkdir out
  (ulimit -f 256 && "$geomint" $small_args --save-every 10 --out out/new.h5 2>err)
  expect_clean_failure $? 1 err "writing 'out/new.h5[.a-z-]*' failed: File too large" "HDF5, ulimit -f, new file"
  expect_entries out "HDF5, ulimit -f, new file"
  echo "$old_content" >out/result.h5
  (ulimit -f 256 && "$geomint" $small_args --save-every 10 --out out/result.h5 2>err)
  expect_clean_failure $? 1 err "File too large" "HDF5, ulimit -f, existing file"
  expect_entries out "HDF5, ulimit -f, existing file" result.h5
  [ "$(cat out/result.h5)" = "$old_content" ] || fail "HDF5, ulimit -f: the previous file was changed"
  ;;

hdf5_signals)  # signals during an HDF5 run: the named temporary is removed, the old file kept, --resume completes it
  env --default-signal true 2>/dev/null || skip "env --default-signal (coreutils 8.31+) is missing"
  signal_args="$(ensemble_args 100) --quiet --save-every 50"
  mkdir out
  start="$(now_ms)"
  "$geomint" $signal_args --out reference.h5 2>err || { echo "FAIL: the reference run failed: $(cat err)"; exit 1; }
  duration=$(($(now_ms) - start))
  echo "seed $seed; a run lasts $duration ms"
  RANDOM="$seed"
  seen_temporary=0
  for signal in INT TERM HUP USR1 ALRM; do
    echo "$old_content" >out/result.h5
    delay_ms=$((RANDOM % (duration * 8 / 10 + 1)))
    env --default-signal "$geomint" $signal_args --out out/result.h5 2>err &
    pid=$!
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    if compgen -G 'out/.geomint-*' >/dev/null; then seen_temporary=$((seen_temporary + 1)); fi
    kill -s "$signal" "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    status=$?
    number="$(kill -l "$signal")"
    what="SIG$signal at $delay_ms ms"
    if [ "$status" -ne 0 ] && [ "$status" -ne $((128 + number)) ]; then
      fail "$what: exit status $status, expected 0 or $((128 + number)) ($(cat err))"
    fi
    # The previous file intact, or the complete output: a signal that arrives while the output is
    # put in place is held back and raised after it (src/atomic_output_file.cpp), so the run then
    # ends with the signal's status and a complete file, as the CSV case above accepts.
    resumed="complete"
    if printf '%s\n' "$old_content" | cmp -s - out/result.h5; then
      [ "$status" -eq 0 ] && fail "$what: exit status 0 but the output was not written"
      resume_after_signal "$what" out/result.h5 reference.h5 $signal_args
    elif same_datasets out/result.h5 reference.h5; then
      [ "$status" -eq 0 ] || resumed="complete, the signal held back until the output was in place"
    else
      fail "$what: out/result.h5 is neither the previous file nor the complete output"
    fi
    expect_entries out "$what" result.h5
    echo "$what: status $status, $resumed"
  done
  [ "$seen_temporary" -gt 0 ] || fail "no run was caught with its named temporary present: the clean-up was not exercised"
  ;;

kill_resume)  # SIGKILL at random moments, resumed each time: the output equals an uninterrupted run, nothing left
  kill_args="$(ensemble_args 100) --quiet"
  mkdir out
  RANDOM="$seed"
  echo "seed $seed"
  for output in result.csv result.h5; do
    extra=""
    [ "$output" = result.h5 ] && extra="--save-every 50"
    start="$(now_ms)"
    "$geomint" $kill_args $extra --out "reference-$output" 2>err || { echo "FAIL: the reference run failed: $(cat err)"; exit 1; }
    duration=$(($(now_ms) - start))
    resume=""
    kills=0
    for attempt in 1 2 3 4 5 6; do
      delay_ms=$((RANDOM % (duration * 6 / 10 + 1)))
      "$geomint" $kill_args $extra $resume --out "out/$output" 2>err &
      pid=$!
      sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
      kill -KILL "$pid" 2>/dev/null && kills=$((kills + 1))
      wait "$pid" 2>/dev/null
      status=$?
      [ "$status" -eq 0 ] || [ "$status" -eq 137 ] || fail "$output, kill $attempt at $delay_ms ms: exit status $status: $(cat err)"
      [ -e "out/$output" ] && break
      [ -e "out/$output.geomint-journal" ] && resume="--resume"
    done
    [ -e "out/$output" ] || "$geomint" $kill_args $extra $resume --out "out/$output" 2>err ||
      fail "$output: the last --resume failed: $(cat err)"
    if [ "$output" = result.h5 ]; then
      same_datasets "out/$output" "reference-$output" || fail "$output: the resumed output's datasets differ from the reference"
    else
      cmp -s "out/$output" "reference-$output" || fail "$output: the resumed output differs from the reference"
    fi
    # No journal, partial file or temporary of a killed run is left behind.
    expect_entries out "$output after $kills kills" "$output"
    echo "$output: $kills kills, then complete"
    rm -f "out/$output"
  done
  ;;

concurrent_runs)  # two identical runs on one output, started together and killed: one owns it, --resume completes it
  run_args="$(ensemble_args 100) --quiet --save-every 50"
  mkdir out
  RANDOM="$seed"
  echo "seed $seed"
  start="$(now_ms)"
  "$geomint" $run_args --out reference.h5 2>err || { echo "FAIL: the reference run failed: $(cat err)"; exit 1; }
  duration=$(($(now_ms) - start))
  for trial in 1 2 3 4 5 6 7 8; do
    what="trial $trial"
    for mode in "" --resume; do
      [ -z "$mode" ] || [ -e out/result.h5.geomint-journal ] || continue
      "$geomint" $run_args $mode --out out/result.h5 2>err_a &
      first=$!
      "$geomint" $run_args $mode --out out/result.h5 2>err_b &
      second=$!
      delay_ms=$((RANDOM % (duration * 6 / 10 + 1)))
      sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
      kill -KILL "$first" "$second" 2>/dev/null
      for pid_err in "$first:err_a" "$second:err_b"; do
        wait "${pid_err%%:*}" 2>/dev/null
        status=$?
        error_file="${pid_err#*:}"
        # Killed, complete, or refused because the other run owns the output (or left it complete).
        case "$status" in
          0 | 137) ;;
          2) grep -Eq "^geomint: error: --out: (another geomint run is writing|.*holds an interrupted run)|^geomint: error: --resume" "$error_file" ||
            fail "$what $mode: refused for another reason: $(cat "$error_file")" ;;
          *) fail "$what $mode: exit status $status: $(cat "$error_file")" ;;
        esac
      done
    done
    if [ -e out/result.h5.geomint-journal ]; then
      "$geomint" $run_args --resume --out out/result.h5 2>err || fail "$what: --resume failed: $(cat err)"
    elif [ ! -e out/result.h5 ]; then
      "$geomint" $run_args --out out/result.h5 2>err || fail "$what: a new run failed: $(cat err)"
    fi
    same_datasets out/result.h5 reference.h5 || fail "$what: the output's datasets differ from the reference"
    expect_entries out "$what" result.h5
    rm -f out/result.h5
  done
  ;;

corrupt_partial)  # flipped bytes in a killed run's partial file: --resume refuses with one line and keeps both files
  run_args="$(ensemble_args 100) --quiet"
  mkdir out
  "$geomint" $run_args --out out/result.csv 2>err &
  pid=$!
  for _ in $(seq 200); do
    [ -s out/result.csv.geomint-partial ] && [ "$(stat -c %s out/result.csv.geomint-partial)" -gt 4096 ] && break
    sleep 0.02
  done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  [ -e out/result.csv.geomint-journal ] || skip "the run ended before it could be killed"
  printf '\377\377\377' | dd of=out/result.csv.geomint-partial bs=1 seek=1000 conv=notrunc 2>/dev/null
  cp out/result.csv.geomint-partial partial.copy
  cp out/result.csv.geomint-journal journal.copy
  "$geomint" $run_args --resume --out out/result.csv 2>err
  expect_clean_failure $? 2 err "checksum" "a resume over flipped bytes"
  cmp -s out/result.csv.geomint-partial partial.copy || fail "the refused resume changed the partial file"
  cmp -s out/result.csv.geomint-journal journal.copy || fail "the refused resume changed the journal"
  expect_entries out "a refused resume" result.csv.geomint-journal result.csv.geomint-partial
  ;;

*)
  echo "faults.sh: unknown case '$case_name'"
  exit 2
  ;;
esac

if [ "$failures" -gt 0 ]; then
  echo "faults $case_name: $failures failures"
  exit 1
fi
echo "faults $case_name: passed"
