#!/usr/bin/python3
"""Reads a log directory with TensorBoard itself and compares what it sees with `tstudio events --json`.

  tstudio events LOGDIR --json > ours.json
  python3 tools/events/tensorboard_compare.py LOGDIR ours.json

Needs the tensorboard Python package (2.x); exits 2 without it. TensorBoard's own reading path is
used: the plugin event multiplexer that its server loads (every sample kept: size guidance 0) and,
for scalars, its data provider API (list_scalars / read_scalars), as the Scalars dashboard asks.

Checked, run by run: the same runs; every tag TensorBoard lists under the scalars, histograms,
images, audio, text, pr_curves and hparams plugins is one of ours with the same plugin name and the
same number of values; every scalar sample (step, wall time, value as float32) equal, in order;
whether each run has a graph. Prints one line per run and tag, then a summary; exit 1 on any difference.
"""
import json
import math
import struct
import sys

PLUGINS = ("scalars", "histograms", "images", "audio", "text", "pr_curves", "hparams")


def float32(value):
    return struct.unpack("<f", struct.pack("<f", float(value)))[0]


def same_value(a, b):
    a, b = float32(a), float32(b)
    return (math.isnan(a) and math.isnan(b)) or a == b


def our_value(raw):
    return float(raw)  # a number, or "nan", "inf", "-inf" as text


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: tensorboard_compare.py LOGDIR OURS_JSON", file=sys.stderr)
        return 2
    logdir, ours_path = sys.argv[1], sys.argv[2]
    try:
        import tensorboard
        from tensorboard import context
        from tensorboard.backend.event_processing import data_provider
        from tensorboard.backend.event_processing import plugin_event_multiplexer
    except ImportError as error:
        print(f"tensorboard is not installed here ({error}): nothing compared", file=sys.stderr)
        return 2
    with open(ours_path, encoding="utf-8") as f:
        ours = json.load(f)["runs"]

    guidance = {"scalars": 0, "tensors": 0, "histograms": 0, "images": 0, "audio": 0, "compressedHistograms": 0}
    multiplexer = plugin_event_multiplexer.EventMultiplexer(size_guidance=guidance, tensor_size_guidance={})
    multiplexer.AddRunsFromDirectory(logdir)
    multiplexer.Reload()
    provider = data_provider.MultiplexerDataProvider(multiplexer, logdir)
    ctx = context.RequestContext()
    print(f"TensorBoard {tensorboard.__version__} over {logdir}")

    problems = []
    theirs_runs = sorted(multiplexer.Runs())
    if sorted(ours) != theirs_runs:
        problems.append(f"runs differ: TensorBoard {theirs_runs}, tstudio {sorted(ours)}")

    compared_scalars = 0
    for run in theirs_runs:
        our_run = ours.get(run)
        if our_run is None:
            continue
        our_tags = our_run["tags"]
        tb_graph = multiplexer.Runs()[run].get("graph", False)
        # TensorBoard takes a MetaGraphDef's graph where a run wrote no GraphDef.
        our_graph = bool(our_run["graph"]) or bool(our_run["meta_graph"])
        if bool(tb_graph) != our_graph:
            problems.append(f"{run}: graph: TensorBoard {bool(tb_graph)}, tstudio {our_graph}")
        print(f"run {run}: graph {bool(tb_graph)}")
        for plugin in PLUGINS:
            for tag in sorted(multiplexer.PluginRunToTagToContent(plugin).get(run, {})):
                count = len(multiplexer.Tensors(run, tag))
                mine = our_tags.get(tag)
                line = f"  {tag:40s} {plugin:10s} TensorBoard {count:6d}"
                if mine is None:
                    problems.append(f"{run}/{tag} ({plugin}): not among tstudio's tags")
                    print(line + "  tstudio: missing")
                    continue
                print(line + f"  tstudio {mine['values_read']:6d} ({mine['plugin']})")
                if mine["plugin"] != plugin:
                    problems.append(f"{run}/{tag}: plugin TensorBoard '{plugin}', tstudio '{mine['plugin']}'")
                if mine["values_read"] != count:
                    problems.append(f"{run}/{tag}: {count} values in TensorBoard, {mine['values_read']} in tstudio")

    # Scalars through the data provider, as the dashboard reads them.
    listed = provider.list_scalars(ctx, experiment_id="", plugin_name="scalars")
    read = provider.read_scalars(ctx, experiment_id="", plugin_name="scalars", downsample=10**9,
                                 run_tag_filter=None)
    for run in sorted(listed):
        for tag in sorted(listed[run]):
            theirs = read.get(run, {}).get(tag, [])
            mine = ours.get(run, {}).get("tags", {}).get(tag, {}).get("samples")
            if mine is None:
                problems.append(f"{run}/{tag}: a scalar in TensorBoard's data API, none in tstudio")
                continue
            if len(mine) != len(theirs):
                problems.append(f"{run}/{tag}: {len(theirs)} scalars in TensorBoard, {len(mine)} in tstudio")
            for t, m in zip(theirs, mine):
                compared_scalars += 1
                if t.step != m["step"] or t.wall_time != m["wall_time"] or not same_value(t.value,
                                                                                           our_value(m["value"])):
                    problems.append(f"{run}/{tag} step {t.step}: TensorBoard ({t.step}, {t.wall_time!r}, "
                                    f"{t.value!r}), tstudio ({m['step']}, {m['wall_time']!r}, {m['value']!r})")
                    break
    print(f"{compared_scalars} scalar samples compared through TensorBoard's data provider")
    for problem in problems[:40]:
        print("DIFFERENCE: " + problem)
    print("same" if not problems else f"{len(problems)} difference(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
