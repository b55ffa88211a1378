#!/usr/bin/env bash
# H100 lease 3, third call: K 31, 45, 63 (run5.sh's stopped in K 31's auto after 400 s; builds of the
# unrolled strategies dominate), same settings.
set -u
res=/tmp/res3; rm -rf $res; mkdir -p $res
source .devkit/enter.sh
export CONVOLAB_CACHE_DIR=/tmp/ccs
pack() { tar czf "$OUT/res3.tgz" -C /tmp res3; }
# The strategies run5.sh still ran at K 31 (the others went over --ksweep-budget 6 s by K 25: constant, image,
# tiled, codegen); auto measures every candidate itself.
S="bench --device gpu --skip-probe -n 10 -w 2 --ksweep-budget 6 --opencv-budget 4 -s naive -s vector -s local -s separable -s lowrank -s sliding -s dynamic -s fft -s auto"
timeout 370 convolab-bench $S --ksweep 31,45,63 --size 1280x720 --json $res/ksweep-720p-large.json > $res/ksweep-720p-large.md 2> $res/ksweep-720p-large.err
echo "ksweep rc=$?" >> $res/steps.log; pack
grep -h "fastest" $res/ksweep-720p-large.err; cat $res/steps.log
