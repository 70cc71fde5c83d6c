#!/bin/bash
# Runs on the `device` tool's GPU machine over what scripts/device_bundle.sh packed (carried as
# .devlib, then .device: see there): the GPU probe and self-test, every GPU test program, LeNet on MNIST on CPU and GPU, the
# CLI's GPU training test, compute-sanitizer over the GPU tests, and the GPU benches beside PyTorch's.
#   scripts/device_check.sh [WHAT] [TEST_NAME_REGEX] [SANITIZE_NAME_REGEX]
# WHAT: tests, bench, tensorboard, sanitize, or several joined by commas, in that order; all (the
# default) is tests,bench,tensorboard. tensorboard: mnist-notes trained 300 steps on the GPU, its log
# directory read by the machine's TensorBoard and compared with `tstudio events --json`
# (tools/events/tensorboard_compare.py). The first regex picks the test programs (default: every one), the second those that
# compute-sanitizer runs with memcheck, racecheck, initcheck and synccheck (slow; default: the first). The device tool brings back at most 8 files,
# so $OUT receives summary.txt (what each program did, the failures' first lines, the benches) and
# logs.tar.gz (every program's whole log).
set -uo pipefail
what=${1:-all}
[[ "$what" == all ]] && what=tests,bench,tensorboard
only=${2:-.}
sanitize_only=${3:-$only}
wants() { [[ ",$what," == *",$1,"* ]]; }
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-/tmp/device-out}
mkdir -p "$out"
work=/tmp/tstudio-device
logs=$work/logs
rm -rf "$work" && mkdir -p "$work" "$logs"
tar -C "$work" -xJf "$root/.device/bundle.tar.xz"
if [[ -f "$root/.devlib/libs.tar.xz" ]]; then
    tar -C "$work" -xJf "$root/.devlib/libs.tar.xz"
else
    echo "error: .devlib/libs.tar.xz is not here: carry .devlib in a call just before this one (scripts/device_bundle.sh)" >&2
    exit 2
fi
summary=$out/summary.txt
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
pack_logs() { tar -C "$work" -czf "$out/logs.tar.gz" logs; }
trap pack_logs EXIT
# The device tool stops a command at 600 s: start nothing new after DEVICE_CHECK_SECONDS (default 540).
deadline=${DEVICE_CHECK_SECONDS:-540}
# Seconds a program may run: at most $1, and never past the deadline.
budget() { local left=$((deadline - SECONDS)); echo $((left < $1 ? (left > 10 ? left : 10) : $1)); }
in_time() {
    if ((SECONDS >= deadline)); then
        say "skipped (out of time, ${SECONDS} s): $*"
        return 1
    fi
}

# CUDA's libraries: the toolkit's, then those of the Python environment's NVIDIA wheels (cuDNN, CUPTI).
cuda_libs=$(ls -d /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/extras/CUPTI/lib64 2>/dev/null | tr '\n' ':')
wheel_libs=$(python3 -c 'import glob, os, nvidia; print(":".join(sorted(glob.glob(os.path.join(list(nvidia.__path__)[0], "*", "lib")))))' 2>/dev/null)
export LD_LIBRARY_PATH="$work/lib:${cuda_libs}${wheel_libs}:${LD_LIBRARY_PATH:-}"
export QT_QPA_PLATFORM=offscreen
# The shipped example projects, from this copy of the tree (the programs look in the build machine's).
export TSTUDIO_EXAMPLES_DIR="$root/examples/projects"
[[ -d "$root/.device/fixtures" ]] && export TSTUDIO_FIXTURES="$root/.device/fixtures"
# test_tstudio_train runs tstudio by the path the build machine gave it.
# (Where that path exists already, as on the build machine itself, it is left alone.)
[[ -e /work/main/build/app/tstudio ]] || { mkdir -p /work/main/build/app && ln -s "$work/bin/tstudio" /work/main/build/app/tstudio; }

{
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv
    "$work/bin/tstudio" devices --self-test
    echo "self-test exit: $?"
} >"$logs/devices.log" 2>&1
tee -a "$summary" <"$logs/devices.log"

