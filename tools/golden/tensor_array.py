#!/usr/bin/python3
"""Golden values of TensorArray op sequences, computed with NumPy (Debian's python3-numpy), never with
TensorStudio's engine, for tests/engine/kernels/test_tensor_array_kernels.cpp (numpyGoldenSequences).

Each case names a sequence of TensorArray ops the test builds with the same ops (TensorArrayV3,
then writes, scatters or splits, then reads, gathers or concatenations) and gives its inputs and the
outputs NumPy computes for them. Semantics from TensorFlow 1.15's documentation and kernels: a
write puts a tensor at an index; scatter writes value[k] at indices[k]; split cuts value along
dimension 0 into pieces of the given lengths, piece k at index k; gather stacks the elements at the
indices along a new dimension 0; concat joins every element along dimension 0 and gives their
lengths; an element never written reads as zeros when the element shape is fully defined; writes of
one index of a gradient array (TensorArrayGradV3) add up, and its indices the forward array wrote but
it did not read as zeros of the forward element's shape.

Run: /usr/bin/python3 tools/golden/tensor_array.py
"""
import json
import os

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "tests", "data", "golden", "tensor_array.json")

DTYPES = {np.float32: "DT_FLOAT", np.float64: "DT_DOUBLE", np.int32: "DT_INT32", np.int64: "DT_INT64"}


def array(a):
    a = np.asarray(a)
    return {"dtype": DTYPES[a.dtype.type], "shape": list(a.shape), "values": a.reshape(-1).tolist()}


def main():
    rng = np.random.default_rng(1515)
    cases = []

    # Three [2,3] float elements written at 2, 0, 1 and read back at 0, 1, 2.
    w = [rng.standard_normal((2, 3)).astype(np.float32) for _ in range(3)]
    write_at = [2, 0, 1]
    element = {i: v for i, v in zip(write_at, w)}
    cases.append({"name": "write_read_float", "inputs": [array(v) for v in w], "write_at": write_at,
                  "read_at": [0, 1, 2], "outputs": [array(element[i]) for i in [0, 1, 2]]})

    # Scatter of int32 rows at a permutation, gathered at other indices (clear_after_read=false).
    v = rng.integers(-50, 50, size=(5, 2)).astype(np.int32)
    scatter_at = [3, 0, 4, 1, 2]
    stored = np.empty_like(v)
    stored[scatter_at] = v
    gather_at = [1, 3, 3, 0]
    cases.append({"name": "scatter_gather_int32", "inputs": [array(v)], "scatter_at": scatter_at,
                  "gather_at": gather_at, "outputs": [array(stored[gather_at])]})

    # Split of a [6,2] double into lengths 1, 3, 0, 2; concat gives it back with the lengths, and a
    # second array split the same way reads piece 1 alone.
    v = rng.standard_normal((6, 2))
    lengths = np.array([1, 3, 0, 2], dtype=np.int64)
    pieces = np.split(v, np.cumsum(lengths)[:-1])
    cases.append({"name": "split_concat_double", "inputs": [array(v), array(lengths)],
                  "outputs": [array(np.concatenate(pieces)), array(lengths), array(pieces[1])]})

    # Elements of different first dimensions written one by one, then concatenated.
    w = [rng.standard_normal((n, 2)).astype(np.float32) for n in (1, 3, 0, 2)]
    cases.append({"name": "write_concat_ragged", "inputs": [array(x) for x in w],
                  "outputs": [array(np.concatenate(w)), array(np.array([x.shape[0] for x in w], dtype=np.int64))]})

    # A dynamically sized array of element shape [2] made with size 0: writes at 3 and 0 grow it to
    # 4; the stack has zeros at 1 and 2.
    a = rng.standard_normal(2).astype(np.float32)
    b = rng.standard_normal(2).astype(np.float32)
    stacked = np.stack([b, np.zeros(2, np.float32), np.zeros(2, np.float32), a])
    cases.append({"name": "dynamic_write_grows", "inputs": [array(a), array(b)],
                  "outputs": [array(np.int32(4)), array(stacked)]})

    # A gradient array of a forward array of three [2] elements: two writes at 1 add up, one at 0,
    # none at 2 (zeros).
    g1, g2, g3 = (rng.standard_normal(2).astype(np.float32) for _ in range(3))
    forward = [rng.standard_normal(2).astype(np.float32) for _ in range(3)]
    cases.append({"name": "grad_writes_aggregate", "inputs": [array(x) for x in forward + [g1, g2, g3]],
                  "outputs": [array(np.stack([g3, g1 + g2, np.zeros(2, np.float32)]))]})

    # Unstack of a [4,3] int64 tensor by scatter at range(4) and a stack by gather of range(4).
    v = rng.integers(-1000, 1000, size=(4, 3)).astype(np.int64)
    cases.append({"name": "unstack_stack_int64", "inputs": [array(v)], "outputs": [array(v)]})

    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump({"family": "tensor_array", "generator": "tools/golden/tensor_array.py", "numpy": np.__version__,
                   "cases": cases}, f, indent=1)
        f.write("\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
