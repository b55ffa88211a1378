// SPDX-License-Identifier: MIT
// empty_probe.cl — not a strategy: `convolab-cli bench --kernel-loop`'s launch floor (app/cli/bench_strategy.cpp),
// a kernel that does nothing, so its event time is what a launch costs with no work.

__kernel void empty(__global uchar* p) {}
