// SPDX-License-Identifier: MIT
// Q_INIT_RESOURCE must run outside any namespace; this wraps it once for the app and the tests.
#include "resources.hpp"

#include <QtGlobal>

static void registerConvolabResources() {
  Q_INIT_RESOURCE(convolab);
  Q_INIT_RESOURCE(presets);
  Q_INIT_RESOURCE(help);
}

namespace convolab::gui {

void initResources() {
  static const bool once = (registerConvolabResources(), true);
  (void)once;
}

}  // namespace convolab::gui
