// SPDX-License-Identifier: MIT
// Test pattern: a scrolling hue gradient, colour bars, a checkerboard, a bouncing disc, a spinning square,
// text.
#include "test_pattern_source.hpp"

#include <cmath>
#include <cstdio>
#include <opencv2/imgproc.hpp>
#include <regex>

namespace convolab::capture {
namespace {

cv::Vec3b hueToRgb(double h, double s, double v) {
  // h in [0, 1): a smooth colour wheel.
  const double r = std::clamp(std::abs(h * 6 - 3) - 1, 0.0, 1.0);
  const double g = std::clamp(2 - std::abs(h * 6 - 2), 0.0, 1.0);
  const double b = std::clamp(2 - std::abs(h * 6 - 4), 0.0, 1.0);
  auto mix = [&](double c) { return cv::saturate_cast<uchar>(255.0 * v * (1 - s + s * c)); };
  return {mix(r), mix(g), mix(b)};
}

}  // namespace

bool TestPatternOptions::isPatternSpec(const std::string& spec) {
  return spec == "pattern" || spec.rfind("pattern:", 0) == 0 || spec.rfind("pattern,", 0) == 0 ||
         spec.rfind("pattern@", 0) == 0;
}

std::optional<TestPatternOptions> TestPatternOptions::parse(const std::string& spec) {
  if (!isPatternSpec(spec)) return std::nullopt;
  static const std::regex kSpec(R"(pattern(?::(\d+)x(\d+))?(?:@(\d+(?:\.\d+)?))?((?:,\w+=-?\d+)*))");
  std::smatch m;
  if (!std::regex_match(spec, m, kSpec))
    throw SourceError("'" + spec + "': expected pattern[:WIDTHxHEIGHT][@FPS][,fail=N][,recover=M]");
  TestPatternOptions o;
  if (m[1].matched) o.width = std::stoi(m[1]), o.height = std::stoi(m[2]);
  if (m[3].matched) o.fps = std::stod(m[3]);
  if (o.width < 16 || o.height < 16 || o.width > 8192 || o.height > 8192)
    throw SourceError("'" + spec + "': the pattern size must be 16..8192 on each side");
  if (o.fps < 1 || o.fps > 480) throw SourceError("'" + spec + "': the pattern rate must be 1..480 fps");
  static const std::regex kOption(R"(,(\w+)=(-?\d+))");
  const std::string options = m[4];
  for (auto it = std::sregex_iterator(options.begin(), options.end(), kOption); it != std::sregex_iterator();
       ++it) {
    const std::string key = (*it)[1];
    const int value = std::stoi((*it)[2]);
    if (key == "fail")
      o.failAfter = value;
    else if (key == "recover")
      o.recoverAfter = value;
    else
      throw SourceError("'" + spec + "': unknown pattern option '" + key + "' (expected fail or recover)");
  }
  return o;
}

TestPatternSource::TestPatternSource(TestPatternOptions options) : m_options(options) {
  buildStaticLayers();
}

void TestPatternSource::buildStaticLayers() {
  const int w = m_options.width, h = m_options.height;
  // One period of the gradient is `w` wide; two periods let any window of width w be copied in one go.
  m_background.create(h, 2 * w, CV_8UC3);
  for (int y = 0; y < h; ++y) {
    auto* row = m_background.ptr<cv::Vec3b>(y);
    const double v = 0.35 + 0.55 * (1.0 - static_cast<double>(y) / h);
    for (int x = 0; x < w; ++x) row[x] = row[x + w] = hueToRgb(static_cast<double>(x) / w, 0.55, v);
  }
  const cv::Vec3b bars[] = {{235, 235, 235}, {235, 235, 16}, {16, 235, 235}, {16, 235, 16},
                            {235, 16, 235},  {235, 16, 16},  {16, 16, 235},  {16, 16, 16}};
  m_bars.create(std::max(8, h / 12), w, CV_8UC3);
  for (int x = 0; x < w; ++x)
    m_bars.col(x).setTo(cv::Scalar(bars[x * 8 / w][0], bars[x * 8 / w][1], bars[x * 8 / w][2]));
}

void TestPatternSource::open() {
  if (m_failed) {
    // A simulated unplug: the "device" stays away for recoverAfter attempts (or for good).
    if (m_options.recoverAfter < 0 || m_failedReopens < m_options.recoverAfter) {
      ++m_failedReopens;
      throw SourceError("test pattern: simulated disconnect");
    }
    m_failed = false;
    m_failedReopens = 0;
  }
  m_sinceOpen = 0;
}

bool TestPatternSource::read(Frame& out) {
  if (m_failed) return false;
  if (m_options.failAfter >= 0 && m_sinceOpen >= m_options.failAfter) {
    m_failed = true;
    return false;
  }
  auto image = m_pool.acquire(m_options.width, m_options.height);
  cv::Mat dst(image->height, image->width, CV_8UC3, image->pixels.data(), image->stride);
  render(dst, m_index);
  out.image = std::move(image);
  out.index = m_index++;
  out.captured = Clock::now();
  ++m_sinceOpen;
  return true;
}

void TestPatternSource::render(cv::Mat& dst, std::int64_t frame) const {
  const int w = dst.cols, h = dst.rows;
  const double t = static_cast<double>(frame) / m_options.fps;
  const int shift = static_cast<int>(std::fmod(t * w * 0.08, w));
  m_background(cv::Rect(shift, 0, w, h)).copyTo(dst);

  const int unit = std::max(4, h / 24);
  // Colour bars along the bottom.
  m_bars.copyTo(dst(cv::Rect(0, h - m_bars.rows, w, m_bars.rows)));
  // A checkerboard and fine line gratings: sharpening and blurring show plainly here.
  const cv::Rect board(unit, unit * 3, unit * 8, unit * 8);
  const cv::Rect bounds(0, 0, w, h);  // tiny patterns: clip every block to the frame
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 8; ++i)
      if (const cv::Rect cell = cv::Rect(board.x + i * unit, board.y + j * unit, unit, unit) & bounds;
          !cell.empty())
        dst(cell).setTo((i + j) % 2 ? cv::Scalar(20, 20, 20) : cv::Scalar(235, 235, 235));
  const cv::Rect grating = cv::Rect(board.x, board.br().y + unit, unit * 8, unit * 3) & bounds;
  if (!grating.empty()) dst(grating).setTo(cv::Scalar(235, 235, 235));
  for (int x = grating.x; x < grating.br().x; x += 2 + (x - grating.x) * 4 / grating.width)
    cv::line(dst, {x, grating.y}, {x, grating.br().y - 1}, cv::Scalar(20, 20, 20), 1);

