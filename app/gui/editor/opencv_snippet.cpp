// SPDX-License-Identifier: MIT
// Copy as OpenCV C++ / Python: the filter as cv::filter2D calls, border and divisor/offset mapped.
#include "editor/opencv_snippet.hpp"

#include <QStringList>

#include "editor/compact_spin_box.hpp"

namespace convolab::gui {

namespace {

bool needsPadding(const FilterSet& f) {
  if (f.border() == BorderMode::Wrap) return true;
  if (f.border() != BorderMode::Constant) return false;
  for (double v : f.borderValue())
    if (v != 0) return true;
  return false;
}

QString name(const FilterSet& f) {
  return f.name().empty() ? QStringLiteral("Custom filter") : QString::fromStdString(f.name());
}

// Rows of the matrix, `indent` before each, numbers separated by ", ", rows by `rowEnd`.
QString rows(const ChannelFilter& c, const QString& indent, const QString& open, const QString& close,
             const QString& rowEnd) {
  QStringList lines;
  for (int j = 0; j < c.size; ++j) {
    QStringList numbers;
    for (int i = 0; i < c.size; ++i) numbers << fullNumberText(c.at(j, i));
    lines << indent + open + numbers.join(QStringLiteral(", ")) + close;
  }
  return lines.join(rowEnd);
}

// BGR order of the values for cv::Scalar / a Python tuple.
QString bgrValues(const FilterSet& f) {
  const auto& v = f.borderValue();
  return QStringLiteral("%1, %2, %3").arg(fullNumberText(v[2]), fullNumberText(v[1]), fullNumberText(v[0]));
}

const char* const kChannelVar[] = {"R", "G", "B"};
const int kBgrIndex[] = {2, 1, 0};  // R is channel 2 of an OpenCV BGR image

}  // namespace

QString openCvBorderName(BorderMode mode) {
  switch (mode) {
    case BorderMode::Replicate:
      return QStringLiteral("BORDER_REPLICATE");
    case BorderMode::Reflect:
      return QStringLiteral("BORDER_REFLECT");
    case BorderMode::Reflect101:
      return QStringLiteral("BORDER_REFLECT_101");
    case BorderMode::Wrap:
      return QStringLiteral("BORDER_WRAP");
    case BorderMode::Constant:
      return QStringLiteral("BORDER_CONSTANT");
  }
  return QStringLiteral("BORDER_DEFAULT");
}

QString openCvCppSnippet(const FilterSet& f) {
  const int k = f.size();
  const bool pad = needsPadding(f);
  const QString border = QStringLiteral("cv::") + openCvBorderName(pad ? BorderMode::Constant : f.border());
  QString s;
  s += QStringLiteral("// ConvoLab filter \"%1\" (%2x%2, border %3) as OpenCV code.\n")
           .arg(name(f))
           .arg(k)
           .arg(QString::fromStdString(std::string(borderName(f.border()))));
  s += QStringLiteral(
      "// Per channel: out = saturate(round(offset + sum(M * in) / divisor)), which is cv::filter2D\n"
      "// (correlation, anchor at the centre) with kernel = M / divisor and delta = offset.\n"
      "#include <opencv2/core.hpp>\n#include <opencv2/imgproc.hpp>\n#include <vector>\n\n"
      "// bgr: 8-bit, 3 channels, in OpenCV's B, G, R order (as cv::imread returns it).\n"
      "cv::Mat applyConvoLabFilter(const cv::Mat& bgr) {\n");
  auto kernel = [&](const QString& var, const ChannelFilter& c) {
    return QStringLiteral("  const cv::Mat %1 = (cv::Mat_<double>(%2, %2) <<\n%3) / %4;\n")
        .arg(var)
        .arg(k)
        .arg(rows(c, QStringLiteral("      "), {}, {}, QStringLiteral(",\n")))
        .arg(fullNumberText(c.divisor));
  };
  QString src = QStringLiteral("bgr");
  if (pad) {
    s += QStringLiteral(
             "  const int r = %1;  // filter2D has no wrap mode nor a border value: pad, filter, crop\n")
             .arg(k / 2);
    s += QStringLiteral("  cv::Mat padded;\n  cv::copyMakeBorder(bgr, padded, r, r, r, r, cv::%1%2);\n")
             .arg(openCvBorderName(f.border()), f.border() == BorderMode::Constant
                                                    ? QStringLiteral(", cv::Scalar(%1)").arg(bgrValues(f))
                                                    : QString());
    src = QStringLiteral("padded");
  }
  const QString crop = pad ? QStringLiteral("(cv::Rect(r, r, bgr.cols, bgr.rows)).clone()") : QString();
  if (f.channelsIdentical()) {
    const ChannelFilter& c = f.channel(0);
    s += kernel(QStringLiteral("kernel"), c);
    s += QStringLiteral("  cv::Mat out;\n  cv::filter2D(%1, out, -1, kernel, cv::Point(-1, -1), %2, %3);\n")
             .arg(src, fullNumberText(c.offset), border);
    s += QStringLiteral("  return out%1;\n}\n").arg(crop);
    return s;
  }
  s += QStringLiteral(
           "  std::vector<cv::Mat> in, out(3);\n  cv::split(%1, in);  // in[0] = B, in[1] = G, in[2] = R\n")
           .arg(src);
  for (int c = 0; c < kChannels; ++c) {
    const ChannelFilter& ch = f.channel(c);
    const QString var = QStringLiteral("k") + QLatin1String(kChannelVar[c]);
    s += kernel(var, ch);
    s += QStringLiteral("  cv::filter2D(in[%1], out[%1], -1, %2, cv::Point(-1, -1), %3, %4);\n")
             .arg(kBgrIndex[c])
             .arg(var, fullNumberText(ch.offset), border);
  }
  s += QStringLiteral("  cv::Mat merged;\n  cv::merge(out, merged);\n  return merged%1;\n}\n").arg(crop);
  return s;
}

QString openCvPythonSnippet(const FilterSet& f) {
  const int k = f.size();
  const bool pad = needsPadding(f);
  const QString border = QStringLiteral("cv2.") + openCvBorderName(pad ? BorderMode::Constant : f.border());
  QString s;
  s += QStringLiteral("# ConvoLab filter \"%1\" (%2x%2, border %3) as OpenCV code.\n")
           .arg(name(f))
           .arg(k)
           .arg(QString::fromStdString(std::string(borderName(f.border()))));
  s += QStringLiteral(
      "# Per channel: out = saturate(round(offset + sum(M * in) / divisor)), which is cv2.filter2D\n"
      "# (correlation, anchor at the centre) with kernel = M / divisor and delta = offset.\n"
      "import cv2\nimport numpy as np\n\n\n"
      "def apply_convolab_filter(bgr):\n"
      "    \"\"\"bgr: 8-bit, 3 channels, in OpenCV's B, G, R order (as cv2.imread returns it).\"\"\"\n");
  auto kernel = [&](const QString& var, const ChannelFilter& c) {
    return QStringLiteral("    %1 = np.array([\n%2,\n    ], dtype=np.float64) / %3\n")
        .arg(var,
             rows(c, QStringLiteral("        "), QStringLiteral("["), QStringLiteral("]"),
                  QStringLiteral(",\n")),
             fullNumberText(c.divisor));
  };
  QString src = QStringLiteral("bgr");
  if (pad) {
    s += QStringLiteral("    r = %1  # filter2D has no wrap mode nor a border value: pad, filter, crop\n")
             .arg(k / 2);
    s += QStringLiteral("    padded = cv2.copyMakeBorder(bgr, r, r, r, r, cv2.%1%2)\n")
             .arg(openCvBorderName(f.border()), f.border() == BorderMode::Constant
                                                    ? QStringLiteral(", value=(%1)").arg(bgrValues(f))
                                                    : QString());
    src = QStringLiteral("padded");
  }
  const QString crop = pad ? QStringLiteral("[r:r + bgr.shape[0], r:r + bgr.shape[1]]") : QString();
  if (f.channelsIdentical()) {
    const ChannelFilter& c = f.channel(0);
    s += kernel(QStringLiteral("kernel"), c);
    s += QStringLiteral("    out = cv2.filter2D(%1, -1, kernel, delta=%2, borderType=%3)\n")
             .arg(src, fullNumberText(c.offset), border);
    s += QStringLiteral("    return out%1\n").arg(crop);
    return s;
  }
  s += QStringLiteral("    b, g, r_ = cv2.split(%1)\n").arg(src);
  const char* const planes[] = {"r_", "g", "b"};
  for (int c = 0; c < kChannels; ++c) {
    const ChannelFilter& ch = f.channel(c);
    const QString var = QStringLiteral("k_") + QString::fromLatin1(kChannelVar[c]).toLower();
    s += kernel(var, ch);
    s += QStringLiteral("    out_%1 = cv2.filter2D(%2, -1, %3, delta=%4, borderType=%5)\n")
             .arg(QString::fromLatin1(kChannelVar[c]).toLower(), QLatin1String(planes[c]), var,
                  fullNumberText(ch.offset), border);
  }
  s += QStringLiteral("    out = cv2.merge([out_b, out_g, out_r])\n    return out%1\n").arg(crop);
  return s;
}

}  // namespace convolab::gui
