#!/usr/bin/python3
"""Golden cases for the candidate sampling kernels (tests/data/golden/candidate_sampling.json):
UniformCandidateSampler, LogUniformCandidateSampler, AllCandidateSampler and ComputeAccidentalHits,
computed with NumPy and Python's math module, never with TensorStudio's engine.

TensorFlow 1.15's algorithm (candidate_sampler_ops.cc, range_sampler.cc), reproduced here:
- The kernel's Philox stream is seeded from (seed, seed2) as every stateful random op's
  (random_kernels.Stream.seeded); each run reserves 2048 * num_sampled 32-bit samples, i.e.
  (2048 * num_sampled + 3) // 4 Philox calls, and the first run starts at the stream's start.
- Words are taken one at a time (SimplePhilox over SingleSampleAdapter): a double in [0, 1) takes
  two (20 mantissa bits of the first, 32 of the second), a 64-bit integer two (the first low).
- Uniform: a class is rand64 % range; P = float32(1 / range).
  Log-uniform: int(exp(u * log1p(range))) - 1, then % range; P(k) = float32(log((k+2)/(k+1)) / log1p(range)).
- unique: draw until num_sampled distinct classes were seen, counting the tries. Expected count of a
  class of probability p: float32(p) * num_sampled when tries == num_sampled, else
  -expm1(tries * log1p(-p)).
- AllCandidateSampler: classes 0 .. num_sampled-1, every expected count 1.
- ComputeAccidentalHits: for each (row, true class) in row-major order whose class is among the
  sampled candidates, (row, the class's last position, -FLT_MAX).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import Manifest, node  # noqa: E402
from random_kernels import Stream  # noqa: E402


class Words:
    """The stream's 32-bit words one at a time, from its first call on."""

    def __init__(self, stream):
        self.stream = stream
        self.call = 0
        self.pending = []

    def next(self):
        if not self.pending:
            self.pending = [int(w) for w in self.stream.calls(self.call, 1)[0]]
            self.call += 1
        return self.pending.pop(0)

    def rand64(self):
        lo = self.next()
        hi = self.next()
        return lo | (hi << 32)

    def rand_double(self):
        x0 = self.next()
        x1 = self.next()
        bits = (1023 << 52) | ((x0 & 0xFFFFF) << 32) | x1
        return float(np.array([bits], np.uint64).view(np.float64)[0]) - 1.0


def uniform_sampler(rng):
    return (lambda w: w.rand64() % rng), (lambda k: np.float32(1.0 / rng))


def log_uniform_sampler(rng):
    log_range = math.log1p(rng)

    def sample(w):
        return (int(math.exp(w.rand_double() * log_range)) - 1) % rng

    return sample, (lambda k: np.float32(math.log((k + 2.0) / (k + 1.0)) / log_range))


def expected_count(p, batch, tries):
    if tries == batch:
        return np.float32(p) * np.float32(batch)
    return np.float32(-math.expm1(tries * math.log1p(-float(p))))


def sample_batch(sampler, seed, seed2, num_sampled, unique, true_classes):
    sample, prob = sampler
    w = Words(Stream.seeded(seed, seed2))
    picked, tries = [], 0
    if unique:
        seen = set()
        while len(picked) < num_sampled:
            tries += 1
            v = sample(w)
            if v not in seen:
                seen.add(v)
                picked.append(v)
    else:
        picked = [sample(w) for _ in range(num_sampled)]
        tries = num_sampled
    sampled_count = [expected_count(prob(v), num_sampled, tries) for v in picked]
    true_count = [[expected_count(prob(int(v)), num_sampled, tries) for v in row] for row in true_classes]
    return (np.array(picked, np.int64), np.array(true_count, np.float32).reshape(np.shape(true_classes)),
            np.array(sampled_count, np.float32)), tries


def accidental_hits(true_classes, sampled):
    position = {}
    for i, v in enumerate(sampled):
        position[int(v)] = i
    indices, ids = [], []
    for i, row in enumerate(true_classes):
        for v in row:
            if int(v) in position:
                indices.append(i)
                ids.append(position[int(v)])
    n = len(ids)
    return (np.array(indices, np.int32).reshape(n), np.array(ids, np.int64).reshape(n),
            np.full(n, -np.finfo(np.float32).max, np.float32))


