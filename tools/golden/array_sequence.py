#!/usr/bin/python3
"""Golden cases for ReverseSequence and DynamicPartition, computed with NumPy.

TensorFlow behaviours encoded here:
- ReverseSequence: along batch_dim, slice i has its first seq_lengths[i] elements along seq_dim
  reversed; elements at and past the length stay where they are. seq_lengths is int64 by default
  (Tlen), or int32. Errors (reverse_sequence_op.cc): "seq_lens(1) > input.dims(1)",
  "seq_lens(2) < 0", "batch_dim == seq_dim == 1", "Length of seq_lengths != input.dims(0), (3 vs. 4)",
  "seq_lengths must be 1-dim, not 2", "seq_dim must be < input rank ( 3 vs. 3)".
- DynamicPartition: outputs[p] stacks the slices data[js, ...] whose partitions[js] == p, in the
  order of js; its shape is [count(p)] + data.shape[partitions.ndim:]. Errors:
  "partitions[3] = 5 is not in [0, 4)" (the multi-index for higher ranks, nothing for a scalar),
  "data.shape must start with partitions.shape, got data.shape = [4,2], partitions.shape = [3]".
Run: /usr/bin/python3 tools/golden/array_sequence.py
"""
import numpy as np

from golden import Manifest, node

m = Manifest("array_sequence")
rng = np.random.default_rng(20261123)
I32, I64, F32 = np.int32, np.int64, np.float32
EXACT = dict(rtol=0.0, atol=0.0)


def reverse_sequence(x, lengths, seq_dim, batch_dim):
    out = x.copy()
    for b, n in enumerate(lengths):
        src = [slice(None)] * x.ndim
        dst = [slice(None)] * x.ndim
        src[batch_dim] = b
        dst[batch_dim] = b
        src[seq_dim] = slice(n - 1, None, -1) if n > 0 else slice(0, 0)
        dst[seq_dim] = slice(0, n)
        out[tuple(dst)] = x[tuple(src)]
    return out


def dynamic_partition(data, partitions, n):
    p = np.asarray(partitions)
    flat = data.reshape((-1,) + data.shape[p.ndim:]) if p.ndim > 0 else data.reshape((1,) + data.shape)
    ids = p.reshape(-1)
    return [flat[ids == k] for k in range(n)]


# --- ReverseSequence ------------------------------------------------------------------------------------------
def rs_case(name, x, lengths, seq_dim, batch_dim, tlen=I64):
    lengths = np.asarray(lengths, tlen)
    m.case(name, node("ReverseSequence", T=x.dtype, Tlen=tlen, seq_dim=seq_dim, batch_dim=batch_dim),
           [x, lengths], [reverse_sequence(x, lengths, seq_dim, batch_dim)], **EXACT)


