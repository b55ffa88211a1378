// SPDX-License-Identifier: MIT
// `bench`'s device section: what the device is, and its FP32 peak (from its name, or the FMA probe kernel).
#pragma once

#include "bench_report.hpp"
#include "convolab/context.hpp"

namespace convolab::cli::bench {

/// The device's facts, its theoretical FP32 peak where the lanes per compute unit are known, and (with
/// `probe`) the throughput kernels/fma_probe.cl achieves. The peak used for peak_fraction prefers the first.
DeviceReport deviceReport(Context& ctx, bool probe);

}  // namespace convolab::cli::bench
