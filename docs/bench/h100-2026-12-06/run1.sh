#!/usr/bin/env bash
# H100 lease 1 (2026-12-06): issue 31's GPU lines on the card the issue names. fft at 1080p K 31/63 with the
# stage times (default grid, other grids, the rows and columns paths), every border at an odd size, OpenCV
# (UMat and CPU) in the same run as the default, and the PyTorch/CuPy peers.
set -u
res=/tmp/res; rm -rf $res; mkdir -p $res
source .devkit/enter.sh
export CONVOLAB_CACHE_DIR=/tmp/ccf PYTHONUNBUFFERED=1
pack() { tar czf "$OUT/res.tgz" -C /tmp res; }
B="bench --device gpu --skip-probe --stream-frames 0 -f random -s fft"
run() { tag=$1; k=$2; sz=$3; t=$4; shift 4
  CONVOLAB_FFT_TUNING=$t timeout 90 convolab-bench $B --skip-opencv -w 3 -n 30 --size $sz -k $k "$@" --json $res/$tag.json > $res/$tag.log 2>&1
  echo "$tag rc=$?" >> $res/steps.log; pack; }
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv; convolab-bench devices; } > $res/machine.txt 2>&1
# The default beside OpenCV (UMat per channel, one filter, CPU), one run each K.
for k in 31 63; do
  timeout 150 convolab-bench $B -w 3 -n 30 --size 1920x1080 -k $k --opencv-budget 20 --json $res/default_k$k.json > $res/default_k$k.md 2> $res/default_k$k.err
  echo "default_k$k rc=$?" >> $res/steps.log; pack
done
for g in 1x1 2x1 2x2 4x1 4x2 4x3; do run k31_$g 31 1920x1080 tilesX=${g%x*},tilesY=${g#*x}; done
for g in 1x1 2x1 2x2; do run k63_$g 63 1920x1080 tilesX=${g%x*},tilesY=${g#*x}; done
# The columns path with the GPUs' own column kernel (fft_columns_local.cl): one kernel spectrum for all tiles.
run k31_columns 31 1920x1080 columns=1
for g in 2x2 4x3 8x2 1x1; do run k31_columns_$g 31 1920x1080 columns=1,tilesX=${g%x*},tilesY=${g#*x}; done
run k63_columns 63 1920x1080 columns=1
for g in 2x2 4x2; do run k63_columns_$g 63 1920x1080 columns=1,tilesX=${g%x*},tilesY=${g#*x}; done
run 720p_k31_columns 31 1280x720 columns=1
for b in reflect101 constant wrap replicate reflect; do
  CONVOLAB_FFT_TUNING=columns=1 timeout 60 convolab-bench $B -w 1 -n 3 --size 1283x721 -k 31 -b $b --opencv-budget 2 2>&1 | grep "K 31 fft" | sed "s/^/columns $b /" >> $res/correct.txt
done
run k31_rows 31 1920x1080 rows=1
run k31_default_again 31 1920x1080 ""
run 720p_k31 31 1280x720 ""
for b in reflect101 constant wrap replicate reflect; do
  timeout 60 convolab-bench $B -w 1 -n 3 --size 1283x721 -k 31 -b $b --opencv-budget 2 2>&1 | grep "K 31 fft" | sed "s/^/$b /" >> $res/correct.txt
done
pack
for k in 31 63; do
  timeout 200 python3 scripts/bench_peers.py --size 1920x1080 --ksize $k --reps 10 --warmup 2 --no-compile --json $res/peers-k$k.json > $res/peers-k$k.txt 2>&1
  echo "peers_k$k rc=$?" >> $res/steps.log; pack
done
python3 -c "
import json,glob
for f in sorted(glob.glob('$res/*.json')):
    try:
        d=json.load(open(f))['results']
        for r in d:
            if r.get('strategy')!='fft' and 'kernel_stages_ms_median' not in r: continue
            print(f.split('/')[-1], r.get('strategy'), round(r['kernel_ms_median']*1000,1), {k:round(v*1000,1) for k,v in r.get('kernel_stages_ms_median',{}).items()})
    except Exception as e: print(f, 'ERR', e)
" > $res/results.txt 2>&1
pack
cat $res/steps.log $res/results.txt $res/correct.txt; grep -h "ms" $res/peers-k31.txt | head -20
