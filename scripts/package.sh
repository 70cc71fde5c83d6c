#!/usr/bin/env bash
# Builds TensorStudio and its Debian package: scripts/package.sh [OUTPUT_DIR] (default: the build
# folder). Installs what the build needs, builds without the tests, then makes
# tensorstudio_VERSION-1_ARCH.deb (scripts/make_deb.sh). Install it with
#   sudo apt install ./tensorstudio_*.deb
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

tstudio_install_packages
tstudio_build -DTSTUDIO_BUILD_TESTS=OFF
tstudio_log "Making the Debian package"
deb="$(bash "$TSTUDIO_ROOT/scripts/make_deb.sh" "$TSTUDIO_BUILD_DIR" "${1:-$TSTUDIO_BUILD_DIR}")"
tstudio_log "Wrote $deb"
if command -v lintian >/dev/null 2>&1; then
    lintian --fail-on error "$deb"
fi
