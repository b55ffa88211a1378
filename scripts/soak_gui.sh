#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GUI soak of docs/RELIABILITY.md: 10 minutes at 1920×1080 (test pattern), random strategy switches and
# filter edits, RSS every 10 s and every gap of more than 1 s without a processed frame.
#   scripts/soak_gui.sh [SECONDS] [SOURCE] [-- extra convolab_soak_gui options]
# Writes build/soak_gui.json and prints it. Settings go to a throw-away HOME; the program cache stays warm.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD:-$root/build}"
seconds="${1:-600}"
source="${2:-pattern:1920x1080@30}"
shift $(( $# > 2 ? 2 : $# ))
[[ "${1:-}" == "--" ]] && shift
tool="$build/bin/convolab_soak_gui"
[[ -x "$tool" ]] || cmake --build "$build" --target convolab_soak_gui -j 2
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
export CONVOLAB_CACHE_DIR="${CONVOLAB_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/convolab}"
export HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" XDG_RUNTIME_DIR="$home/.runtime"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" QT_LOGGING_RULES="qt.qpa.*=false"
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
"$tool" --seconds "$seconds" --source "$source" --json "$build/soak_gui.json" "$@"
