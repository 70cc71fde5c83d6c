#!/usr/bin/python3
"""Golden cases for the debugger's NumPy basic indexing (engine/debugger/tensor_slice.h), computed by
NumPy itself (Python evaluates each slice text on an array), never by TensorStudio's engine.

Each case indexes arange(prod(shape)).reshape(shape), so the selected values ARE the row-major source
positions: the test can rebuild the expectation for any dtype from them. Writes
tests/data/golden/tensor_slice.json with, per case, the input shape ("input"), the slice text and either the result
shape ("output") and positions ("values") or NumPy's IndexError text ("array" as NumPy says; our texts say "tensor").

Run with /usr/bin/python3 tools/golden/tensor_slice.py.
"""
import json
import os
import sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GOLDEN  # noqa: E402

FAMILY = "tensor_slice"

# Hand-picked cases: (shape, slice text). The text is what a person types after a tensor name.
HAND = [
    # rank 0
    ((), ""), ((), "[...]"), ((), "[None]"), ((), "[None, None]"), ((), "[..., None]"), ((), "[0]"),
    ((), "[:]"),
    # rank 1: positive/negative indices, steps, clamping, empty results
    ((7,), "[0]"), ((7,), "[6]"), ((7,), "[-1]"), ((7,), "[-7]"), ((7,), "[7]"), ((7,), "[-8]"),
    ((7,), "[:]"), ((7,), "[::]"), ((7,), "[2:5]"), ((7,), "[-3:]"), ((7,), "[:-3]"), ((7,), "[::2]"),
    ((7,), "[1::3]"), ((7,), "[::-1]"), ((7,), "[::-2]"), ((7,), "[5:1:-1]"), ((7,), "[-2:-6:-2]"),
    ((7,), "[5:1]"), ((7,), "[1:5:-1]"), ((7,), "[3:3]"), ((7,), "[100:]"), ((7,), "[:100]"),
    ((7,), "[-100:100]"), ((7,), "[100:-100:-1]"), ((7,), "[-100::-1]"), ((7,), "[:-100:-1]"),
    ((7,), "[::100]"), ((7,), "[::-100]"), ((7,), "[6:-8:-1]"), ((7,), "[-9223372036854775808:9223372036854775807]"),
    ((7,), "[9223372036854775807::-9223372036854775807]"), ((7,), "[::-9223372036854775808]"),
    ((7,), "[None]"), ((7,), "[:, None]"), ((7,), "[np.newaxis, 3]"), ((7,), "[..., 2]"), ((7,), "[2, ...]"),
    ((7,), "[0, 0]"), ((7,), "[+3]"), ((7,), "[- 2]"), ((7,), "[--2]"), ((7,), "[ 1 : 6 : 2 ]"), ((7,), "[2,]"),
    ((0,), "[:]"), ((0,), "[::-1]"), ((0,), "[0]"), ((0,), "[-1]"), ((0,), "[None, 1:]"),
    # rank 2
    ((5, 3), "[::5, :2]"), ((5, 3), "[1]"), ((5, 3), "[-1]"), ((5, 3), "[:, 1]"), ((5, 3), "[:, -1]"),
    ((5, 3), "[1, 2]"), ((5, 3), "[-5, -3]"), ((5, 3), "[4, 3]"), ((5, 3), "[5, 0]"), ((5, 3), "[0, -4]"),
    ((5, 3), "[::-1, ::-1]"), ((5, 3), "[1:4, ::2]"), ((5, 3), "[..., 0]"), ((5, 3), "[0, ...]"),
    ((5, 3), "[..., 7]"), ((5, 3), "[None, 0, 7]"), ((5, 3), "[0, 0, 0]"), ((5, 3), "[None, 0, 0, 0]"),
    ((5, 3), "[..., 0, 0, 0]"), ((5, 3), "[99, :, 0]"), ((5, 3), "[7, 9]"), ((5, 3), "[None, :, None, :, None]"),
    ((5, 3), "[3:1, :]"), ((5, 3), "[:, 3:]"), ((5, 3), "[2:, None]"), ((5, 3), "[..., None]"),
    ((5, 3), "[None, ...]"), ((5, 3), "[None, ..., None]"), ((5, 3), "[...]"), ((5, 3), ""),
    ((0, 4), "[:, 1]"), ((0, 4), "[0]"), ((4, 0), "[1]"), ((4, 0), "[1, 0]"), ((4, 0), "[::-1, :]"),
    # rank 3 and 4
    ((2, 3, 4), "[1]"), ((2, 3, 4), "[:, 1]"), ((2, 3, 4), "[..., 1]"), ((2, 3, 4), "[1, ..., 1]"),
    ((2, 3, 4), "[-1, -1, -1]"), ((2, 3, 4), "[::-1, 1:, ::3]"), ((2, 3, 4), "[:, None, 2, ::-2]"),
    ((2, 3, 4), "[0, 0, 0, 0]"), ((2, 3, 4), "[1, 3]"), ((2, 3, 4), "[:, :, 4]"), ((2, 3, 4), "[..., -5]"),
    ((2, 3, 4, 5), "[1, ..., ::2]"), ((2, 3, 4, 5), "[:, 1:3, None, -1, 1:4]"), ((2, 3, 4, 5), "[..., 0, :]"),
    ((2, 3, 4, 5), "[-2, 2, 3, 4]"), ((2, 3, 4, 5), "[::-1, ::-1, ::-1, ::-1]"), ((2, 3, 4, 5), "[0, 1]"),
    ((2, 3, 4, 5), "[:, :, :, :, :]"), ((2, 3, 4, 5), "[1, 2, 3, 5]"), ((3, 1, 2, 1), "[..., 0]"),
]


