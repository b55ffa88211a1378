// SPDX-License-Identifier: MIT
// The still-image codec: header-first size limits, single-buffer decoding, messages naming the file, and one
// encoder whose PNG is OpenCV's default encoding (what the CLI and the app both write).
#include "cv/image_codec.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <thread>
#include <vector>

#include "cv/image_header.hpp"
#include "cv/mat_adapter.hpp"
#include "cv_test_support.hpp"
#include "image_difference.hpp"

namespace convolab::opencv {
namespace {

using convolab::test::maxAbsDiff;  // tests/support

std::string_view asBytes(const std::vector<uchar>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size()};
}

Image randomImage(int w, int h) {
  cv::Mat bgr(h, w, CV_8UC3);
  cv::randu(bgr, 0, 255);
  Image image;
  imageFromMat(bgr, image);
  return image;
}

TEST(ImageCodec, RefusesAnImageOverTheLimitFromItsHeader) {
  const test::ScratchDir dir;
  test::writeBytes(dir / "huge.png", test::hugeHeaderPng(30000, 30000));
  try {
    loadImage(dir / "huge.png");
    FAIL() << "a 900 MP image was accepted";
  } catch (const ImageTooLarge& e) {
    EXPECT_TRUE(e.fromHeader());
    EXPECT_EQ(e.width(), 30000);
    EXPECT_EQ(e.height(), 30000);
    EXPECT_EQ(e.maxPixels(), kDefaultMaxPixels);
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_STREQ(e.what(), "huge.png is 30000×30000 (900 MP), above the limit of 100 MP");
  }
  // A GIF (which this OpenCV cannot decode at all) is refused from its header too, and the label is the
  // caller's.
  try {
    decodeImage(test::gifHeader(20000, 20000), "image 'big.gif'");
    FAIL() << "a 400 MP GIF was not refused from its header";
  } catch (const ImageTooLarge& e) {
    EXPECT_TRUE(e.fromHeader());
    EXPECT_NE(std::string(e.what()).find("image 'big.gif' is 20000×20000"), std::string::npos) << e.what();
  }
}

TEST(ImageCodec, LimitCountsPixelsInclusively) {
  std::vector<uchar> bytes;
  ASSERT_TRUE(cv::imencode(".png", cv::Mat(40, 50, CV_8UC3, cv::Scalar::all(7)), bytes));
  EXPECT_NO_THROW(decodeImage(asBytes(bytes), "ok.png", 2000));
  EXPECT_THROW(decodeImage(asBytes(bytes), "small-limit.png", 1999), ImageTooLarge);
}

TEST(ImageCodec, FormatsWithoutAKnownHeaderAreCheckedAfterDecoding) {
  std::vector<uchar> bytes;  // Sun raster: OpenCV reads and writes it, readImageHeader does not know it
  ASSERT_TRUE(cv::imencode(".ras", cv::Mat(40, 50, CV_8UC3, cv::Scalar::all(7)), bytes));
  ASSERT_FALSE(readImageHeaderBytes(asBytes(bytes)).has_value());
  EXPECT_EQ(decodeImage(asBytes(bytes), "ok.ras", 2000).width, 50);
  try {
    decodeImage(asBytes(bytes), "small-limit.ras", 1999);
    FAIL() << "over the limit after decoding, yet accepted";
  } catch (const ImageTooLarge& e) {
    EXPECT_FALSE(e.fromHeader());
    EXPECT_EQ(e.width(), 50);
  }
}

TEST(ImageCodec, MissingEmptyAndCorruptFilesAreBadInputNamingTheLabel) {
  const test::ScratchDir dir;
  test::writeBytes(dir / "empty.png", "");
  test::writeBytes(dir / "notes.png", "these are my notes, not a picture\n");
  for (const char* name : {"missing.png", "empty.png", "notes.png"}) {
    try {
      loadImage(dir / name);
      FAIL() << name << " was decoded";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::BadInput);
      EXPECT_EQ(std::string(e.what()).rfind(std::string(name) + ": ", 0), 0u) << e.what();
    }
  }
  EXPECT_THROW(loadImage(dir / "missing.png", kDefaultMaxPixels, "image 'x'"), Error);
}

