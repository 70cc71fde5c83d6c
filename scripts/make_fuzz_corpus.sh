#!/usr/bin/env bash
# Makes the fuzz targets' seed corpora (fuzz/corpus/<target>/) with the project's own tools: a tiny
# spirals project trained, profiled, frozen and run by tstudio, its files cut into small seeds.
#   scripts/make_fuzz_corpus.sh [OUT_DIR]
# OUT_DIR defaults to fuzz/corpus (committed: keep every seed a few KB). Files too large to commit
# (the whole event file, the training MetaGraphDef, the Chrome trace of a training step) and, when
# $TSTUDIO_FIXTURES names the shared fixtures, copies of those, go to build-fuzz/corpus-extra/<target>/
# (ignored by git), which scripts/fuzz.sh adds to a campaign's corpus when it exists.
# Needs a built tstudio ($TSTUDIO, default build/app/tstudio) and python3 (standard library only).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/fuzz/corpus}"
extra="$root/build-fuzz/corpus-extra"
tstudio="${TSTUDIO:-$root/build/app/tstudio}"
[ -x "$tstudio" ] || { echo "make_fuzz_corpus.sh: no tstudio at $tstudio (build it, or set TSTUDIO)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A spirals network three units wide instead of 64: the same ops and structure as the shipped
# example, with checkpoints and graphs of a few KB. The kernel initializers' shape constants hold
# 64 as the byte '@' in their tensor_content.
sed -e 's/size: 64$/size: 3/' -e 's/@\\000\\000\\000/\\003\\000\\000\\000/g' \
    "$root/examples/projects/spirals_forward.pbtxt" >"$work/tiny_forward.pbtxt"
python3 - "$root/examples/projects/spirals.tsproj" "$work/tiny.tsproj" <<'EOF'
import json, sys
project = json.load(open(sys.argv[1]))
project["name"] = "Tiny spirals (fuzz corpus)"
project["graph"] = {"file": "tiny_forward.pbtxt"}
project["data"]["sources"][0]["points_per_class"] = 20
project["batch_size"] = 8
project["hooks"]["summary_every_steps"] = 1
project["hooks"]["profile_every_steps"] = 2
project["summaries"] = [{"kind": "histogram", "tensor": "dense/kernel:0", "tag": "kernel"}]
json.dump(project, open(sys.argv[2], "w"), indent=2)
EOF

log="$work/log"
"$tstudio" train "$work/tiny.tsproj" --steps 2 --logdir "$log" >/dev/null
"$tstudio" freeze "$log/model.ckpt-2.meta" --checkpoint "$log/model.ckpt-2" --outputs dense_2/BiasAdd,accuracy/Mean \
    -o "$work/frozen.pb" >/dev/null
mkdir -p "$work/npy"
"$tstudio" run "$work/frozen.pb" --feed 'inputs=[[0.5, -1.0], [2.0, 0.25]]' --feed 'labels=[1, 0]' \
    --fetch dense_2/BiasAdd:0 --fetch accuracy/ArgMax:0 --fetch accuracy/Equal:0 --fetch accuracy/Mean:0 \
    --out-npy "$work/npy" >/dev/null
"$tstudio" profile "$work/frozen.pb" --feed 'inputs=[[0.5, -1.0]]' --feed 'labels=[1]' --fetch accuracy/Mean:0 \
    --out "$work/run_trace.json" >/dev/null
"$tstudio" profile "$work/tiny.tsproj" --steps 1 --out "$work/train_trace.json" >/dev/null
"$tstudio" export "$work/tiny.tsproj" --logdir "$log" --saved-model "$work/saved_model" \
    --outputs dense_2/BiasAdd:0 >/dev/null

# A V1 checkpoint, written by TensorFlow 1's legacy Save and SaveSlices ops run by tstudio: a float
# matrix, an int64 step and an int32 vector stored whole (Save), and a float [4, 2] stored as two
# slices of two rows (SaveSlices), each into its own table file.
cat >"$work/v1_save.pbtxt" <<'PBTXT'
node { name: "filename" op: "Placeholder" attr { key: "dtype" value { type: DT_STRING } } }
node { name: "sliced_filename" op: "Placeholder" attr { key: "dtype" value { type: DT_STRING } } }
node { name: "weights" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } dim { size: 2 } }
    float_val: 0.5 float_val: -1.25 float_val: 2 float_val: 0 float_val: 3.5 float_val: -0.75 } } } }
