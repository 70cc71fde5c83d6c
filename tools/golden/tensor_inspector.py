#!/usr/bin/python3
"""Golden values for the debugger's tensor inspector (widgets/debugger/), computed with NumPy (Debian's
python3-numpy), never with TensorStudio's code. Writes tests/data/golden/tensor_inspector.json with:

- "element_text": how NumPy prints one element as a scalar, str(np.<dtype>(v)): shortest digits that
  round-trip in the element's own precision, positional between 1e-4 and 1e16, scientific outside
  ("1e-05", "1e+16"), ".0" on integral floats, "nan"/"inf"/"-inf", "True"/"False", complex as
  "(1+2j)", bytes as Python's bytes literal. Values are stored as JSON doubles (float16/float32
  values are exact in a double); non-finite values and negative zero as the strings "nan", "inf",
  "-inf", "-0.0"; complex as [re, im]; bytes as hex.
- "histograms": np.histogram counts of the inspector's Histogram tab. Rule chosen by TensorStudio and
  encoded here independently: NaN and infinities are left out; integer and bool tensors whose range
  spans at most 30 integers get one bin per integer (range [min - 0.5, max + 0.5]); everything else
  gets 30 equal bins over [min, max], where NumPy itself widens a zero-width range to
  [v - 0.5, v + 0.5]. The last bin holds its right edge (NumPy's rule).

Run: /usr/bin/python3 tools/golden/tensor_inspector.py
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GOLDEN, json_number  # noqa: E402

OUT = os.path.join(GOLDEN, "tensor_inspector.json")
BINS = 30


def number(x):
    """json_number, with negative zero as the string "-0.0" (JSON readers often drop its sign)."""
    if x == 0 and np.signbit(x):
        return "-0.0"
    return json_number(x)


def element_cases(rng):
    cases = []

    def add(dtype, value):
        x = np.dtype(dtype).type(value)
        if np.issubdtype(x.dtype, np.complexfloating):
            stored = [number(x.real), number(x.imag)]
        elif np.issubdtype(x.dtype, np.floating):
            stored = number(x)
        elif x.dtype == np.bool_:
            stored = bool(x)
        else:
            stored = int(x)
        cases.append({"dtype": np.dtype(dtype).name, "value": stored, "text": str(x)})

    specials = [0.0, -0.0, 1.0, -1.0, 3.0, 0.1, 1 / 3, 2 / 3, 1e-4, 9.9e-5, 1e-5, 2.5e-7, 1e16, 9.99e15,
                123456789.0, 65504.0, 1e300, 5e-324, 1e-45, 3.4028235e38, np.nan, np.inf, -np.inf, 0.5, 100.0,
                12345.678, -0.000123]
    with np.errstate(over="ignore"):
        for dtype in (np.float16, np.float32, np.float64):
            for v in specials:
                add(dtype, v)
            top = 5 if dtype == np.float16 else 20  # float16 overflows above 65504
            magnitudes = 10.0 ** rng.uniform(-9, top, 60)
            signs = np.where(rng.random(60) < 0.3, -1.0, 1.0)
            for v in magnitudes * signs:
                add(dtype, v)
            for v in rng.standard_normal(20):
                add(dtype, v)
    for dtype, values in ((np.int8, [0, -128, 127]), (np.uint8, [0, 255]), (np.int32, [0, -7, 2147483647]),
                          (np.int64, [-9223372036854775808, 9223372036854775807]),
                          (np.uint64, [18446744073709551615]), (np.int16, [-32768]), (np.uint16, [65535]),
                          (np.uint32, [4294967295])):
        for v in values:
            add(dtype, v)
    add(np.bool_, True)
    add(np.bool_, False)
    for v in (1 + 2j, -1.5 - 0.1j, 0j, 1e20 + 1j, complex(1, -0.0), 2.5j, complex(-0.0, 1), complex(np.nan, 1),
              complex(np.inf, -np.inf), 1 / 3 + 1e-5j):
        add(np.complex64, v)
        add(np.complex128, v)
    for b in (b"", b"abc", b"it's", b"say \"hi\"", b"both ' and \"", b"\x00\x01\n\t\r\\\x7f\xff", b"caf\xc3\xa9"):
        cases.append({"dtype": "bytes", "value": b.hex(), "text": str(np.bytes_(b)) if b else "b''"})
    return cases


def histogram_case(name, array):
    a = np.asarray(array)
    values = a.astype(np.float64).ravel()
    finite = values[np.isfinite(values)]
    lo, hi = float(finite.min()), float(finite.max())
    integral = np.issubdtype(a.dtype, np.integer) or a.dtype == np.bool_
    if integral and hi - lo + 1 <= BINS:
        bins, rng = int(hi - lo + 1), (lo - 0.5, hi + 0.5)
    else:
        bins, rng = BINS, (lo, hi)
    counts, edges = np.histogram(finite, bins=bins, range=rng)
    if a.dtype == np.bool_:
        stored = [bool(v) for v in a.ravel()]
    elif integral:
        stored = [int(v) for v in a.ravel()]
    else:
        stored = [json_number(v) for v in a.ravel()]
    return {"name": name, "dtype": a.dtype.name, "values": stored, "counts": [int(c) for c in counts],
            "left": float(edges[0]), "right": float(edges[-1])}


def edge_values(rng):
    """Every bin edge of a random range and its two neighbouring doubles: values whose quick index
    (v - min) * bins / (max - min) lands one bin off in both directions, so the edge checks matter."""
    while True:
        lo, hi = sorted(rng.uniform(-10, 10, 2))
        edges = np.linspace(lo, hi, BINS + 1)
        values = np.concatenate([edges, np.nextafter(edges, np.inf), np.nextafter(edges, -np.inf)])
        values = values[(values >= lo) & (values <= hi)]
        quick = np.minimum(((values - lo) * (BINS / (hi - lo))).astype(int), BINS - 1)
        if (values < edges[quick]).any() and ((values >= edges[quick + 1]) & (quick != BINS - 1)).any():
            return values


def histogram_cases(rng):
    cases = [
        histogram_case("edges_and_neighbours", edge_values(rng)),
        histogram_case("normal_f32", rng.standard_normal(500).astype(np.float32)),
        histogram_case("uniform_f64_edges", np.concatenate([rng.uniform(-3, 7, 200), [-3.0, 7.0]])),
        histogram_case("with_nonfinite", np.array([np.nan, 1.0, 2.0, np.inf, 2.5, -np.inf, 4.0, 4.0], np.float32)),
        histogram_case("constant", np.full(7, 2.5, np.float32)),
        histogram_case("labels_int32", rng.integers(0, 10, 300).astype(np.int32)),
        histogram_case("wide_int64", rng.integers(-1000, 1000, 400).astype(np.int64)),
        histogram_case("bool", rng.random(50) < 0.3),
        histogram_case("exact_edges", np.arange(31, dtype=np.float64)),
        histogram_case("half", (rng.standard_normal(100) * 4).astype(np.float16)),
    ]
    return cases


def main():
    rng = np.random.default_rng(20240812)
    out = {"source": "tools/golden/tensor_inspector.py", "numpy": np.__version__,
           "element_text": element_cases(rng), "histograms": histogram_cases(rng)}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT}: {len(out['element_text'])} element texts, {len(out['histograms'])} histograms")


if __name__ == "__main__":
    main()
