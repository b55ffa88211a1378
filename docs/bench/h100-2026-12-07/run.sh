#!/usr/bin/env bash
# H100, 2026-12-07: auto at K 31, 45, 63 (the 2026-12-06 sweeps stopped before it: run5.sh/run6.sh). One bench
# call per K, so each K's report survives the next one's time limit. The strategies: fft (the fastest from K 17
# on, 2026-12-06), the best direct ones there (sliding; lowrank, the low-rank path), and auto, which measures
# every candidate itself.
set -u
res=/tmp/res; rm -rf $res; mkdir -p $res
source .devkit/enter.sh
export CONVOLAB_CACHE_DIR=/tmp/ccs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $res/machine.txt
pack() { tar czf "$OUT/res.tgz" -C /tmp res; }
S="bench --device gpu --skip-probe -n 10 -w 2 --opencv-budget 4 -s sliding -s lowrank -s fft -s auto"
for k in 31 45 63; do
  timeout 175 convolab-bench $S --ksweep $k --size 1280x720 --json $res/ksweep-720p-k$k.json > $res/ksweep-720p-k$k.md 2> $res/ksweep-720p-k$k.err
  echo "k$k rc=$?" >> $res/steps.log; pack
done
grep -h "fastest" $res/*.err; cat $res/steps.log
