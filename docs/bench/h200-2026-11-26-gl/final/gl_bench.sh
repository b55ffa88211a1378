#!/usr/bin/env bash
# One lease: bench --latency's display variants at 1080p and 4K, codegen, pinned, 60 fps, with the baselines
# (stub; gl-rgb: last session's GL path) in the same call. gl-rgb-pbo-orphan: the app preview's upload (the
# pixel buffer orphaned and mapped each frame). Results: one tarball.
source .devkit-gl/enter.sh
mkdir -p "$OUT/r" && cd "$OUT/r"
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv > gpu.txt 2>&1
export CONVOLAB_CACHE_DIR=$PWD/../cache
for size in 1920x1080 3840x2160; do
  for v in stub gl-rgb gl-rgb-pbo gl-rgb-pbo-orphan gl gl-rgb-direct-pinned; do
    env=(CONVOLAB_BENCH_DISPLAY=$v)
    [ $v = gl-rgb-pbo-orphan ] && env=(CONVOLAB_BENCH_DISPLAY=gl-rgb-pbo CONVOLAB_BENCH_GL_PERSISTENT=0)
    env "${env[@]}" timeout 60 convolab-bench bench --device gpu --latency ${SECS:-8} --latency-fps 60 \
      -s codegen --size $size --json $v-$size.json > $v-$size.txt 2>&1
    echo "$v $size rc=$?" >> runs.txt
  done
done
cd .. && rm -rf cache && tar czf gl-bench.tgz r && rm -rf r
