#!/usr/bin/python3
"""PyTorch side of `tstudio bench ptb`: PTB-small language-model training steps with nn.LSTM.

Usage: tools/bench/pytorch_ptb.py [--threads N] [--steps S] [--warmup W] [--background-load N]
The small configuration of TensorFlow's PTB tutorial: vocabulary 10,000, embedding 200, a 2-layer
LSTM of 200 units, 20 unrolled steps, batch 20, a 200 x 10,000 softmax, SGD with learning rate 1.0
and gradients clipped by global norm 5; the state is carried from one step to the next (detached,
as truncated backpropagation through time does). The ids are random (the speed does not depend on
them). Prints "ptb-small: <steps/s> steps/s, <words/s> words/s" like tstudio bench. Needs Debian's
python3-torch (PyTorch 1.13; run it with /usr/bin/python3) and an optimised BLAS behind it:
Debian's torch calls the libblas.so.3 alternative, which is the slow reference BLAS unless
libopenblas0-pthread is installed (then about 10x faster here). Threads: --threads sets PyTorch's,
OPENBLAS_NUM_THREADS OpenBLAS's (set both).
"""
import argparse
import time

import torch

import background_load
import torch.nn as nn
import torch.nn.functional as F

VOCAB, HIDDEN, LAYERS, STEPS, BATCH = 10000, 200, 2, 20, 20


class PtbModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, HIDDEN)
        self.lstm = nn.LSTM(HIDDEN, HIDDEN, LAYERS)  # time-major, as the tutorial's unrolled cell
        self.softmax = nn.Linear(HIDDEN, VOCAB)
        for p in self.parameters():
            nn.init.uniform_(p, -0.1, 0.1)

    def forward(self, ids, state):
        outputs, state = self.lstm(self.embedding(ids), state)
        return self.softmax(outputs), state


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--background-load", type=int, default=0,
                        help="run beside N busy processes pinned to the last N cores, as tstudio bench does")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=5)
    args = parser.parse_args()
    background_load.start(args.background_load)
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    model = PtbModel()
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    batches = [torch.randint(0, VOCAB, (STEPS + 1, BATCH)) for _ in range(16)]
    state = tuple(torch.zeros(LAYERS, BATCH, HIDDEN) for _ in range(2))

    def step(i):
        nonlocal state
        data = batches[i % len(batches)]
        x, y = data[:-1], data[1:]
        state = tuple(s.detach() for s in state)
        logits, state = model(x, state)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        return loss

    for i in range(args.warmup):
        step(i)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for i in range(args.steps):
            loss = step(i)
        loss.item()
        best = min(best, time.perf_counter() - start)
    print(f"pytorch {torch.__version__}, {args.threads} threads, batch {BATCH} x {STEPS} steps, "
          f"{args.steps} steps in {best:.3f} s (loss {loss.item():.4f})")
    print(f"ptb-small: {args.steps / best:.1f} steps/s, {args.steps * BATCH * STEPS / best:.0f} words/s")


if __name__ == "__main__":
    main()
