// SPDX-License-Identifier: MIT
// What ConvoLab computes, done by OpenCV: border modes, per-channel kernels and cv::filter2D per channel.
#pragma once

#include <array>
#include <opencv2/core.hpp>
#include <optional>
#include <string>

#include "convolab/filter.hpp"

namespace convolab::opencv {

/// The cv::BorderTypes value of a mode, all five (cv::copyMakeBorder has BORDER_WRAP too).
int cvBorderType(BorderMode mode);
/// The cv::BorderTypes value cv::filter2D takes for a mode; nullopt for Wrap (filter2D has no BORDER_WRAP).
std::optional<int> cvBorder(BorderMode mode);

/// Why cv::filter2D cannot compute exactly this filter (wrap border, non-zero constant border value), or
/// nullopt when it can.
std::optional<std::string> opencvUnsupportedReason(const FilterSet& filter);

/// The per-channel kernels as CV_32F matrices with the divisor folded in (matrix / divisor).
std::array<cv::Mat, kChannels> channelKernels(const FilterSet& filter);

/// What ConvoLab computes, done by OpenCV: split, one cv::filter2D per channel (its kernel, delta = offset,
/// the filter's border), merge. `kernels` from channelKernels(). Mat runs on the CPU, UMat through OpenCV's
/// OpenCL (when enabled).
void filter2DPerChannel(const cv::Mat& src, cv::Mat& dst, const FilterSet& filter,
                        const std::array<cv::Mat, kChannels>& kernels);
void filter2DPerChannel(const cv::UMat& src, cv::UMat& dst, const FilterSet& filter,
                        const std::array<cv::Mat, kChannels>& kernels);

/// One cv::filter2D on the 3-channel image with channel 0's kernel and offset (exact only when all channels
/// are identical; a speed comparison otherwise).
void filter2DSingle(cv::InputArray src, cv::OutputArray dst, const FilterSet& filter,
                    const std::array<cv::Mat, kChannels>& kernels);

}  // namespace convolab::opencv
