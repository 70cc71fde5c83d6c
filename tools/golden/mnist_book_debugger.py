#!/usr/bin/python3
"""Golden values at every node of the book MNIST model's forward pass (tf1-mnist-book/mnist_model-29001),
for the debugger's stepping test, computed by NumPy from the checkpoint's own bytes, never by
TensorStudio's engine.

tests/engine/debugger/test_debug_mnist_book.cpp restores the checkpoint into the model's MetaGraphDef,
steps through layer2/add:0 with a DebugController attached, and compares what it shows at every node
(the paused node's inputs, then each executed node's output) with these arrays.

The checkpoint reader, the MNIST reader and the reference arithmetic are those of
tools/golden/mnist_checkpoint.py (imported, not repeated): an independent LevelDB-table and tensor-bundle
reader with CRC checks; MatMul accumulates in float64 and rounds once, bias adds and Relu in float32.

Output (tests/data/golden/mnist_book_debugger/): one float32 .npy per node, named after the node with
'/' as '__', for the first IMAGE_COUNT test images; manifest.json. Run: /usr/bin/python3 tools/golden/mnist_book_debugger.py
"""
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mnist_checkpoint as reference  # noqa: E402 (the path is set just above)

OUT_DIR = os.path.join(reference.ROOT, "tests", "data", "golden", "mnist_book_debugger")
IMAGE_COUNT = 4


def main():
    fixtures = reference.fixtures_dir()
    x, _ = reference.mnist(fixtures, IMAGE_COUNT)
    with tempfile.TemporaryDirectory() as tmp:
        bundle = reference.Bundle(os.path.join(fixtures, reference.CHECKPOINT), reference.load_bundle_pb2(tmp))
    w1, b1, w2, b2 = (bundle.tensor(n) for n in ("layer1/weights", "layer1/biases", "layer2/weights", "layer2/biases"))
    nodes = {}  # the images themselves are fixture data: the test reads them from the fixtures
    nodes["layer1/MatMul"] = reference.matmul(x, w1)
    nodes["layer1/add"] = nodes["layer1/MatMul"] + b1
    nodes["layer1/Relu"] = np.maximum(nodes["layer1/add"], np.float32(0))
    nodes["layer2/MatMul"] = reference.matmul(nodes["layer1/Relu"], w2)
    nodes["layer2/add"] = nodes["layer2/MatMul"] + b2
    assert np.allclose(nodes["layer2/add"], reference.logits(x, w1, b1, w2, b2))
    files = {}
    for name, value in nodes.items():
        assert value.dtype == np.float32, name
        files[name] = name.replace("/", "__") + ".npy"
        np.save(os.path.join(OUT_DIR, files[name]), value)
    manifest = {
        "generator": "tools/golden/mnist_book_debugger.py", "numpy": np.__version__,
        "checkpoint": reference.CHECKPOINT, "index_sha256": bundle.index_sha256,
        "images": {"file": reference.IMAGES_FILE, "count": IMAGE_COUNT,
                   "preprocessing": "first images as float32 [count,784], float32(pixel) / float32(255)"},
        "model": "layer1/Relu = relu(x W1 + b1); layer2/add = layer1/Relu W2 + b2",
        "rtol": reference.RTOL, "nodes": files,
    }
    with open(os.path.join(OUT_DIR, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(f"wrote {len(files)} node values for {IMAGE_COUNT} images to {OUT_DIR}")


if __name__ == "__main__":
    os.makedirs(OUT_DIR, exist_ok=True)
    main()
