#!/usr/bin/python3
"""Golden cases for tf.contrib.resampler's Resampler and ResamplerGrad, computed with NumPy, written
to tests/data/golden/resampler.json and run by tests/engine/kernels/test_resampler_kernels.cpp.

Bilinear sampling as TensorFlow 1.15's contrib kernel defines it: a point (x, y) of warp samples
data only when -1 < x < width and -1 < y < height (else 0); with fx = floor(x), fy = floor(y),
cx = fx + 1, cy = fy + 1, dx = cx - x, dy = cy - y and a corner outside the image reading 0,
  out = dx*dy*d(fx,fy) + (1-dx)*(1-dy)*d(cx,cy) + dx*(1-dy)*d(fx,cy) + (1-dx)*dy*d(cx,fy)
summed in that order. The gradient: grad_warp_x += g * ((1-dy)*(d(cx,cy)-d(fx,cy)) + dy*(d(cx,fy)-d(fx,fy))),
grad_warp_y += g * ((1-dx)*(d(cx,cy)-d(cx,fy)) + dx*(d(fx,cy)-d(fx,fy))), and g times each corner's
weight added into that corner's data gradient (corners outside the image dropped). Every operation
is done in the case's dtype, one at a time (float16 rounds after each, as Eigen::half does).
Run: /usr/bin/python3 tools/golden/resampler.py
"""
import math

import numpy as np

from golden import Manifest, node

rng = np.random.RandomState(20261127)
m = Manifest("resampler")


def corner(data, b, x, y, c):
    h, w = data.shape[1], data.shape[2]
    if 0 <= x < w and 0 <= y < h:
        return data[b, y, x, c]
    return data.dtype.type(0)


def points(warp):
    batch = warp.shape[0]
    return warp.reshape(batch, -1, 2)


def sampled_points(data, warp):
    """(b, p, fx, fy, dx, dy) for every point inside the zero-padded image."""
    t = data.dtype.type
    batch, h, w, _ = data.shape
    pts = points(warp)
    for b in range(batch):
        for p in range(pts.shape[1]):
            x, y = pts[b, p]
            if not (x > t(-1) and y > t(-1) and x < t(w) and y < t(h)):
                continue
            fx, fy = int(math.floor(float(np.float32(x)))), int(math.floor(float(np.float32(y))))
            yield b, p, fx, fy, t(fx + 1) - x, t(fy + 1) - y


def resample(data, warp):
    one = data.dtype.type(1)
    batch, _, _, channels = data.shape
    out = np.zeros((batch, points(warp).shape[1], channels), data.dtype)
    for b, p, fx, fy, dx, dy in sampled_points(data, warp):
        cx, cy = fx + 1, fy + 1
        for c in range(channels):
            a = dx * dy * corner(data, b, fx, fy, c)
            bb = (one - dx) * (one - dy) * corner(data, b, cx, cy, c)
            cc = dx * (one - dy) * corner(data, b, fx, cy, c)
            d = (one - dx) * dy * corner(data, b, cx, fy, c)
            out[b, p, c] = ((a + bb) + cc) + d
    return out.reshape(warp.shape[:-1] + (channels,))


def resample_grad(data, warp, grad):
    one = data.dtype.type(1)
    batch, h, w, channels = data.shape
    pts = points(warp)
    g = grad.reshape(batch, pts.shape[1], channels)
    grad_data = np.zeros_like(data)
    grad_warp = np.zeros_like(pts)

    def add(b, x, y, c, v):
        if 0 <= x < w and 0 <= y < h:
            grad_data[b, y, x, c] += v

    for b, p, fx, fy, dx, dy in sampled_points(data, warp):
        cx, cy = fx + 1, fy + 1
        for c in range(channels):
            v = g[b, p, c]
            fxfy, cxcy = corner(data, b, fx, fy, c), corner(data, b, cx, cy, c)
            fxcy, cxfy = corner(data, b, fx, cy, c), corner(data, b, cx, fy, c)
            grad_warp[b, p, 0] += v * ((one - dy) * (cxcy - fxcy) + dy * (cxfy - fxfy))
            grad_warp[b, p, 1] += v * ((one - dx) * (cxcy - cxfy) + dx * (fxcy - fxfy))
            add(b, fx, fy, c, v * dx * dy)
            add(b, cx, cy, c, v * (one - dx) * (one - dy))
            add(b, fx, cy, c, v * dx * (one - dy))
            add(b, cx, fy, c, v * (one - dx) * dy)
    return grad_data, grad_warp.reshape(warp.shape)


