#!/usr/bin/python3
"""PyTorch side of `tstudio bench mlp|lenet`: the same networks, batch and optimizer, timed the same way.

Usage: tools/bench/pytorch_bench.py mlp|lenet|resnet [--device cpu|cuda] [--threads N] [--steps S]
       [--warmup W] [--batch B] [--background-load N]
Prints "<model>: <steps/s> steps/s" like tstudio bench (with --device cuda followed by "GPU busy: N%",
measured in one more block under torch.profiler). On the CPU it needs
Debian's python3-torch (PyTorch 1.13; run it with /usr/bin/python3) and an optimised BLAS behind it
(libopenblas0-pthread; with the reference BLAS the MLP runs about 10x slower), with
OPENBLAS_NUM_THREADS set as --threads; with --device cuda, a PyTorch built with CUDA.
--background-load N runs it beside N busy processes pinned to the last N cores, as tstudio bench
does. As tstudio bench feeds its batch with every step (a Session.run feed), the batch is copied
from host memory to the GPU in every step here too; a timed block ends with loss.item(), which
waits for the queued GPU work.
"""
import argparse
import time

import torch

import background_load
import torch.nn as nn
import torch.nn.functional as F


class Mlp(nn.Module):
    """784-500-10, ReLU (the seeds' book network without its regulariser and moving averages)."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 500)
        self.fc2 = nn.Linear(500, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class LeNet(nn.Module):
    """conv 5x5x32 SAME, ReLU, max-pool 2, conv 5x5x64 SAME, ReLU, max-pool 2, dense 512 ReLU, dense 10."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 5, padding=2)
        self.conv2 = nn.Conv2d(32, 64, 5, padding=2)
        self.fc1 = nn.Linear(7 * 7 * 64, 512)
        self.fc2 = nn.Linear(512, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        return self.fc2(F.relu(self.fc1(x)))


class BasicBlock(nn.Module):
    """conv3x3-bn-relu-conv3x3-bn plus the shortcut (a 1x1 projection with bn when the shape changes), relu."""

    def __init__(self, inputs, filters, stride):
        super().__init__()
        # tf.layers.batch_normalization's defaults: momentum 0.99 (PyTorch's 0.01), epsilon 1e-3.
        def bn():
            return nn.BatchNorm2d(filters, eps=1e-3, momentum=0.01)
        self.conv1 = nn.Conv2d(inputs, filters, 3, stride=stride, padding=1, bias=False)
        self.bn1 = bn()
        self.conv2 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.bn2 = bn()
        self.shortcut = nn.Sequential()
        if stride != 1 or inputs != filters:
            self.shortcut = nn.Sequential(nn.Conv2d(inputs, filters, 1, stride=stride, bias=False), bn())

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(h)) + self.shortcut(x))


class ResNet20(nn.Module):
    """examples::buildResNet20: conv 3x3x16 bn relu, 3 stages x 3 blocks (16, 32, 64), global average pool, dense 10."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(16, eps=1e-3, momentum=0.01)
        blocks, inputs = [], 16
        for filters in (16, 32, 64):
            for block in range(3):
                stride = 2 if block == 0 and filters != 16 else 1
                blocks.append(BasicBlock(inputs, filters, stride))
                inputs = filters
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        x = self.blocks(F.relu(self.bn(self.conv(x))))
        return self.fc(x.mean(dim=(2, 3)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", choices=["mlp", "lenet", "resnet"])
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--background-load", type=int, default=0,
                        help="run beside N busy processes pinned to the last N cores, as tstudio bench does")
    parser.add_argument("--steps", type=int, default=0, help="timed steps (default: 300 mlp, 30 lenet)")
    parser.add_argument("--warmup", type=int, default=0, help="untimed steps first (default: 20 mlp, 3 lenet)")
    parser.add_argument("--batch", type=int, default=0, help="examples per step (default: 100, resnet 256)")
    args = parser.parse_args()
    batch = args.batch or (256 if args.model == "resnet" else 100)
    device = torch.device(args.device)
    steps = args.steps or (300 if args.model == "mlp" else 30)
    warmup = args.warmup or (20 if args.model == "mlp" else 3)

    background_load.start(args.background_load)
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    model = {"mlp": Mlp, "lenet": LeNet, "resnet": ResNet20}[args.model]().to(device)
    model.train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    # Random inputs and labels of MNIST's (resnet: CIFAR's) shape: the speed does not depend on the values.
    shape = {"mlp": (batch, 784), "lenet": (batch, 1, 28, 28), "resnet": (batch, 3, 32, 32)}[args.model]
    x_host = torch.rand(shape)
    y_host = torch.randint(0, 10, (batch,))

    def step():
        x = x_host.to(device)
        y = y_host.to(device)
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        return loss

    for _ in range(warmup):
        step()
    if device.type == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(steps):
        loss = step()
    loss.item()
    elapsed = time.perf_counter() - start
    where = torch.cuda.get_device_name() if device.type == "cuda" else f"{torch.get_num_threads()} threads"
    print(f"pytorch {torch.__version__}, {where}, batch {batch}, "
          f"{steps} steps in {elapsed:.3f} s (loss {loss.item():.4f})")
    print(f"{args.model}: {steps / elapsed:.1f} steps/s")
    if device.type == "cuda":
        print(gpu_busy(step, steps))


def gpu_busy(step, steps):
    """The GPU's share of one more block of steps, from the CUDA kernels, copies and memsets the
    profiler (CUPTI) records: the union of their intervals over the block's wall time."""
    try:
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            start = time.perf_counter()
            for _ in range(steps):
                loss = step()
            loss.item()
            wall = time.perf_counter() - start
        intervals = sorted((e.time_range.start, e.time_range.end) for e in prof.events()
                           if e.device_type == torch.autograd.DeviceType.CUDA)
    except Exception as error:  # an old PyTorch or no CUPTI: say so, the speed stands
        return f"GPU busy: not measured ({error})"
    busy, covered = 0.0, None
    for begin, end in intervals:  # microseconds
        begin = max(begin, covered) if covered is not None else begin
        if end > begin:
            busy += end - begin
            covered = end
    return (f"GPU busy: {100.0 * busy * 1e-6 / wall:.1f}% of a {steps}-step block of {wall:.3f} s "
            f"({len(intervals)} kernels, copies and memsets)")


if __name__ == "__main__":
    main()
