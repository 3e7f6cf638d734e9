#!/usr/bin/env bash
# tools/ctest_failures.py against the JUnit file of a real CTest run: a small project with a
# passing, a failing, a skipped and a timed-out test. The report must name the failing and the
# timed-out test only, show the failing test's last lines (and not its earlier ones), and end with
# the line that names them all; --names-only and --details-only split it at that line.
#   ctest_failures_report.sh REPO_ROOT
set -uo pipefail
root="$(realpath "$1")"
work="$(mktemp -d "${TMPDIR:-/tmp}/geomint-ctest-failures-XXXXXX")"
trap 'rm -rf "$work"' EXIT
cat >"$work/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.21)
project(ctest_failures_fixture NONE)
enable_testing()
add_test(NAME passes COMMAND sh -c "echo passing output")
add_test(NAME fails COMMAND sh -c "for i in $(seq 1 40); do echo early line $i; done; echo 'FAIL: x < y & z'; exit 1")
add_test(NAME skipped COMMAND sh -c "echo skipping; exit 77")
set_tests_properties(skipped PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME times_out COMMAND sleep 30)
set_tests_properties(times_out PROPERTIES TIMEOUT 1)
CMAKE
cmake -S "$work" -B "$work/build" -G Ninja >/dev/null || { echo "FAIL: cmake could not configure the fixture"; exit 1; }
ctest --test-dir "$work/build" --output-junit "$work/junit.xml" >/dev/null 2>&1
report="$(/usr/bin/python3 "$root/tools/ctest_failures.py" "$work/junit.xml" --lines 5)"
echo "$report"
failures=0
expect() { grep -qF -- "$1" <<<"$report" || { echo "FAIL: the report lacks: $1"; failures=$((failures + 1)); }; }
refuse() { ! grep -qF -- "$1" <<<"$report" || { echo "FAIL: the report has: $1"; failures=$((failures + 1)); }; }
expect "--- fails (fail"
expect "    FAIL: x < y & z"
expect "    early line 40"
refuse "early line 36"
expect "--- times_out (fail"
refuse "passes"
refuse "skipped"
[ "$(tail -n 1 <<<"$report")" = "ctest_failures: 2 failed: fails times_out" ] ||
  { echo "FAIL: the last line does not name the failed tests"; failures=$((failures + 1)); }
# The two halves run-tests.sh prints apart: the details without the names line, and that line alone.
names="$(/usr/bin/python3 "$root/tools/ctest_failures.py" "$work/junit.xml" --names-only)"
details="$(/usr/bin/python3 "$root/tools/ctest_failures.py" "$work/junit.xml" --lines 5 --details-only)"
[ "$names" = "ctest_failures: 2 failed: fails times_out" ] || { echo "FAIL: --names-only gave: $names"; failures=$((failures + 1)); }
[ "$details" = "$(sed '$d' <<<"$report")" ] || { echo "FAIL: --details-only is not the report less its last line"; failures=$((failures + 1)); }
[ "$failures" -eq 0 ] && echo "ctest_failures_report: passed"
exit $((failures > 0))
