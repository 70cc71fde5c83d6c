#!/usr/bin/python3
"""Golden cases for ResizeBilinear, ResizeBilinearGrad, ResizeNearestNeighbor and
ResizeNearestNeighborGrad, computed with NumPy from the formulas TensorFlow 1.15 documents.

TensorFlow behaviours encoded here:
- The scale from an input size to an output size is in / out, or (in - 1) / (out - 1) with
  align_corners when out > 1, in float32.
- Source coordinate of output index i: legacy i * scale; half_pixel_centers (i + 0.5) * scale - 0.5
  for bilinear, (i + 0.5) * scale for nearest neighbor (which floors it); all in float32.
- Bilinear: lower = max(floor(in), 0), upper = min(ceil(in), size - 1), lerp = in - floor(in);
  values are converted to float32 and interpolated along x, then y:
  top = tl + (tr - tl) * xl, bottom = bl + (br - bl) * xl, out = top + (bottom - top) * yl.
  The output is float32 for every input dtype (float64 inputs too).
- Nearest neighbor: source index floor(coordinate), round half away from zero with align_corners,
  capped at size - 1 (and at 0 with half-pixel centers); the output keeps the input dtype.
- The gradients are the adjoints: every incoming value times each of the four bilinear weights
  ((1 - yl)(1 - xl), (1 - yl) xl, yl (1 - xl), yl xl) added into its source pixel; nearest neighbor
  adds every incoming value into the pixel it was copied from. ResizeBilinearGrad's scale is the
  original size over the grads' size, as is ResizeNearestNeighborGrad's (its `size` is the original).
- Error texts are TensorFlow's (image_resizer_state.h, resize_nearest_neighbor_op.cc).
"""
import numpy as np

from golden import Manifest, node

m = Manifest("image")
rng = np.random.default_rng(20261205)
f32 = np.float32


def scale(in_size, out_size, align):
    if align and out_size > 1:
        return f32(in_size - 1) / f32(out_size - 1)
    return f32(in_size) / f32(out_size)


def coords(out_size, s, half_pixel, nearest=False):
    i = np.arange(out_size, dtype=f32)
    if not half_pixel:
        return i * s
    if nearest:
        return (i + f32(0.5)) * s
    return (i + f32(0.5)) * s - f32(0.5)


def bilinear_weights(out_size, in_size, s, half_pixel):
    c = coords(out_size, s, half_pixel)
    fl = np.floor(c)
    lower = np.maximum(fl.astype(np.int64), 0)
    upper = np.minimum(np.ceil(c).astype(np.int64), in_size - 1)
    lerp = (c - fl).astype(f32)
    return lower, upper, lerp


def resize_bilinear(images, size, align=False, half_pixel=False):
    n, h, w, ch = images.shape
    oh, ow = size
    yl, yu, ylerp = bilinear_weights(oh, h, scale(h, oh, align), half_pixel)
    xl, xu, xlerp = bilinear_weights(ow, w, scale(w, ow, align), half_pixel)
    x = images.astype(f32)
    tl = x[:, yl][:, :, xl]
    tr = x[:, yl][:, :, xu]
    bl = x[:, yu][:, :, xl]
    br = x[:, yu][:, :, xu]
    xlr = xlerp[None, None, :, None]
    ylr = ylerp[None, :, None, None]
    top = tl + (tr - tl) * xlr
    bottom = bl + (br - bl) * xlr
    return (top + (bottom - top) * ylr).astype(f32)


def resize_bilinear_grad(grads, original_shape, dtype, align=False, half_pixel=False):
    n, rh, rw, ch = grads.shape
    h, w = original_shape
    yl, yu, ylerp = bilinear_weights(rh, h, scale(h, rh, align), half_pixel)
    xl, xu, xlerp = bilinear_weights(rw, w, scale(w, rw, align), half_pixel)
    out = np.zeros((n, h, w, ch), np.float64)
    g = grads.astype(f32)
    for y in range(rh):
        iy = f32(1) - ylerp[y]
        for x in range(rw):
            ix = f32(1) - xlerp[x]
            v = g[:, y, x, :]
            out[:, yl[y], xl[x], :] += v * iy * ix
            out[:, yl[y], xu[x], :] += v * iy * xlerp[x]
            out[:, yu[y], xl[x], :] += v * ylerp[y] * ix
            out[:, yu[y], xu[x], :] += v * ylerp[y] * xlerp[x]
    return out.astype(dtype)


def nearest_indices(out_size, in_size, s, align, half_pixel):
    c = coords(out_size, s, half_pixel, nearest=True)
    # roundf rounds halves away from zero; the coordinates are >= 0.
    j = np.floor(c + f32(0.5)) if align else np.floor(c)
    j = np.minimum(j.astype(np.int64), in_size - 1)
    if half_pixel:
        j = np.maximum(j, 0)
    return j


