// SPDX-License-Identifier: MIT
// `bench`'s shared parts: sizes, the synthetic frame and filters, timing and progress lines.
#include "bench_common.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>
#include <stdexcept>

#include "convolab/error.hpp"
#include "convolab/filter_chain_io.hpp"
#include "convolab/filter_io.hpp"
#include "cv/mat_adapter.hpp"

namespace convolab::cli::bench {

double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::string fmt(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

void progress(const std::string& line) {
  std::cerr << "bench: " << line << std::endl;
}

std::size_t roundUpTo(std::size_t v, std::size_t m) {
  return (v + m - 1) / m * m;
}

Size parseSize(const std::string& text) {
  const auto x = text.find_first_of("xX");
  Size s;
  try {
    size_t used = 0;
    if (x == std::string::npos) throw std::invalid_argument("no x");
    s.width = std::stoi(text.substr(0, x), &used);
    if (used != x) throw std::invalid_argument("junk");
    s.height = std::stoi(text.substr(x + 1), &used);
    if (used != text.size() - x - 1) throw std::invalid_argument("junk");
  } catch (const std::exception&) {
    throw Error(ErrorKind::Usage, "--size '" + text + "': expected WIDTHxHEIGHT, e.g. 1920x1080");
  }
  if (s.width < 1 || s.height < 1 || s.width > 65536 || s.height > 65536)
    throw Error(ErrorKind::Usage, "--size '" + text + "': width and height must be 1 to 65536");
  return s;
}

FilterSet benchFilter(const std::string& spec, int k, std::string& description) {
  const std::string kk = std::to_string(k) + "x" + std::to_string(k);
  if (spec == "random") {
    std::mt19937 rng(kSeed);
    std::uniform_real_distribution<double> dist(0.05, 1.0);
    std::array<ChannelFilter, kChannels> channels;
    for (auto& f : channels) {
      f.size = k;
      f.matrix.resize(static_cast<size_t>(k * k));
      double sum = 0;
      for (double& w : f.matrix) sum += (w = std::round(dist(rng) * 1000) / 1000);
      f.divisor = sum;
    }
    description = "random dense per-channel " + kk + " (seed " + std::to_string(kSeed) + ")";
    return FilterSet::make(channels, BorderMode::Reflect101, {0, 0, 0}, "random " + kk + " per channel");
  }
  if (spec == "gaussian") {
    std::vector<double> b{1};  // binomial coefficients of order K-1: 1 6 15 20 15 6 1 for K = 7
    for (int n = 1; n < k; ++n) {
      std::vector<double> next(b.size() + 1, 0.0);
      for (size_t i = 0; i < b.size(); ++i) next[i] += b[i], next[i + 1] += b[i];
      b = std::move(next);
    }
    ChannelFilter f;
    f.size = k;
    f.matrix.clear();
    for (double r : b)
      for (double c : b) f.matrix.push_back(r * c);
    f.divisor = std::ldexp(1.0, 2 * (k - 1));
    description = "gaussian: binomial " + kk + ", rank 1, same for all channels";
    return FilterSet::uniform(f, BorderMode::Reflect101, "Gaussian " + kk);
  }
  FilterSet f = loadFilterFile(spec);
  description = "file " + spec + (f.name().empty() ? "" : " (" + f.name() + ")");
  return f;
}

FilterChain benchChain(const std::string& spec, int k, std::string& description) {
  if (spec == "random" || spec == "gaussian") return FilterChain(benchFilter(spec, k, description));
  FilterChain chain = loadFilterChainFile(spec);
  description = "file " + spec + (chain.name().empty() ? "" : " (" + chain.name() + ")");
  if (!chain.singleFilter())
    description += ", a chain of " + std::to_string(chain.enabledSteps().size()) + " switched-on steps";
  return chain;
}

double chainFlopsPerPixel(const FilterChain& chain) {
  double flops = 0;
  for (const ChainStep& s : chain.enabledSteps()) {
    flops += 2.0 * s.filter.size() * s.filter.size() * kChannels;
    if (s.other) flops += 2.0 * s.other->size() * s.other->size() * kChannels;
  }
  return flops;
}

Image randomFrame(Size s) {
  Image img(s.width, s.height);
  std::mt19937 rng(kSeed ^ static_cast<std::uint32_t>(s.width * 65537 + s.height));
  for (auto& p : img.pixels) p = static_cast<std::uint8_t>(rng() >> 24);
  return img;
}

int maxAbsDiff(const Image& a, const cv::Mat& b) {
  cv::Mat diff;
  cv::absdiff(opencv::asMat(a), b, diff);
  double mx = 0;
  cv::minMaxLoc(diff.reshape(1), nullptr, &mx);
  return static_cast<int>(mx);
}

}  // namespace convolab::cli::bench
