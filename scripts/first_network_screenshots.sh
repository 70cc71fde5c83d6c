#!/usr/bin/env bash
# Makes the README's "First network in five minutes" screenshots with the program itself: the
# network of the walkthrough (MNIST t10k -> Dense(64, relu) -> Dense(10) -> sparse softmax
# cross-entropy -> Adam) as the node editor saves it, shown in the editor with its data preview,
# then trained from the Training panel with the dashboard following.
#   scripts/first_network_screenshots.sh MNIST_DIR [OUT_DIR]
# MNIST_DIR holds t10k-images-idx3-ubyte(.gz) and t10k-labels-idx1-ubyte(.gz).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MNIST="$(cd "${1:?usage: $0 MNIST_DIR [OUT_DIR]}" && pwd)"
OUT="${2:-$ROOT/docs/screenshots}"
mkdir -p "$OUT"
APP="${TSTUDIO_BUILD_DIR:-$ROOT/build}/app/tensorstudio"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export QT_QPA_PLATFORM=offscreen

# The document the walkthrough builds: layer nodes as the editor keeps them, with their default names.
cat > "$WORK/first_network.pbtxt" <<PBTXT
node { name: "mnist" op: "MnistSource" attr { key: "_tstudio_layer" value { b: true } }
  attr { key: "set" value { s: "t10k" } } attr { key: "dir" value { s: "$MNIST" } } }
node { name: "dense" op: "Dense" input: "mnist" attr { key: "_tstudio_layer" value { b: true } }
  attr { key: "units" value { i: 64 } } attr { key: "activation" value { s: "relu" } } }
node { name: "dense_1" op: "Dense" input: "dense" attr { key: "_tstudio_layer" value { b: true } }
  attr { key: "units" value { i: 10 } } }
node { name: "sparse_softmax_cross_entropy_loss" op: "SparseSoftmaxCrossEntropy" input: "mnist:1" input: "dense_1"
  attr { key: "_tstudio_layer" value { b: true } } }
node { name: "adam" op: "Adam" input: "sparse_softmax_cross_entropy_loss" attr { key: "_tstudio_layer" value { b: true } } }
PBTXT

"$APP" --screenshot "$OUT/first-network-editor.png" --panel editor --select mnist "$WORK/first_network.pbtxt"
"$APP" --screenshot "$OUT/first-network-editor-zh_CN.png" --language zh_CN --panel editor --select sparse_softmax_cross_entropy_loss \
    "$WORK/first_network.pbtxt"
"$APP" --screenshot "$OUT/first-network-training.png" --size 1280x1080 --panel training --train-steps 2000 \
    "$WORK/first_network.pbtxt"
echo "Wrote $OUT/first-network-{editor,editor-zh_CN,training}.png"
