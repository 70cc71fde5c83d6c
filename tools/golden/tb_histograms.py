#!/usr/bin/python3
"""Golden cases for the dashboard's histogram math (viewmodel/dashboard/histogram_math.h), computed
with NumPy, never with TensorStudio's code. Writes tests/data/golden/tb_histograms.json.

Rules encoded (facts of TensorBoard's distribution compressor and histogram dashboard):
- Percentiles at basis points 0, 668, 1587, 3085, 5000, 6915, 8413, 9332, 10000. Cumulative
  bucket weights are scaled to 10000 (a zero total counts as 1). For a basis point the bucket is
  the first whose cumulative weight is strictly greater and that adds weight; its value is the
  linear interpolation of the basis point between the cumulative weights before and after it,
  mapped onto [left, right] where left is the histogram's first left edge while no weight lies
  before the bucket, else the previous bucket's right edge (at least that first left edge), and
  right is the bucket's right edge (at most the last right edge). Basis points with no such bucket
  take the last right edge. No buckets: nine zeros.
- Rebinning for drawing: 30 equal bins from the smallest left edge to the largest right edge of all
  steps (a TF 1 histogram's trailing empty bucket can have left > right; it adds nothing);
  each bucket adds count * overlap / width to each bin it overlaps. A range of zero width gives 30
  bins of width 0 at the value, the last holding the whole count. (Zero-width buckets inside a
  wider range: TensorStudio puts the count into the bin holding the value, where TensorBoard drops
  it; the case below records TensorStudio's choice.)

Written as an independent vectorised reference (masks and an overlap matrix), not as a port.
"""
import json
import os

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "tests", "data", "golden", "tb_histograms.json")
BPS = np.array([0, 668, 1587, 3085, 5000, 6915, 8413, 9332, 10000], dtype=np.float64)


def percentiles(buckets):
    b = np.asarray(buckets, dtype=np.float64).reshape(-1, 3)
    if b.shape[0] == 0:
        return [0.0] * len(BPS)
    left, right, count = b[:, 0], b[:, 1], b[:, 2]
    lo, hi = left[0], right[-1]
    total = count.sum()
    w = np.cumsum(count * 10000.0 / (total if total != 0 else 1.0))
    prev = np.concatenate([[0.0], w[:-1]])
    out = []
    for bp in BPS:
        ok = np.nonzero((w > bp) & (w != prev))[0]
        if ok.size == 0:
            # Every later basis point is also past the last weight.
            out.extend([hi] * (len(BPS) - len(out)))
            break
        i = ok[0]
        a = lo if (i == 0 or prev[i] == 0) else max(right[i - 1], lo)
        z = min(right[i], hi)
        out.append(np.interp(bp, [prev[i], w[i]], [a, z]))
    return [float(x) for x in out]


def rebin(histograms, n=30):
    finite = [np.asarray(h, dtype=np.float64).reshape(-1, 3) for h in histograms]
    lo = min(h[:, 0].min() for h in finite if h.size)
    hi = max(h[:, 1].max() for h in finite if h.size)
    result = []
    for h in finite:
        if h.shape[0] == 0:
            result.append([])
            continue
        if lo == hi:
            bins = np.zeros((n, 3))
            bins[:, 0] = lo
            bins[-1, 2] = h[:, 2].sum()
            result.append(bins.tolist())
            continue
        dx = (hi - lo) / n
        x = lo + np.arange(n) * dx
        bl = np.maximum(h[:, 0], lo)[:, None]
        br = np.minimum(h[:, 1], hi)[:, None]
        overlap = np.clip(np.minimum(br, x[None, :] + dx) - np.maximum(bl, x[None, :]), 0, None)
        width = (br - bl)
        share = np.divide(overlap, width, out=np.zeros_like(overlap), where=width > 0)
        y = (share * h[:, 2:3]).sum(axis=0)
        for k in np.nonzero(width[:, 0] == 0)[0]:
            j = int(np.clip(np.floor((bl[k, 0] - lo) / dx), 0, n - 1))
            y[j] += h[k, 2]
        result.append(np.stack([x, np.full(n, dx), y], axis=1).tolist())
    return result


