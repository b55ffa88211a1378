#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make run`: launches the app on the first webcam if there is one, else on the bundled sample image.
set -euo pipefail
build=${1:-build}
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "run-app: no display (DISPLAY/WAYLAND_DISPLAY unset). Run it in a desktop session, or headless:" >&2
  echo "  xvfb-run -a make run     or     QT_QPA_PLATFORM=offscreen make run" >&2
  exit 1
fi
exec "$build/bin/convolab" --source auto "${@:2}"
