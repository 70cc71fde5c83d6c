#!/usr/bin/env python3
"""Sums up a CTest run of TensorStudio's tests: programs (from CTest's JUnit file) and Qt Test
functions (from each program's log in the results directory), passed, failed and skipped, with
every skip and its reason. The last line is the total. Exits 0; the caller keeps CTest's status.

Usage: test_summary.py JUNIT_XML RESULTS_DIR
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

TOTALS = re.compile(r"^Totals: (\d+) passed, (\d+) failed, (\d+) skipped")
SKIP = re.compile(r"^SKIP\s+: (\S+?\(.*?\))\s*(.*)$")


def programs(junit_path):
    """(passed, failed, skipped, [(name, reason)]) of the CTest run."""
    passed, failed, skipped = [], [], []
    root = ET.parse(junit_path).getroot()
    for case in root.iter("testcase"):
        name = case.get("name")
        status = case.get("status", "run")
        skip = case.find("skipped")
        if status in ("notrun", "disabled") or skip is not None:
            reason = (skip.get("message") if skip is not None else "") or status
            skipped.append((name, reason))
        elif status == "fail" or case.find("failure") is not None:
            failed.append(name)
        else:
            passed.append(name)
    return passed, failed, skipped


def functions(results_dir):
    """(passed, failed, skipped, [(test, function, reason)], [tests without totals]) of the Qt Test
    functions, initTestCase and cleanupTestCase not counted when they pass."""
    passed = failed = skipped = 0
    skips, unfinished = [], []
    if not os.path.isdir(results_dir):
        return passed, failed, skipped, skips, unfinished
    for entry in sorted(os.listdir(results_dir)):
        if not entry.endswith(".txt"):
            continue
        test = entry[:-4]
        totals = None
        housekeeping = 0
        with open(os.path.join(results_dir, entry), encoding="utf-8", errors="replace") as log:
            for line in log:
                line = line.rstrip("\n")
                m = SKIP.match(line)
                if m:
                    skips.append((test, m.group(1), m.group(2).strip()))
                    continue
                if line.startswith("PASS") and (line.endswith("::initTestCase()") or
                                                 line.endswith("::cleanupTestCase()")):
                    housekeeping += 1  # Qt Test counts these as passed whatever the program holds
                    continue
                m = TOTALS.match(line)
                if m:
                    totals = tuple(int(x) for x in m.groups())
        if totals is None:
            unfinished.append(test)
            continue
        passed += totals[0] - housekeeping
        failed += totals[1]
        skipped += totals[2]
    return passed, failed, skipped, skips, unfinished


def main():
    junit, results = sys.argv[1], sys.argv[2]
    p_passed, p_failed, p_skipped = programs(junit) if os.path.exists(junit) else ([], [], [])
    f_passed, f_failed, f_skipped, skips, unfinished = functions(results)

    print("\nSkipped test functions (%d), with their reasons:" % len(skips))
    for test, function, reason in skips:
        print("  %s: %s: %s" % (test, function, reason or "(no reason given)"))
    if p_skipped:
        print("\nSkipped test programs (%d; every test function skipped, or the program asked to be skipped):"
              % len(p_skipped))
        first_skip = {}
        for test, function, reason in skips:
            first_skip.setdefault(test, "%s: %s" % (function, reason))
        for name, reason in p_skipped:
            print("  %s: %s" % (name, first_skip.get(name, reason)))
    if p_failed:
        print("\nFailed test programs (%d): %s" % (len(p_failed), ", ".join(p_failed)))
    if unfinished:
        print("\nTest programs whose log has no totals (crashed, timed out or killed): %s" % ", ".join(unfinished))
    programs_total = len(p_passed) + len(p_failed) + len(p_skipped)
    functions_total = f_passed + f_failed + f_skipped
    print("\n%d test programs: %d passed, %d failed, %d skipped; %d test functions: %d passed, %d failed, %d skipped"
          % (programs_total, len(p_passed), len(p_failed), len(p_skipped),
             functions_total, f_passed, f_failed, f_skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main())
