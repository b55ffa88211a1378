// SPDX-License-Identifier: MIT
// The one newest-wins hand-over (output::LatestValue): what the capture slot, the filter mailbox and the
// virtual camera's sinks are built on.
#include <gtest/gtest.h>

#include <memory>

#include "convolab/image.hpp"
#include "output/latest_value.hpp"

namespace convolab::output {
namespace {

TEST(LatestValueTest, AValueNotTakenBeforeTheNextIsCountedAsReplaced) {
  LatestValue<std::shared_ptr<const Image>> handover;
  auto a = std::make_shared<const Image>(2, 2), b = std::make_shared<const Image>(2, 2);
  EXPECT_FALSE(handover.put(a).has_value());
  const auto replaced = handover.put(b);  // a was never taken
  ASSERT_TRUE(replaced.has_value());
  EXPECT_EQ(*replaced, a);
  EXPECT_EQ(handover.take(), b);
  EXPECT_FALSE(handover.take().has_value());  // taken once only
  EXPECT_EQ(handover.peek(), b);              // still the newest
  EXPECT_FALSE(handover.put(a).has_value());  // b was taken: nothing lost
  EXPECT_EQ(handover.putCount(), 3u);
  EXPECT_EQ(handover.replacedCount(), 1u);
}

TEST(LatestValueTest, OfferAgainAndTakeAway) {
  LatestValue<int> v;
  EXPECT_FALSE(v.offerAgain());  // nothing to offer
  v.put(7);
  EXPECT_EQ(v.take(), 7);
  EXPECT_TRUE(v.offerAgain());  // a consumer that came later gets it again
  EXPECT_EQ(v.take(), 7);
  v.put(8);
  EXPECT_EQ(v.takeAway(), 8);
  EXPECT_FALSE(v.peek().has_value());  // nothing kept
  v.put(9);
  v.clear();
  EXPECT_FALSE(v.take().has_value());
}

}  // namespace
}  // namespace convolab::output
