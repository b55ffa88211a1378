#!/bin/bash
# SPDX-License-Identifier: MIT
# Issue 34.2's run, end to end: a GStreamer camera (pipewiresink mode=provide), READERS gst readers that take
# 5 frames each and leave, a 1 s pause, then `convolab --source pipewire:testcam --frames FRAMES`. Prints the
# app's exit status and seconds; its --stats land in STATS. Runs inside its own PipeWire (and session bus):
#   tests/vcam/run_with_private_pipewire.sh scripts/pipewire_camera_after_reader.sh [READERS] [FRAMES] [STATS]
set -u
readers=${1:-1} frames=${2:-30} stats=${3:-/tmp/pipewire_camera_after_reader.json}
app=${CONVOLAB_APP:-$(dirname "$0")/../build/bin/convolab}
pipewire >/dev/null 2>&1 & pw=$!
sleep 0.5
wireplumber >/dev/null 2>&1 & wp=$!
sleep 1.5
gst-launch-1.0 -q videotestsrc is-live=true ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! \
  pipewiresink mode=provide stream-properties="p,media.class=Video/Source,node.name=testcam" >/dev/null 2>&1 &
cam=$!
sleep 1.5
for _ in $(seq "$readers"); do
  timeout 10 gst-launch-1.0 -q pipewiresrc target-object=testcam num-buffers=5 ! video/x-raw,format=I420 ! \
    fakesink >/dev/null 2>&1
done
sleep 1
start=$(date +%s%N)
QT_QPA_PLATFORM=offscreen timeout 25 "$app" --source pipewire:testcam --frames "$frames" --strategy naive \
  --stats "$stats" --force >/dev/null 2>&1
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
echo "readers=$readers frames=$frames rc=$rc ms=$ms"
kill "$cam" "$wp" "$pw" 2>/dev/null
wait 2>/dev/null
exit $rc