node { name: "global_step" op: "Const" attr { key: "dtype" value { type: DT_INT64 } }
  attr { key: "value" value { tensor { dtype: DT_INT64 tensor_shape { } int64_val: 42 } } } }
node { name: "counts" op: "Const" attr { key: "dtype" value { type: DT_INT32 } }
  attr { key: "value" value { tensor { dtype: DT_INT32 tensor_shape { dim { size: 4 } }
    int_val: 1 int_val: -2 int_val: 3 int_val: 7 } } } }
node { name: "names" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
  attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 3 } }
    string_val: "dense/kernel" string_val: "global_step" string_val: "counts" } } } }
node { name: "save" op: "Save" input: "filename" input: "names" input: "weights" input: "global_step" input: "counts"
  attr { key: "T" value { list { type: DT_FLOAT type: DT_INT64 type: DT_INT32 } } } }
node { name: "top" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { size: 2 } }
    float_val: 1 float_val: 2 float_val: 3 float_val: 4 } } } }
node { name: "bottom" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { size: 2 } }
    float_val: 5 float_val: 6 float_val: 7 float_val: 8 } } } }
node { name: "sliced_names" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
  attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 2 } }
    string_val: "embedding" string_val: "embedding" } } } }
node { name: "slices" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
  attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 2 } }
    string_val: "4 2 0,2:-" string_val: "4 2 2,2:-" } } } }
node { name: "save_slices" op: "SaveSlices" input: "sliced_filename" input: "sliced_names" input: "slices"
  input: "top" input: "bottom" attr { key: "T" value { list { type: DT_FLOAT type: DT_FLOAT } } } }
PBTXT
"$tstudio" run "$work/v1_save.pbtxt" --feed "filename=\"$work/v1_whole.ckpt\"" \
    --feed "sliced_filename=\"$work/v1_sliced.ckpt\"" --target save --target save_slices >/dev/null

# Seeds are written over by name; other files (regression inputs, named crash-*) stay.
mkdir -p "$out" "$extra"
python3 - "$root" "$work" "$out" "$extra" <<'EOF'
import glob, gzip, os, re, struct, sys, zipfile, zlib
root, work, out, extra = sys.argv[1:]
log = os.path.join(work, "log")

def put(directory, target, name, data):
    os.makedirs(os.path.join(directory, target), exist_ok=True)
    with open(os.path.join(directory, target, name), "wb") as f:
        f.write(data)

def read(path):
    with open(path, "rb") as f:
        return f.read()

# --- Protobuf wire format, just enough to take messages apart (no protobuf package needed).
def varint(data, i):
    value = shift = 0
    while True:
        b = data[i]; i += 1
        value |= (b & 0x7F) << shift; shift += 7
        if b < 0x80:
            return value, i

def fields(data):
    """(field number, wire type, value bytes or int, raw field bytes) of a message."""
    i = 0
    while i < len(data):
        start = i
        key, i = varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(data, i)
        elif wire == 1:
            value = data[i:i + 8]; i += 8
        elif wire == 2:
            n, i = varint(data, i); value = data[i:i + n]; i += n
        elif wire == 5:
            value = data[i:i + 4]; i += 4
        else:
            raise ValueError("wire type %d" % wire)
        yield number, wire, value, data[start:i]

# --- TFRecord framing: records kept whole (length, its CRC, data, its CRC).
def records(data):
    i = 0
    while i + 12 <= len(data):
        (n,) = struct.unpack("<Q", data[i:i + 8])
        yield data[i:i + 12 + n + 4], data[i + 12:i + 12 + n]
        i += 12 + n + 4

