#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Package test: `cmake --build --target package`, unpack the .deb, validate its metadata, run the CLI from it.
set -euo pipefail
build=$1
src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --build "$build" --target package >"$build/package-test.log" 2>&1 || { tail -30 "$build/package-test.log"; fail "cpack"; }
deb=$(ls -t "$build"/convolab_*_amd64.deb | head -1)
[ -f "$deb" ] || fail "no .deb in $build"
echo "package: $deb"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
grep -q "libopencl\|ocl-icd" <<<"$depends" || fail "no OpenCL loader dependency"
grep -q "pocl-opencl-icd | opencl-icd" <<<"$depends" || fail "no OpenCL ICD dependency"
grep -q "libavformat" <<<"$depends" || fail "no libavformat dependency (FrameSizeWatch)"

for f in usr/bin/convolab-cli usr/share/man/man1/convolab-cli.1.gz usr/share/convolab/presets/sharpen.json \
         usr/share/applications/io.github.convolab.ConvoLab.desktop \
         usr/share/metainfo/io.github.convolab.ConvoLab.metainfo.xml; do
  [ -e "$root/$f" ] || fail "missing $f"
done
desktop-file-validate "$root/usr/share/applications/io.github.convolab.ConvoLab.desktop"
appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.convolab.ConvoLab.metainfo.xml" >/dev/null

"$root/usr/bin/convolab-cli" --version
out="$root/out.png"
"$root/usr/bin/convolab-cli" apply --filter "$root/usr/share/convolab/presets/sharpen.json" \
  "$src/tests/data/coffee.png" -o "$out"
file "$out" | grep -q "PNG image data, 600 x 400" || fail "apply from the package did not write the PNG"
echo "PASS"
