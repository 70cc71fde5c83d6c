#!/usr/bin/python3
"""Golden cases for the ops Grappler's remapper makes, computed with NumPy: _FusedConv2D (a Conv2D
followed by BiasAdd or FusedBatchNorm, then optionally Relu, Relu6 or Elu). Written to
tests/data/golden/fused_ops.json and run by tests/engine/kernels/test_fused_conv2d.cpp.

The convolution is computed from its definition in float64 (every output pixel a sum over the
filter taps of the zero-padded NHWC input; SAME pads (out - 1) * stride + (k - 1) * dilation + 1 - in
in total, the odd one after; EXPLICIT takes explicit_paddings), then the epilogue as the ops it
replaces compute it:
- BiasAdd: y + bias[c].
- FusedBatchNorm (inference): (y - mean[c]) * scale[c] / sqrt(variance[c] + epsilon) + offset[c].
- Relu max(y, 0), Relu6 min(max(y, 0), 6), Elu exp(y) - 1 below zero (not expm1).
The result is cast once to the op's dtype. TensorFlow 1.15's checks, as its fused kernel words
them: at least one fused op; BiasAdd takes one extra argument, FusedBatchNorm four; any other
fused_ops list is Unimplemented ("Fusion is not implemented: [BiasAdd,Tanh]"); NHWC only.
Run: /usr/bin/python3 tools/golden/fused_ops.py
"""
import numpy as np

from golden import Manifest, node

rng = np.random.RandomState(20261127)
m = Manifest("fused_ops")


