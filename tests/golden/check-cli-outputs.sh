#!/usr/bin/env bash
# Byte-identity of the CLI's CSV output against recorded SHA-256 sums (tests/golden/cases.txt).
#   check-cli-outputs.sh GEOMINT              # checks every case; exit 1 naming each mismatch
#   check-cli-outputs.sh GEOMINT --generate   # rewrites the sums from this binary (only when an
#                                             # output change is intended, and said in the commit)
set -uo pipefail
binary="$1"
mode="${2:-check}"
here="$(cd "$(dirname "$0")" && pwd)"
cases="$here/cases.txt"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

failures=0
count=0
while IFS= read -r line; do
  case "$line" in '#'* | '') [ "$mode" = "--generate" ] && echo "$line" >>"$scratch/new"; continue ;; esac
  expected="${line%% *}"
  command="${line#* }"
  # shellcheck disable=SC2086  # the recorded arguments are split on spaces on purpose
  if ! "$binary" ${command//@GOLDEN@/$here} --backend cpu --quiet --out "$scratch/out.csv"; then
    echo "FAILED TO RUN: geomint $command"
    failures=$((failures + 1))
    continue
  fi
  actual="$(sha256sum <"$scratch/out.csv" | cut -c1-64)"
  count=$((count + 1))
  if [ "$mode" = "--generate" ]; then
    echo "$actual $command" >>"$scratch/new"
  elif [ "$actual" != "$expected" ]; then
    echo "DIFFERENT OUTPUT: geomint $command"
    failures=$((failures + 1))
  fi
done <"$cases"
if [ "$mode" = "--generate" ]; then
  mv "$scratch/new" "$cases"
  echo "check-cli-outputs: recorded $count cases"
  exit 0
fi
echo "check-cli-outputs: $count cases, $failures different or failed"
[ "$failures" -eq 0 ]
