#!/usr/bin/env bash
# Installs what is missing, builds TensorStudio with its tests and runs every test through CTest.
# Extra arguments go to ctest, e.g. scripts/test.sh -L engine   or   scripts/test.sh -R detector
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

tstudio_install_packages
tstudio_build -DTSTUDIO_BUILD_TESTS=ON
tstudio_log "Running tests"
export QT_QPA_PLATFORM=offscreen
# Each Qt Test program also logs to test-results/<test>.txt (cmake/TStudioTests.cmake): cleared
# first, so the summary counts this run only.
results="$TSTUDIO_BUILD_DIR/test-results"
mkdir -p "$results"
rm -f "$results"/*.txt "$results/ctest.xml"
status=0
ctest --test-dir "$TSTUDIO_BUILD_DIR" --output-on-failure --timeout 600 -j "$(nproc)" \
    --output-junit "$results/ctest.xml" "$@" || status=$?
# Programs and test functions passed, failed and skipped, and every skip with its reason.
python3 "$TSTUDIO_ROOT/scripts/test_summary.py" "$results/ctest.xml" "$results"
exit "$status"
