#!/usr/bin/env python3
"""Source files over 1,000 lines and functions over 200 lines in the product (engine/, project/,
models/, viewmodel/, widgets/, app/), longest first (issue #54 point 5), and the lines wider than the 120
columns of .clang-format in the product and its tests (tests/), by file.

A function is a body whose opening brace stands alone at the start of a line after its signature and
whose closing brace stands alone at the start of a later line, as clang-format lays out functions at
namespace level in this code; lambdas and member functions defined inside a class body are counted
with the function or class around them.

Usage: tools/source_sizes.py [--root DIR] [--max-long-files N] [--max-long-functions N] [--max-wide-lines N]
With a limit it exits 1 when there are more offenders (CTest's check_source_sizes keeps the lists from
growing; lower the limits as files and functions are split).
"""
import argparse
import os
import re
import sys

FILE_LIMIT = 1000
FUNCTION_LIMIT = 200
COLUMN_LIMIT = 120
SIGNATURE_END = re.compile(r"(\)|\bconst|\boverride|\bnoexcept|\bfinal|->\s*[\w:<>,\s*&]+)\s*$")


def sources(root, tops=("engine", "project", "models", "viewmodel", "widgets", "app")):
    for top in tops:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                if name.endswith((".h", ".hpp", ".cpp", ".cc", ".cu")):
                    full = os.path.join(dirpath, name)
                    yield os.path.relpath(full, root).replace(os.sep, "/")


def long_functions(lines):
    """(first line, length, signature) of each namespace-level function body over the limit."""
    out = []
    i = 0
    while i < len(lines):
        if lines[i].rstrip() == "{":
            j = i - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            if j >= 0 and SIGNATURE_END.search(lines[j]) and not lines[j].lstrip().startswith(("namespace", "struct", "class", "enum")):
                end = i + 1
                while end < len(lines) and lines[end].rstrip() not in ("}", "};"):
                    end += 1
                length = end - i + 1
                if length > FUNCTION_LIMIT:
                    # The signature may span several lines: from the line after the previous blank.
                    k = j
                    while (k > 0 and lines[k - 1].strip() and not lines[k - 1].rstrip().endswith((";", "}"))
                           and not lines[k - 1].lstrip().startswith("//")):
                        k -= 1
                    out.append((k + 1, length, " ".join(l.strip() for l in lines[k : j + 1])[:110]))
                i = end
        i += 1
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    parser.add_argument("--max-long-files", type=int)
    parser.add_argument("--max-long-functions", type=int)
    parser.add_argument("--max-wide-lines", type=int)
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    files, functions = [], []
    for f in sorted(sources(root)):
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as handle:
            lines = handle.read().split("\n")
        if len(lines) - 1 > FILE_LIMIT:
            files.append((len(lines) - 1, f))
        for first, length, signature in long_functions(lines):
            functions.append((length, f, first, signature))
    wide = {}
    for f in sorted(sources(root, ("engine", "project", "models", "viewmodel", "widgets", "app", "tests"))):
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as handle:
            count = sum(1 for line in handle.read().split("\n") if len(line) > COLUMN_LIMIT)
        if count:
            wide[f] = count
    wide_lines = sum(wide.values())
    print(f"files over {FILE_LIMIT} lines: {len(files)}")
    for n, f in sorted(files, reverse=True):
        print(f"  {n:5d}  {f}")
    print(f"functions over {FUNCTION_LIMIT} lines: {len(functions)}")
    for n, f, first, signature in sorted(functions, reverse=True):
        print(f"  {n:5d}  {f}:{first}  {signature}")
    print(f"lines over {COLUMN_LIMIT} columns: {wide_lines} in {len(wide)} files (most: "
          + ", ".join(f"{f} {n}" for f, n in sorted(wide.items(), key=lambda x: -x[1])[:5]) + ")")
    failed = False
    if args.max_long_files is not None and len(files) > args.max_long_files:
        print(f"FAILED: {len(files)} files over {FILE_LIMIT} lines, at most {args.max_long_files} allowed", file=sys.stderr)
        failed = True
    if args.max_long_functions is not None and len(functions) > args.max_long_functions:
        print(f"FAILED: {len(functions)} functions over {FUNCTION_LIMIT} lines, at most {args.max_long_functions} "
              "allowed", file=sys.stderr)
        failed = True
    if args.max_wide_lines is not None and wide_lines > args.max_wide_lines:
        print(f"FAILED: {wide_lines} lines over {COLUMN_LIMIT} columns, at most {args.max_wide_lines} allowed "
              "(clang-format the new ones)", file=sys.stderr)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