def evaluate(shape, text):
    """(result shape, positions) or NumPy's error text for `text` applied to arange reshaped."""
    a = np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).reshape(shape)
    try:
        # "" selects everything; as an index that is the empty tuple.
        result = a[()] if text == "" else eval("a" + text, {"np": np, "a": a})  # noqa: S307 (our own texts)
    except IndexError as error:
        return {"error": str(error)}
    result = np.asarray(result)
    return {"output": list(result.shape), "values": [int(v) for v in result.ravel()]}


def random_index(rng, rank, dims):
    """A random basic index for an array of `dims`: indices, ranges, at most one ellipsis, Nones."""
    items = []
    axis = 0
    used_ellipsis = False
    # Mostly as many items as axes or fewer; one too many now and then (errors are cheap to cover).
    for _ in range(rng.integers(1, rank + 2) + (rng.random() < 0.1)):
        r = rng.random()
        size = dims[axis] if axis < rank else 3
        if r < 0.1:
            items.append("None")
        elif r < 0.17 and not used_ellipsis:
            items.append("...")
            used_ellipsis = True
        elif r < 0.35:
            items.append(str(int(rng.integers(-size - 2, size + 2))))
            axis += 1
        else:
            def part(allow_none=True):
                if allow_none and rng.random() < 0.45:
                    return ""
                return str(int(rng.integers(-size - 3, size + 4)))
            start, stop = part(), part()
            if rng.random() < 0.5:
                step = "" if rng.random() < 0.2 else str(int(rng.choice([-3, -2, -1, 1, 2, 3, 5])))
                items.append(f"{start}:{stop}:{step}")
            else:
                items.append(f"{start}:{stop}")
            axis += 1
    return "[" + ", ".join(items) + "]"


def main():
    rng = np.random.default_rng(20240812)
    cases = []
    for shape, text in HAND:
        cases.append({"input": list(shape), "slice": text, **evaluate(shape, text)})
    for _ in range(400):
        rank = int(rng.integers(0, 5))
        dims = [0 if rng.random() < 0.06 else int(rng.integers(1, 6 if rank < 4 else 4)) for _ in range(rank)]
        text = random_index(rng, rank, dims)
        cases.append({"input": dims, "slice": text, **evaluate(tuple(dims), text)})
    for i, case in enumerate(cases):
        case["name"] = f"{i:03d} {case['input']}{case['slice']}"
    with open(os.path.join(GOLDEN, f"{FAMILY}.json"), "w") as f:
        # One case a line, so that a change to the script shows as a readable diff.
        head = json.dumps({"family": FAMILY, "generator": f"tools/golden/{FAMILY}.py", "numpy": np.__version__})
        f.write(head[:-1] + ', "cases": [\n' + ",\n".join(json.dumps(c) for c in cases) + "\n]}\n")
    errors = sum("error" in c for c in cases)
    print(f"{FAMILY}: {len(cases)} cases ({errors} errors)")


if __name__ == "__main__":
    main()
