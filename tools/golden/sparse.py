#!/usr/bin/python3
"""Golden cases for SparseToDense, computed with NumPy.

TensorFlow 1.15 behaviours encoded here:
- dense = full(output_shape, default_value); dense[indices[i]] = values[i] (or the scalar value)
  in order; sparse_indices may be a scalar (one index into a vector), a vector (one 1-D index per
  element) or a matrix [N, rank].
- validate_indices (default true): indices must be in bounds, lexicographically increasing and
  unique; the first failing index is reported ("indices[1] = [0,5] is out of bounds: need
  0 <= index < [3,4]", "... is out of order", "... is repeated"). Without validation a repeated
  index keeps the last value and an out-of-order one is fine, but an index out of bounds still
  fails ("Indices are not valid (out of bounds).  Shape: [5]").
- The input checks and their texts are TensorFlow's sparse_to_dense_op.cc.
"""
import numpy as np

from golden import Manifest, node

m = Manifest("sparse")


def sparse_to_dense(indices, shape, values, default):
    out = np.full(shape, default, dtype=np.asarray(values).dtype)
    indices = np.asarray(indices)
    # [N, rank]: a scalar is one index of rank 1, a vector N indices of rank 1.
    num = indices.shape[0] if indices.ndim > 0 else 1
    rank = indices.shape[1] if indices.ndim > 1 else 1
    ix = indices.reshape(num, rank)
    vals = np.asarray(values)
    for n, index in enumerate(ix):
        out[tuple(index)] = vals if vals.ndim == 0 else vals[n]
    return out


def case(name, indices, shape, values, default, validate=True, index_dtype=np.int32, **tol):
    indices = np.asarray(indices, index_dtype)
    shape = np.asarray(shape, index_dtype)
    values = np.asarray(values)
    default = np.asarray(default, values.dtype)
    m.case(name, node("SparseToDense", T=values.dtype.type, Tindices=index_dtype, validate_indices=validate),
           [indices, shape, values, default], [sparse_to_dense(indices, shape, values, default)], **tol)


def error(name, indices, shape, values, default, text, validate=True, index_dtype=np.int32):
    values = np.asarray(values)
    m.error(name, node("SparseToDense", T=values.dtype.type, Tindices=index_dtype, validate_indices=validate),
            [np.asarray(indices, index_dtype), np.asarray(shape, index_dtype), values,
             np.asarray(default, values.dtype)], text)


case("matrix_float", [[0, 1], [1, 0], [2, 3]], [3, 4], np.float32([1.5, -2, 3]), 0.0)
case("matrix_default_value", [[0, 0], [0, 2], [1, 1]], [2, 3], np.float32([1, 2, 3]), -1.0)
case("vector_indices", [1, 3, 4], [6], np.int32([7, 8, 9]), 0)
case("scalar_index", 2, [5], np.float64([4.0]), 1.0)
case("scalar_value", [[0, 0], [1, 2]], [2, 3], np.float32(5.0), 0.0)
case("int64_indices", [[0, 0, 1], [1, 1, 0]], [2, 2, 2], np.int64([10, 20]), 3, index_dtype=np.int64)
case("bool_values", [0, 2], [3], np.bool_([True, True]), False)
case("half_values", [[1, 1]], [2, 2], np.float16([0.5]), 0.25)
case("uint8_values", [0, 1], [4], np.uint8([200, 7]), 9)
case("no_indices", np.zeros([0, 2]), [2, 2], np.float32([]), 3.0)
case("unvalidated_repeat_last_wins", [1, 1, 0], [3], np.float32([1, 2, 3]), 0.0, validate=False)

error("out_of_bounds", [[0, 1], [0, 5]], [3, 4], np.float32([1, 2]), 0.0,
      "indices[1] = [0,5] is out of bounds: need 0 <= index < [3,4]")
error("negative_index", [[-1, 0]], [3, 4], np.float32([1]), 0.0,
      "indices[0] = [-1,0] is out of bounds: need 0 <= index < [3,4]")
error("out_of_order", [[1, 1], [1, 0]], [3, 4], np.float32([1, 2]), 0.0, "indices[1] = [1,0] is out of order")
error("repeated", [[1, 1], [1, 1]], [3, 4], np.float32([1, 2]), 0.0, "indices[1] = [1,1] is repeated")
error("out_of_bounds_unvalidated", [1, 10], [5], np.float32([1, 2]), 0.0,
      "Indices are not valid (out of bounds).  Shape: [5]", validate=False)
error("indices_rank3", np.zeros([1, 1, 1]), [1], np.float32([1]), 0.0,
      "sparse_indices should be a scalar, vector, or matrix, got shape [1,1,1]")
error("shape_rank2", [[0, 0]], [[2, 2]], np.float32([1]), 0.0, "output_shape should be a vector, got shape [1,2]")
error("shape_wrong_length", [[0, 0]], [2, 2, 2], np.float32([1]), 0.0,
      "output_shape has incorrect number of elements: 3 should be: 2")
error("values_wrong_length", [[0, 0], [1, 1]], [2, 2], np.float32([1, 2, 3]), 0.0,
      "sparse_values has incorrect shape [3], should be [] or [2]")
m.error("default_not_scalar", node("SparseToDense", T=np.float32, Tindices=np.int32),
        [np.int32([1, 3]), np.int32([5]), np.float32([1, 2]), np.float32([0])], "default_value should be a scalar.")

m.write()
