#!/usr/bin/env bash
# issue 20 follow-up: what "engine other" is with GL in the process, and the compute kick. One lease.
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
run stub $S 5 CONVOLAB_BENCH_DISPLAY=stub
run gl-kick0 $S 5 CONVOLAB_BENCH_GL_KICK=0
run gl-kernel $S 5 CONVOLAB_BENCH_GL_KICK=kernel
run gl-copy $S 5 CONVOLAB_BENCH_GL_KICK=copy
run gl-all $S 5 CONVOLAB_BENCH_GL_KICK=all
run gl-kick0-again $S 5 CONVOLAB_BENCH_GL_KICK=0
run gl-kernel-again $S 5 CONVOLAB_BENCH_GL_KICK=kernel
run gl-kick0 3840x2160 4 CONVOLAB_BENCH_GL_KICK=0
run gl-kernel 3840x2160 4 CONVOLAB_BENCH_GL_KICK=kernel
grep -h "latency 1920\|latency 3840" *.txt > summary.txt
cd .. && rm -rf cache && tar czf lat.tgz r && rm -rf r