def rand(shape, dtype=np.float32, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def pads(size, k, stride, dilation, padding, explicit):
    k_eff = (k - 1) * dilation + 1
    if padding == "VALID":
        return (size - k_eff + stride) // stride, 0, 0
    if padding == "SAME":
        out = -(-size // stride)
        total = max((out - 1) * stride + k_eff - size, 0)
        return out, total // 2, total - total // 2
    before, after = explicit
    return (size + before + after - k_eff) // stride + 1, before, after


def conv2d(x, w, strides, dilations, padding, explicit=None):
    n, h, wd, c = x.shape
    kh, kw, _, f = w.shape
    ex = explicit or [0] * 8
    oh, pt, pb = pads(h, kh, strides[0], dilations[0], padding, ex[2:4])
    ow, pl, pr = pads(wd, kw, strides[1], dilations[1], padding, ex[4:6])
    xp = np.zeros((n, h + pt + pb, wd + pl + pr, c))
    xp[:, pt:pt + h, pl:pl + wd, :] = x
    y = np.zeros((n, oh, ow, f))
    for a in range(kh):
        for b in range(kw):
            rows = a * dilations[0] + strides[0] * np.arange(oh)
            cols = b * dilations[1] + strides[1] * np.arange(ow)
            patch = xp[:, rows][:, :, cols]  # [n, oh, ow, c]
            y += np.einsum("nhwc,cf->nhwf", patch, w[a, b].astype(np.float64))
    return y


def activation(y, name):
    if name == "Relu":
        return np.maximum(y, 0)
    if name == "Relu6":
        return np.minimum(np.maximum(y, 0), 6)
    if name == "Elu":
        return np.where(y < 0, np.exp(y) - 1, y)
    return y


CASES = [
    # name, x shape, filter shape, strides, dilations, padding, explicit (NHWC order)
    ("3x3_same", [2, 6, 5, 3], [3, 3, 3, 4], (1, 1), (1, 1), "SAME", None),
    ("5x5_valid", [3, 9, 9, 2], [5, 5, 2, 6], (1, 1), (1, 1), "VALID", None),
    ("3x3_s2_same", [2, 7, 7, 3], [3, 3, 3, 5], (2, 2), (1, 1), "SAME", None),
    ("3x3_d2_same", [1, 8, 7, 2], [3, 3, 2, 3], (1, 1), (2, 2), "SAME", None),
    ("2x2_explicit", [2, 5, 6, 3], [2, 2, 3, 4], (1, 2), (1, 1), "EXPLICIT", [0, 0, 1, 0, 2, 1, 0, 0]),
    ("1x1", [2, 4, 4, 8], [1, 1, 8, 16], (1, 1), (1, 1), "VALID", None),
]
ACTIVATIONS = [None, "Relu", "Relu6", "Elu"]


def attrs_for(dtype, st, dil, pad, ex, fused_ops, num_args, **extra):
    a = dict(T=dtype, num_args=num_args, strides=[1, st[0], st[1], 1], dilations=[1, dil[0], dil[1], 1],
             padding=pad, fused_ops=fused_ops, **extra)
    if ex is not None:
        a["explicit_paddings"] = ex
    return a


for name, xs, ws, st, dil, pad, ex in CASES:
    for dtype in (np.float32, np.float64):
        if dtype == np.float64 and name not in ("3x3_same", "2x2_explicit"):
            continue
        tol = dict(rtol=1e-5, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
        short = "f32" if dtype == np.float32 else "f64"
        # Values of the size a trained network has, so that Relu6 clips some outputs and Elu bends.
        x = rand(xs, dtype, -2, 2)
        w = rand(ws, dtype, -1, 1)
        y = conv2d(x, w, st, dil, pad, ex)
        f = ws[3]
        bias = rand([f], dtype, -1, 1)
        for act in ACTIVATIONS:
            ops = ["BiasAdd"] + ([act] if act else [])
            out = activation(y + bias.astype(np.float64), act)
            m.case(f"BiasAdd{act or ''}_{name}_{short}",
                   node("_FusedConv2D", **attrs_for(dtype, st, dil, pad, ex, ops, 1)),
                   [x, w, bias], [out.astype(dtype)], **tol)
        scale = rand([f], dtype, 0.5, 1.5)
        offset = rand([f], dtype, -0.5, 0.5)
        mean = rand([f], dtype, -0.5, 0.5)
        variance = rand([f], dtype, 0.1, 2.0)
        eps = 0.001
        for act in (None, "Relu"):
            ops = ["FusedBatchNorm"] + ([act] if act else [])
            norm = (y - mean.astype(np.float64)) * (scale.astype(np.float64) /
                                                    np.sqrt(variance.astype(np.float64) + np.float64(np.float32(eps))))
            out = activation(norm + offset.astype(np.float64), act)
            m.case(f"FusedBatchNorm{act or ''}_{name}_{short}",
                   node("_FusedConv2D", **attrs_for(dtype, st, dil, pad, ex, ops, 4, epsilon=eps)),
                   [x, w, scale, offset, mean, variance], [out.astype(dtype)], **tol)

x = rand([1, 4, 4, 2])
w = rand([3, 3, 2, 3])
b = rand([3])
base = dict(strides=[1, 1, 1, 1], padding="SAME")
m.error("no_fused_ops", node("_FusedConv2D", T=np.float32, num_args=1, fused_ops=[], **base), [x, w, b],
        "Fused Conv2D must have at least one fused op.")
m.error("unimplemented_tanh", node("_FusedConv2D", T=np.float32, num_args=1, fused_ops=["BiasAdd", "Tanh"], **base),
        [x, w, b], "Fusion is not implemented: [BiasAdd,Tanh]")
m.error("bias_add_two_args", node("_FusedConv2D", T=np.float32, num_args=2, fused_ops=["BiasAdd"], **base),
        [x, w, b, b], "Fused Conv2D must have one extra argument: bias.")
m.error("batch_norm_one_arg", node("_FusedConv2D", T=np.float32, num_args=1, fused_ops=["FusedBatchNorm"], **base),
        [x, w, b], "Fused Conv2D with batch norm must have four extra arguments: scale, offset, mean, variance.")
m.error("nchw", node("_FusedConv2D", T=np.float32, num_args=1, fused_ops=["BiasAdd"], data_format="NCHW", **base),
        [x, w, b], "Fused conv implementation only supports NHWC tensor format for now.")
m.error("bias_size", node("_FusedConv2D", T=np.float32, num_args=1, fused_ops=["BiasAdd"], **base),
        [x, w, rand([4])], "bias must be 1-D with 3 values (one per output channel), got [4]")
m.error("filter_depth", node("_FusedConv2D", T=np.float32, num_args=1, fused_ops=["BiasAdd", "Relu"], **base),
        [x, rand([3, 3, 3, 3]), b], "input depth must be evenly divisible by filter depth: 2 vs 3")

m.write()
