#!/usr/bin/env bash
# issue 20 follow-up: bench --latency with the shared convolab::ComputeKick (commit 0ae27fd): gl without the kick
# and with the default kernel kick, interleaved, 1080p, H100/H200.
source .devkit-kick/enter.sh
mkdir -p "$OUT/r" && cd "$OUT/r"
nvidia-smi --query-gpu=name,driver_version --format=csv > gpu.txt 2>&1
export CONVOLAB_CACHE_DIR=$PWD/../cache
run() {  # name size secs env...
  local name=$1 size=$2 secs=$3; shift 3
  env "$@" CONVOLAB_BENCH_LATENCY_CSV=$name-$size.csv timeout 40 convolab-bench bench --device gpu \
    --latency $secs --latency-fps 60 -s codegen --size $size --json $name-$size.json > $name-$size.txt 2>&1
  echo "$name $size rc=$? $*" >> runs.txt
}
S=1920x1080
for i in 1 2 3; do
  run gl-nokick-$i $S 4 CONVOLAB_BENCH_GL_KICK=0
  run gl-$i $S 4
done
grep -H "latency 1920" *.txt > summary.txt
grep -H "compute kick" gl-1-*.txt | head -2 >> summary.txt
cd .. && rm -rf cache
