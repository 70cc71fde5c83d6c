#!/usr/bin/env bash
# Installs what is missing, builds TensorStudio and starts it on the spirals example project, open in the
# node editor: F5 shows the Training panel, Start trains it (File > Open Example and Help > Welcome for the rest).
# Extra arguments go to tensorstudio, e.g. scripts/run.sh --language zh_CN
#                                       or scripts/run.sh --screenshot shot.png (no display needed)
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

tstudio_install_packages
tstudio_build

for arg in "$@"; do
    case "$arg" in
        --screenshot|--screenshot=*) export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" ;;
    esac
done
if [ -z "${QT_QPA_PLATFORM:-}" ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "error: no display (DISPLAY and WAYLAND_DISPLAY are unset). Run this from a desktop session," >&2
    echo "       or make a picture instead: scripts/run.sh --screenshot tensorstudio.png" >&2
    exit 1
fi
tstudio_log "Starting tensorstudio on the spirals example (F5 in the node editor trains it)"
exec "$TSTUDIO_BUILD_DIR/app/tensorstudio" --example "$@"
