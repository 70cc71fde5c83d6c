#!/bin/bash
# Packs what the GPU checks need for the `device` tool's machine, which has the NVIDIA driver, CUDA
# 13, cuDNN and PyTorch but not Debian's Qt, protobuf, ICU or oneDNN, and cannot fetch anything.
# Builds nothing: run it after a build that found CUDA (build/ by default).
#   scripts/device_bundle.sh [BUILD_DIR]
# .device/bundle.tar.xz: the stripped programs (xz with one large dictionary: they share the engine),
# with the MNIST test images from the fixtures in .device/fixtures (TSTUDIO_FIXTURES there).
# .devlib/libs.tar.xz: the shared libraries they need, less the C library and CUDA's own.
# A call carries the working tree (about 30 MB as the tool counts it) and its carried paths, 64 MiB
# in all, so the two travel in two calls while the machine stays warm (30 s), the libraries first:
#   run(command="true", carry=[".devlib"])   then   run(command="scripts/device_check.sh", carry=[".device"])
# (a carried path replaces its copy there; .devlib, not named the second time, stays).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out="$root/.device"
exclude=$(git -C "$root" rev-parse --git-path info/exclude)
[[ "$exclude" = /* ]] || exclude="$root/$exclude"
mkdir -p "$(dirname "$exclude")"
for path in /.device/ /.devlib/; do
    grep -qxF "$path" "$exclude" 2>/dev/null || echo "$path" >>"$exclude"
done
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib" "$out" "$root/.devlib"

programs=("$build/app/tstudio")
for test in "$build"/tests/test_gpu_* "$build/tests/test_lenet5" "$build/tests/test_tstudio_train"; do
    [[ -x "$test" && ! -d "$test" ]] && programs+=("$test")
done
for program in "${programs[@]}"; do
    strip --strip-unneeded -o "$stage/bin/$(basename "$program")" "$program"
done
# The GPU plugin, where the programs look for it (lib/tensorstudio beside their bin folder).
plugin="$build/lib/tensorstudio/libtstudio-gpu.so"
if [[ -f "$plugin" ]]; then
    mkdir -p "$stage/lib/tensorstudio"
    strip --strip-unneeded -o "$stage/lib/tensorstudio/libtstudio-gpu.so" "$plugin"
    programs+=("$plugin") # for its libraries below
else
    echo "warning: $plugin is not built: the programs will find no GPU" >&2
fi

# Shared libraries, except the C runtime (the machine's is newer) and CUDA's (the machine's match
# its driver).
skip='^(linux-vdso|ld-linux|libc\.|libm\.|libpthread|libdl\.|librt\.|libstdc\+\+|libgcc_s|libcuda|libcudart|libcublas|libcudnn|libnvrtc)'
for program in "${programs[@]}"; do
    ldd "$program" | awk '/=> \// {print $1, $3}'
done | sort -u | while read -r name path; do
    if [[ "$name" == libtstudio-* ]]; then
        # The engine the test programs link (engine_shared): stripped, as the programs are.
        strip --strip-unneeded -o "$stage/lib/$name" "$path"
    elif ! [[ "$name" =~ $skip ]]; then
        cp -L "$path" "$stage/lib/$name"
    fi
done

# One large dictionary: the programs share code (tstudio links the engine statically, the tests
# libtstudio-engine.so, which goes with the libraries).
tar -C "$stage" -cf - bin | xz -T1 -6 --lzma2=dict=512MiB >"$out/bundle.tar.xz"
tar -C "$stage" -cf - lib | xz -T2 -6 >"$root/.devlib/libs.tar.xz"
fixtures="${TSTUDIO_FIXTURES:-$root/../shared/fixtures}"
if [[ -d "$fixtures/mnist" ]]; then
    mkdir -p "$out/fixtures"
    cp -r "$fixtures/mnist" "$out/fixtures/"
fi
du -sh "$out" "$out/bundle.tar.xz" "$root/.devlib/libs.tar.xz"
echo "programs: ${#programs[@]}; carry .devlib, then .device (64 MiB at most a call with the working tree)"