  // A disc bouncing across the frame.
  const double px = 0.5 + 0.4 * std::sin(t * 1.3), py = 0.45 + 0.3 * std::abs(std::sin(t * 2.1));
  const cv::Point centre(static_cast<int>(px * w), static_cast<int>(py * h));
  cv::circle(dst, centre, unit * 3, cv::Scalar(250, 210, 60), cv::FILLED, cv::LINE_AA);
  cv::circle(dst, centre, unit * 3, cv::Scalar(30, 30, 30), std::max(1, unit / 6), cv::LINE_AA);
  // A spinning square on the right.
  const cv::Point2f sq(static_cast<float>(w - unit * 7), static_cast<float>(unit * 7));
  cv::Point2f corners[4];
  cv::RotatedRect(sq, cv::Size2f(static_cast<float>(unit * 6), static_cast<float>(unit * 6)),
                  static_cast<float>(t * 45.0))
      .points(corners);
  cv::Point poly[4];
  for (int i = 0; i < 4; ++i) poly[i] = corners[i];
  cv::fillConvexPoly(dst, poly, 4, cv::Scalar(40, 90, 220), cv::LINE_AA);
  cv::polylines(dst, std::vector<std::vector<cv::Point>>{{poly, poly + 4}}, true, cv::Scalar(255, 255, 255),
                std::max(1, unit / 8), cv::LINE_AA);

  // Text: title, frame number and clock.
  const double scale = unit / 34.0;
  const int thick = std::max(1, unit / 16);
  char line[128];
  std::snprintf(line, sizeof line, "frame %06lld  %6.2f s  %dx%d@%.0f", static_cast<long long>(frame), t, w,
                h, m_options.fps);
  const cv::Point title(board.br().x + unit * 2, unit * 4);
  cv::putText(dst, "ConvoLab test pattern", title, cv::FONT_HERSHEY_DUPLEX, scale * 1.4, cv::Scalar(0, 0, 0),
              thick + 2, cv::LINE_AA);
  cv::putText(dst, "ConvoLab test pattern", title, cv::FONT_HERSHEY_DUPLEX, scale * 1.4,
              cv::Scalar(255, 255, 255), thick + 1, cv::LINE_AA);
  const cv::Point info(title.x, title.y + unit * 3 / 2);
  cv::putText(dst, line, info, cv::FONT_HERSHEY_SIMPLEX, scale, cv::Scalar(0, 0, 0), thick + 1, cv::LINE_AA);
  cv::putText(dst, line, info, cv::FONT_HERSHEY_SIMPLEX, scale, cv::Scalar(255, 255, 255), thick,
              cv::LINE_AA);
}

std::string TestPatternSource::deliveredMode() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%d×%d test pattern @ %.3g fps", m_options.width, m_options.height,
                m_options.fps);
  return buf;
}

}  // namespace convolab::capture
