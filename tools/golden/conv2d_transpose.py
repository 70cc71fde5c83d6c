#!/usr/bin/python3
"""Golden values for tf.layers.conv2d_transpose (tests/engine/layers/test_conv2d_transpose.cpp),
computed with NumPy only, written as tests/data/golden/layers/<case>.<role>.npy beside layers.py's.

The transposed convolution is computed from its definition: every input pixel (i, j) scatters
x[n, i, j, c] * kernel[a, b, f, c] into output pixel (i * sh + a - pad_top, j * sw + b - pad_left),
pixels outside the output dropped. The output size is keras' deconv_output_length: in * stride, plus
max(kernel - stride, 0) for "valid"; the padding is the one the forward convolution of that output
would use ("same": total max((in - 1) * stride + kernel - out, 0), the smaller half before; "valid":
none). The kernel is [kh, kw, filters, in_channels] as tf.layers makes it. Run:
/usr/bin/python3 tools/golden/conv2d_transpose.py
"""
import os
import numpy as np

from golden import GOLDEN

OUT = os.path.join(GOLDEN, "layers")
rng = np.random.RandomState(20261206)


def save(case, role, array):
    np.save(os.path.join(OUT, f"{case}.{role}.npy"), np.asarray(array, dtype=np.float32, order="C"))


def uniform(*shape):
    return rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)


def deconv_length(n, k, s, padding):
    return n * s + (max(k - s, 0) if padding == "valid" else 0)


def conv2d_transpose_nhwc(x, kernel, strides, padding):
    n, h, w, c = x.shape
    kh, kw, f, _ = kernel.shape
    sh, sw = strides
    oh, ow = deconv_length(h, kh, sh, padding), deconv_length(w, kw, sw, padding)
    if padding == "same":
        pt = max((h - 1) * sh + kh - oh, 0) // 2
        pl = max((w - 1) * sw + kw - ow, 0) // 2
    else:
        pt = pl = 0
    out = np.zeros((n, oh, ow, f))
    k64 = kernel.astype(np.float64)
    for i in range(h):
        for j in range(w):
            for a in range(kh):
                for b in range(kw):
                    y, z = i * sh + a - pt, j * sw + b - pl
                    if 0 <= y < oh and 0 <= z < ow:
                        out[:, y, z, :] += x[:, i, j, :].astype(np.float64) @ k64[a, b].T
    return out


def case(name, x, kernel, bias, strides, padding, activation=None, nchw=False):
    for role, a in (("x", x), ("kernel", kernel), ("bias", bias)):
        save(name, role, a)
    xin = x.transpose(0, 2, 3, 1) if nchw else x
    out = conv2d_transpose_nhwc(xin, kernel, strides, padding) + bias
    if activation == "relu":
        out = np.maximum(out, 0)
    save(name, "out", out.transpose(0, 3, 1, 2) if nchw else out)


case("conv2d_transpose_same", uniform(2, 3, 4, 3), uniform(3, 3, 5, 3), uniform(5), (2, 2), "same", "relu")
case("conv2d_transpose_valid", uniform(1, 4, 3, 2), uniform(3, 2, 4, 2), uniform(4), (2, 2), "valid")
case("conv2d_transpose_valid_small_kernel", uniform(1, 3, 3, 2), uniform(1, 1, 3, 2), uniform(3), (3, 2), "valid")
case("conv2d_transpose_nchw", uniform(2, 3, 4, 4), uniform(2, 2, 2, 3), uniform(2), (1, 1), "valid", nchw=True)
print("conv2d_transpose: 4 cases")
