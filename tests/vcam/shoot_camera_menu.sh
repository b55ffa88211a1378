#!/bin/sh
# SPDX-License-Identifier: MIT
# docs/screenshot-camera-menu.png: the app under a private PipeWire with a test camera, File ▸ Camera open.
#   tests/vcam/run_with_private_pipewire.sh tests/vcam/shoot_camera_menu.sh OUT.png [WxH] [BUILD_DIR]
# Run through run_with_private_pipewire.sh (a private XDG_RUNTIME_DIR and session bus): it starts pipewire,
# wireplumber and the fake camera (gst videotestsrc published as the Video/Source node "testcam",
# described "Test camera"), then convolab_screenshot --camera-menu under Xvfb with a throw-away HOME, the
# camera as the source, Emboss, and the app's own virtual camera on (File ▸ Camera must not list it).
set -u
out=${1:?usage: shoot_camera_menu.sh OUT.png [WxH] [BUILD_DIR]}
size=${2:-1366x768}
build=${3:-build}
case "${XDG_RUNTIME_DIR:-}" in
  *convolab-pw.*) ;;
  *) echo "run me through tests/vcam/run_with_private_pipewire.sh" >&2; exit 2 ;;
esac
pipewire >/dev/null 2>&1 & pw=$!
i=0
while [ ! -S "$XDG_RUNTIME_DIR/pipewire-0" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
wireplumber >/dev/null 2>&1 & wp=$!
gst-launch-1.0 -q videotestsrc is-live=true ! video/x-raw,format=RGBx,width=640,height=480,framerate=30/1 ! \
  pipewiresink mode=provide \
  'stream-properties="p,media.class=Video/Source,node.name=testcam,node.description=\"Test camera\""' \
  >/dev/null 2>&1 & cam=$!
sleep 2
home=$(mktemp -d "${TMPDIR:-/tmp}/convolab-shot.XXXXXX")
w=${size%x*}
h=${size#*x}
HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share XDG_CACHE_HOME=$home/.cache \
  QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 ${w}x${h}x24" "$build/bin/convolab_screenshot" "$out" 2 \
  --camera-menu --size "$size" --source pipewire:testcam --preset emboss --strategy naive --virtual-camera
rc=$?
kill $cam $wp $pw
wait 2>/dev/null
rm -rf "$home"
exit $rc
