#!/usr/bin/env bash
# Regenerates the welcome page's example pictures, resources/examples/gallery/<id>.png: each example
# project's network as TensorStudio's graph viewer draws it (tensorstudio --graph-image: the viewer's
# Export image), laid out top to bottom or left to right, whichever fills a 16:9 card better, scaled to
# 480x270. Needs a built tensorstudio (TSTUDIO_BUILD_DIR, default build/; scripts/run.sh builds it) and
# ImageMagick (apt-get install imagemagick). Rebuild afterwards: the pictures are compiled in.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TSTUDIO_BUILD_DIR:-$root/build}
program=$build/app/tensorstudio
out=$root/resources/examples/gallery

if [ ! -x "$program" ]; then
    echo "error: $program is missing: build TensorStudio first (scripts/run.sh --help builds it)" >&2
    exit 1
fi
convert=""
for candidate in magick convert /usr/bin/convert; do
    if "$candidate" -version 2>/dev/null | grep -q ImageMagick; then
        convert=$candidate
        break
    fi
done
if [ -z "$convert" ]; then
    echo "error: ImageMagick's convert is needed to crop and scale the pictures: apt-get install imagemagick" >&2
    exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"
made=0
for project in "$root"/examples/projects/*.tsproj; do
    id=$(basename "$project" .tsproj)
    graph=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["graph"].get("file") or "")' "$project")
    if [ -z "$graph" ]; then
        echo "skipping $id: its graph is not in a file of its own (graph.file)" >&2
        continue
    fi
    # Both directions drawn; the one that is largest once fitted into the picture is kept.
    best="" best_scale=0
    for direction in top-to-bottom left-to-right; do
        shot=$scratch/$id-$direction.png
        flag=()
        [ "$direction" = left-to-right ] && flag=(--left-to-right)
        QT_QPA_PLATFORM=offscreen "$program" --graph-image "$shot" "${flag[@]}" --theme light --language en \
            "$(dirname "$project")/$graph" >/dev/null
        read -r w h < <("$convert" "$shot" -format '%w %h\n' info:)
        scale=$(( (456 * 1000 / w) < (246 * 1000 / h) ? (456 * 1000 / w) : (246 * 1000 / h) ))
        if [ "$scale" -gt "$best_scale" ]; then
            best=$shot best_scale=$scale
        fi
    done
    "$convert" "$best" -fuzz 2% -trim +repage -resize 456x246 -background white -gravity center -extent 480x270 \
        -strip -define png:compression-level=9 "$out/$id.png"
    echo "$out/$id.png"
    made=$((made + 1))
done
echo "made $made pictures in $out"
