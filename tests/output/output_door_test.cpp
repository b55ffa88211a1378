// SPDX-License-Identifier: MIT
// The one door for frames out (output::OutputDoor): every sink gets the frames that may leave, on the
// pushing thread, and reports its figures through it.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "output/output_door.hpp"

namespace convolab::output {
namespace {

// A recording test double: keeps every frame it was given.
class RecordingSink : public OutputSink {
 public:
  explicit RecordingSink(std::string key = "test") : m_key(std::move(key)) {}
  void push(const OutputFrame& frame) override { frames.push_back(frame); }
  std::vector<SinkFigures> figures() const override {
    SinkFigures f;
    f.key = m_key;
    f.values = {{"frames", static_cast<std::uint64_t>(frames.size())}};
    return {f};
  }
  std::vector<OutputFrame> frames;

 private:
  std::string m_key;
};

OutputFrame filteredFrame(std::uint64_t revision) {
  OutputFrame f;
  f.image = std::make_shared<const Image>(4, 2);
  f.filterRevision = revision;
  return f;
}

TEST(OutputDoorTest, EverySinkGetsEachFrameUntilRemoved) {
  OutputDoor door;
  auto a = std::make_shared<RecordingSink>("a"), b = std::make_shared<RecordingSink>("b");
  door.add(a);
  door.add(b);
  EXPECT_TRUE(door.push(filteredFrame(1)));
  door.remove(a);
  EXPECT_TRUE(door.push(filteredFrame(1)));
  EXPECT_EQ(a->frames.size(), 1u);
  EXPECT_EQ(b->frames.size(), 2u);
  const auto figures = door.figures();
  ASSERT_EQ(figures.size(), 1u);
  EXPECT_EQ(figures[0].key, "b");
  ASSERT_NE(findFigures(figures, "b"), nullptr);
  EXPECT_EQ(findFigures(figures, "a"), nullptr);
}

TEST(OutputDoorTest, ASinkAddedLaterIsPrimedWithTheLastFrameWhenItAsks) {
  OutputDoor door;
  const OutputFrame frame = filteredFrame(3);
  door.push(frame);
  auto primed = std::make_shared<RecordingSink>(), plain = std::make_shared<RecordingSink>();
  door.add(primed, true);
  door.add(plain);
  ASSERT_EQ(primed->frames.size(), 1u);
  EXPECT_EQ(primed->frames[0].image, frame.image);
  EXPECT_TRUE(plain->frames.empty());
  door.forgetLast();
  EXPECT_FALSE(door.lastLeft().has_value());
}

// Issue 34.1: only a frame computed with the filter the user set leaves; nothing is sent in place of the
// others, so nothing leaves before the first filtered frame.
TEST(OutputDoorTest, OnlyFramesComputedWithTheSetFilterLeave) {
  OutputDoor door;
  auto sink = std::make_shared<RecordingSink>();
  door.add(sink, true);
  const auto refused = [&](auto change) {
    OutputFrame f = filteredFrame(2);
    change(f);
    return !OutputDoor::mayLeave(f) && !door.push(f);
  };
  EXPECT_TRUE(refused([](OutputFrame& f) { f.bypassed = true; }));
  EXPECT_TRUE(refused([](OutputFrame& f) { f.unfiltered = true; }));
  EXPECT_TRUE(refused([](OutputFrame& f) { f.stale = true; }));
  EXPECT_TRUE(refused([](OutputFrame& f) { f.failed = true; }));
  EXPECT_TRUE(refused([](OutputFrame& f) { f.filterRevision = 0; }));  // no filter at all
  EXPECT_TRUE(refused([](OutputFrame& f) { f.image.reset(); }));
  EXPECT_TRUE(sink->frames.empty());  // nothing before the first filtered frame
  EXPECT_FALSE(door.lastLeft().has_value());
  EXPECT_TRUE(door.push(filteredFrame(2)));
  EXPECT_TRUE(refused([](OutputFrame& f) { f.bypassed = true; }));
  ASSERT_EQ(sink->frames.size(), 1u);  // the filtered one only
  EXPECT_EQ(door.lastLeft()->filterRevision, 2u);
}

}  // namespace
}  // namespace convolab::output
