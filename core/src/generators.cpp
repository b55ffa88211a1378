// SPDX-License-Identifier: MIT
// Kernel generators (generators.hpp): each samples its formula at the K×K tap centres, then normalises.
#include "convolab/generators.hpp"

#include <cmath>
#include <numbers>

#include "convolab/error.hpp"

namespace convolab {
namespace {

void require(bool ok, const std::string& kind, const std::string& what) {
  if (!ok) throw Error(ErrorKind::BadInput, "generator '" + kind + "': " + what);
}

/// Scales so the weights sum to 1 (blurs keep brightness).
void normaliseSum(std::vector<double>& m) {
  double sum = 0;
  for (double v : m) sum += v;
  for (double& v : m) v /= sum;
}

/// Removes the mean (a flat area gives 0), then scales so Σ|w| = 2.
void zeroMeanUnitSpread(std::vector<double>& m) {
  double mean = 0;
  for (double v : m) mean += v;
  mean /= static_cast<double>(m.size());
  double abs = 0;
  for (double& v : m) abs += std::abs(v -= mean);
  if (abs > 0)
    for (double& v : m) v *= 2.0 / abs;
}

/// Fraction of the unit pixel square centred at (x, y) that lies inside the circle of radius r (4×4 samples):
/// a disk with soft, area-weighted edges.
double diskCoverage(double x, double y, double r) {
  int inside = 0;
  for (int sy = 0; sy < 4; ++sy)
    for (int sx = 0; sx < 4; ++sx) {
      const double px = x - 0.375 + 0.25 * sx, py = y - 0.375 + 0.25 * sy;
      inside += px * px + py * py <= r * r;
    }
  return inside / 16.0;
}

/// Weight of the segment of `length` through the centre at `angle` at pixel (x, y): the pixel's overlap with
/// a one-pixel-wide line, sampled (4×4) along the segment.
double motionCoverage(double x, double y, double length, double angleDeg) {
  const double a = angleDeg * std::numbers::pi / 180.0, c = std::cos(a), s = -std::sin(a);  // y grows down
  int hits = 0;
  for (int sy = 0; sy < 4; ++sy)
    for (int sx = 0; sx < 4; ++sx) {
      const double px = x - 0.375 + 0.25 * sx, py = y - 0.375 + 0.25 * sy;
      const double along = px * c + py * s, across = -px * s + py * c;
      hits += std::abs(along) <= length / 2 && std::abs(across) <= 0.5;
    }
  return hits / 16.0;
}

}  // namespace

const std::vector<std::string>& generatorKinds() {
  static const std::vector<std::string> kinds{"gaussian", "disk", "motion", "log", "gabor"};
  return kinds;
}

ChannelFilter generateKernel(const GeneratorParams& p) {
  const std::string& kind = p.kind;
  require(p.size >= 1 && p.size <= kMaxFilterSize && p.size % 2 == 1, kind,
          "size " + std::to_string(p.size) + " must be odd, 1 to " + std::to_string(kMaxFilterSize));
  ChannelFilter f;
  f.size = p.size;
  f.matrix.assign(static_cast<size_t>(p.size * p.size), 0.0);
  const int r = p.size / 2;
  auto each = [&](auto weight) {
    for (int j = 0; j < p.size; ++j)
      for (int i = 0; i < p.size; ++i) f.matrix[static_cast<size_t>(j * p.size + i)] = weight(i - r, j - r);
  };
  if (kind == "gaussian") {
    require(p.sigma > 0, kind, "sigma must be > 0");
    each([&](double x, double y) { return std::exp(-(x * x + y * y) / (2 * p.sigma * p.sigma)); });
    normaliseSum(f.matrix);
  } else if (kind == "disk") {
    require(p.radius > 0, kind, "radius must be > 0");
    each([&](double x, double y) { return diskCoverage(x, y, p.radius); });
    normaliseSum(f.matrix);
  } else if (kind == "motion") {
    require(p.length >= 1, kind, "length must be >= 1");
    each([&](double x, double y) { return motionCoverage(x, y, p.length, p.angle); });
    normaliseSum(f.matrix);
  } else if (kind == "log") {
    require(p.sigma > 0, kind, "sigma must be > 0");
    const double s2 = p.sigma * p.sigma;
    each([&](double x, double y) {
      const double q = (x * x + y * y) / (2 * s2);
      return (1 - q) * std::exp(-q);  // −∇²G up to scale (Mexican hat): a bright spot answers positively
    });
    zeroMeanUnitSpread(f.matrix);
  } else if (kind == "gabor") {
    require(p.sigma > 0, kind, "sigma must be > 0");
    require(p.lambda > 0, kind, "lambda must be > 0");
    const double t = p.angle * std::numbers::pi / 180.0;
    each([&](double x, double y) {
      const double xr = x * std::cos(t) - y * std::sin(t);
      return std::exp(-(x * x + y * y) / (2 * p.sigma * p.sigma)) *
             std::cos(2 * std::numbers::pi * xr / p.lambda);
    });
    zeroMeanUnitSpread(f.matrix);
  } else {
    require(false, kind, "unknown kind; expected gaussian, disk, motion, log or gabor");
  }
  return f;
}

}  // namespace convolab
