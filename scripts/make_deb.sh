#!/usr/bin/env bash
# Makes the Debian package of a finished build: scripts/make_deb.sh BUILD_DIR OUTPUT_DIR
# (scripts/package.sh builds first; test_debian_package calls this on the test build). Prints the
# path of the .deb written. Needs dpkg-dev (dpkg-shlibdeps) and CPack (cmake).
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: scripts/make_deb.sh BUILD_DIR OUTPUT_DIR" >&2
    exit 2
fi
build="$(cd "$1" && pwd)"
mkdir -p "$2"
out="$(cd "$2" && pwd)"
for program in tstudio tensorstudio; do
    if [ ! -x "$build/app/$program" ]; then
        echo "make_deb.sh: $build/app/$program is not built" >&2
        exit 1
    fi
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Runtime dependencies: what dpkg-shlibdeps finds the two programs need (libc6, Qt 6, protobuf,
# oneDNN, Open MPI, ...). The GPU plugin is left out: the programs open it only where CUDA's
# libraries are installed, so the package must not require them. dpkg-shlibdeps wants a
# debian/control in its working directory.
mkdir -p "$work/debian"
touch "$work/debian/control"
shlibs="$(cd "$work" && dpkg-shlibdeps -O --ignore-missing-info -e"$build/app/tstudio" -e"$build/app/tensorstudio" 2>"$work/shlibdeps.log")" || {
    cat "$work/shlibdeps.log" >&2
    exit 1
}
depends="$(printf '%s\n' "$shlibs" | sed -n 's/^shlibs:Depends=//p')"
if [ -z "$depends" ]; then
    echo "make_deb.sh: dpkg-shlibdeps found no dependencies: $shlibs" >&2
    exit 1
fi
# The icons' theme, and the database tools whose dpkg triggers register the desktop entry and MIME types.
depends="$depends, hicolor-icon-theme, shared-mime-info, desktop-file-utils"

cpack --config "$build/CPackConfig.cmake" -B "$work/cpack" -D CPACK_DEBIAN_PACKAGE_DEPENDS="$depends" >"$work/cpack.log" 2>&1 || {
    cat "$work/cpack.log" >&2
    exit 1
}
deb="$(find "$work/cpack" -maxdepth 1 -name 'tensorstudio_*.deb' | head -n 1)"
if [ -z "$deb" ]; then
    cat "$work/cpack.log" >&2
    echo "make_deb.sh: cpack wrote no .deb" >&2
    exit 1
fi
mv "$deb" "$out/"
echo "$out/$(basename "$deb")"
