// SPDX-License-Identifier: MIT
// Chains in the video job (issue 30): every frame of an odd-sized clip through a 3-step chain (blur, Sobel
// magnitude, sharpen: integer weights and a power-of-two divisor, so exact) equals the CPU reference of the
// chain on the decoded frame, step by step and after auto's mid-run switch (measured per step and fused
// against step by step); a switched-off step is skipped; a one-step chain runs the one-filter path; a custom
// OpenCL step reads RGB and sees each frame's time.
#include <gtest/gtest.h>

#include <filesystem>
#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>
#include <string>
#include <vector>

#include "convolab/config.hpp"
#include "convolab/reference.hpp"
#include "cv/mat_adapter.hpp"
#include "jobs/video_job.hpp"
#include "odd_clip.hpp"
#include "scratch_folder_test.hpp"

namespace convolab::jobs {
namespace {

namespace fs = std::filesystem;

FilterSet square3(std::vector<double> m, double divisor = 1) {
  ChannelFilter c = ChannelFilter::identity(3);
  c.matrix = std::move(m);
  c.divisor = divisor;
  return FilterSet::make({c, c, c});
}

FilterSet blur() {
  return square3({1, 2, 1, 2, 4, 2, 1, 2, 1}, 16);
}
FilterSet sharpen() {
  return square3({0, -1, 0, -1, 5, -1, 0, -1, 0});
}
ChainStep sobelMagnitude() {
  return ChainStep::magnitude(square3({-1, 0, 1, -2, 0, 2, -1, 0, 1}),
                              square3({-1, -2, -1, 0, 0, 0, 1, 2, 1}));
}

/// Blur, then the Sobel magnitude, then sharpen.
FilterChain threeSteps() {
  return FilterChain::make({ChainStep::single(blur()), sobelMagnitude(), ChainStep::single(sharpen())},
                           "three");
}

class VideoJobChain : public test::ScratchFolderTest {
 protected:
  void SetUp() override {
    test::ScratchFolderTest::SetUp();
    m_config = coreConfig();
    CoreConfig c = m_config;  // as `apply` runs jobs: auto measures nothing by itself, the job decides
    c.autoMeasure = CoreConfig::AutoMeasure::Off;
    c.autoBudgetMs = 300;  // a step's measurement settles within about 0.3 s (it stops between candidates)
    setCoreConfig(c);
  }
  void TearDown() override {
    setCoreConfig(m_config);
    test::ScratchFolderTest::TearDown();
  }

  VideoJobOptions options(const FilterChain& chain, const std::string& strategy, const std::string& output) {
    VideoJobOptions o;
    o.input = kOddClip;
    o.output = m_dir / output;
    o.chain = chain;
    o.strategy = strategy;
    o.context = std::make_shared<Context>(std::string());
    o.note = [this](const std::string& n) { m_notes.push_back(n); };
    return o;
  }
  bool noted(const std::string& part) const {
    for (const std::string& n : m_notes)
      if (n.find(part) != std::string::npos) return true;
    return false;
  }
  std::string notes() const {
    std::string all;
    for (const std::string& n : m_notes) all += n + "\n";
    return all;
  }

  /// Each written frame (without the even-size padding) against `expected` of the decoded input frame, both
  /// in RGB; the largest difference over all frames.
  int maxDiffAgainst(const fs::path& output, const std::function<void(const Image&, Image&)>& expected) {
    cv::VideoCapture in(kOddClip.string(), cv::CAP_FFMPEG), out(output.string(), cv::CAP_FFMPEG);
    cv::Mat a, b;
    int frames = 0, worst = 0;
    while (in.read(a)) {
      EXPECT_TRUE(out.read(b)) << "frame " << frames;
      if (b.empty()) return 256;
      Image input, written, want(a.cols, a.rows);
      opencv::imageFromMat(a, input);
      opencv::imageFromMat(b(cv::Rect(0, 0, a.cols, a.rows)), written);
      expected(input, want);
      const int diff = static_cast<int>(cv::norm(opencv::asMat(written), opencv::asMat(want), cv::NORM_INF));
      EXPECT_EQ(diff, 0) << "frame " << frames;
      worst = std::max(worst, diff);
      ++frames;
    }
    EXPECT_EQ(frames, 4);
    EXPECT_FALSE(out.read(b)) << "the output has more frames";
    return worst;
  }
  int maxDiffAgainstReference(const fs::path& output, const FilterChain& chain) {
    return maxDiffAgainst(output, [&chain](const Image& in, Image& want) {
      referenceChain(in.view(), want.mutableView(), chain);
    });
  }