def main():
    m = Manifest("candidate_sampling")
    classes = np.array([[0, 3], [7, 1], [42, 999]], np.int64)
    cases = [
        # name, op, range_max, num_sampled, unique, seed, seed2, true_classes
        ("log_uniform_unique", "LogUniformCandidateSampler", 1000, 8, True, 1, 2, classes),
        ("log_uniform_unique_seed", "LogUniformCandidateSampler", 1000, 20, True, 87654321, 7, classes),
        ("log_uniform_repeats", "LogUniformCandidateSampler", 1000, 8, False, 1, 2, classes),
        # A range of 12 for 10 unique classes: many rejected tries, so tries != num_sampled.
        ("log_uniform_small_range", "LogUniformCandidateSampler", 12, 10, True, 5, 6, classes % 12),
        ("uniform_unique", "UniformCandidateSampler", 10, 6, True, 3, 4, classes % 10),
        ("uniform_repeats", "UniformCandidateSampler", 50, 7, False, -1, -123456789012345, classes % 50),
        ("uniform_num_true_1", "UniformCandidateSampler", 100000, 5, True, 11, 12, np.array([[5], [6]], np.int64)),
    ]
    for name, op, rng, num_sampled, unique, seed, seed2, true_classes in cases:
        sampler = (log_uniform_sampler if op.startswith("Log") else uniform_sampler)(rng)
        outputs, tries = sample_batch(sampler, seed, seed2, num_sampled, unique, true_classes)
        assert not unique or len(set(outputs[0].tolist())) == num_sampled
        if name == "log_uniform_small_range":
            assert tries > num_sampled, tries
        nd = node(op, num_true=true_classes.shape[1], num_sampled=num_sampled, unique=unique, range_max=rng,
                  seed=seed, seed2=seed2)
        m.case(name, nd, [true_classes], list(outputs), rtol=1e-6, atol=0)

    nd = node("AllCandidateSampler", num_true=2, num_sampled=5, unique=True, seed=1, seed2=1)
    m.case("all", nd, [classes], [np.arange(5, dtype=np.int64), np.ones([3, 2], np.float32),
                                  np.ones([5], np.float32)], rtol=0, atol=0)

    for name, true_classes, sampled in [
            ("hits", classes, np.array([3, 5, 42, 0, 8], np.int64)),
            ("hits_repeated_candidate", classes, np.array([7, 3, 7, 9], np.int64)),
            ("hits_none", classes, np.array([100, 200], np.int64)),
            ("hits_empty_batch", np.zeros([0, 2], np.int64), np.array([1, 2], np.int64))]:
        nd = node("ComputeAccidentalHits", num_true=int(true_classes.shape[1]), seed=0, seed2=0)
        m.case(name, nd, [true_classes, sampled], list(accidental_hits(true_classes, sampled)), rtol=0, atol=0)

    # Errors, in TensorFlow's words.
    lu = node("LogUniformCandidateSampler", num_true=2, num_sampled=4, unique=True, range_max=10, seed=1, seed2=1)
    m.error("true_classes_not_matrix", lu, [np.array([1, 2], np.int64)], "true_classes must be a matrix")
    m.error("true_classes_wrong_columns", lu, [np.zeros([2, 3], np.int64)],
            "true_classes must have num_true columns, expected: 3 was: 2")
    small = node("UniformCandidateSampler", num_true=2, num_sampled=5, unique=True, range_max=3, seed=1, seed2=1)
    m.error("range_too_small", small, [classes % 3], "Sampler's range is too small.")
    hits = node("ComputeAccidentalHits", num_true=2, seed=0, seed2=0)
    m.error("hits_wrong_columns", hits, [np.zeros([2, 3], np.int64), np.array([1], np.int64)],
            "true_candidates must be a batch_size * num_true matrix")
    m.error("hits_sampled_not_vector", hits, [classes, np.zeros([2, 2], np.int64)],
            "sampled_candidates must be a vector, which is typically an output from CandidateSampler")
    m.write()


if __name__ == "__main__":
    main()
