// SPDX-License-Identifier: MIT
// Per-source yes/no choices in the settings: read, written and validated.
#include "per_source_choice.hpp"

#include <QStringList>
#include <algorithm>

#include "app_settings.hpp"

namespace convolab::gui {

namespace {

constexpr QChar kTab = QLatin1Char('\t');

QString specOf(const QString& entry) {
  return entry.section(kTab, 0, 0);
}

}  // namespace

std::optional<bool> rememberedChoice(const AppSettings& settings, const QString& key, const QString& spec) {
  if (spec.isEmpty()) return std::nullopt;
  for (const QString& entry : settings.value(key).toStringList())
    if (specOf(entry) == spec) return entry.section(kTab, 1) == QLatin1String("1");
  return std::nullopt;
}

void rememberChoice(AppSettings& settings, const QString& key, const QString& spec, bool on) {
  if (spec.isEmpty()) return;
  QStringList list = settings.value(key).toStringList();
  list.erase(std::remove_if(list.begin(), list.end(), [&](const QString& e) { return specOf(e) == spec; }),
             list.end());
  list.prepend(spec + kTab + (on ? QLatin1Char('1') : QLatin1Char('0')));
  while (list.size() > kMaxRememberedChoices) list.removeLast();
  settings.set(key, list);
}

QString perSourceChoicesProblem(const QVariant& value) {
  // QSettings gives one entry back as a string, several as a string list.
  if (value.typeId() != QMetaType::QString && value.typeId() != QMetaType::QStringList &&
      value.typeId() != QMetaType::QVariantList)
    return QObject::tr("is not a list of sources");
  const QStringList list = value.toStringList();
  if (list.size() > kMaxRememberedChoices)
    return QObject::tr("has %1 entries (at most %2)").arg(list.size()).arg(kMaxRememberedChoices);
  for (const QString& entry : list) {
    const qsizetype tab = entry.lastIndexOf(kTab);
    const QString spec = entry.left(tab), choice = entry.mid(tab + 1);
    if (tab <= 0 || (choice != QLatin1String("0") && choice != QLatin1String("1")))
      return QObject::tr("has an entry that is not a source, a tab and 0 or 1");
    if (spec.size() > AppSettings::kMaxPath)
      return QObject::tr("has a source of %1 characters (at most %2)")
          .arg(spec.size())
          .arg(AppSettings::kMaxPath);
    for (const QChar c : spec)
      if (c.unicode() < 0x20) return QObject::tr("has a source with control characters");
  }
  return {};
}

}  // namespace convolab::gui
