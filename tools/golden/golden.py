#!/usr/bin/python3
"""Golden cases for CPU kernel tests, computed with NumPy (Debian's python3-numpy), never with
TensorStudio's engine. Each family script builds cases with Manifest and saves them under
tests/data/golden/<family>/ with a manifest tests/data/golden/<family>.json that
tests/support/kernel_harness.cpp reads.

A case is one node: a text-format NodeDef without name and inputs (attrs the op defaults may be
left out), input arrays, and either expected output arrays with a tolerance (NumPy's allclose
rule: |actual - expected| <= atol + rtol * |expected|) or an expected error substring.

Run a family with /usr/bin/python3 tools/golden/<family>.py. Never name a family script after a
standard module (random.py would shadow Python's random, which NumPy imports).
"""
import json
import os
import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GOLDEN = os.path.join(ROOT, "tests", "data", "golden")

DTYPES = {
    np.float16: "DT_HALF", np.float32: "DT_FLOAT", np.float64: "DT_DOUBLE", np.int8: "DT_INT8",
    np.int16: "DT_INT16", np.int32: "DT_INT32", np.int64: "DT_INT64", np.uint8: "DT_UINT8",
    np.uint16: "DT_UINT16", np.uint32: "DT_UINT32", np.uint64: "DT_UINT64", np.bool_: "DT_BOOL", np.complex64: "DT_COMPLEX64", np.complex128: "DT_COMPLEX128",
}


def json_number(x):
    """A float for JSON, with NaN and infinities as the strings "nan", "inf", "-inf" (JSON has no such numbers)."""
    x = float(x)
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def dt(dtype):
    """TensorFlow's enum name for a NumPy dtype, e.g. dt(np.float32) == 'DT_FLOAT'."""
    return DTYPES[np.dtype(dtype).type]


def node(op, **attrs):
    """A text-format NodeDef: node('MatMul', T=np.float32, transpose_a=True).
    Values: NumPy dtypes -> type, bool -> b, int -> i, float -> f, str -> s,
    list of int -> list { i }, list of str -> list { s }, list of dtypes -> list { type }."""
    parts = [f"op: '{op}'"]
    for key, value in attrs.items():
        if isinstance(value, type) and issubclass(value, np.generic) or isinstance(value, np.dtype):
            v = f"type: {dt(value)}"
        elif isinstance(value, bool):
            v = f"b: {'true' if value else 'false'}"
        elif isinstance(value, int):
            v = f"i: {value}"
        elif isinstance(value, float):
            v = f"f: {value!r}"
        elif isinstance(value, str):
            v = f"s: '{value}'"
        elif isinstance(value, (list, tuple)) and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            v = "list { " + " ".join(f"i: {x}" for x in value) + " }"
        elif isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value):
            v = "list { " + " ".join(f"s: '{x}'" for x in value) + " }"
        elif isinstance(value, (list, tuple)):
            v = "list { " + " ".join(f"type: {dt(x)}" for x in value) + " }"
        else:
            raise TypeError(f"attr {key}: cannot encode {value!r}")
        parts.append(f"attr {{ key: '{key}' value {{ {v} }} }}")
    return " ".join(parts)


class Manifest:
    def __init__(self, family):
        self.family = family
        self.dir = os.path.join(GOLDEN, family)
        os.makedirs(self.dir, exist_ok=True)
        self.cases = []
        self.names = set()

    def _save(self, case, role, index, array):
        rel = f"{self.family}/{case}.{role}{index}.npy"
        # np.asarray with order="C" keeps 0-d arrays 0-d (np.ascontiguousarray would make them [1]).
        np.save(os.path.join(GOLDEN, rel), np.asarray(array, order="C"))
        return rel

    def case(self, name, node_text, inputs, outputs, rtol=1e-6, atol=1e-6):
        """Expected outputs (arrays; None for an output NumPy does not define)."""
        assert name not in self.names, name
        self.names.add(name)
        self.cases.append({
            "name": name, "node": node_text,
            "inputs": [self._save(name, "in", i, np.asarray(a)) for i, a in enumerate(inputs)],
            "outputs": [None if o is None else self._save(name, "out", i, np.asarray(o)) for i, o in enumerate(outputs)],
            "rtol": rtol, "atol": atol,
        })

    def error(self, name, node_text, inputs, substring):
        """The kernel must fail with a message containing `substring`."""
        assert name not in self.names, name
        self.names.add(name)
        self.cases.append({
            "name": name, "node": node_text,
            "inputs": [self._save(name, "in", i, np.asarray(a)) for i, a in enumerate(inputs)],
            "error": substring,
        })

    def write(self):
        # Remove arrays of cases that no longer exist, then write the manifest.
        keep = {p.split("/", 1)[1] for c in self.cases for p in c["inputs"] + c.get("outputs", []) if p}
        for f in os.listdir(self.dir):
            if f.endswith(".npy") and f not in keep:
                os.remove(os.path.join(self.dir, f))
        with open(os.path.join(GOLDEN, f"{self.family}.json"), "w") as f:
            json.dump({"family": self.family, "generator": f"tools/golden/{self.family}.py",
                       "numpy": np.__version__, "cases": self.cases}, f, indent=1)
            f.write("\n")
        print(f"{self.family}: {len(self.cases)} cases")
