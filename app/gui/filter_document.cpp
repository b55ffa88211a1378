// SPDX-License-Identifier: MIT
// The edited filter and its undoable operations.
#include "filter_document.hpp"

#include <cmath>

#include "filter_commands.hpp"

namespace convolab::gui {

namespace {
const char* const kChannelNames[] = {"R", "G", "B"};

// Merge keys: one per (field, channel) so repeated steps on the same spin box are one undo step.
int mergeKey(int field, int channel) {
  return 1000 + field * 10 + channel;
}
enum Field { kDivisor = 1, kOffset = 2, kBorderValue = 3 };
}  // namespace

FilterSet toEditorSize(const FilterSet& filter) {
  return filter.size() < kEditorSize ? filter.resizedTo(kEditorSize) : filter;
}

ChannelFilter normalisedLikeGimp(ChannelFilter channel) {
  double sum = 0;
  for (double v : channel.matrix) sum += v;
  if (sum > 0) {
    channel.divisor = sum;
    channel.offset = 0;
  } else if (sum < 0) {
    channel.divisor = -sum;
    channel.offset = 255;
  } else {
    channel.divisor = 1;
    channel.offset = 128;
  }
  return channel;
}

FilterDocument::FilterDocument(QObject* parent) : QObject(parent) {
  m_filter = FilterSet::uniform(ChannelFilter::identity(kEditorSize), BorderMode::Reflect101, "Identity");
  m_baseline = m_filter;
}

void FilterDocument::setLinked(bool linked) {
  if (linked == m_linked) return;
  if (linked) {
    const bool normaliseR = m_autoNormalise[0];
    m_autoNormalise.fill(normaliseR);
    emit autoNormaliseChanged();
  }
  m_linked = linked;
  emit linkedChanged(linked);
}

bool FilterDocument::isModified() const {
  return !(m_filter.withName({}) == m_baseline.withName({}));
}

QString FilterDocument::displayName() const {
  if (m_filter.name().empty()) return tr("Custom filter");
  return QString::fromStdString(m_filter.name()) + (isModified() ? QStringLiteral("*") : QString());
}

void FilterDocument::setAutoNormalise(int channel, bool on) {
  const auto [first, last] = channelRange(channel);
  bool changed = false;
  for (int c = first; c < last; ++c) {
    changed |= m_autoNormalise[static_cast<size_t>(c)] != on;
    m_autoNormalise[static_cast<size_t>(c)] = on;
  }
  if (!changed) return;
  emit autoNormaliseChanged();
  if (on) change(rebuilt(withAutoNormalise(m_filter.channels())), tr("Normalise"));
}

std::array<ChannelFilter, kChannels> FilterDocument::withAutoNormalise(
    std::array<ChannelFilter, kChannels> channels) const {
  for (int c = 0; c < kChannels; ++c)
    if (m_autoNormalise[static_cast<size_t>(c)])
      channels[static_cast<size_t>(c)] = normalisedLikeGimp(channels[static_cast<size_t>(c)]);
  return channels;
}

FilterSet FilterDocument::rebuilt(const std::array<ChannelFilter, kChannels>& channels) const {
  return FilterSet::make(channels, m_filter.border(), m_filter.borderValue(), m_filter.name());
}

std::pair<int, int> FilterDocument::channelRange(int channel) const {
  return m_linked ? std::pair{0, kChannels} : std::pair{channel, channel + 1};
}

void FilterDocument::apply(const FilterSet& filter, const FilterSet& baseline) {
  if (filter == m_filter && baseline == m_baseline) return;
  m_filter = filter;
  m_baseline = baseline;
  emit filterChanged(m_filter);
}

void FilterDocument::change(const FilterSet& next, const QString& what, int key,
                            const FilterSet* newBaseline) {
  if (next == m_filter && (!newBaseline || *newBaseline == m_baseline)) return;
  m_undo.push(new SetFilterCommand(this, m_filter, next, m_baseline, newBaseline ? *newBaseline : m_baseline,
                                   what, key));
}

void FilterDocument::setCell(int channel, int row, int col, double value) {
  if (!std::isfinite(value)) return;
  auto channels = m_filter.channels();
  const auto [first, last] = channelRange(channel);
  for (int c = first; c < last; ++c)
    channels[static_cast<size_t>(c)].matrix[static_cast<size_t>(row * m_filter.size() + col)] = value;
  const QString where = m_linked ? QStringLiteral("RGB") : QString::fromLatin1(kChannelNames[channel]);
  change(rebuilt(withAutoNormalise(channels)),
         tr("Set %1[%2, %3] = %4").arg(where).arg(row + 1).arg(col + 1).arg(value));
}

bool FilterDocument::setDivisor(int channel, double divisor, QString* error) {
  if (divisor == 0 || !std::isfinite(divisor)) {
    if (error) *error = tr("Divisor cannot be 0: every output would be infinite. Use Normalise, or 1.");
    return false;
  }
  setAutoNormalise(channel, false);  // a typed divisor takes over from Normalise
  auto channels = m_filter.channels();
  const auto [first, last] = channelRange(channel);
  for (int c = first; c < last; ++c) channels[static_cast<size_t>(c)].divisor = divisor;
  change(FilterSet::make(channels, m_filter.border(), m_filter.borderValue(), m_filter.name()),
         tr("Set divisor to %1").arg(divisor), mergeKey(kDivisor, m_linked ? 9 : channel));
  return true;
}

void FilterDocument::setOffset(int channel, double offset) {
  setAutoNormalise(channel, false);
  auto channels = m_filter.channels();
  const auto [first, last] = channelRange(channel);
  for (int c = first; c < last; ++c) channels[static_cast<size_t>(c)].offset = offset;
  change(FilterSet::make(channels, m_filter.border(), m_filter.borderValue(), m_filter.name()),
         tr("Set offset to %1").arg(offset), mergeKey(kOffset, m_linked ? 9 : channel));
}

void FilterDocument::normalise(int channel) {
  auto channels = m_filter.channels();
  const auto [first, last] = channelRange(channel);
  for (int c = first; c < last; ++c)
    channels[static_cast<size_t>(c)] = normalisedLikeGimp(channels[static_cast<size_t>(c)]);
  change(rebuilt(channels), tr("Normalise"));
}

void FilterDocument::copyToAll(int channel) {
  auto channels = m_filter.channels();
  for (auto& ch : channels) ch = m_filter.channel(channel);
  change(rebuilt(withAutoNormalise(channels)),
         tr("Copy %1 to all channels").arg(QString::fromLatin1(kChannelNames[channel])));
}

void FilterDocument::setBorder(BorderMode border) {
  change(m_filter.withBorder(border),
         tr("Border: %1").arg(QString::fromUtf8(std::string(borderName(border)).c_str())));
}

void FilterDocument::setBorderValue(int channel, double value) {
  auto values = m_filter.borderValue();
  const auto [first, last] = channelRange(channel);
  for (int c = first; c < last; ++c) values[static_cast<size_t>(c)] = value;
  change(FilterSet::make(m_filter.channels(), m_filter.border(), values, m_filter.name()), tr("Border value"),
         mergeKey(kBorderValue, m_linked ? 9 : channel));
}

void FilterDocument::resetToIdentity() {
  const FilterSet identity =
      FilterSet::uniform(ChannelFilter::identity(kEditorSize), m_filter.border(), "Identity");
  m_autoNormalise.fill(false);
  emit autoNormaliseChanged();
  change(identity, tr("Reset to identity"), 0, &identity);
}

void FilterDocument::setSize(int k) {
  if (k < kEditorSize || k > kMaxGridSize || k % 2 == 0) return;
  change(m_filter.resizedTo(k), tr("Resize to %1×%1").arg(k));
}

void FilterDocument::replace(const FilterSet& filter, const QString& what) {
  m_autoNormalise.fill(false);  // a loaded filter keeps its own divisor and offset
  emit autoNormaliseChanged();
  const FilterSet next = toEditorSize(filter);
  change(next, what, 0, &next);
}

void FilterDocument::replaceEdited(const FilterSet& filter, const QString& what) {
  const FilterSet next = toEditorSize(filter);
  change(next.withName(m_filter.name()), what);
}

void FilterDocument::rename(const QString& name, const QString& what) {
  const FilterSet named = m_filter.withName(name.trimmed().toStdString());
  change(named, what, 0, &named);
}

void FilterDocument::restore(const FilterSet& filter, const std::optional<FilterSet>& baseline) {
  m_undo.clear();
  const FilterSet next = toEditorSize(filter);
  apply(next, baseline ? toEditorSize(*baseline) : next);
}

}  // namespace convolab::gui
