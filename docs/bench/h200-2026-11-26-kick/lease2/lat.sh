#!/usr/bin/env bash
# issue 20 follow-up, second lease: baselines (stub; gl without the compute kick = the old default) and the
# committed default (gl, kick copy) and kick=kernel, interleaved three times at 1080p; 4K once each.
source .devkit-lat/enter.sh
mkdir -p "$OUT/r" && cd "$OUT/r"
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv > gpu.txt 2>&1
export CONVOLAB_CACHE_DIR=$PWD/../cache
run() {  # name size secs env...
  local name=$1 size=$2 secs=$3; shift 3
  env "$@" CONVOLAB_BENCH_LATENCY_CSV=$name-$size.csv timeout 40 convolab-bench bench --device gpu \
    --latency $secs --latency-fps 60 -s codegen --size $size --json $name-$size.json > $name-$size.txt 2>&1
  echo "$name $size rc=$? $*" >> runs.txt
}
S=1920x1080
for i in 1 2 3; do
  run stub-$i $S 5 CONVOLAB_BENCH_DISPLAY=stub
  run gl-nokick-$i $S 5 CONVOLAB_BENCH_GL_KICK=0
  run gl-$i $S 5
  run gl-kernel-$i $S 5 CONVOLAB_BENCH_GL_KICK=kernel
done
run stub 3840x2160 4 CONVOLAB_BENCH_DISPLAY=stub
run gl-nokick 3840x2160 4 CONVOLAB_BENCH_GL_KICK=0
run gl 3840x2160 4
grep -H "latency 1920\|latency 3840" *.txt > summary.txt
cd .. && rm -rf cache && tar czf lat2.tgz r && rm -rf r
