// Settings through QSettings (organisation and application names come from QCoreApplication).
#include "app_settings.hpp"

namespace convolab::gui {

AppSettings::AppSettings() = default;

void AppSettings::set(const QString& key, const QVariant& value) {
  if (m_readOnly || m_settings.value(key) == value) return;
  m_settings.setValue(key, value);
  m_settings.sync();  // written on change, not only on exit: survives a crash
}

}  // namespace convolab::gui
