#!/usr/bin/env bash
# H100 lease 3 (2026-12-06): the columns path as the GPUs' default (17034bd). Issue 31's lines in one run:
# fft by default at 1080p K 31/63 beside OpenCV (UMat per channel, CPU), the planes path (columns=0) and the
# PyTorch/CuPy peers; every border at an odd size and frames smaller than K; then the K sweep with auto.
set -u
res=/tmp/res; rm -rf $res; mkdir -p $res
source .devkit/enter.sh
export CONVOLAB_CACHE_DIR=/tmp/ccf PYTHONUNBUFFERED=1
pack() { tar czf "$OUT/res.tgz" -C /tmp res; }
B="bench --device gpu --skip-probe --stream-frames 0 -f random -s fft"
run() { tag=$1; k=$2; sz=$3; t=$4; shift 4
  CONVOLAB_FFT_TUNING=$t timeout 60 convolab-bench $B --skip-opencv -w 3 -n 30 --size $sz -k $k "$@" --json $res/$tag.json > $res/$tag.log 2>&1
  echo "$tag rc=$? $(date +%s)" >> $res/steps.log; }
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv; } > $res/machine.txt 2>&1
for k in 31 63; do
  timeout 120 convolab-bench $B -w 3 -n 30 --size 1920x1080 -k $k --opencv-budget 10 --json $res/default_k$k.json > $res/default_k$k.md 2> $res/default_k$k.err
  echo "default_k$k rc=$? $(date +%s)" >> $res/steps.log
done
run k31_planes 31 1920x1080 columns=0
run k63_planes 63 1920x1080 columns=0
run 720p_k31 31 1280x720 ""
run k31_again 31 1920x1080 ""
run k63_again 63 1920x1080 ""
for b in reflect101 constant wrap replicate reflect; do
  timeout 60 convolab-bench $B -w 1 -n 3 --size 1283x721 -k 31 -b $b --opencv-budget 2 2>&1 | grep "K 31 fft" | sed "s/^/$b /" >> $res/correct.txt
  timeout 60 convolab-bench $B -w 1 -n 3 --size 1283x721,50x30 -k 63 -b $b --opencv-budget 2 2>&1 | grep "K 63 fft" | sed "s/^/$b /" >> $res/correct.txt
done
pack
for k in 31 63; do
  timeout 120 python3 scripts/bench_peers.py --size 1920x1080 --ksize $k --reps 10 --warmup 2 --no-compile --json $res/peers-k$k.json > $res/peers-k$k.txt 2>&1
  echo "peers_k$k rc=$? $(date +%s)" >> $res/steps.log; pack
done
python3 -c "
import json,glob
for f in sorted(glob.glob('$res/*.json')):
    try:
        for r in json.load(open(f))['results']:
            if r.get('strategy')!='fft': continue
            print(f.split('/')[-1], round(r['kernel_ms_median']*1000,1), 'p95', round(r['kernel_ms_p95']*1000,1), {k:round(v*1000,1) for k,v in r.get('kernel_stages_ms_median',{}).items()})
    except Exception as e: print(f, 'ERR', e)
" > $res/results.txt 2>&1
pack; cat $res/steps.log $res/results.txt $res/correct.txt; grep -h "ms\|µs" $res/peers-k*.txt | head -24
S="bench --device gpu --skip-probe -n 10 -w 2 --ksweep-budget 6 --opencv-budget 4"
export CONVOLAB_CACHE_DIR=/tmp/ccs
timeout 250 convolab-bench $S --ksweep 3,7,11,15,17,21,25,31,45,63 --size 1280x720 --json $res/ksweep-720p.json > $res/ksweep-720p.md 2> $res/ksweep-720p.err
echo "ksweep rc=$? $(date +%s)" >> $res/steps.log; pack
grep -h "fastest" $res/ksweep-720p.err; tail -3 $res/steps.log