def warp_points(batch, shape, h, w, dtype):
    """Points inside, on the padded border (between -1 and 0, between the last pixel and the edge),
    on whole pixels, and outside (0 out)."""
    n = int(np.prod(shape))
    xs = rng.uniform(-1.5, w + 0.5, size=(batch, n))
    ys = rng.uniform(-1.5, h + 0.5, size=(batch, n))
    special = [(0.0, 0.0), (w - 1.0, h - 1.0), (-0.5, 1.25), (w - 0.5, 0.5), (2.0, h - 0.25), (-1.0, 0.5),
               (1.5, -1.0), (float(w), 1.0), (1.0, float(h)), (-3.0, 2.0)]
    for i, (x, y) in enumerate(special[:n]):
        xs[0, i], ys[0, i] = x, y
    warp = np.stack([xs, ys], axis=-1).reshape((batch,) + tuple(shape) + (2,))
    return warp.astype(dtype)


CASES = [
    # name, data shape, warp's point shape (after the batch)
    ("points", [2, 5, 6, 3], [12]),
    ("grid", [2, 4, 5, 2], [3, 4]),
    ("one_channel", [1, 7, 3, 1], [10]),
    ("wide", [3, 3, 8, 4], [5]),
]
TOL = {np.float32: dict(rtol=1e-5, atol=1e-6), np.float64: dict(rtol=1e-12, atol=1e-13),
       np.float16: dict(rtol=1e-3, atol=1e-3)}

for name, ds, ps in CASES:
    for dtype in (np.float32, np.float64, np.float16):
        if dtype != np.float32 and name not in ("points", "grid"):
            continue
        short = {np.float32: "f32", np.float64: "f64", np.float16: "f16"}[dtype]
        data = rng.uniform(-2, 2, size=ds).astype(dtype)
        warp = warp_points(ds[0], ps, ds[1], ds[2], dtype)
        out = resample(data, warp)
        grad = rng.uniform(-1, 1, size=out.shape).astype(dtype)
        gd, gw = resample_grad(data, warp, grad)
        m.case(f"Resampler_{name}_{short}", node("Resampler", T=dtype), [data, warp], [out], **TOL[dtype])
        m.case(f"ResamplerGrad_{name}_{short}", node("ResamplerGrad", T=dtype), [data, warp, grad], [gd, gw],
               **TOL[dtype])

f32 = np.float32
d4 = rng.uniform(-1, 1, size=[2, 3, 3, 2]).astype(f32)
m.error("data_rank3", node("Resampler", T=f32), [d4[0], warp_points(3, [2], 3, 3, f32)],
        "Only bilinear interpolation is currently supported. The input data shape must be [batch_size, "
        "data_height, data_width, data_channels], but is: [3,3,2]")
m.error("warp_vector", node("Resampler", T=f32), [d4, np.array([0.5, 0.5], f32)],
        "warp should be at least a matrix, got shape [2]")
m.error("warp_three_coordinates", node("Resampler", T=f32), [d4, np.zeros([2, 4, 3], f32)],
        "warp shape last entry should be 2, but shape vector is: [2,4,3]")
m.error("batch_mismatch", node("Resampler", T=f32), [d4, np.zeros([3, 4, 2], f32)],
        "Batch size of data and warp tensor must be the same, but input shapes are: [2,3,3,2], [3,4,2]")
m.error("grad_shape", node("ResamplerGrad", T=f32), [d4, np.zeros([2, 4, 2], f32), np.zeros([2, 4, 3], f32)],
        "grad_output shape is not consistent with data and warp shapes; it should be [2,4,2] but is [2,4,3]")

m.write()
