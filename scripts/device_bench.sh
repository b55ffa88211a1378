#!/usr/bin/env bash
# device_bench.sh: the H100 measurements of docs/BENCHMARKS.md in one lease of the `device` tool.
#   usage (on the GPU machine, repo root, after `source .devkit/enter.sh`): device_bench.sh PART OUTDIR
#   PART: sweep (size sweep + every variant + ptxas register report), full (all strategies + OpenCV at
#   1080p/4K, dense and Gaussian, dense 15x15 at 1080p), peers (scripts/bench_peers.py), or all.
# Each step's files land in /tmp/devres/res and are packed into OUTDIR/res.tgz after every step, so a run cut
# off at its time limit still returns what it finished.
set -u
part=${1:-all}
out=${2:-/tmp/out}
res=/tmp/devres/res
mkdir -p "$res"
here=$(cd "$(dirname "$0")" && pwd)
pack() { tar czf "$out/res.tgz" -C /tmp/devres res; }
step() {
  local name=$1
  shift
  echo "=== $name: $*" | tee -a "$res/steps.log"
  local t0=$SECONDS
  timeout "${STEP_TIMEOUT:-300}" "$@" >"$res/$name.out" 2>"$res/$name.err"
  echo "=== $name rc=$? ${SECONDS}s after $((SECONDS - t0))s" | tee -a "$res/steps.log"
  tail -n 4 "$res/$name.err"
  pack
}
export CONVOLAB_CACHE_DIR=/tmp/convolab-cache
sizes=640x480,1280x720,1920x1080,2560x1440,3840x2160,5120x2880,7680x4320

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv
} >"$res/machine.txt" 2>&1
convolab-bench devices >>"$res/machine.txt" 2>&1

if [ "$part" = sweep ] || [ "$part" = all ]; then
  common=(bench -d gpu --skip-opencv --skip-probe -s codegen,sliding -n 30 -w 3 --stream-frames 0 -q)
  step sweep-dense convolab-bench "${common[@]}" --size "$sizes" --kernel-loop 200 --json "$res/sweep-dense.json"
  step sweep-gaussian convolab-bench "${common[@]}" -f gaussian --size "$sizes" --kernel-loop 200 \
    --json "$res/sweep-gaussian.json"
  step variants-dense convolab-bench "${common[@]}" --size 1920x1080,3840x2160 --kernel-loop 100 --variants \
    --json "$res/variants-dense.json"
  step variants-gaussian convolab-bench "${common[@]}" -f gaussian --size 1920x1080,3840x2160 --kernel-loop 100 \
    --variants --json "$res/variants-gaussian.json"
  step variants-k15 convolab-bench "${common[@]}" -k 15 --size 1920x1080 --kernel-loop 100 --variants \
    --json "$res/variants-k15.json"
  # Registers and spills of every program built above: NVIDIA's OpenCL binaries are PTX.
  : >"$res/ptxas.txt"
  PTXAS=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1)
  CUOBJDUMP=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
  echo "ptxas: $PTXAS cuobjdump: $CUOBJDUMP" >>"$res/ptxas.txt"
  mkdir -p "$res/ptx"
  for f in "$CONVOLAB_CACHE_DIR"/programs/*.bin; do
    k=$(grep -o -m1 'entry [a-z_]*' "$f" | cut -d' ' -f2)
    echo "== $f $k $(grep -c 'fma.rn.f32' "$f") fma.rn.f32 in PTX" >>"$res/ptxas.txt"
    tr -d '\000' <"$f" >/tmp/p.ptx  # the driver's PTX binaries end in a NUL byte that ptxas rejects
    "$PTXAS" -arch=sm_90 -v /tmp/p.ptx -o /tmp/p.cubin 2>&1 | grep -vE '^ptxas info\s*: Compiling' >>"$res/ptxas.txt"
    case $k in convolve_sliding*)
      cp "$f" "$res/ptx/$(basename "$f" .bin).ptx"
      "$CUOBJDUMP" -sass /tmp/p.cubin >"$res/ptx/$(basename "$f" .bin).sass" 2>&1
      grep -oE '^\s+/\*[0-9a-f]{4}\*/\s+[A-Z0-9.]+' "$res/ptx/$(basename "$f" .bin).sass" | awk '{print $2}' |
        sed 's/\..*//' | sort | uniq -c | sort -rn | head -14 >>"$res/ptxas.txt"
      ;;
    esac
  done
  pack
  python3 "$here/plot_sweep.py" "$res/sweep-dense.json" "$res/sweep-gaussian.json" -o "$res/size_sweep.png" \
    >"$res/plot.out" 2>&1
  pack
fi

if [ "$part" = full ] || [ "$part" = all ]; then
  full=(bench -d gpu -n 50 -w 5 -q)
  step full-dense convolab-bench "${full[@]}" --size 1920x1080,3840x2160 --kernel-loop 100 \
    --json "$res/h100-dense.json" --markdown "$res/h100-dense.md"
  step full-gaussian convolab-bench "${full[@]}" -f gaussian --size 1920x1080,3840x2160 --kernel-loop 100 \
    --json "$res/h100-gaussian.json" --markdown "$res/h100-gaussian.md"
  step full-k15 convolab-bench "${full[@]}" -k 15 --size 1920x1080 --kernel-loop 100 \
    --json "$res/h100-dense15.json" --markdown "$res/h100-dense15.md"
fi

if [ "$part" = peers ] || [ "$part" = all ]; then
  export PYTHONUNBUFFERED=1
  step peers-dense python3 "$here/bench_peers.py" --size 1920x1080,3840x2160 --json "$res/peers-dense.json"
  step peers-gaussian python3 "$here/bench_peers.py" --filter gaussian --no-compile --size 1920x1080,3840x2160 \
    --json "$res/peers-gaussian.json" 2>/dev/null || true
  step peers-k15 python3 "$here/bench_peers.py" --ksize 15 --no-compile --size 1920x1080 \
    --json "$res/peers-k15.json"
fi
pack
cat "$res/steps.log"
