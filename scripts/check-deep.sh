#!/usr/bin/env bash
# The long checks run before resolving the reliability issue (#52), outside the everyday
# scripts/test.sh: each section below is self-contained and says what it runs.
set -euo pipefail
TSTUDIO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TSTUDIO_BUILD_DIR="${TSTUDIO_BUILD_DIR:-$TSTUDIO_ROOT/build}"

# ---- Nothing lost (issue #52 point 7; tests/app/cli/test_train_kill_resume.cpp) ----------------
# `tstudio train` SIGKILLed at TSTUDIO_KILL_ROUNDS random moments (default here 100, about 3.5
# minutes; the everyday ctest run does 30), each followed by a resumed run, then one continuous loss
# curve; and a full disk (tmpfs in a user namespace) during a save. TSTUDIO_KILL_SEED repeats a
# campaign; the seed used is printed either way.
(
    ninja -C "$TSTUDIO_BUILD_DIR" test_train_kill_resume
    cd "$TSTUDIO_BUILD_DIR"
    QT_QPA_PLATFORM=offscreen TSTUDIO_KILL_ROUNDS="${TSTUDIO_KILL_ROUNDS:-100}" \
        ./tests/test_train_kill_resume
)

# ---- Sanitizers (issue #52 point 5; cmake/TStudioSanitize.cmake) ------------------------------
# The product built under UndefinedBehaviorSanitizer, and again under AddressSanitizer (with
# LeakSanitizer), runs the whole suite (every report is fatal); built under ThreadSanitizer it runs
# the tests of threaded code (CTest label `threads`). The everyday build has no sanitised twin.
# Each has its own build directory beside the normal one (TSTUDIO_UBSAN_BUILD_DIR,
# TSTUDIO_ASAN_BUILD_DIR, TSTUDIO_TSAN_BUILD_DIR); the first build of each compiles the product
# again (the test sources too: their command lines name their build directory; the ThreadSanitizer
# build compiles only the programs its tests run). CUDA code is left out (nvcc's device code is not
# instrumented). TSTUDIO_DEEP_SANITIZERS picks them (default "undefined address thread"); extra
# arguments go to ctest.
for sanitizer in ${TSTUDIO_DEEP_SANITIZERS:-undefined address thread}; do
    case "$sanitizer" in
    undefined) dir="${TSTUDIO_UBSAN_BUILD_DIR:-$TSTUDIO_ROOT/build-ubsan}"; select=() ;;
    thread) dir="${TSTUDIO_TSAN_BUILD_DIR:-$TSTUDIO_ROOT/build-tsan}"; select=(-L threads) ;;
    address) dir="${TSTUDIO_ASAN_BUILD_DIR:-$TSTUDIO_ROOT/build-asan}"; select=() ;;
    *) echo "check-deep.sh: unknown sanitizer '$sanitizer' (undefined, thread or address)" >&2; exit 2 ;;
    esac
    (
        export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$TSTUDIO_ROOT}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
        # Debian's clang compiles the instrumented product faster than GCC: one kernel file
        # (kernels/math/mul_div_cpu.cpp, -O2 -g1) took 30.9 s under GCC's UndefinedBehaviorSanitizer and
        # 19.1 s under clang's, against 12.8 s for the normal GCC build (2-core VM, 2026-11-26), and a
        # whole sanitised build takes hours on 2 cores. GCC is used where clang is missing.
        compilers=()
        if command -v clang++ >/dev/null && command -v clang >/dev/null; then
            compilers=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
        fi
        cmake -S "$TSTUDIO_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTSTUDIO_BUILD_TESTS=ON \
            -DTSTUDIO_SANITIZE="$sanitizer" -DTSTUDIO_ENABLE_CUDA=OFF "${compilers[@]}" >/dev/null
        if [ ${#select[@]} -gt 0 ]; then
            # Only the programs the selected tests run: a ThreadSanitizer run of the `threads` tests
            # needs the product's libraries and 15 test programs, not the other test programs. They
            # are read from the CTestTestfile.cmake files (ctest's own JSON leaves a test's command
            # out until its program exists, so a fresh build directory would list none).
            mapfile -t programs < <(ctest --test-dir "$dir" -N "${select[@]}" | sed -n 's/^ *Test *#[0-9]*: //p' |
                python3 -c 'import pathlib, re, sys
names = {line.strip() for line in sys.stdin if line.strip()}
programs = set()
for f in pathlib.Path(sys.argv[1]).rglob("CTestTestfile.cmake"):
    for m in re.finditer(r"add_test\(\[=\[(.*?)\]=\] \"([^\"]+)\"", f.read_text()):
        if m.group(1) in names and not m.group(2).endswith(".sh"):
            programs.add(pathlib.Path(m.group(2)).name)
print("\n".join(sorted(programs)))' "$dir")
            if [ ${#programs[@]} -eq 0 ]; then
                echo "check-deep.sh: no test program found for ctest ${select[*]} in $dir" >&2
                exit 1
            fi
            cmake --build "$dir" --target "${programs[@]}"
        else
            cmake --build "$dir"
        fi
        QT_QPA_PLATFORM=offscreen ctest --test-dir "$dir" --output-on-failure -j "$(nproc)" "${select[@]}" "$@"
    )
done
