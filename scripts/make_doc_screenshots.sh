#!/usr/bin/env bash
# Makes the guide's (docs/guide/images/) and the README's (docs/images/) screenshots with the program
# itself, offscreen at 1280x800, and shrinks each to a 128-colour PNG (Debian's python3-pil) so that
# the in-app help stays small.
#   scripts/make_doc_screenshots.sh [FIXTURES_DIR]
# FIXTURES_DIR (default $TSTUDIO_FIXTURES, else ../shared/fixtures) adds the pictures that need
# TensorFlow-written files: the record viewer on a TFRecord; without it they are skipped, saying so.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FIXTURES="${1:-${TSTUDIO_FIXTURES:-$ROOT/../shared/fixtures}}"
APP="${TSTUDIO_BUILD_DIR:-$ROOT/build}/app/tensorstudio"
GUIDE="$ROOT/docs/guide/images"
README_IMAGES="$ROOT/docs/images"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export QT_QPA_PLATFORM=offscreen
mkdir -p "$GUIDE" "$README_IMAGES"
[ -x "$APP" ] || { echo "$APP is missing: build the tensorstudio target first" >&2; exit 1; }

shot() { # shot OUT.png ARGS...: one 1280x800 capture into the work folder
    local out="$1"
    shift
    "$APP" --screenshot "$WORK/$out" --size 1280x800 "$@" >/dev/null
}

# The walkthrough's network, as the node editor keeps it: generated spirals -> Dense(64, relu) ->
# Dense(2) -> sparse softmax cross-entropy -> Adam (layer nodes with their default names).
cat > "$WORK/first_network.pbtxt" <<'PBTXT'
node { name: "spirals" op: "SpiralsSource" attr { key: "_tstudio_layer" value { b: true } } }
node { name: "dense" op: "Dense" input: "spirals" attr { key: "_tstudio_layer" value { b: true } }
  attr { key: "units" value { i: 64 } } attr { key: "activation" value { s: "relu" } } }
node { name: "dense_1" op: "Dense" input: "dense" attr { key: "_tstudio_layer" value { b: true } }
  attr { key: "units" value { i: 2 } } }
node { name: "sparse_softmax_cross_entropy_loss" op: "SparseSoftmaxCrossEntropy" input: "spirals:1" input: "dense_1"
  attr { key: "_tstudio_layer" value { b: true } } }
node { name: "adam" op: "Adam" input: "sparse_softmax_cross_entropy_loss" attr { key: "_tstudio_layer" value { b: true } } }
PBTXT

SPIRALS="$ROOT/examples/projects/spirals.tsproj"
shot walkthrough-editor.png --panel editor --select spirals "$WORK/first_network.pbtxt"
shot editor.png --panel editor --select labels "$SPIRALS"
# Training with the dashboard following, captured while the run goes (the core loop).
shot training.png --panel training --train-steps 600 --capture-step 400 --tab scalars "$SPIRALS"
shot profiler.png --panel profiler --train-steps 200 --select dense_1/MatMul "$SPIRALS"
shot debugger.png --panel debugger --select node:dense_1/MatMul --find dense_1/kernel/read "$SPIRALS"
shot viewer.png --panel graph --expand layer1 --select layer1/MatMul "$ROOT/examples/projects/book_mnist.pbtxt"
shot console.png --panel console "$SPIRALS"
shot session.png --panel session \
    --find "dense_2/bias ;; dense_2/BiasAdd with inputs=0.5,-1,2,0.25 ;; sparse_softmax_cross_entropy_loss/value with inputs=0.5,-1,2,0.25; labels=1,0" \
    "$SPIRALS"
TFRECORD="$FIXTURES/tfrecord-example/data/test.tfrecord"
if [ -f "$TFRECORD" ]; then
    shot records.png --panel records --select 0 "$TFRECORD"
else
    echo "no $TFRECORD: records.png not made (pass the fixtures folder)" >&2
fi

# 128 colours, no dithering: text and flat widget colours stay crisp and the files stay small.
/usr/bin/python3 - "$WORK" "$GUIDE" "$README_IMAGES" <<'PY'
import os, sys
from PIL import Image
work, guide, readme = sys.argv[1:4]
def shrink(name, folder, target=None):
    image = Image.open(os.path.join(work, name)).convert("RGB")
    small = image.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    path = os.path.join(folder, target or name)
    small.save(path, optimize=True)
    print(f"{path}: {os.path.getsize(path) // 1024} KB")
for name in sorted(os.listdir(work)):
    if name.endswith(".png"):
        shrink(name, guide)
shrink("training.png", readme, "core-loop.png")
PY
