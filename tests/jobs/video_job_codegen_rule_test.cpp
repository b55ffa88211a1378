// SPDX-License-Identifier: MIT
// auto in a video job without a stored choice: a CPU device starts a job long enough to repay codegen's build
// on codegen (codegenBuildRepays), shorter jobs, small filters and GPUs start on auto's provisional dynamic.
#include <gtest/gtest.h>

#include <filesystem>
#include <opencv2/core.hpp>

#include "capture/mjpeg_avi_writer.hpp"
#include "convolab/auto_choices.hpp"
#include "jobs/video_device_stage.hpp"
#include "jobs/video_job.hpp"
#include "scratch_folder_test.hpp"

namespace convolab::jobs {
namespace {

TEST(CodegenBuildRepays, OnACpuDeviceFromEnoughPixelsOfAFilterOfKFiveOrMore) {
  DeviceInfo cpu, gpu;
  gpu.isGpu = true;
  const cv::Size hd(1920, 1080);
  EXPECT_TRUE(codegenBuildRepays(cpu, 120, hd, 7)) << "the benchmark's job: 249 M pixels";
  EXPECT_TRUE(codegenBuildRepays(cpu, 73, hd, 5));
  EXPECT_FALSE(codegenBuildRepays(cpu, 72, hd, 7)) << "149 M pixels: the build does not repay";
  EXPECT_FALSE(codegenBuildRepays(cpu, 120, hd, 3)) << "a 3x3 keeps dynamic";
  EXPECT_FALSE(codegenBuildRepays(gpu, 100000, hd, 7)) << "a GPU measures instead";
  EXPECT_FALSE(codegenBuildRepays(cpu, 0, hd, 7)) << "an unknown length";
  EXPECT_FALSE(codegenBuildRepays(cpu, -1, hd, 7));
}

class VideoJobCodegenRule : public test::ScratchFolderTest {};

TEST_F(VideoJobCodegenRule, ALongEnoughJobUnderAutoStartsOnCodegenAndSaysWhy) {
  const cv::Size hd(1920, 1080);
  const auto clip = m_dir / "in.avi";
  {
    capture::MjpegAviWriter w;
    ASSERT_TRUE(w.open(clip, 30, hd));
    cv::Mat frame(hd, CV_8UC3);
    cv::RNG rng(3);
    for (int i = 0; i < 73; ++i) {  // 151 M pixels
      rng.fill(frame, cv::RNG::UNIFORM, 0, 256);
      w.write(frame);
    }
  }
  ChannelFilter f = ChannelFilter::identity(7);
  for (std::size_t i = 0; i < f.matrix.size(); ++i) f.matrix[i] = static_cast<double>(1 + i % 5);
  f.divisor = 145;  // the sum
  VideoJobOptions o;
  o.input = clip;
  o.output = m_dir / "out.avi";
  o.chain = FilterSet::make({f, f, f});
  o.strategy = "auto";
  o.context = std::make_shared<Context>(std::string());
  std::vector<std::string> notes;
  o.note = [&notes](const std::string& n) { notes.push_back(n); };
  if (o.context->device().isGpu) GTEST_SKIP() << "the rule is for CPU devices";
  const FilterSet bgr = o.chain.singleFilter().value();
  if (AutoChoiceCache::instance().find(o.context->programCache(), autoChoiceKey(*o.context, bgr, 1920, 1080)))
    GTEST_SKIP() << "a stored choice for this structure runs instead";
  const VideoJobResult r = runVideoJob(o);
  EXPECT_EQ(r.frames, 73);
  EXPECT_EQ(r.strategy, "auto:codegen");
  bool said = false;
  for (const std::string& n : notes)
    said = said || n.find("codegen from the first frame") != std::string::npos;
  EXPECT_TRUE(said) << "the job says why it runs codegen";
}

}  // namespace
}  // namespace convolab::jobs
