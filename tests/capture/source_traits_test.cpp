// SPDX-License-Identifier: MIT
// What each source says it can do, through the factory that maps a spec to a source: the GUI and the capture
// thread act on these answers alone, so each source's answers are pinned here.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

#include "capture/image_file_source.hpp"
#include "capture/source_spec.hpp"
#include "cv_test_support.hpp"

namespace convolab::capture {
namespace {

using opencv::test::ScratchDir;

/// The answers of one source, compared as a whole so a failure shows all of them.
struct Answers {
  std::string kindName;
  bool waitsForDevice, isFile, hasModes, selfPaced, canStep, canReconnect;
  std::string rememberedSpec;
  bool operator==(const Answers&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Answers& a) {
  return os << a.kindName << " waits=" << a.waitsForDevice << " file=" << a.isFile << " modes=" << a.hasModes
            << " selfPaced=" << a.selfPaced << " step=" << a.canStep << " reconnect=" << a.canReconnect
            << " remembered='" << a.rememberedSpec << "'";
}

Answers answersOf(const FrameSource& source) {
  const SourceTraits t = source.traits();
  return {t.kindName,
          t.waitsForDevice,
          t.isFile,
          static_cast<bool>(t.listModes),
          source.selfPaced(),
          source.canStep(),
          source.canReconnect(),
          t.rememberedSpec};
}

TEST(SourceTraits, TestPattern) {
  EXPECT_EQ(answersOf(*createSource("pattern:32x32@30")),
            (Answers{"Test pattern", false, false, false, false, true, true, ""}));
}

TEST(SourceTraits, CameraByIndexOrPath) {
  // /dev/video63 is not there: the source is still made (the capture thread waits for the device).
  for (const char* spec : {"63", "/dev/video63"}) {
    auto camera = createSource(spec);
    EXPECT_EQ(answersOf(*camera), (Answers{"Camera", true, false, true, true, true, true, "/dev/video63"}))
        << spec;
    EXPECT_TRUE(camera->traits().listModes().empty());  // no device, no modes; asking does not throw
    EXPECT_THROW(camera->open(), SourceAbsent);
  }
}

TEST(SourceTraits, ImageFile) {
  ScratchDir dir;
  const auto path = dir / "still.png";
  ASSERT_TRUE(cv::imwrite(path.string(), cv::Mat(3, 4, CV_8UC3, cv::Scalar::all(9))));
  auto image = createSource(path.string());
  EXPECT_EQ(answersOf(*image), (Answers{"Image", false, true, false, false, true, false, ""}));
  EXPECT_EQ(image->loadingDetail(), "4×3 (0.0 MP)");
  // The same kind from memory (the GUI's bundled sample) reads no file, so it is not a recent file.
  EXPECT_FALSE(ImageFileSource(Image(2, 2), "sample").traits().isFile);
}

TEST(SourceTraits, VideoFile) {
  ScratchDir dir;
  const auto path = dir / "clip.avi";
  {
    cv::VideoWriter writer(path.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 5.0, cv::Size(16, 16));
    for (int i = 0; i < 3; ++i) writer.write(cv::Mat(16, 16, CV_8UC3, cv::Scalar::all(i)));
  }
  auto video = createSource(path.string());
  EXPECT_EQ(answersOf(*video), (Answers{"Video", false, true, false, false, true, false, ""}));
  EXPECT_EQ(video->frameCount(), 0);  // known once open
  video->open();
  EXPECT_EQ(video->frameCount(), 3);
}

TEST(SourceSpec, NamesFileIsFalseForDevicesAndPatterns) {
  for (const char* spec : {"0", "12", "/dev/video0", "/dev/v4l/by-id/usb-cam", "pattern", "pattern:32x32@30"})
    EXPECT_FALSE(namesFile(spec)) << spec;
  for (const char* spec : {"clip.mp4", "/home/me/patterns.png", "patterns.png", "1234"})
    EXPECT_TRUE(namesFile(spec)) << spec;
}

TEST(SourceSpec, RefusesWhatCannotBeASource) {
  ScratchDir dir;
  EXPECT_THROW(createSource((dir / "absent.mp4").string()), SourceError);
  EXPECT_THROW(createSource((dir / "").string()), SourceError);  // a folder
  EXPECT_THROW(createSource("/dev/zero"), SourceError);  // a device that is not a camera: never opened
  EXPECT_THROW(createSource("pattern:20000x20000", 100'000'000), SourceError);
}

TEST(SourceSpec, SummaryNamesEveryKindOfSpec) {
  const std::string summary = sourceSpecSummary();
  for (const char* part :
       {"camera index", "/dev/video0", "pipewire:NODE_NAME", "image or video file", "pattern[:WxH]"})
    EXPECT_NE(summary.find(part), std::string::npos) << part;
}

}  // namespace
}  // namespace convolab::capture
