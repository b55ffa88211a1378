// SPDX-License-Identifier: MIT
// log_categories.cpp — the app's Qt logging categories, and the core's log routed into them.
#include "log_categories.hpp"

#include <QString>
#include <string_view>

#include "convolab/log.hpp"

namespace convolab::gui {

Q_LOGGING_CATEGORY(lcCore, "convolab.core", QtInfoMsg)
Q_LOGGING_CATEGORY(lcApp, "convolab.app", QtInfoMsg)

void routeCoreLogToQt() {
  // The core's own default printed Debug lines only with CONVOLAB_VERBOSE: keep that switch working.
  if (!qEnvironmentVariableIsEmpty("CONVOLAB_VERBOSE"))
    QLoggingCategory::setFilterRules(QStringLiteral("convolab.core.debug=true"));
  setLogSink([](LogLevel level, std::string_view message) {
    const QString text = QString::fromUtf8(message.data(), static_cast<qsizetype>(message.size()));
    switch (level) {
      case LogLevel::Debug:
        qCDebug(lcCore).noquote() << text;
        break;
      case LogLevel::Note:
        qCInfo(lcCore).noquote() << text;
        break;
      case LogLevel::Warning:
        qCWarning(lcCore).noquote() << text;
        break;
    }
  });
}

}  // namespace convolab::gui
