#!/usr/bin/env bash
# test_debian_package: makes the .deb of this build (scripts/make_deb.sh) and checks it as a Debian
# 12 user would meet it: lintian reports no error; its control data names a binary package
# `tensorstudio` whose dependencies come from the programs and include no CUDA library; it holds
# both programs, the GPU plugin (CUDA builds), man pages, completions, desktop entry, AppStream
# metadata, MIME types, icons, examples and the copyright and changelog; the desktop entry and
# metadata validate; and the programs unpacked outside the source tree find their examples
# (`tstudio train spirals`), draw the example (`tensorstudio --screenshot --example`) and, where
# CUDA 13's libraries are installed, open their GPU plugin.
# Usage: test_debian_package.sh SOURCE_DIR BUILD_DIR. Exit 77 (skipped) when a tool is missing.
set -euo pipefail
source_dir="$1"
build_dir="$2"
for tool in cpack dpkg-deb dpkg-shlibdeps lintian desktop-file-validate appstreamcli; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed (scripts/common.sh installs it)"
        exit 77
    fi
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

start=$SECONDS
deb="$(bash "$source_dir/scripts/make_deb.sh" "$build_dir" "$work/out")"
echo "made $(basename "$deb") ($(du -h "$deb" | cut -f1)) in $((SECONDS - start)) s"

# lintian: errors fail the test; warnings are shown.
lintian --fail-on error --tag-display-limit 0 "$deb" | tee "$work/lintian.txt" || fail "lintian found errors"
echo "lintian: $(grep -c '^E:' "$work/lintian.txt" || true) errors, $(grep -c '^W:' "$work/lintian.txt" || true) warnings"

# Control data.
dpkg-deb --field "$deb" Package | grep -qx tensorstudio || fail "the package is not called tensorstudio"
depends="$(dpkg-deb --field "$deb" Depends)"
echo "Depends: $depends"
# (Debian 12 names: oneDNN 2 is libdnnl2, protobuf 3.21 libprotobuf32.)
for needed in libc6 libqt6core6 libqt6widgets6 libprotobuf32 'libdnnl[0-9]+' hicolor-icon-theme; do
    grep -Eq "(^|, )$needed( |,|$)" <<<"$depends" || fail "Depends lacks $needed"
done
if grep -Eiq 'cuda|cudnn|cublas|nvidia' <<<"$depends"; then
    fail "Depends names a CUDA library: $depends"
fi

# Contents.
dpkg-deb --contents "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$work/contents.txt"
expected=(
    /usr/bin/tstudio /usr/bin/tensorstudio
    /usr/share/man/man1/tstudio.1.gz /usr/share/man/man1/tensorstudio.1.gz
    /usr/share/bash-completion/completions/tstudio /usr/share/zsh/vendor-completions/_tstudio
    /usr/share/applications/org.tensorstudio.TensorStudio.desktop
    /usr/share/metainfo/org.tensorstudio.TensorStudio.metainfo.xml
    /usr/share/mime/packages/tensorstudio.xml
    /usr/share/icons/hicolor/scalable/apps/org.tensorstudio.TensorStudio.svg
    /usr/share/icons/hicolor/48x48/apps/org.tensorstudio.TensorStudio.png
    /usr/share/icons/hicolor/256x256/apps/org.tensorstudio.TensorStudio.png
    /usr/share/tensorstudio/examples/spirals.tsproj /usr/share/tensorstudio/examples/lenet.tsproj
    /usr/share/doc/tensorstudio/copyright /usr/share/doc/tensorstudio/changelog.Debian.gz
)
gpu_plugin=""
if [ -f "$build_dir/lib/tensorstudio/libtstudio-gpu.so" ]; then
    gpu_plugin=/usr/lib/tensorstudio/libtstudio-gpu.so
    expected+=("$gpu_plugin")
fi
for path in "${expected[@]}"; do
    grep -qx "$path" "$work/contents.txt" || fail "the package lacks $path"
done
echo "contents: $(wc -l <"$work/contents.txt") entries, all ${#expected[@]} expected paths present"

# Unpacked, as apt would install it, but under a folder of our own.
root="$work/root"
dpkg-deb --extract "$deb" "$root"
desktop-file-validate "$root/usr/share/applications/org.tensorstudio.TensorStudio.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net --pedantic "$root/usr/share/metainfo/org.tensorstudio.TensorStudio.metainfo.xml" \
    >"$work/appstream.txt" 2>&1 || { cat "$work/appstream.txt"; fail "appstreamcli validate"; }
cat "$work/appstream.txt"
# Clean but for the reverse-DNS id's capitals (org.tensorstudio.TensorStudio, as GNOME's org.gnome.Nautilus).
if grep -E '^[EWIP]: ' "$work/appstream.txt" | grep -qv 'cid-contains-uppercase-letter'; then
    fail "appstreamcli reported more than the id's capitals"
fi
# The metadata's newest release is this package's version.
version="$(dpkg-deb --field "$deb" Version)"
grep -q "<release version=\"${version%-*}\"" "$root/usr/share/metainfo/org.tensorstudio.TensorStudio.metainfo.xml" ||
    fail "the AppStream metadata has no release ${version%-*}"

"$root/usr/bin/tstudio" --version | head -n 1 | grep -q '^tstudio ' || fail "tstudio --version"
cd "$work"
"$root/usr/bin/tstudio" train spirals --steps 5 --threads 1 --logdir "$work/log" --json >"$work/train.json" ||
    fail "tstudio train spirals"
python3 - "$work/train.json" "$root" <<'PY' || fail "tstudio train did not train the installed example"
import json, sys
result = json.load(open(sys.argv[1]))
assert result["last_step"] == 5, result
assert result["project_file"].startswith(sys.argv[2] + "/usr/share/tensorstudio/examples/"), result["project_file"]
PY
QT_QPA_PLATFORM=offscreen "$root/usr/bin/tensorstudio" --screenshot "$work/example.png" --example ||
    fail "tensorstudio --screenshot --example"
[ -s "$work/example.png" ] || fail "no screenshot written"

# The GPU plugin opens wherever CUDA 13's libraries are (no GPU is needed for that).
if [ -n "$gpu_plugin" ]; then
    "$root/usr/bin/tstudio" devices --json >"$work/devices.json" || fail "tstudio devices"
    if ldconfig -p | grep -q 'libcublas\.so\.13 ' && ldconfig -p | grep -q 'libcudnn\.so\.9 ' &&
        ldconfig -p | grep -q 'libcudart\.so\.13 '; then
        python3 - "$work/devices.json" <<'PY' || fail "the installed GPU plugin was not opened"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["gpu_support_compiled_in"], d
print("GPU plugin opened; GPUs:", len(d["gpus"]), d.get("gpu_unavailable", ""))
PY
    else
        echo "CUDA 13's libraries are not installed here: the plugin's opening was not checked"
    fi
fi
echo "PASS: $(basename "$deb")"