  CoreConfig m_config;
  std::vector<std::string> m_notes;
};

TEST_F(VideoJobChain, EveryFrameOfAThreeStepChainEqualsTheReferenceStepByStep) {
  const VideoJobResult r = runVideoJob(options(threeSteps(), "naive", "out.mkv"));
  ASSERT_FALSE(r.stopped);
  EXPECT_EQ(r.frames, 4);
  EXPECT_EQ(r.strategy, "naive (chain: 1 naive, 2 magnitude, 3 naive)");
  EXPECT_EQ(maxDiffAgainstReference(m_dir / "out.mkv", threeSteps()), 0);  // exact arithmetic: bit for bit
}

// Under auto the first frame runs step by step at once; the job measures each step's strategies and the fused
// launch against step by step on a queue of its own and switches between frames (here: before the second).
TEST_F(VideoJobChain, AutoSwitchesMidRunToTheMeasuredChainAndEveryFrameStaysExact) {
  VideoJobOptions o = options(threeSteps(), "auto", "out.mkv");
  o.measureAndWaitForTesting = true;
  const VideoJobResult r = runVideoJob(o);
  ASSERT_FALSE(r.stopped);
  EXPECT_EQ(r.frames, 4);
  EXPECT_TRUE(
      noted("auto: measuring the chain's strategies and fusion while the video runs on auto (chain: "))
      << notes();
  EXPECT_TRUE(noted("auto: the chain measured step by step ")) << notes();
  EXPECT_TRUE(noted(" from frame 2")) << "the test waits for the measurement before the second frame\n"
                                      << notes();
  EXPECT_TRUE(noted(", fused ")) << "the chain fuses on PoCL\n" << notes();
  EXPECT_EQ(r.strategy.rfind("auto (chain: 1 auto:", 0), 0u) << r.strategy;
  EXPECT_EQ(maxDiffAgainstReference(m_dir / "out.mkv", threeSteps()), 0);
}

TEST_F(VideoJobChain, ASwitchedOffStepIsSkipped) {
  ChannelFilter zero = ChannelFilter::identity(1);
  zero.matrix = {0.0};
  const FilterChain chain =
      FilterChain::make({ChainStep::single(blur()),
                         ChainStep::single(FilterSet::make({zero, zero, zero}), false), sobelMagnitude()});
  const VideoJobResult r = runVideoJob(options(chain, "naive", "out.mkv"));
  ASSERT_FALSE(r.stopped);
  EXPECT_EQ(r.strategy, "naive (chain: 1 naive, 2 magnitude)");
  EXPECT_EQ(maxDiffAgainstReference(m_dir / "out.mkv", chain), 0);
}

// A chain whose one switched-on step is a filter is that filter: the same frames and the same strategy text
// as the filter given alone (the one-filter path: FrameStream).
TEST_F(VideoJobChain, AOneStepChainRunsExactlyAsItsFilter) {
  const FilterChain chain =
      FilterChain::make({ChainStep::single(sharpen()), ChainStep::single(blur(), false)});
  const VideoJobResult one = runVideoJob(options(sharpen(), "naive", "filter.mkv"));
  const VideoJobResult viaChain = runVideoJob(options(chain, "naive", "chain.mkv"));
  EXPECT_EQ(one.strategy, "naive");
  EXPECT_EQ(viaChain.strategy, "naive");
  EXPECT_EQ(one.frames, 4);
  EXPECT_EQ(viaChain.frames, 4);

  cv::VideoCapture a((m_dir / "filter.mkv").string(), cv::CAP_FFMPEG);
  cv::VideoCapture b((m_dir / "chain.mkv").string(), cv::CAP_FFMPEG);
  ASSERT_TRUE(a.isOpened() && b.isOpened());
  cv::Mat fa, fb;
  int frames = 0;
  while (a.read(fa)) {
    ASSERT_TRUE(b.read(fb));
    EXPECT_EQ(cv::norm(fa, fb, cv::NORM_INF), 0) << "frame " << frames;
    ++frames;
  }
  EXPECT_EQ(frames, 4);
}

// The user's code reads RGB (the job converts the BGR frames for it) and sees each frame's own time
// (0, 0.1, 0.2, 0.3 s): out = (R, 100 · time, 0).
TEST_F(VideoJobChain, ACustomStepReadsRgbAndSeesEachFramesTime) {
  const FilterChain chain = FilterChain::make({ChainStep::customCode(
      CustomKernel::make("float3 a = pixel(0, 0);\nreturn (float3)(a.x, 100.0f * time, 0.0f);"))});
  const VideoJobResult r = runVideoJob(options(chain, "naive", "out.mkv"));
  ASSERT_FALSE(r.stopped);
  int frame = 0;
  EXPECT_EQ(maxDiffAgainst(m_dir / "out.mkv",
                           [&frame](const Image& in, Image& want) {
                             cv::Mat w = opencv::asMat(want);
                             w.setTo(cv::Scalar(0, 10.0 * frame, 0));  // RGB order
                             cv::Mat red;
                             cv::extractChannel(opencv::asMat(in), red, 0);
                             cv::insertChannel(red, w, 0);
                             ++frame;
                           }),
            0);
}

}  // namespace
}  // namespace convolab::jobs