test_programs() { # REGEX
    for test in "$work"/bin/test_gpu_* "$work/bin/test_lenet5" "$work/bin/test_tstudio_train"; do
        [[ -x "$test" ]] && [[ "$(basename "$test")" =~ $1 ]] && echo "$test"
    done
}

# Qt Test's counts for one log: PASS, FAIL and SKIP lines.
counts() { echo "$(grep -c '^PASS' "$1") pass, $(grep -c '^FAIL' "$1") fail, $(grep -c '^SKIP' "$1") skip"; }

if wants tests; then
    say "== tests"
    for test in $(test_programs "$only"); do
        name=$(basename "$test")
        in_time "$name" || continue
        start=$SECONDS
        timeout "$(budget 240)" "$test" >"$logs/$name.log" 2>&1
        rc=$?
        say "$name: exit $rc ($(counts "$logs/$name.log")) $((SECONDS - start)) s"
        [[ $rc -ne 0 ]] && grep -h -A4 '^FAIL' "$logs/$name.log" | head -40 >>"$summary"
        pack_logs
    done
fi

if wants bench; then
    say "== benches (GPU; TensorStudio with and without CUDA graphs, then PyTorch eager)"
    for model in mlp lenet resnet; do
        in_time "bench $model" || continue
        "$work/bin/tstudio" bench "$model" --device gpu >"$logs/bench-$model.log" 2>&1
        tail -6 "$logs/bench-$model.log" | tee -a "$summary"
        "$work/bin/tstudio" bench "$model" --device gpu --no-cuda-graphs >"$logs/bench-$model-nographs.log" 2>&1
        tail -6 "$logs/bench-$model-nographs.log" | tee -a "$summary"
        python3 "$root/tools/bench/pytorch_bench.py" "$model" --device cuda >"$logs/bench-$model-torch.log" 2>&1
        grep -v -i warn "$logs/bench-$model-torch.log" | tail -3 | tee -a "$summary"
    done
fi

if wants tensorboard && in_time "tensorboard"; then
    say "== TensorBoard reads a log directory tstudio train wrote on the GPU"
    tb_logdir=$work/tensorboard-logdir
    timeout "$(budget 120)" "$work/bin/tstudio" train mnist-notes --device gpu --steps 300 --logdir "$tb_logdir" \
        --mnist "${TSTUDIO_FIXTURES:-/nonexistent}/mnist" >"$logs/tensorboard-train.log" 2>&1
    say "tstudio train mnist-notes --device gpu: exit $? ($(tail -1 "$logs/tensorboard-train.log"))"
    "$work/bin/tstudio" events "$tb_logdir" --json >"$work/tensorboard-ours.json" 2>>"$logs/tensorboard.log"
    python3 "$root/tools/events/tensorboard_compare.py" "$tb_logdir" "$work/tensorboard-ours.json" \
        >>"$logs/tensorboard.log" 2>&1
    rc=$?
    say "tensorboard_compare: exit $rc"
    tail -25 "$logs/tensorboard.log" >>"$summary"
fi

if wants sanitize; then
    say "== compute-sanitizer"
    sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
    for test in $(test_programs "$sanitize_only"); do
        name=$(basename "$test")
        for tool in memcheck racecheck initcheck synccheck; do
            in_time "$name $tool" || continue
            start=$SECONDS
            extra=()
            [[ $tool == memcheck ]] && extra=(--leak-check full)
            timeout "$(budget 300)" "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 --print-limit 20 \
                "$test" >"$logs/$name.$tool.log" 2>&1
            rc=$?
            errors=$(grep -m1 -E '^========= ERROR SUMMARY|RACECHECK SUMMARY' "$logs/$name.$tool.log")
            say "$name $tool: exit $rc ($(counts "$logs/$name.$tool.log")) ${errors:-no summary} $((SECONDS - start)) s"
            [[ $rc -ne 0 ]] && grep -m12 -E '^========= (Invalid|Uninitialized|Race|Barrier|Program hit|Error|  )' \
                "$logs/$name.$tool.log" >>"$summary"
            pack_logs
        done
    done
fi
