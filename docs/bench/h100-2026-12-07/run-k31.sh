#!/usr/bin/env bash
# H100, 2026-12-07, second call: K 31 again with a longer limit (run.sh's stopped in auto's measurement after
# 175 s: at K 31 auto still has the unrolled direct candidates to build and time, at 45 and 63 only fft and a few).
set -u
res=/tmp/res31; rm -rf $res; mkdir -p $res
source .devkit/enter.sh
export CONVOLAB_CACHE_DIR=/tmp/ccs
pack() { tar czf "$OUT/res31.tgz" -C /tmp res31; }
S="bench --device gpu --skip-probe -n 10 -w 2 --opencv-budget 4 -s sliding -s lowrank -s fft -s auto"
timeout 520 convolab-bench $S --ksweep 31 --size 1280x720 --json $res/ksweep-720p-k31.json > $res/ksweep-720p-k31.md 2> $res/ksweep-720p-k31.err
echo "k31 rc=$?" >> $res/steps.log; pack
grep -h "fastest" $res/*.err; cat $res/steps.log
