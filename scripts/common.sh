# Shared by scripts/run.sh and scripts/test.sh: install missing Debian packages, configure, build.
# Sourced, not run. Honours TSTUDIO_BUILD_DIR (default: build) and TSTUDIO_BUILD_TYPE.

set -euo pipefail

TSTUDIO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TSTUDIO_BUILD_DIR="${TSTUDIO_BUILD_DIR:-$TSTUDIO_ROOT/build}"
TSTUDIO_BUILD_TYPE="${TSTUDIO_BUILD_TYPE:-RelWithDebInfo}"

# Everything comes from Debian 12 (bookworm). CUDA is optional and not installed here: when the
# NVIDIA toolkit with cuDNN is in /usr/local/cuda, the build finds and uses it.
TSTUDIO_PACKAGES=(
    build-essential cmake ninja-build ccache pkg-config lld
    qt6-base-dev qt6-charts-dev qt6-svg-dev qt6-multimedia-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    qt6-translations-l10n libqt6opengl6-dev libgl-dev libxkbcommon-dev libvulkan-dev
    libeigen3-dev libprotobuf-dev protobuf-compiler zlib1g-dev libpng-dev libdnnl-dev
    libcli11-dev nlohmann-json3-dev libsimdjson-dev libreadline-dev libexpected-dev
    libzip-dev libjpeg62-turbo-dev libsnappy-dev libre2-dev libfarmhash-dev libhighwayhash-dev libjemalloc-dev
    openmpi-bin libopenmpi-dev
    python3 python3-protobuf python3-numpy
    fonts-noto-cjk
    xvfb openbox xdotool x11-utils imagemagick
    man-db zsh desktop-file-utils appstream shared-mime-info dpkg-dev lintian
)

# ccache: paths relative to the checkout and the working directory left out of the hash, so a
# second clone (or CI's fresh clone) reuses what an earlier build of the same sources compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$TSTUDIO_ROOT}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"

tstudio_log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

tstudio_install_packages() {
    local missing=()
    local pkg
    for pkg in "${TSTUDIO_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    if [ ${#missing[@]} -eq 0 ]; then
        tstudio_log "All ${#TSTUDIO_PACKAGES[@]} required packages are installed"
        return 0
    fi
    tstudio_log "Installing ${#missing[@]} missing packages: ${missing[*]}"
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "error: not root and no sudo; install these packages first: ${missing[*]}" >&2
            exit 1
        fi
        sudo=(sudo)
    fi
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

tstudio_build() {
    local start=$SECONDS
    tstudio_log "Configuring in $TSTUDIO_BUILD_DIR ($TSTUDIO_BUILD_TYPE)"
    cmake -S "$TSTUDIO_ROOT" -B "$TSTUDIO_BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$TSTUDIO_BUILD_TYPE" "$@"
    tstudio_log "Building"
    cmake --build "$TSTUDIO_BUILD_DIR"
    tstudio_log "Built in $((SECONDS - start)) s"
}