# --- Text GraphDefs cut to the nodes one output needs (top-level "node {" blocks).
def pruned_pbtxt(text, outputs):
    blocks = re.findall(r"^node \{\n.*?^\}\n", text, re.S | re.M)
    by_name = {re.search(r'^  name: "([^"]*)"', b, re.M).group(1): b for b in blocks}
    keep, todo = set(), list(outputs)
    while todo:
        name = todo.pop()
        if name in keep or name not in by_name:
            continue
        keep.add(name)
        for i in re.findall(r'^  input: "\^?([^":]*)', by_name[name], re.M):
            todo.append(i)
    return "".join(b for n, b in by_name.items() if n in keep).encode()

forward = open(os.path.join(work, "tiny_forward.pbtxt")).read()
train_graph = open(os.path.join(log, "graph.pbtxt")).read()

# graph_def_text: pieces of the tiny forward and training graphs, and the whole forward graph (extra).
put(out, "graph_def_text", "dense_relu.pbtxt", pruned_pbtxt(forward, ["dense/Relu"]))
put(out, "graph_def_text", "kernel_init.pbtxt", pruned_pbtxt(forward, ["dense/kernel/Initializer/random_uniform"]))
put(out, "graph_def_text", "accuracy.pbtxt", pruned_pbtxt(forward, ["accuracy/Equal"]))
put(extra, "graph_def_text", "tiny_forward.pbtxt", forward.encode())
put(extra, "graph_def_text", "tiny_train.pbtxt", train_graph.encode())

# graph_def: the frozen forward graph (binary, weights as constants).
put(out, "graph_def", "frozen.pb", read(os.path.join(work, "frozen.pb")))

# event_file: the training run's records: file_version, summaries (scalars, histograms), tagged run
# metadata; the graph and meta graph events only in extra (tens of KB). Event fields: graph_def 4,
# summary 5, meta_graph_def 9, tagged_run_metadata 8.
events = read(glob.glob(os.path.join(log, "events.out.tfevents.*"))[0])
small, run_metadata = [], []
for framed, payload in records(events):
    numbers = {f[0] for f in fields(payload)}
    if numbers & {4, 9}:
        continue
    if 8 in numbers:
        for number, _, value, _ in fields(payload):
            if number == 8:
                run_metadata += [v for n, _, v, _ in fields(value) if n == 2]
        continue
    small.append(framed)
put(out, "event_file", "summaries.tfevents", b"".join(small))
put(out, "event_file", "first_record.tfevents", small[0])
put(extra, "event_file", "whole_run.tfevents", events)

# tfrecord: the summary records as a TFRecord file, uncompressed, ZLIB and GZIP (first byte 0, 1, 2).
plain = b"".join(small[:4])
put(out, "tfrecord", "plain.tfrecord", b"\x00" + plain)
put(out, "tfrecord", "zlib.tfrecord", b"\x01" + zlib.compress(plain))
put(out, "tfrecord", "gzip.tfrecord", b"\x02" + gzip.compress(plain, mtime=0))

# run_metadata: the RunMetadata of a profiled training step, as the profiler reads a .pb trace (whole
# in extra); the committed seed keeps its step_stats (field 1) with a dozen NodeExecStats per device
# (StepStats.dev_stats 1, DeviceStepStats.node_stats 2).
def length_delimited(number, payload):
    out = bytearray(); key = (number << 3) | 2
    for v in (key, len(payload)):
        while v >= 0x80:
            out.append((v & 0x7F) | 0x80); v >>= 7
        out.append(v)
    return bytes(out) + payload
