// SPDX-License-Identifier: MIT
#include "chain_test_support.hpp"

#include <QSettings>

#include "app_test_support.hpp"
#include "convolab/reference.hpp"
#include "processing/pipeline.hpp"

namespace convolab::test {

ChainStep step3x3(const std::string& name, std::vector<double> m, double divisor) {
  return ChainStep::single(
      FilterSet::uniform(ChannelFilter{3, std::move(m), divisor, 0}, BorderMode::Reflect101, name));
}

ChainStep blur(const std::string& name) {
  return step3x3(name, {1, 2, 1, 2, 4, 2, 1, 2, 1}, 16);
}

ChainStep sharpen(const std::string& name) {
  return step3x3(name, {0, -1, 0, -1, 5, -1, 0, -1, 0});
}

std::unique_ptr<gui::MainWindow> openChainWindow(bool forget) {
  if (forget) {
    QSettings().remove(QStringLiteral("chain"));
    QSettings().remove(QStringLiteral("custom"));
  }
  auto window = std::make_unique<gui::MainWindow>(launchOptions(QStringLiteral("pattern:96x64@30")));
  window->show();
  return window;
}

bool waitForChain(gui::MainWindow& window, const FilterChain& chain, int change) {
  return waitForFrameWhere(
             window,
             [&](const gui::ProcessedFrame& f) {
               if (!f.record.hasTimings || f.record.stale ||
                   f.record.filterRevision != window.pipeline()->filterRevision())
                 return false;
               Image expected(f.original->width, f.original->height);
               referenceChain(f.original->view(), expected.mutableView(), chain);
               return maxAbsDiff(*f.filtered, expected) <= 1 && maxAbsDiff(*f.filtered, *f.original) > change;
             },
             60000) != nullptr;
}

}  // namespace convolab::test