def resize_nearest(images, size, align=False, half_pixel=False):
    n, h, w, ch = images.shape
    oh, ow = size
    ys = nearest_indices(oh, h, scale(h, oh, align), align, half_pixel)
    xs = nearest_indices(ow, w, scale(w, ow, align), align, half_pixel)
    return images[:, ys][:, :, xs]


def resize_nearest_grad(grads, size, align=False, half_pixel=False):
    n, rh, rw, ch = grads.shape
    h, w = size
    ys = nearest_indices(rh, h, scale(h, rh, align), align, half_pixel)
    xs = nearest_indices(rw, w, scale(w, rw, align), align, half_pixel)
    out = np.zeros((n, h, w, ch), np.float64)
    for y in range(rh):
        for x in range(rw):
            out[:, ys[y], xs[x], :] += grads[:, y, x, :].astype(np.float64)
    return out.astype(grads.dtype)


def rand(shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        lo = 0 if dtype.kind == "u" else -50
        return rng.integers(lo, 100, shape).astype(dtype)
    return rng.uniform(-5, 5, shape).astype(dtype)


def size_arg(size):
    return np.asarray(size, np.int32)


# --- ResizeBilinear ---------------------------------------------------------------------------------

def bilinear(name, images, size, align=False, half_pixel=False, **tol):
    m.case(name, node("ResizeBilinear", T=images.dtype.type, align_corners=align, half_pixel_centers=half_pixel),
           [images, size_arg(size)], [resize_bilinear(images, size, align, half_pixel)], **tol)


img = rand([2, 3, 4, 2], np.float32)
for align, half in [(False, False), (True, False), (False, True)]:
    tag = "legacy" if not (align or half) else ("align" if align else "half_pixel")
    bilinear(f"bilinear_up_{tag}", img, [7, 9], align, half)
    bilinear(f"bilinear_down_{tag}", rand([1, 9, 7, 3], np.float32), [4, 3], align, half)
    bilinear(f"bilinear_mixed_{tag}", rand([2, 5, 4, 1], np.float32), [3, 10], align, half)
bilinear("bilinear_same_size", img, [3, 4])
bilinear("bilinear_to_1x1_align", img, [1, 1], align=True)
bilinear("bilinear_from_1x1", rand([1, 1, 1, 3], np.float32), [3, 2])
bilinear("bilinear_to_1x1_half_pixel", img, [1, 1], half_pixel=True)
for dtype in [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.float16, np.float64]:
    bilinear(f"bilinear_{np.dtype(dtype).name}", rand([1, 4, 3, 2], dtype), [6, 5], rtol=1e-5, atol=1e-5)
bilinear("bilinear_half_pixel_float64", rand([1, 4, 3, 2], np.float64), [3, 7], half_pixel=True)

bilinear_node = node("ResizeBilinear", T=np.float32)
m.error("bilinear_half_pixel_and_align", node("ResizeBilinear", T=np.float32, align_corners=True,
                                              half_pixel_centers=True),
        [img, size_arg([4, 4])], "If half_pixel_centers is True, align_corners must be False.")
m.error("bilinear_rank3", bilinear_node, [rand([3, 4, 2], np.float32), size_arg([2, 2])],
        "input must be 4-dimensional[3,4,2]")
m.error("bilinear_size_rank2", bilinear_node, [img, np.asarray([[2, 2]], np.int32)],
        "shape_t must be 1-dimensional[1,2]")
m.error("bilinear_size_3", bilinear_node, [img, size_arg([2, 2, 2])], "shape_t must have two elements[3]")
m.error("bilinear_size_zero", bilinear_node, [img, size_arg([0, 2])], "output dimensions must be positive")
m.error("bilinear_no_channels", bilinear_node, [np.zeros([1, 2, 2, 0], np.float32), size_arg([3, 3])],
        "image must have at least one channel")
m.error("bilinear_empty_image", bilinear_node, [np.zeros([1, 0, 2, 1], np.float32), size_arg([3, 3])],
        "input image must be of non-zero size")

# --- ResizeBilinearGrad -----------------------------------------------------------------------------

def bilinear_grad(name, grads, original, align=False, half_pixel=False, **tol):
    out = resize_bilinear_grad(grads, original.shape[1:3], original.dtype, align, half_pixel)
    m.case(name, node("ResizeBilinearGrad", T=original.dtype.type, align_corners=align,
                      half_pixel_centers=half_pixel),
           [grads, original], [out], **tol)


for align, half in [(False, False), (True, False), (False, True)]:
    tag = "legacy" if not (align or half) else ("align" if align else "half_pixel")
    bilinear_grad(f"bilinear_grad_up_{tag}", rand([2, 7, 9, 2], np.float32), rand([2, 3, 4, 2], np.float32),
                  align, half, rtol=1e-5, atol=1e-5)
    bilinear_grad(f"bilinear_grad_down_{tag}", rand([1, 4, 3, 3], np.float32), rand([1, 9, 7, 3], np.float32),
                  align, half, rtol=1e-5, atol=1e-5)
bilinear_grad("bilinear_grad_float64", rand([1, 5, 6, 1], np.float32), rand([1, 3, 2, 1], np.float64),
              rtol=1e-6, atol=1e-6)
bilinear_grad("bilinear_grad_float16", rand([1, 5, 6, 1], np.float32), rand([1, 3, 2, 1], np.float16),
              rtol=1e-2, atol=2e-2)
bilinear_grad("bilinear_grad_batch_channels_from_grads", rand([2, 3, 3, 2], np.float32),
              rand([1, 2, 2, 5], np.float32), rtol=1e-5, atol=1e-5)
m.error("bilinear_grad_rank3", node("ResizeBilinearGrad", T=np.float32),
        [rand([3, 3, 1], np.float32), rand([1, 2, 2, 1], np.float32)], "input_grad must be 4-dimensional[3,3,1]")
m.error("bilinear_grad_original_rank3", node("ResizeBilinearGrad", T=np.float32),
        [rand([1, 3, 3, 1], np.float32), rand([2, 2, 1], np.float32)], "original_image must be 4-dimensional[2,2,1]")
m.error("bilinear_grad_half_pixel_and_align", node("ResizeBilinearGrad", T=np.float32, align_corners=True,
                                                   half_pixel_centers=True),
        [rand([1, 3, 3, 1], np.float32), rand([1, 2, 2, 1], np.float32)],
        "If half_pixel_centers is True, align_corners must be False.")

# --- ResizeNearestNeighbor --------------------------------------------------------------------------

def nearest(name, images, size, align=False, half_pixel=False):
    m.case(name, node("ResizeNearestNeighbor", T=images.dtype.type, align_corners=align,
                      half_pixel_centers=half_pixel),
           [images, size_arg(size)], [resize_nearest(images, size, align, half_pixel)], rtol=0, atol=0)


for align, half in [(False, False), (True, False), (False, True)]:
    tag = "legacy" if not (align or half) else ("align" if align else "half_pixel")
    nearest(f"nearest_up_{tag}", img, [7, 9], align, half)
    nearest(f"nearest_down_{tag}", rand([1, 9, 7, 3], np.float32), [4, 3], align, half)
    nearest(f"nearest_odd_{tag}", rand([2, 5, 4, 1], np.float32), [3, 10], align, half)
nearest("nearest_to_1x1_align", img, [1, 1], align=True)
for dtype in [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.int64, np.float16, np.float64]:
    nearest(f"nearest_{np.dtype(dtype).name}", rand([1, 4, 3, 2], dtype), [6, 5])
m.error("nearest_half_pixel_and_align", node("ResizeNearestNeighbor", T=np.float32, align_corners=True,
                                             half_pixel_centers=True),
        [img, size_arg([4, 4])], "If half_pixel_centers is True, align_corners must be False.")
m.error("nearest_size_negative", node("ResizeNearestNeighbor", T=np.float32), [img, size_arg([2, -1])],
        "output dimensions must be positive")

# --- ResizeNearestNeighborGrad ----------------------------------------------------------------------

def nearest_grad(name, grads, size, align=False, half_pixel=False, **tol):
    m.case(name, node("ResizeNearestNeighborGrad", T=grads.dtype.type, align_corners=align,
                      half_pixel_centers=half_pixel),
           [grads, size_arg(size)], [resize_nearest_grad(grads, size, align, half_pixel)], **tol)


for align, half in [(False, False), (True, False), (False, True)]:
    tag = "legacy" if not (align or half) else ("align" if align else "half_pixel")
    nearest_grad(f"nearest_grad_up_{tag}", rand([2, 7, 9, 2], np.float32), [3, 4], align, half)
    nearest_grad(f"nearest_grad_down_{tag}", rand([1, 4, 3, 3], np.float32), [9, 7], align, half)
for dtype in [np.uint8, np.int8, np.int32, np.float64]:
    nearest_grad(f"nearest_grad_{np.dtype(dtype).name}", rand([1, 6, 5, 2], dtype) // (1 if dtype == np.float64
                                                                                      else 8), [4, 3])
nearest_grad("nearest_grad_float16", rand([1, 6, 5, 2], np.float16), [4, 3], rtol=1e-2, atol=1e-2)
m.error("nearest_grad_rank3", node("ResizeNearestNeighborGrad", T=np.float32),
        [rand([3, 3, 1], np.float32), size_arg([2, 2])], "input must be 4-dimensional[3,3,1]")
m.error("nearest_grad_size_3", node("ResizeNearestNeighborGrad", T=np.float32),
        [rand([1, 3, 3, 1], np.float32), size_arg([2, 2, 2])], "shape_t must have two elements[3]")
m.error("nearest_grad_size_zero", node("ResizeNearestNeighborGrad", T=np.float32),
        [rand([1, 3, 3, 1], np.float32), size_arg([0, 2])], "shape_t's elements must be positive")

m.write()
