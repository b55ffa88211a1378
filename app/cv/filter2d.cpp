// SPDX-License-Identifier: MIT
// cv::filter2D per channel with ConvoLab's filter: border modes, kernels with the divisor folded in.
#include "filter2d.hpp"

#include <opencv2/imgproc.hpp>
#include <vector>

namespace convolab::opencv {

int cvBorderType(BorderMode mode) {
  switch (mode) {
    case BorderMode::Replicate:
      return cv::BORDER_REPLICATE;
    case BorderMode::Reflect:
      return cv::BORDER_REFLECT;
    case BorderMode::Reflect101:
      return cv::BORDER_REFLECT_101;
    case BorderMode::Wrap:
      return cv::BORDER_WRAP;
    case BorderMode::Constant:
      return cv::BORDER_CONSTANT;
  }
  return cv::BORDER_DEFAULT;
}

std::optional<int> cvBorder(BorderMode mode) {
  if (mode == BorderMode::Wrap) return std::nullopt;
  return cvBorderType(mode);
}

std::optional<std::string> opencvUnsupportedReason(const FilterSet& filter) {
  if (!cvBorder(filter.border())) return "cv::filter2D does not support BORDER_WRAP";
  if (filter.border() == BorderMode::Constant)
    for (double v : filter.borderValue())
      if (v != 0.0) return "cv::filter2D pads constant borders with 0 only";
  return std::nullopt;
}

std::array<cv::Mat, kChannels> channelKernels(const FilterSet& filter) {
  std::array<cv::Mat, kChannels> kernels;
  for (int c = 0; c < kChannels; ++c) {
    const ChannelFilter& f = filter.channel(c);
    cv::Mat k(f.size, f.size, CV_32F);
    for (int j = 0; j < f.size; ++j)
      for (int i = 0; i < f.size; ++i) k.at<float>(j, i) = static_cast<float>(f.weight(j, i));
    kernels[static_cast<size_t>(c)] = k;
  }
  return kernels;
}

namespace {

template <typename M>
void perChannel(const M& src, M& dst, const FilterSet& filter,
                const std::array<cv::Mat, kChannels>& kernels) {
  const int border = cvBorder(filter.border()).value_or(cv::BORDER_REFLECT_101);
  std::vector<M> planes;
  cv::split(src, planes);
  std::vector<M> out(planes.size());
  for (int c = 0; c < kChannels; ++c)
    cv::filter2D(planes[static_cast<size_t>(c)], out[static_cast<size_t>(c)], -1,
                 kernels[static_cast<size_t>(c)], cv::Point(-1, -1), filter.channel(c).offset, border);
  cv::merge(out, dst);
}

}  // namespace

void filter2DPerChannel(const cv::Mat& src, cv::Mat& dst, const FilterSet& filter,
                        const std::array<cv::Mat, kChannels>& kernels) {
  perChannel(src, dst, filter, kernels);
}

void filter2DPerChannel(const cv::UMat& src, cv::UMat& dst, const FilterSet& filter,
                        const std::array<cv::Mat, kChannels>& kernels) {
  perChannel(src, dst, filter, kernels);
}

void filter2DSingle(cv::InputArray src, cv::OutputArray dst, const FilterSet& filter,
                    const std::array<cv::Mat, kChannels>& kernels) {
  const int border = cvBorder(filter.border()).value_or(cv::BORDER_REFLECT_101);
  cv::filter2D(src, dst, -1, kernels[0], cv::Point(-1, -1), filter.channel(0).offset, border);
}

}  // namespace convolab::opencv