if run_metadata:
    whole = min(run_metadata, key=len)
    put(extra, "run_metadata", "train_step.pb", whole)
    step_stats = b""
    for number, _, value, raw in fields(whole):
        if number != 1:
            continue
        for dnum, _, device, draw in fields(value):
            if dnum != 1:
                continue
            kept, nodes = b"", 0
            for fnum, _, _, fraw in fields(device):
                if fnum == 2:
                    nodes += 1
                    if nodes > 12:
                        continue
                kept += fraw
            step_stats += length_delimited(1, kept)
    put(out, "run_metadata", "train_step_head.pb", length_delimited(1, step_stats))

# meta_graph: the training MetaGraphDef (extra); without its stripped OpDefs (meta_info_def, field 1)
# it is still tens of KB, so the committed seed is the frozen graph's: MetaGraphDef.graph_def (2).
meta = read(os.path.join(log, "model.ckpt-2.meta"))
put(extra, "meta_graph", "train.meta", meta)
frozen = read(os.path.join(work, "frozen.pb"))
put(out, "meta_graph", "frozen.meta", length_delimited(2, frozen))
for n, _, value, raw in fields(meta):
    if n == 3:  # saver_def
        put(out, "meta_graph", "saver_only.meta", length_delimited(2, frozen) + raw)

# checkpoint: 4 bytes little-endian index size, the .index, then the data shard.
for step in (0, 2):
    index = read(os.path.join(log, "model.ckpt-%d.index" % step))
    data = read(os.path.join(log, "model.ckpt-%d.data-00000-of-00001" % step))
    put(out, "checkpoint", "step%d.ckpt" % step, struct.pack("<I", len(index)) + index + data)

# saved_model: 4 bytes little-endian size and saved_model.pb, 4 bytes and variables.index, then the
# data shard (saved_model_fuzzer.cpp). The export's whole file goes to extra; the committed seed keeps
# its MetaGraphDef without the stripped OpDefs (MetaGraphDef.meta_info_def 1 keeps its tags 4 only;
# SavedModel.meta_graphs 2).
def saved_model_seed(model, index, data):
    return struct.pack("<I", len(model)) + model + struct.pack("<I", len(index)) + index + data
exported = os.path.join(work, "saved_model")
model = read(os.path.join(exported, "saved_model.pb"))
index = read(os.path.join(exported, "variables", "variables.index"))
data = read(os.path.join(exported, "variables", "variables.data-00000-of-00001"))
put(extra, "saved_model", "exported.sm", saved_model_seed(model, index, data))
small_model = b""
for number, _, value, raw in fields(model):
    if number != 2:
        small_model += raw
        continue
    meta = b""
    for mnum, _, mvalue, mraw in fields(value):
        if mnum == 1:
            meta += length_delimited(1, b"".join(r for n, _, _, r in fields(mvalue) if n == 4))
        else:
            meta += mraw
    small_model += length_delimited(2, meta)
put(out, "saved_model", "exported.sm", saved_model_seed(small_model, index, data))
put(out, "saved_model", "no_variables.sm", saved_model_seed(small_model, b"", b""))

# v1_checkpoint: the two table files the Save and SaveSlices ops wrote.
put(out, "v1_checkpoint", "save.ckpt", read(os.path.join(work, "v1_whole.ckpt")))
put(out, "v1_checkpoint", "save_slices.ckpt", read(os.path.join(work, "v1_sliced.ckpt")))

# npy: what tstudio run wrote for each fetched tensor (float32, int64, bool); npz: them zipped.
npys = sorted(glob.glob(os.path.join(work, "npy", "*.npy")))
for path in npys:
    put(out, "npy", os.path.basename(path), read(path))
keys = ["x", "y", "images", "labels"]
for method, name in ((zipfile.ZIP_STORED, "stored.npz"), (zipfile.ZIP_DEFLATED, "deflated.npz")):
    path = os.path.join(work, name)
    with zipfile.ZipFile(path, "w", method) as z:
        for key, npy in zip(keys, npys):
            z.writestr(key + ".npy", read(npy))
    put(out, "npz", name, read(path))
with zipfile.ZipFile(os.path.join(work, "arr.npz"), "w") as z:
    z.writestr("arr_0.npy", read(npys[0]))
