#!/usr/bin/env python3
"""The folder-level include graph of the product's sources (engine/, project/, models/, viewmodel/, widgets/,
app/).

Each `#include "..."` of a source or header is resolved as the build resolves it (the including file's
folder first, then the include roots: engine/, viewmodel/, widgets/, models/, app/gui, app/cli and the source root
(project/'s headers, "project/run/project_runner.h"); the
generated protobuf headers count as engine/proto) and counted as an edge between the two files' folders
(engine/<folder>, viewmodel/<folder>, widgets/<folder>, project/<folder>, models, app/gui, app/cli). It
prints:

  - the folders and their files,
  - the include knots: strongly connected sets of more than one folder (a circle of includes),
  - the upward includes: from a folder to one on a higher floor of FLOORS below, each with its files,
  - with --edges, every folder-to-folder edge with its count.

Usage: tools/include_graph.py [--root DIR] [--edges] [--max-knots N] [--max-upward N] [--max-wing-crossings N]

With --max-knots or --max-upward it exits 1 when the tree has more (CTest's check_include_graph keeps
the figures from growing while the house is rebuilt; lower them as the knots come apart).
"""
import argparse
import collections
import os
import re
import sys

# The floors, lowest first: a folder may include its own floor and the ones below. Within the
# engine, the runtime wing (core up to debugger; distributed/'s MPI world and Horovod ops beside the
# devices, under the kernels and the session that use them) is below the building wing (builder up to layers:
# model/'s Saver and MetaGraphs below training/'s hooks that save, layers/ on top of both),
# and the composition root (registries: everything registered in one place) is above both; the
# libraries and programs over the engine follow.
FLOORS = [
    ["engine/core"],
    ["engine/proto"],
    ["engine/framework"],
    ["engine/graph", "engine/io", "engine/data"],
    ["engine/ops"],
    ["engine/function"],
    ["engine/devices", "engine/distributed"],
    ["engine/kernels"],
    ["engine/runtime"],
    ["engine/profiler", "engine/debugger"],
    ["engine/building/builder"],
    ["engine/building/autodiff"],
    ["engine/building/losses", "engine/building/metrics", "engine/building/summary", "engine/building/model"],
    ["engine/building/training"],
    ["engine/building/layers"],
    ["engine/registries"],
    ["models"],
    ["project/format"],
    ["project/sources"],
    ["project/run"],
    ["project/distributed", "project/export"],
    ["viewmodel"],
    ["widgets"],
    ["app/cli", "app/gui"],
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
SOURCE_EXTENSIONS = (".h", ".hpp", ".cpp", ".cc", ".cu", ".cuh")


def folder_of(path):
    """engine/runtime/session.cpp -> engine/runtime; engine/building/builder/x.h ->
    engine/building/builder; widgets/dashboard/x.h -> widgets/dashboard."""
    parts = path.split("/")
    if parts[:2] == ["engine", "building"] and len(parts) > 3:
        return "/".join(parts[:3])
    if parts[0] in ("engine", "viewmodel", "widgets", "app", "project") and len(parts) > 2:
        return parts[0] + "/" + parts[1]
    return parts[0]


def floor_of(folder):
    top = folder if folder.startswith(("engine/", "app/", "project/")) else folder.split("/")[0]
    for level, names in enumerate(FLOORS):
        if top in names:
            return level
    return None


def sources(root):
    for top in ("engine", "project", "models", "viewmodel", "widgets", "app"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in files:
                if name.endswith(SOURCE_EXTENSIONS):
                    full = os.path.join(dirpath, name)
                    yield os.path.relpath(full, root).replace(os.sep, "/")


def resolve(root, including, target, known):
    candidates = [os.path.normpath(os.path.join(os.path.dirname(including), target)).replace(os.sep, "/")]
    for base in ("engine", "engine/building", "viewmodel", "widgets", "project", "models", "app/gui", "app/cli", "app"):
        candidates.append(base + "/" + target)
    candidates.append(target)  # the source root: "project/run/project_runner.h"
    for c in candidates:
        if c in known:
            return c
    if target.endswith(".pb.h") or target.startswith("tensorflow/"):
        return "engine/proto/" + os.path.basename(target)  # generated from engine/proto/*.proto
    return None  # a system or third-party header


def strongly_connected(nodes, edges):
    """Tarjan's algorithm, iteratively: the strongly connected components of the graph."""
    index, low, on_stack, stack, result, counter = {}, {}, set(), [], [], [0]
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                result.append(sorted(component))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    parser.add_argument("--edges", action="store_true", help="print every folder-to-folder edge")
    parser.add_argument("--max-knots", type=int, help="fail when there are more include knots")
    parser.add_argument("--max-upward", type=int, help="fail when there are more upward includes")
    parser.add_argument("--max-wing-crossings", type=int,
                        help="fail when more includes go from the engine's runtime wing to its building wing")
    args = parser.parse_args()
    root = os.path.abspath(args.root)

    files = sorted(sources(root))
    known = set(files)
    edges = collections.defaultdict(collections.Counter)  # folder -> folder -> includes
    upward = []
    file_count = collections.Counter(folder_of(f) for f in files)
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        src = folder_of(f)
        for target in INCLUDE.findall(text):
            resolved = resolve(root, f, target, known)
            if resolved is None:
                continue
            dst = folder_of(resolved)
            if dst == src:
                continue
            edges[src][dst] += 1
            a, b = floor_of(src), floor_of(dst)
            if a is not None and b is not None and b > a:
                upward.append((src, dst, f, target))

    folders = sorted(file_count)
    print(f"{len(files)} files in {len(folders)} folders; {sum(sum(c.values()) for c in edges.values())} includes "
          f"between folders along {sum(len(c) for c in edges.values())} folder-to-folder edges")
    knots = [c for c in strongly_connected(folders, {k: set(v) for k, v in edges.items()}) if len(c) > 1]
    print(f"include knots (circles of folders): {len(knots)}")
    for knot in sorted(knots, key=len, reverse=True):
        print(f"  {len(knot)} folders: {', '.join(knot)}")
    engine_upward = [u for u in upward if u[0].startswith("engine/")]
    print(f"upward includes (to a higher floor): {len(upward)}, {len(engine_upward)} of them inside the engine")
    for src, dst, f, target in sorted(upward):
        print(f"  {src} -> {dst}: {f} includes \"{target}\"")
    crossings = [u for u in upward if u[1].startswith("engine/building/") and not u[0].startswith("engine/building/")
                 and u[0].startswith("engine/") and not u[0].startswith("engine/registries")]
    print(f"runtime wing -> building wing includes: {len(crossings)}")
    unplaced = [f for f in folders if floor_of(f) is None]
    if unplaced:
        print(f"folders on no floor: {', '.join(unplaced)}")
    if args.edges:
        print("edges:")
        for src in sorted(edges):
            for dst, n in sorted(edges[src].items()):
                print(f"  {src} -> {dst}: {n}")
    failed = False
    if args.max_knots is not None and len(knots) > args.max_knots:
        print(f"FAILED: {len(knots)} include knots, at most {args.max_knots} allowed", file=sys.stderr)
        failed = True
    if args.max_upward is not None and len(upward) > args.max_upward:
        print(f"FAILED: {len(upward)} upward includes, at most {args.max_upward} allowed", file=sys.stderr)
        failed = True
    if args.max_wing_crossings is not None and len(crossings) > args.max_wing_crossings:
        print(f"FAILED: {len(crossings)} includes from the runtime wing into engine/building/, at most "
              f"{args.max_wing_crossings} allowed", file=sys.stderr)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
