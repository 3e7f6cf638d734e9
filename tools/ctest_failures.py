#!/usr/bin/python3
"""The failed tests of a CTest run, each with the last lines it printed, from CTest's JUnit file.

  ctest_failures.py JUNIT_XML [--lines N]     each failed test's last N lines, then their names
  ctest_failures.py JUNIT_XML --names-only    the line of names alone
  ctest_failures.py JUNIT_XML --details-only  all but that line

tools/run-tests.sh prints this after its last stage for the CTest and the sanitizer stages, so
that the tests which failed and why stand at the end of the log: CI shows only the log's last
lines, and a stage's own report of a failure lies above the later stages' output. Exits 0 (it
reports; it judges nothing).
"""
import argparse
import sys
import xml.etree.ElementTree as ElementTree


def failed_cases(junit_path):
    """(name, what ended it, output) of every test case that neither passed nor was skipped."""
    root = ElementTree.parse(junit_path).getroot()
    for case in root.iter("testcase"):
        status = case.get("status", "")
        if status in ("run", "passed", "notrun", "disabled") or case.find("skipped") is not None:
            continue
        if case.find("failure") is None and case.find("error") is None and status != "fail":
            continue
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        message = failure.get("message", "") if failure is not None else ""
        what = ", ".join(part for part in (status or "fail", message, f"{float(case.get('time', 0)):.1f} s") if part)
        yield case.get("name", "?"), what, case.findtext("system-out") or ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("junit")
    parser.add_argument("--lines", type=int, default=25, help="output lines shown per failed test")
    parts = parser.add_mutually_exclusive_group()
    parts.add_argument("--names-only", action="store_true", help="only the last line, naming them")
    parts.add_argument("--details-only", action="store_true", help="all but the last line")
    arguments = parser.parse_args()
    try:
        failures = list(failed_cases(arguments.junit))
    except (OSError, ElementTree.ParseError) as error:
        print(f"ctest_failures: cannot read {arguments.junit}: {error}")
        return 0
    for name, status, output in [] if arguments.names_only else failures:
        lines = output.rstrip("\n").splitlines()
        shown = lines[-arguments.lines:] if arguments.lines > 0 else []
        print(f"--- {name} ({status}); its last {len(shown)} of {len(lines)} output lines:")
        for line in shown:
            print(f"    {line[:300]}")
    # Last, so that a short tail of the log still names them all.
    if not arguments.details_only:
        names = " ".join(name for name, _, _ in failures)
        print(f"ctest_failures: {len(failures)} failed" + (f": {names}" if names else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