x453 = rng.standard_normal((4, 5, 3)).astype(F32)
rs_case("rs_batch_major", x453, [5, 2, 0, 3], 1, 0)
rs_case("rs_batch_major_int32", x453, [1, 4, 5, 2], 1, 0, I32)
x542 = rng.standard_normal((5, 4, 2)).astype(F32)
rs_case("rs_time_major", x542, [1, 4, 3, 0], 0, 1)
x324 = rng.standard_normal((3, 2, 4)).astype(np.float64)
rs_case("rs_batch_after_seq", x324, [3, 1, 2, 0], 0, 2, I32)
x36 = np.arange(18, dtype=I64).reshape(3, 6)
rs_case("rs_matrix_int64", x36, [6, 3, 1], 1, 0)
rs_case("rs_matrix_seq_first", x36.T.copy(), [2, 0, 6], 0, 1, I32)
x5d = rng.integers(0, 255, (2, 3, 4, 2, 3)).astype(np.uint8)
rs_case("rs_rank5_uint8", x5d, [2, 4, 0], 2, 1)
xb = rng.uniform(size=(3, 4, 2)) < 0.5
rs_case("rs_bool", xb, [4, 2, 3], 1, 0)
xc = (rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))).astype(np.complex64)
rs_case("rs_complex64", xc, [3, 2], 1, 0)
rs_case("rs_empty_inner", np.zeros((2, 3, 0), F32), [3, 1], 1, 0)
a = np.arange(12, dtype=F32).reshape(3, 4)
rsn = lambda sd=1, bd=0, tlen=I64: node("ReverseSequence", T=F32, Tlen=tlen, seq_dim=sd, batch_dim=bd)
m.error("rs_length_too_long", rsn(), [a, np.array([4, 5, 0], I64)], "seq_lens(1) > input.dims(1)")
m.error("rs_length_negative", rsn(tlen=I32), [a, np.array([4, 1, -1], I32)], "seq_lens(2) < 0")
m.error("rs_same_dims", rsn(1, 1), [a, np.array([1, 1, 1, 1], I64)], "batch_dim == seq_dim == 1")
m.error("rs_length_count", rsn(), [a, np.array([1, 1], I64)], "Length of seq_lengths != input.dims(0), (2 vs. 3)")
m.error("rs_lengths_matrix", rsn(), [a, np.array([[1, 1, 1]], I64)], "seq_lengths must be 1-dim, not 2")
m.error("rs_seq_dim_rank", rsn(2, 0), [a, np.array([1, 1, 1], I64)], "seq_dim must be < input rank ( 2 vs. 2)")
m.error("rs_batch_dim_rank", rsn(0, 3), [a, np.array([1, 1, 1], I64)], "batch_dim must be < input rank ( 3 vs. 2)")
m.error("rs_negative_batch_dim", rsn(1, -1), [a, np.array([1, 1, 1], I64)], "Invalid batch_dim -1")

# --- DynamicPartition -----------------------------------------------------------------------------------------
def dp_case(name, data, partitions, n):
    partitions = np.asarray(partitions, I32)
    m.case(name, node("DynamicPartition", T=data.dtype, num_partitions=n), [data, partitions],
           dynamic_partition(data, partitions, n), **EXACT)


dp_case("dp_rows", np.arange(18, dtype=F32).reshape(6, 3), [0, 0, 2, 3, 2, 1], 4)
dp_case("dp_vector", np.array([10, 20, 30, 40, 50], I64), [0, 0, 1, 1, 0], 2)
dp_case("dp_scalar_partition", np.array([10, 20], F32), np.array(1, I32), 2)
dp_case("dp_matrix_partitions", rng.standard_normal((2, 3, 2)), [[2, 0, 2], [0, 2, 2]], 3)
dp_case("dp_same_rank", rng.standard_normal((2, 3)).astype(F32), [[1, 0, 1], [1, 1, 0]], 2)
dp_case("dp_one_partition", np.arange(8, dtype=I32).reshape(4, 2), [0, 0, 0, 0], 1)
dp_case("dp_bool", rng.uniform(size=(5, 2)) < 0.5, [1, 0, 1, 1, 0], 2)
dp_case("dp_empty", np.zeros((0, 3), F32), np.zeros((0,), I32), 2)
dp_case("dp_uint8_cube", rng.integers(0, 255, (3, 2, 2)).astype(np.uint8), [1, 1, 0], 3)
d42 = np.arange(8, dtype=F32).reshape(4, 2)
dpn = lambda n: node("DynamicPartition", T=F32, num_partitions=n)
m.error("dp_out_of_range", dpn(4), [d42, np.array([0, 1, 3, 5], I32)], "partitions[3] = 5 is not in [0, 4)")
m.error("dp_negative_2d", dpn(3), [d42, np.array([[0, 1], [2, 0], [-1, 1], [0, 0]], I32)],
        "partitions[2,0] = -1 is not in [0, 3)")
m.error("dp_scalar_out_of_range", dpn(2), [d42, np.array(7, I32)], "partitions = 7 is not in [0, 2)")
m.error("dp_prefix", dpn(2), [d42, np.array([0, 1, 0], I32)],
        "data.shape must start with partitions.shape, got data.shape = [4,2], partitions.shape = [3]")

m.write()
