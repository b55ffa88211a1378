#!/usr/bin/env bash
# H100 lease 2 (2026-12-06): fft_columns_local.cl as four steps in registers (the columns path with
# CONVOLAB_FFT_TUNING=columns=1) against the planes default in the same run, K 31/63 at 1080p, grids and columns
# a work-group, every border; then the GPU K sweep at 720p (large K with the columns path, small K as they are).
set -u
res=/tmp/res; rm -rf $res; mkdir -p $res
source .devkit/enter.sh
export CONVOLAB_CACHE_DIR=/tmp/ccf
pack() { tar czf "$OUT/res.tgz" -C /tmp res; }
B="bench --device gpu --skip-probe --stream-frames 0 -f random -s fft"
run() { tag=$1; k=$2; sz=$3; t=$4; shift 4
  CONVOLAB_FFT_TUNING=$t timeout 60 convolab-bench $B --skip-opencv -w 3 -n 30 --size $sz -k $k "$@" --json $res/$tag.json > $res/$tag.log 2>&1
  echo "$tag rc=$?" >> $res/steps.log; }
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv; } > $res/machine.txt 2>&1
run k31_planes 31 1920x1080 ""
run k31_columns 31 1920x1080 columns=1
for c in 4 2; do run k31_columns_c$c 31 1920x1080 columns=1,columnsPerGroup=$c; done
for g in 2x2 4x3; do run k31_columns_$g 31 1920x1080 columns=1,tilesX=${g%x*},tilesY=${g#*x}; done
run k63_planes 63 1920x1080 ""
run k63_columns 63 1920x1080 columns=1
run k63_columns_c2 63 1920x1080 columns=1,columnsPerGroup=2
run k63_columns_2x2 63 1920x1080 columns=1,tilesX=2,tilesY=2
run 720p_k31_columns 31 1280x720 columns=1
run k31_columns_again 31 1920x1080 columns=1
run k31_planes_again 31 1920x1080 ""
for b in reflect101 constant wrap replicate reflect; do
  CONVOLAB_FFT_TUNING=columns=1 timeout 60 convolab-bench $B -w 1 -n 3 --size 1283x721 -k 31 -b $b --opencv-budget 2 2>&1 | grep "K 31 fft" | sed "s/^/columns $b /" >> $res/correct.txt
done
CONVOLAB_FFT_TUNING=columns=1 timeout 60 convolab-bench $B -w 1 -n 3 --size 641x361,50x30 -k 63 -b constant --opencv-budget 2 2>&1 | grep "K 63 fft" | sed "s/^/columns small /" >> $res/correct.txt
python3 -c "
import json,glob
for f in sorted(glob.glob('$res/k*.json')+glob.glob('$res/7*.json')):
    try:
        r=json.load(open(f))['results'][0]
        print(f.split('/')[-1], round(r['kernel_ms_median']*1000,1), 'p95', round(r['kernel_ms_p95']*1000,1), {k:round(v*1000,1) for k,v in r.get('kernel_stages_ms_median',{}).items()})
    except Exception as e: print(f, 'ERR', e)
" > $res/results.txt 2>&1
pack; cat $res/results.txt $res/correct.txt
S="bench --device gpu --skip-probe -n 10 -w 2 --ksweep-budget 20 --opencv-budget 10"
export CONVOLAB_CACHE_DIR=/tmp/ccs
CONVOLAB_FFT_TUNING=columns=1 timeout 230 convolab-bench $S --ksweep 17,21,25,31,45,63 --size 1280x720 --json $res/ksweep-720p-large.json > $res/ksweep-720p-large.md 2> $res/ksweep-720p-large.err
echo "large rc=$?" >> $res/steps.log; pack
timeout 170 convolab-bench $S --ksweep 3:15:2 --size 1280x720 --json $res/ksweep-720p-small.json > $res/ksweep-720p-small.md 2> $res/ksweep-720p-small.err
echo "small rc=$?" >> $res/steps.log; pack
cat $res/steps.log; grep -h -A12 "K sweep" $res/ksweep-720p-*.md | head -40