def tf1_buckets(values):
    """Buckets as TensorBoard derives them from a TF 1 HistogramProto of `values`: TF 1's default
    bucket limits (+-1e-12 * 1.1**k up to 1e20, then DBL_MAX), each run of empty buckets collapsed
    into one bucket with the run's last limit, lefts = [min] + limits[:-1], rights = limits[:-1] + [max]."""
    pos = []
    v = 1e-12
    while v < 1e20:
        pos.append(v)
        v *= 1.1
    limits = np.array([-x for x in reversed(pos)] + [0.0] + pos + [np.finfo(np.float64).max])
    counts = np.bincount(np.searchsorted(limits, values, side="right"), minlength=len(limits))[: len(limits)]
    keep = [i for i in range(len(limits)) if counts[i] != 0 or i + 1 == len(limits) or counts[i + 1] != 0]
    lim = limits[keep]
    cnt = counts[keep].astype(np.float64)
    lefts = np.concatenate([[values.min()], lim[:-1]])
    rights = np.concatenate([lim[:-1], [values.max()]])
    return np.stack([lefts, rights, cnt], axis=1).tolist()


def main():
    rng = np.random.default_rng(7)
    cases = {
        "uniform": [[float(i), float(i + 1), 10.0] for i in range(10)],
        "skewed": [[0, 1, 100], [1, 2, 30], [2, 4, 10], [4, 8, 3], [8, 16, 1]],
        "single_bucket": [[-2.5, 4.0, 7.0]],
        "zero_counts": [[0, 1, 0], [1, 2, 0], [2, 3, 0]],
        "no_buckets": [],
        "leading_empty": [[-3, -1, 0], [-1, 0, 0], [0, 2, 5], [2, 3, 5], [3, 9, 0]],
        "boundary_half": [[0, 1, 1], [1, 2, 1]],
        "tf2_equal_edges": [[1.5, 1.5, 0], [1.5, 1.5, 0], [1.5, 1.5, 12]],
        "tf2_single_value": [[3.0, 3.0, 4.0]],
        "fractional": [[-1, -0.25, 0.3], [-0.25, 0.5, 2.7], [0.5, 0.75, 0.01], [0.75, 3, 1.99]],
        "tf1_normal": tf1_buckets(rng.normal(0.5, 2.0, 1000)),
        "tf1_weights": tf1_buckets(rng.uniform(-0.3, 0.3, 784 * 10)),
    }
    percentile_cases = [{"name": k, "buckets": v, "expected": percentiles(v)} for k, v in cases.items()]

    moving = [[[a + s * 0.5, a + s * 0.5 + 1, float(10 + s + a)] for a in range(5)] for s in range(4)]
    rebin_cases = [
        {"name": "moving_steps", "histograms": moving},
        {"name": "tf1_steps", "histograms": [tf1_buckets(rng.normal(m, 1.0, 500)) for m in (0.0, 0.7, 1.4)]},
        {"name": "single_value", "histograms": [[[2.0, 2.0, 3.0]], [[2.0, 2.0, 5.0]]]},
        {"name": "with_empty_step", "histograms": [[[0, 1, 2], [1, 3, 4]], [], [[-1, 0.5, 6]]]},
        {"name": "zero_width_inside", "histograms": [[[0, 1, 2]], [[0.5, 0.5, 9]]]},
    ]
    for c in rebin_cases:
        c["expected"] = rebin(c["histograms"])
    with open(OUT, "w") as f:
        json.dump({"source": "tools/golden/tb_histograms.py", "numpy": np.__version__,
                   "percentiles": percentile_cases, "rebin": rebin_cases}, f, indent=1)
        f.write("\n")
    print(f"tb_histograms: {len(percentile_cases)} percentile cases, {len(rebin_cases)} rebin cases")


if __name__ == "__main__":
    main()
