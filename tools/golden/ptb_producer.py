#!/usr/bin/env python3
"""ptb_producer's batches (TensorFlow's PTB tutorial reader) for the small id sequence that
tests/project/test_ptb_project.cpp checks: ids[i] = (7 * i) % 23 for i < 23, batch_size 2,
num_steps 3. Prints x and y of every step of one epoch, as the test writes them."""
import numpy as np

ids = np.array([(7 * i) % 23 for i in range(23)], dtype=np.int32)
batch_size, num_steps = 2, 3
batch_len = len(ids) // batch_size
data = ids[: batch_size * batch_len].reshape(batch_size, batch_len)
epoch_size = (batch_len - 1) // num_steps
print("epoch_size", epoch_size)
for i in range(epoch_size):
    x = data[:, i * num_steps:(i + 1) * num_steps]
    y = data[:, i * num_steps + 1:(i + 1) * num_steps + 1]
    print("step", i, "x", x.tolist(), "y", y.tolist())
