// SPDX-License-Identifier: MIT
// `bench --soak`: frames through one strategy, resident memory sampled from /proc/self/statm.
#include "bench_soak.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <vector>

#include "convolab/engine.hpp"

namespace convolab::cli::bench {
namespace {

long rssKiB() {
  std::ifstream statm("/proc/self/statm");
  long size = 0, resident = 0;
  statm >> size >> resident;
  return resident * (::sysconf(_SC_PAGESIZE) / 1024);
}

}  // namespace

SoakReport runSoak(const std::shared_ptr<Context>& ctx, const StrategyId& strategy, const FilterSet& filter,
                   Size size, int frames) {
  SoakReport s;
  s.strategy = strategy.toString();
  s.size = size.label();
  s.frames = frames;
  const Image in = randomFrame(size);
  Image out(size.width, size.height);
  // The per-frame times are allocated and touched before the first RSS reading, so the growth reported
  // is the engine's alone (push_back would add 8 bytes a frame of the measurement's own).
  std::vector<double> host(static_cast<size_t>(frames), 0.0);
  s.rssStartKiB = rssKiB();
  Engine engine(ctx, strategy.name);
  engine.setFilter(filter);
  host[0] = engine.process(in.view(), out.mutableView()).hostMs;
  s.rssAfterFirstKiB = rssKiB();
  const int step = std::max(frames / 10, 1);
  for (int i = 1; i < frames; ++i) {
    host[static_cast<size_t>(i)] = engine.process(in.view(), out.mutableView()).hostMs;
    if ((i + 1) % step == 0)
      progress("soak " + std::to_string(i + 1) + "/" + std::to_string(frames) + " frames, RSS " +
               std::to_string(rssKiB()) + " KiB");
  }
  s.rssEndKiB = rssKiB();
  s.growthKiB = s.rssEndKiB - s.rssAfterFirstKiB;
  s.active = engine.activeStrategy();
  s.notices = engine.takeNotices();
  s.frame = Stats::of(host);
  return s;
}

}  // namespace convolab::cli::bench
