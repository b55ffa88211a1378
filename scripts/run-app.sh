#!/usr/bin/env bash
# Launches the app from a build folder; until the GUI exists, runs the CLI on the bundled sample.
set -euo pipefail
build=${1:-build}
if [ -x "$build/bin/convolab" ]; then
  exec "$build/bin/convolab" "${@:2}"
fi
out="$build/sample-sharpened.png"
"$build/bin/convolab-cli" apply --filter resources/presets/sharpen.json resources/samples/coffee.png -o "$out" --force
echo "wrote $out"
