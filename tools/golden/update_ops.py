#!/usr/bin/python3
"""Golden values for the UPDATE_OPS test (tests/project/test_training_setup.cpp), NumPy only.

A project trains a network whose first layer is tf.layers.batch_normalization (training=True,
momentum 0.9, 2-D input: the unfused path) with an optimizer built by the project. The batch
statistics of that layer depend only on the data, so the moving statistics after N steps follow from
the batches alone: TensorFlow's rule, applied once per step,
    moving_mean     -= (moving_mean     - mean(batch))     * (1 - momentum)
    moving_variance -= (moving_variance - variance(batch)) * (1 - momentum)
with the unfused path's population variance (no Bessel correction), starting from 0 and 1.
Writes tests/data/golden/update_ops/{x,y,moving_mean,moving_variance}.npy. Run:
/usr/bin/python3 tools/golden/update_ops.py
"""
import os
import numpy as np

from golden import GOLDEN

OUT = os.path.join(GOLDEN, "update_ops")
EXAMPLES, FEATURES, BATCH, STEPS, MOMENTUM = 48, 3, 8, 5, 0.9

rng = np.random.RandomState(20261123)
# Features with different means and spreads, so that every moving statistic moves visibly.
x = (rng.normal(size=(EXAMPLES, FEATURES)) * np.array([1.0, 3.0, 0.5]) + np.array([2.0, -1.0, 0.25])).astype(np.float32)
y = (x @ np.array([[0.5], [-0.25], [1.0]]) + 0.1).astype(np.float32)  # [examples, 1]

mean = np.zeros(FEATURES, dtype=np.float64)
variance = np.ones(FEATURES, dtype=np.float64)
for step in range(STEPS):
    batch = x[step * BATCH:(step + 1) * BATCH].astype(np.float64)  # in order: the project shuffles with a buffer of 1
    mean -= (mean - batch.mean(axis=0)) * (1 - MOMENTUM)
    variance -= (variance - batch.var(axis=0)) * (1 - MOMENTUM)

os.makedirs(OUT, exist_ok=True)
np.save(os.path.join(OUT, "x.npy"), x)
np.save(os.path.join(OUT, "y.npy"), y)
np.save(os.path.join(OUT, "moving_mean.npy"), mean.astype(np.float32))
np.save(os.path.join(OUT, "moving_variance.npy"), variance.astype(np.float32))
