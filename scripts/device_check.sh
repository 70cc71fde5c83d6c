#!/bin/bash
# Runs on the `device` tool's GPU machine over what scripts/device_bundle.sh packed (carried as
# .device): the GPU probe and self-test, every GPU test program, LeNet on MNIST on CPU and GPU, the
# CLI's GPU training test, and the GPU benches beside PyTorch's. Logs go to $OUT (one file each).
#   scripts/device_check.sh [tests|bench|all]   (default all)
set -uo pipefail
what=${1:-all}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/device-out}
mkdir -p "$out"
work=/tmp/tstudio-device
rm -rf "$work" && mkdir -p "$work"
tar -C "$work" -xJf "$root/.device/bundle.tar.xz"

# CUDA's libraries: the toolkit's, then those of the Python environment's NVIDIA wheels (cuDNN).
cuda_libs=$(ls -d /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib 2>/dev/null | tr '\n' ':')
wheel_libs=$(python3 -c 'import glob, os, nvidia; print(":".join(sorted(glob.glob(os.path.join(list(nvidia.__path__)[0], "*", "lib")))))' 2>/dev/null)
export LD_LIBRARY_PATH="$work/lib:${cuda_libs}${wheel_libs}:${LD_LIBRARY_PATH:-}"
export QT_QPA_PLATFORM=offscreen
[[ -d "$root/.device/fixtures" ]] && export TSTUDIO_FIXTURES="$root/.device/fixtures"
# test_tstudio_train runs tstudio by the path the build machine gave it.
# (Where that path exists already, as on the build machine itself, it is left alone.)
[[ -e /work/main/build/app/tstudio ]] || { mkdir -p /work/main/build/app && ln -s "$work/bin/tstudio" /work/main/build/app/tstudio; }

{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    "$work/bin/tstudio" devices --self-test
} >"$out/devices.log" 2>&1
cat "$out/devices.log"

if [[ "$what" == tests || "$what" == all ]]; then
    for test in "$work"/bin/test_gpu_* "$work/bin/test_lenet5" "$work/bin/test_tstudio_train"; do
        name=$(basename "$test")
        timeout 300 "$test" >"$out/$name.log" 2>&1
        echo "$name: exit $? ($(grep -c '^PASS' "$out/$name.log") pass, $(grep -c '^FAIL' "$out/$name.log") fail, $(grep -c '^SKIP' "$out/$name.log") skip)"
    done | tee "$out/summary.log"
    grep -h -A3 '^FAIL' "$out"/test_*.log | head -60
fi

if [[ "$what" == bench || "$what" == all ]]; then
    for model in mlp lenet resnet; do
        "$work/bin/tstudio" bench "$model" --device gpu 2>&1 | tail -4
        "$work/bin/tstudio" bench "$model" --device gpu --no-cuda-graphs 2>&1 | tail -4
        python3 "$root/tools/bench/pytorch_bench.py" "$model" --device cuda 2>&1 | tail -3
    done | tee "$out/bench.log"
fi
