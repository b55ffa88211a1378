#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Throughput of `convolab-cli apply` on a whole video with a chain of two steps against the same video with one
# of those steps (issue 30: chains in video jobs): dense per-channel 7x7 integer steps, replicate border.
#
#   scripts/bench_video_chain.sh [--frames N] [--size WxH] [--repeat R] [--strategy NAME] [--cli PATH]
#                                [--keep DIR]
# Makes its input with a few lines of OpenCV (a moving colour pattern, MJPG .avi; needs g++ and OpenCV's
# development headers, which the build needs anyway), so it needs no ffmpeg. Prints each run's `wrote` line
# (frames/s, per-frame decode / device / encode) and a summary of frames/s per run.
set -euo pipefail

frames=120
size=1920x1080
repeat=2
strategy=auto
cli="$(dirname "$0")/../build/bin/convolab-cli"
keep=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --frames) frames="$2"; shift 2 ;;
    --size) size="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --strategy) strategy="$2"; shift 2 ;;
    --cli) cli="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[[ -x "$cli" ]] || { echo "convolab-cli not found at $cli (build first)" >&2; exit 2; }
width="${size%x*}"
height="${size#*x}"

work="${keep:-$(mktemp -d)}"
mkdir -p "$work"
[[ -n "$keep" ]] || trap 'rm -rf "$work"' EXIT

input="$work/input-${size}-${frames}.avi"
if [[ ! -f "$input" ]]; then
  echo "making $input: $size, $frames frames (MJPG)" >&2
  cat >"$work/make_clip.cpp" <<'CPP'
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <cstdlib>
int main(int argc, char** argv) {
  const int w = std::atoi(argv[2]), h = std::atoi(argv[3]), n = std::atoi(argv[4]);
  cv::VideoWriter out(argv[1], cv::CAP_FFMPEG, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 30, cv::Size(w, h));
  if (!out.isOpened()) return 1;
  cv::Mat f(h, w, CV_8UC3);
  for (int k = 0; k < n; ++k) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        f.at<cv::Vec3b>(y, x) = cv::Vec3b((x + 4 * k) & 255, (y + 2 * k) & 255, ((x ^ y) + k) & 255);
    cv::circle(f, {(37 * k) % w, h / 2}, h / 6, cv::Scalar(255, 255, 255), -1);
    cv::putText(f, std::to_string(k), {w / 10, h / 4}, cv::FONT_HERSHEY_SIMPLEX, h / 200.0, cv::Scalar(0, 0, 0), 8);
    out.write(f);
  }
  return 0;
}
CPP
  g++ -O2 -std=c++17 -I/usr/include/opencv4 "$work/make_clip.cpp" -o "$work/make_clip" \
    -lopencv_videoio -lopencv_imgproc -lopencv_core
  "$work/make_clip" "$input" "$width" "$height" "$frames"
fi

# One dense per-channel 7x7 step (integer weights, each channel divided by its sum), and a chain of that step
# and a second one of the same shape.
python3 - "$work" <<'PY'
import json, random, sys
work = sys.argv[1]
def step(seed):
    random.seed(seed)
    mats = {c: [[random.randint(1, 9) for _ in range(7)] for _ in range(7)] for c in "rgb"}
    return {"border": "replicate",
            "channels": {c: {"matrix": m, "divisor": sum(map(sum, m))} for c, m in mats.items()}}
one = dict(step(7), name="bench 7x7 per channel")
json.dump(one, open(f"{work}/one.json", "w"))
json.dump({"name": "bench two 7x7 steps", "steps": [step(7), step(8)]}, open(f"{work}/two.json", "w"))
PY

summary=()
for run in $(seq 1 "$repeat"); do
  for filter in one two; do
    out="$work/out-$filter.avi"
    line=$("$cli" apply -s "$strategy" -f "$work/$filter.json" "$input" -o "$out" --force 2>/dev/null | grep '^wrote')
    echo "run $run, $filter: $line"
    fps=$(sed -n 's/.*, \([0-9.]*\) frames\/s;.*/\1/p' <<<"$line")
    summary+=("run $run $filter: $fps frames/s")
  done
done
printf '%s\n' "${summary[@]}"