// A FIFO put in the file's place between loadImage's type check and its read never blocks the read: each load
// ends with the image or an error, whenever the swap comes. (A plain open blocks on a FIFO until a writer
// comes; here a load that stalls is released by opening the FIFO for writing, and the test fails.)
/// Runs `read` on a path that a FIFO and a PNG of 16×12 are swapped over for up to 2 s; fails when a read
/// blocks. `read` returns true when it got the image.
void expectReadsNeverBlockOnASwappedFifo(const std::function<bool(const std::filesystem::path&)>& read) {
  const test::ScratchDir dir;
  std::vector<uchar> png;
  ASSERT_TRUE(cv::imencode(".png", cv::Mat(12, 16, CV_8UC3, cv::Scalar::all(9)), png));
  test::writeBytes(dir / "image", std::string(png.begin(), png.end()));
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0600), 0);
  const auto target = dir / "in.png";
  std::atomic<bool> stop{false}, loaderDone{false};
  std::atomic<int> loads{0}, images{0};
  // Hard links renamed over the target: it is always there, the image or the FIFO, swapping all the time.
  std::thread swapper([&] {
    while (!stop) {
      ::link((dir / "image").c_str(), (dir / "image.next").c_str());
      std::rename((dir / "image.next").c_str(), target.c_str());
      ::link((dir / "fifo").c_str(), (dir / "fifo.next").c_str());
      std::rename((dir / "fifo.next").c_str(), target.c_str());
    }
  });
  std::thread loader([&] {
    while (!stop) {
      try {
        images += read(target);
      } catch (const Error&) {
      }
      ++loads;
    }
    loaderDone = true;
  });
  // Up to 2 s of loads; a loader that stops making progress is blocked (a load takes microseconds).
  using Clock = std::chrono::steady_clock;
  int seen = -1;
  auto lastProgress = Clock::now();
  for (const auto end = lastProgress + std::chrono::seconds(2); Clock::now() < end;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (const int n = loads; n != seen) {
      seen = n;
      lastProgress = Clock::now();
    } else if (Clock::now() - lastProgress > std::chrono::milliseconds(300)) {
      break;
    }
  }
  stop = true;
  swapper.join();
  // A load that is not blocked ends at once when the loop stops.
  for (const auto deadline = Clock::now() + std::chrono::seconds(2); !loaderDone && Clock::now() < deadline;)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const bool stalled = !loaderDone;
  // Release a load blocked in an open: a writer that opens and closes the FIFO lets it read end-of-file.
  while (!loaderDone) {
    const int fd = ::open((dir / "fifo").c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  loader.join();
  EXPECT_FALSE(stalled) << "a load blocked on the FIFO after " << loads << " loads";
  EXPECT_GT(loads.load(), 0);
  ::testing::Test::RecordProperty("loads", loads.load());
  ::testing::Test::RecordProperty("images", images.load());
}

TEST(ImageCodec, AFifoSwappedInForTheFileNeverBlocksTheLoad) {
  expectReadsNeverBlockOnASwappedFifo([](const auto& path) { return loadImage(path).width == 16; });
}

// The app's loading detail reads the header before decoding: the same swap must not block it either.
TEST(ImageHeader, AFifoSwappedInForTheFileNeverBlocksTheHeaderRead) {
  expectReadsNeverBlockOnASwappedFifo([](const auto& path) {
    const auto header = readImageHeader(path);
    return header && header->width == 16;
  });
}

// 13.4: decoding straight into the Image (no extra full-size copy) gives the same pixels as cv::imdecode.
TEST(ImageCodec, SingleBufferDecodeMatchesOpenCv) {
  for (const char* ext : {".png", ".bmp", ".jpg"}) {
    cv::Mat bgr(31, 45, CV_8UC3);
    cv::randu(bgr, 0, 255);
    std::vector<uchar> bytes;
    ASSERT_TRUE(cv::imencode(ext, bgr, bytes));
    const Image image = decodeImage(asBytes(bytes), "x");
    Image reference;
    imageFromMat(cv::imdecode(bytes, cv::IMREAD_COLOR), reference);
    EXPECT_EQ(maxAbsDiff(image, reference), 0) << ext;
  }
}

// The one encoder: PNG with OpenCV's default parameters, so equal pixels give equal bytes whoever writes them
// (convolab-cli apply by extension, the app's Save Frame by format); lossless formats round-trip.
TEST(ImageCodec, PngIsOpenCvsDefaultEncodingAndRoundTrips) {
  const Image image = randomImage(45, 31);
  std::vector<uchar> direct;
  ASSERT_TRUE(cv::imencode(".png", bgrFromImage(image), direct));
  const std::string png = encodeImage(image, ImageFormat::Png);
  EXPECT_EQ(png, std::string(direct.begin(), direct.end()));
  EXPECT_EQ(encodeImage(image, ".png"), png);
  for (ImageFormat f : {ImageFormat::Png, ImageFormat::Bmp, ImageFormat::Tiff})
    EXPECT_EQ(maxAbsDiff(decodeImage(encodeImage(image, f), "round trip"), image), 0);
  std::vector<uchar> jpeg;
  ASSERT_TRUE(cv::imencode(".jpg", bgrFromImage(image), jpeg, {cv::IMWRITE_JPEG_QUALITY, 50}));
  EXPECT_EQ(encodeImage(image, ImageFormat::Jpeg, 50), std::string(jpeg.begin(), jpeg.end()));
  EXPECT_THROW(encodeImage(image, ".txt"), Error);
}

TEST(ImageCodec, FormatsByExtension) {
  EXPECT_EQ(imageFormatForPath("a.JPEG"), ImageFormat::Jpeg);
  EXPECT_EQ(imageFormatForPath("a.tif"), ImageFormat::Tiff);
  EXPECT_EQ(imageFormatForPath("a.bmp"), ImageFormat::Bmp);
  EXPECT_EQ(imageFormatForPath("a.unknown"), ImageFormat::Png);
  EXPECT_TRUE(isImageFileName("photo.WebP"));
  EXPECT_FALSE(isImageFileName("clip.mp4"));
  EXPECT_TRUE(canWriteImageFormat("out.png"));
  EXPECT_TRUE(canWriteImageFormat("out.jpg"));
  EXPECT_FALSE(canWriteImageFormat("out.txt"));
  EXPECT_FALSE(canWriteImageFormat("out"));
}

TEST(ImageCodec, SaveImageWritesAtomicallyAndKeepsAnExistingFileWithoutOverwrite) {
  const test::ScratchDir dir;
  const Image image = randomImage(8, 6);
  saveImage(dir / "a.png", image, false);
  EXPECT_EQ(maxAbsDiff(loadImage(dir / "a.png"), image), 0);
  EXPECT_THROW(saveImage(dir / "a.png", randomImage(8, 6), false), Error);
  EXPECT_EQ(maxAbsDiff(loadImage(dir / "a.png"), image), 0);
}

/// A baseline JPEG of random pixels (every row costs about the same bytes), `height` rows.
std::string randomJpeg(int height) {
  std::vector<uchar> bytes;
  EXPECT_TRUE(cv::imencode(".jpg", bgrFromImage(randomImage(320, height)), bytes));
  return std::string(bytes.begin(), bytes.end());
}

// OpenCV decodes a truncated JPEG "successfully", the missing rows grey; the report says how much is real.
TEST(ImageCodec, ATruncatedJpegIsReportedDamagedWithTheRowsDecoded) {
  const std::string whole = randomJpeg(240);
  DecodeReport report;
  decodeImage(whole, "whole.jpg", kDefaultMaxPixels, &report);
  EXPECT_FALSE(report.damaged) << report.damageMessage();
  EXPECT_EQ(report.damageMessage(), "");

  const std::string cut = whole.substr(0, whole.size() * 4 / 10);
  const Image image = decodeImage(cut, "cut.jpg", kDefaultMaxPixels, &report);
  EXPECT_EQ(image.height, 240);  // still decoded, as far as it goes
  ASSERT_TRUE(report.damaged);
  EXPECT_EQ(report.rows, 240);
  EXPECT_GT(report.rowsDecoded, 240 * 2 / 10);
  EXPECT_LT(report.rowsDecoded, 240 * 6 / 10);
  const std::string message = report.damageMessage();
  EXPECT_EQ(
      message.rfind("image is damaged: " + std::to_string(report.rowsDecoded) + " of 240 rows decoded", 0),
      0u)
      << message;
}

// Issue 34.8: a JPEG corrupted in the middle, not truncated. libjpeg decodes garbage from the damage on and
// says so only once the rows are out ("N extraneous bytes before marker 0xd9"), or as it resynchronises:
// every warning counts, before the last row or after it. Several places and lengths of damage, each reported.
TEST(ImageCodec, AJpegCorruptedInTheMiddleIsReportedDamaged) {
  cv::theRNG().state = 34;  // the same photo whatever ran before (a 1-byte flip can keep the decoder in step)
  const std::string whole = randomJpeg(427);
  const std::size_t sos = whole.find("\xFF\xDA", 2);
  ASSERT_NE(sos, std::string::npos);
  const std::size_t data =
      sos + 2 +
      ((static_cast<unsigned char>(whole[sos + 2]) << 8) | static_cast<unsigned char>(whole[sos + 3]));
  int reported = 0, cases = 0;
  for (const double where : {0.3, 0.5, 0.7})
    for (const std::size_t length : {std::size_t{8}, std::size_t{64}}) {
      std::string bytes = whole;
      const std::size_t at = data + static_cast<std::size_t>((whole.size() - 2 - data) * where);
      for (std::size_t i = 0; i < length; ++i) bytes[at + i] = static_cast<char>(0x5A ^ (i * 37));
      DecodeReport report;
      const Image image = decodeImage(bytes, "middle.jpg", kDefaultMaxPixels, &report);
      EXPECT_EQ(image.height, 427);
      ++cases;
      reported += report.damaged;
      EXPECT_TRUE(report.damaged) << "damage at " << where << ", " << length << " bytes";
      if (report.damaged) EXPECT_NE(report.damageMessage().find("damaged"), std::string::npos);
    }
  EXPECT_EQ(reported, cases);
}

// The class for the other formats read: a file cut short is refused or reported damaged, never taken as
// whole (PNG is refused for any CRC or filter error as well). Formats with no check of their pixel data (BMP,
// PPM, uncompressed TIFF, Sun raster, PFM, Radiance, lossy WebP, JPEG 2000) cannot tell flipped pixel bytes
// from real ones: no decoder warns, so nothing can (docs/RELIABILITY.md).
TEST(ImageCodec, EveryFormatCutShortIsRefusedOrReportedDamaged) {
  const cv::Mat bgr = bgrFromImage(randomImage(64, 48));
  for (const char* ext : {".png", ".bmp", ".ppm", ".tif", ".webp", ".jpg", ".ras", ".sr", ".hdr", ".pfm"}) {
    std::vector<uchar> encoded;
    ASSERT_TRUE(cv::imencode(ext, ext == std::string(".pfm") || ext == std::string(".hdr") ? [&] {
      cv::Mat f;
      bgr.convertTo(f, CV_32FC3, 1 / 255.0);
      return f;
    }()
                                                                                           : bgr,
                             encoded))
        << ext;
    const std::string cut(encoded.begin(), encoded.begin() + static_cast<long>(encoded.size() * 6 / 10));
    DecodeReport report;
    try {
      decodeImage(cut, std::string("cut") + ext, kDefaultMaxPixels, &report);
      EXPECT_TRUE(report.damaged) << ext << " cut to 60 % was taken as whole";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::BadInput) << ext;
    }
  }
}