put(out, "npz", "arr_0.npz", read(os.path.join(work, "arr.npz")))

# chrome_trace: a run of the frozen graph (the training step's trace in extra).
put(out, "chrome_trace", "frozen_run.json", read(os.path.join(work, "run_trace.json")))
put(extra, "chrome_trace", "train_step.json", read(os.path.join(work, "train_trace.json")))

# tsproj: the shipped example projects and the tiny one.
for path in sorted(glob.glob(os.path.join(root, "examples", "projects", "*.tsproj"))):
    put(out, "tsproj", os.path.basename(path), read(path))
put(out, "tsproj", "tiny.tsproj", read(os.path.join(work, "tiny.tsproj")))

# tensor_slice, breakpoint: the forms their documentation (engine/debugger/*.h) and tstudio debug's
# help give. feed_json: first byte the dtype index of feed_json_fuzzer.cpp, then --feed's JSON.
for i, text in enumerate(["[::5, :2]", "[3]", "[1:-1, ..., 0]", "[None, :]", "", "[::-1, -1]"]):
    put(out, "tensor_slice", "slice%d.txt" % i, text.encode())
for i, text in enumerate(["node:dense/MatMul", "op:Log if has_nan", "regex:^dense if max > 100", "any if has_inf_or_nan",
                          "node:while/add if iteration == 3", "dense/Relu", "op:MatMul if abs_max >= 1e3"]):
    put(out, "breakpoint", "breakpoint%d.txt" % i, text.encode())
for i, (dtype, text) in enumerate([(0, "[[0.5, -1.0], [2.0, 0.25]]"), (3, "[1, 0]"), (7, "[true, false]"),
                                   (8, '["a", "b"]'), (1, '["NaN", "Infinity", -0.0]'), (2, "7"),
                                   (10, "[[1, 2], [3, 4]]"), (4, "[[[255]]]")]):
    put(out, "feed_json", "feed%d.json" % i, bytes([dtype]) + text.encode())
EOF

# The shared fixtures, when present: real TensorFlow files, into the uncommitted extra corpus only.
if [ -n "${TSTUDIO_FIXTURES:-}" ] && [ -d "$TSTUDIO_FIXTURES" ]; then
    add() { mkdir -p "$extra/$1"; find "$TSTUDIO_FIXTURES" -type f -name "$2" -size -1M -exec cp -t "$extra/$1" {} + 2>/dev/null || true; }
    add graph_def '*.pb'
    add graph_def_text '*.pbtxt'
    add meta_graph '*.meta'
    add event_file '*tfevents*'
    add npy '*.npy'
    add npz '*.npz'
    add tsproj '*.tsproj'
    add chrome_trace '*.json'
    # SavedModels packed as saved_model_fuzzer.cpp reads them (saved_model.pb, index, data shard).
    python3 - "$TSTUDIO_FIXTURES" "$extra/saved_model" <<'PY'
import os, struct, sys
fixtures, out = sys.argv[1:]
os.makedirs(out, exist_ok=True)
def read(path):
    with open(path, "rb") as f:
        return f.read()
for directory, _, files in os.walk(fixtures):
    if "saved_model.pb" not in files:
        continue
    model = read(os.path.join(directory, "saved_model.pb"))
    index_path = os.path.join(directory, "variables", "variables.index")
    shard_path = os.path.join(directory, "variables", "variables.data-00000-of-00001")
    index = read(index_path) if os.path.exists(index_path) else b""
    data = read(shard_path) if index and os.path.exists(shard_path) else b""
    if len(model) + len(index) + len(data) > (1 << 20):
        continue
    name = os.path.relpath(directory, fixtures).replace(os.sep, "_") + ".sm"
    with open(os.path.join(out, name), "wb") as f:
        f.write(struct.pack("<I", len(model)) + model + struct.pack("<I", len(index)) + index + data)
PY
fi

du -sh "$out"/* | sed 's|'"$root"'/||'
