#!/usr/bin/env bash
# H100 lease 3, second call: the K sweep's large half (run4.sh's stopped at K 17 after 250 s; builds of the
# unrolled strategies dominate), same settings.
set -u
res=/tmp/res2; rm -rf $res; mkdir -p $res
source .devkit/enter.sh
export CONVOLAB_CACHE_DIR=/tmp/ccs
pack() { tar czf "$OUT/res2.tgz" -C /tmp res2; }
S="bench --device gpu --skip-probe -n 10 -w 2 --ksweep-budget 6 --opencv-budget 4"
timeout 400 convolab-bench $S --ksweep 17,21,25,31,45,63 --size 1280x720 --json $res/ksweep-720p-large.json > $res/ksweep-720p-large.md 2> $res/ksweep-720p-large.err
echo "ksweep rc=$?" >> $res/steps.log; pack
grep -h "fastest" $res/ksweep-720p-large.err; cat $res/steps.log
