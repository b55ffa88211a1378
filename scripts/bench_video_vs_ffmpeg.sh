#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Throughput of `convolab-cli apply` on a whole video against ffmpeg's `convolution` filter with the same
# integer 7x7 matrices per plane (RGB planes on both sides), same container and codec, one after the other.
#
#   scripts/bench_video_vs_ffmpeg.sh [--frames N] [--repeat R] [--codec mjpeg|ffv1] [--cli PATH] [--keep DIR]
#                                    [--fresh-cache]
# --fresh-cache: every ConvoLab run starts with empty caches (its own, CONVOLAB_CACHE_DIR, and PoCL's kernel
# cache, POCL_CACHE_DIR), as on a machine that never ran it; without it the runs share the user's caches.
#
# Needs ffmpeg (Debian: apt-get install ffmpeg; only for this benchmark) and a built convolab-cli.
# Prints one line per run (frames/s) and ConvoLab's per-stage times (decode, device, encode per frame).
set -euo pipefail

frames=300
repeat=3
codec=mjpeg
cli="$(dirname "$0")/../build/bin/convolab-cli"
keep=""
fresh=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --frames) frames="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --codec) codec="$2"; shift 2 ;;
    --cli) cli="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --fresh-cache) fresh=1; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
command -v ffmpeg >/dev/null || { echo "ffmpeg is not installed (apt-get install ffmpeg)" >&2; exit 2; }
[[ -x "$cli" ]] || { echo "convolab-cli not found at $cli (build first)" >&2; exit 2; }

work="${keep:-$(mktemp -d)}"
mkdir -p "$work"
[[ -n "$keep" ]] || trap 'rm -rf "$work"' EXIT

case "$codec" in
  mjpeg) ext=avi; ffcodec=(-c:v mjpeg -q:v 2 -pix_fmt yuvj420p) ;;
  ffv1) ext=mkv; ffcodec=(-c:v ffv1) ;;
  *) echo "--codec: mjpeg or ffv1" >&2; exit 2 ;;
esac

input="$work/input.$ext"
if [[ ! -f "$input" ]]; then
  echo "making $input: 1920x1080, $frames frames ($codec)" >&2
  ffmpeg -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30" -frames:v "$frames" "${ffcodec[@]}" "$input"
fi

# The filter: three different dense integer 7x7 matrices (R, G, B), each divided by its sum.
python3 - "$work" <<'PY'
import json, random, sys
work = sys.argv[1]
random.seed(7)
mats = {c: [[random.randint(1, 9) for _ in range(7)] for _ in range(7)] for c in "rgb"}
filt = {"name": "bench 7x7 per channel", "border": "replicate",
        "channels": {c: {"matrix": m, "divisor": sum(map(sum, m))} for c, m in mats.items()}}
json.dump(filt, open(f"{work}/filter.json", "w"))
# ffmpeg on gbrp: plane 0 = G, 1 = B, 2 = R.
args = []
for plane, c in enumerate("gbr"):
    m = mats[c]
    args.append(f"{plane}m='{' '.join(str(v) for row in m for v in row)}':{plane}rdiv=1/{sum(map(sum, m))}:{plane}mode=square")
open(f"{work}/ffmpeg_filter.txt", "w").write("format=gbrp,convolution=" + ":".join(args))
PY
vf="$(cat "$work/ffmpeg_filter.txt")"

# Wall time and CPU time (user + system, all threads) of one command; on a shared, busy machine the CPU
# time per frame is the steadier figure.
TIMEFORMAT='%R %U %S'
measure() {  # measure OUTFILE cmd...
  local out="$1"; shift
  { time "$@" >"$out.stdout" 2>/dev/null; } 2>"$out.time"
}
report() {  # report LABEL OUTFILE
  read -r wall user sys <"$2.time"
  python3 -c "print(f'$1 {$frames / $wall:7.1f} frames/s wall, {($user + $sys) * 1000 / $frames:7.1f} ms CPU per frame ({$wall:.1f} s wall)')"
}

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), host: $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ffmpeg: $(ffmpeg -version | head -1)"
"$cli" devices | head -2
for r in $(seq 1 "$repeat"); do
  measure "$work/ff" ffmpeg -v error -y -i "$input" -vf "$vf" "${ffcodec[@]}" "$work/ffmpeg.$ext"
  report "run $r ffmpeg convolution:" "$work/ff"
  if [[ $fresh == 1 ]]; then
    rm -rf "$work/cache"
    mkdir -p "$work/cache/convolab" "$work/cache/pocl"
    export CONVOLAB_CACHE_DIR="$work/cache/convolab" POCL_CACHE_DIR="$work/cache/pocl"
  fi
  measure "$work/cl" "$cli" apply -f "$work/filter.json" "$input" -o "$work/convolab.$ext" --force
  report "run $r convolab-cli apply:  " "$work/cl"
  echo "    $(grep '^wrote' "$work/cl.stdout")"
  echo "    load: $(cut -d' ' -f1-3 /proc/loadavg)"
done
