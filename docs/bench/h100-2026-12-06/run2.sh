#!/usr/bin/env bash
# H100 lease 2 (2026-12-06): the GPU K sweep (K 3-63, 720p as the earlier sweeps), auto beside every strategy
# and OpenCV, a fresh auto cache; then 1080p K 17/31/45/63 for the crossover at 1080p.
set -u
res=/tmp/res; rm -rf $res; mkdir -p $res
source .devkit/enter.sh
export CONVOLAB_CACHE_DIR=/tmp/ccs
pack() { tar czf "$OUT/res.tgz" -C /tmp res; }
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv; } > $res/machine.txt 2>&1
S="bench --device gpu --skip-probe -n 10 -w 2 --ksweep-budget 20 --opencv-budget 10"
timeout 270 convolab-bench $S --ksweep 3:15:2 --size 1280x720 --json $res/ksweep-720p-small.json > $res/ksweep-720p-small.md 2> $res/ksweep-720p-small.err
echo "small rc=$?" >> $res/steps.log; pack
timeout 300 convolab-bench $S --ksweep 17,21,25,31,45,63 --size 1280x720 --json $res/ksweep-720p-large.json > $res/ksweep-720p-large.md 2> $res/ksweep-720p-large.err
echo "large rc=$?" >> $res/steps.log; pack
cat $res/steps.log; grep -h -A40 "K sweep" $res/ksweep-720p-*.md | head -80
