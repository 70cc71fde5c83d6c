#!/usr/bin/env bash
# Fuzzing with libFuzzer: builds the clang fuzz tree (build-fuzz, -DTSTUDIO_FUZZ=ON) and runs a
# campaign on one target, or replays every target's committed corpus once (regression).
#   scripts/fuzz.sh TARGET [SECONDS] [LIBFUZZER_ARGS...]   a campaign (default 300 s)
#   scripts/fuzz.sh --regression [TARGET...]               every (or the named) target over fuzz/corpus/<target>
#   scripts/fuzz.sh --list                                 the targets
# A campaign reads fuzz/corpus/<target> (and build-fuzz/corpus-extra/<target> when
# scripts/make_fuzz_corpus.sh made one), writes the inputs it finds to build-fuzz/corpus-new/<target>
# and crashes, hangs and OOMs to fuzz/crashes/<target>/ (ignored by git). A crash worth keeping goes
# to fuzz/corpus/<target>/ under a name starting with "regress-" once its reader is fixed.
# Environment: TSTUDIO_FUZZ_BUILD_DIR (default build-fuzz), TSTUDIO_FUZZ_JOBS (ninja -j, default 2),
# TSTUDIO_FUZZ_NICE (nice level of the build and the campaign, default 19), TSTUDIO_FUZZ_MAX_LEN (the
# longest input a campaign makes, default 16384 bytes; a later -max_len=N argument wins).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TSTUDIO_FUZZ_BUILD_DIR:-$root/build-fuzz}"
jobs="${TSTUDIO_FUZZ_JOBS:-2}"
nice_level="${TSTUDIO_FUZZ_NICE:-19}"
max_len="${TSTUDIO_FUZZ_MAX_LEN:-16384}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"

targets() {
    sed -n '/^set(TSTUDIO_FUZZ_TARGETS/,/)/p' "$root/fuzz/CMakeLists.txt" | sed '1d; s/)//' | tr -s ' \n' '\n' | sed '/^$/d'
}

usage() {
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

configure() {
    if [ ! -f "$build/build.ninja" ]; then
        command -v clang++ >/dev/null || { echo "fuzz.sh: needs clang++ with libFuzzer (Debian's clang)" >&2; exit 1; }
        cmake -S "$root" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
            -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTSTUDIO_FUZZ=ON -DTSTUDIO_BUILD_TESTS=OFF \
            -DTSTUDIO_ENABLE_CUDA=OFF -DTSTUDIO_ENABLE_MPI=OFF >/dev/null
    fi
}

build_targets() {
    configure
    nice -n "$nice_level" ninja -C "$build" -j "$jobs" "${@/%/_fuzzer}"
}

[ $# -ge 1 ] || usage
case "$1" in
--list)
    targets
    ;;
--regression)
    shift
    selected=("$@")
    [ ${#selected[@]} -gt 0 ] || mapfile -t selected < <(targets)
    build_targets "${selected[@]}"
    failed=0
    for t in "${selected[@]}"; do
        # -runs=0 with directories: every file once, no mutation.
        if "$build/fuzz/${t}_fuzzer" -runs=0 "$root/fuzz/corpus/$t" >"$build/fuzz/$t-regression.log" 2>&1; then
            echo "fuzz regression $t: $(ls "$root/fuzz/corpus/$t" | wc -l) inputs, passed"
        else
            echo "fuzz regression $t: FAILED (see $build/fuzz/$t-regression.log)"
            failed=1
        fi
    done
    exit $failed
    ;;
-h | --help)
    usage
    ;;
*)
    target="$1"
    seconds="${2:-300}"
    shift $(($# >= 2 ? 2 : 1))
    targets | grep -qx "$target" || { echo "fuzz.sh: no target '$target' (scripts/fuzz.sh --list)" >&2; exit 2; }
    build_targets "$target"
    scratch="$build/corpus-new/$target"
    crashes="$root/fuzz/crashes/$target"
    mkdir -p "$scratch" "$crashes"
    corpora=("$scratch" "$root/fuzz/corpus/$target")
    [ -d "$build/corpus-extra/$target" ] && corpora+=("$build/corpus-extra/$target")
    dict=()
    [ -f "$root/fuzz/dict/$target.dict" ] && dict=(-dict="$root/fuzz/dict/$target.dict")
    # New inputs go to the first corpus directory only (the scratch one): the committed corpus stays
    # as it is. -timeout 10: a reader that takes 10 s on one input is a hang; -rss_limit_mb 2048: and
    # one that needs 2 GiB is an unbounded allocation. -print_final_stats: executions and exec/s.
    # -max_len: without it libFuzzer mutates inputs as long as the longest seed (event files of
    # 220 KB from make_fuzz_corpus.sh ran 60 executions a second, at 16 KiB 1,200), and a reader's
    # framing, headers and limits are all reached by short inputs.
    exec nice -n "$nice_level" "$build/fuzz/${target}_fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len="$max_len" \
        -artifact_prefix="$crashes/" -print_final_stats=1 "${dict[@]}" "$@" "${corpora[@]}"
    ;;
esac