// A header that claims more than the data holds (9000×9000 in the issue; here 2000×2000 over 320×240 of
// data).
TEST(ImageCodec, AJpegWhoseHeaderClaimsMoreThanItsDataIsDamaged) {
  std::string bytes = randomJpeg(240);
  const std::size_t sof = bytes.find("\xFF\xC0", 2);
  ASSERT_NE(sof, std::string::npos);
  for (std::size_t at : {sof + 5, sof + 7}) {  // height, then width: big-endian 2000
    bytes[at] = static_cast<char>(2000 >> 8);
    bytes[at + 1] = static_cast<char>(2000 & 0xFF);
  }
  DecodeReport report;
  const Image image = decodeImage(bytes, "claims.jpg", kDefaultMaxPixels, &report);
  EXPECT_EQ(image.width, 2000);
  ASSERT_TRUE(report.damaged);
  EXPECT_EQ(report.rows, 2000);
  EXPECT_LT(report.rowsDecoded, 2000);
  // loadImage reports the same.
  const test::ScratchDir dir;
  test::writeBytes(dir / "claims.jpg", bytes);
  DecodeReport fromFile;
  loadImage(dir / "claims.jpg", kDefaultMaxPixels, {}, &fromFile);
  EXPECT_TRUE(fromFile.damaged);
  EXPECT_EQ(fromFile.rowsDecoded, report.rowsDecoded);
}

// Decoding to RGB drops an alpha channel: the report says so (PNG RGBA; not plain RGB).
TEST(ImageCodec, ADroppedAlphaChannelIsReported) {
  const cv::Mat bgra(6, 8, CV_8UC4, cv::Scalar(10, 20, 30, 128));
  std::vector<uchar> rgba, rgb;
  ASSERT_TRUE(cv::imencode(".png", bgra, rgba));
  ASSERT_TRUE(cv::imencode(".png", bgrFromImage(randomImage(8, 6)), rgb));
  DecodeReport report;
  decodeImage(asBytes(rgba), "rgba.png", kDefaultMaxPixels, &report);
  EXPECT_TRUE(report.alphaDropped);
  EXPECT_FALSE(report.damaged);
  EXPECT_NE(report.alphaMessage(), "");
  decodeImage(asBytes(rgb), "rgb.png", kDefaultMaxPixels, &report);
  EXPECT_FALSE(report.alphaDropped);
  EXPECT_EQ(report.alphaMessage(), "");
}

}  // namespace
}  // namespace convolab::opencv
