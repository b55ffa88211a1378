#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The live-editing measurement: the app under the default `auto` on a 1920x1080 test pattern at 30 fps
# plays script.json (8 filter files of K 3-15, dense and separable, a border change, padding 7 -> 15, three
# cell edits) and writes --stats: every action's edit -> screen time and the start-up time (first picture ->
# first filtered frame).
#
#   scripts/live_edits/run.sh [--script FILE] [--cache DIR [--fresh-cache]] [--out DIR] [--app PATH]
#                             [-- extra convolab options]
#
# --cache DIR: ConvoLab's and PoCL's caches live in DIR (kept between runs: run twice for the warm figures);
# --fresh-cache empties it first (a machine that never ran ConvoLab). Without --cache the user's caches are
# used. Settings always start empty (a private XDG_CONFIG_HOME), so nothing remembered from earlier runs applies.
# script_pause.json holds one structure for 40 s (auto measures and swaps in its winner), then edits again.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
app="$here/../../build/bin/convolab"
out="$(mktemp -d)"
fresh=0
cache=""
script="$here/script.json"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fresh-cache) fresh=1; shift ;;
    --cache) cache="$2"; shift 2 ;;
    --script) script="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --app) app="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out/config"
export XDG_CONFIG_HOME="$out/config" QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"
if [[ $fresh == 1 && -z $cache ]]; then cache="$out/cache"; fi
if [[ -n $cache ]]; then
  [[ $fresh == 1 ]] && rm -rf "$cache"
  mkdir -p "$cache/convolab" "$cache/pocl"
  export CONVOLAB_CACHE_DIR="$cache/convolab" POCL_CACHE_DIR="$cache/pocl"
fi
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg), fresh cache: $fresh"
"$app" --source "pattern:1920x1080@30" --strategy auto --script "$script" --stats "$out/stats.json" "$@"
python3 - "$out/stats.json" "$script" <<'PY'
import json, sys
stats, script = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
print(f"first filtered frame after the first picture: {stats.get('first_filtered_ms')} ms")
e = stats["edit_to_display"]
print(f"edit -> screen: mean {e['mean_ms']} ms, max {e['max_ms']} ms, {e['samples']} samples")
for a in stats.get("actions", []):
    what = script["actions"][a["index"]]
    detail = {k: v for k, v in what.items() if k != "at_ms"}
    print(f"  {a['index']:2d} {a['kind']:8s} {json.dumps(detail):60s} {a['edit_to_display_ms']} ms")
print(f"active strategy at the end: {stats.get('active_strategy')} {stats.get('strategy_note', '')}")
PY
echo "stats: $out/stats.json"
