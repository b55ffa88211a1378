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

FilterSet resizeFilter(const FilterSet& filter, int k) {
  if (filter.size() == k) return filter;
  std::array<ChannelFilter, kChannels> channels;
  const int from = filter.size();
  const int shift = (k - from) / 2;  // >0 grows, <0 shrinks
  for (int c = 0; c < kChannels; ++c) {
    const ChannelFilter& src = filter.channel(c);
    ChannelFilter& dst = channels[static_cast<size_t>(c)];
    dst.size = k;
    dst.matrix.assign(static_cast<size_t>(k * k), 0.0);
    dst.divisor = src.divisor;
    dst.offset = src.offset;
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i) {
        const int sj = j - shift, si = i - shift;
        if (sj >= 0 && sj < from && si >= 0 && si < from)
          dst.matrix[static_cast<size_t>(j * k + i)] = src.at(sj, si);
      }
  }
  return FilterSet::make(channels, filter.border(), filter.borderValue(), filter.name());
}

FilterSet toEditorSize(const FilterSet& filter) {
  return filter.size() < kEditorSize ? resizeFilter(filter, kEditorSize) : filter;
}

FilterDocument::FilterDocument(QObject* parent) : QObject(parent) {
  m_filter = FilterSet::uniform(ChannelFilter::identity(kEditorSize), BorderMode::Reflect101, "Identity");
}

void FilterDocument::setLinked(bool linked) {
  if (linked == m_linked) return;
  m_linked = linked;
  emit linkedChanged(linked);
}

std::pair<int, int> FilterDocument::channelRange(int channel) const {
  return m_linked ? std::pair{0, kChannels} : std::pair{channel, channel + 1};
}

void FilterDocument::apply(const FilterSet& filter) {
  if (filter == m_filter) return;
  m_filter = filter;
  emit filterChanged(m_filter);
}

void FilterDocument::change(const FilterSet& next, const QString& what, int key) {
  if (next == m_filter) return;
  m_undo.push(new SetFilterCommand(this, m_filter, next, what, key));
}

void FilterDocument::setCell(int channel, int row, int col, double value) {
  if (!std::isfinite(value)) return;
  auto channels = m_filter.channels();
  const auto [first, last] = channelRange(channel);
  for (int c = first; c < last; ++c)
    channels[static_cast<size_t>(c)].matrix[static_cast<size_t>(row * m_filter.size() + col)] = value;
  const QString where = m_linked ? QStringLiteral("RGB") : QString::fromLatin1(kChannelNames[channel]);
  change(FilterSet::make(channels, m_filter.border(), m_filter.borderValue(), m_filter.name()),
         tr("Set %1[%2, %3] = %4").arg(where).arg(row + 1).arg(col + 1).arg(value));
}

bool FilterDocument::setDivisor(int channel, double divisor, QString* error) {
  if (divisor == 0 || !std::isfinite(divisor)) {
    if (error) *error = tr("Divisor cannot be 0: every output would be infinite. Use Normalise, or 1.");
    return false;
  }
  auto channels = m_filter.channels();
  const auto [first, last] = channelRange(channel);
  for (int c = first; c < last; ++c) channels[static_cast<size_t>(c)].divisor = divisor;
  change(FilterSet::make(channels, m_filter.border(), m_filter.borderValue(), m_filter.name()),
         tr("Set divisor to %1").arg(divisor), mergeKey(kDivisor, m_linked ? 9 : channel));
  return true;
}

void FilterDocument::setOffset(int channel, double offset) {
  auto channels = m_filter.channels();
  const auto [first, last] = channelRange(channel);
  for (int c = first; c < last; ++c) channels[static_cast<size_t>(c)].offset = offset;
  change(FilterSet::make(channels, m_filter.border(), m_filter.borderValue(), m_filter.name()),
         tr("Set offset to %1").arg(offset), mergeKey(kOffset, m_linked ? 9 : channel));
}

bool FilterDocument::normalise(int channel) {
  auto channels = m_filter.channels();
  const auto [first, last] = channelRange(channel);
  bool any = false;
  for (int c = first; c < last; ++c) {
    auto& ch = channels[static_cast<size_t>(c)];
    double sum = 0;
    for (double v : ch.matrix) sum += v;
    if (sum == 0) continue;  // an edge filter: leave the divisor alone
    ch.divisor = sum;
    any = true;
  }
  if (!any) return false;
  change(FilterSet::make(channels, m_filter.border(), m_filter.borderValue(), m_filter.name()),
         tr("Normalise"));
  return true;
}

void FilterDocument::copyToAll(int channel) {
  auto channels = m_filter.channels();
  for (auto& ch : channels) ch = m_filter.channel(channel);
  change(FilterSet::make(channels, m_filter.border(), m_filter.borderValue(), m_filter.name()),
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
  change(FilterSet::uniform(ChannelFilter::identity(kEditorSize), m_filter.border(), "Identity"),
         tr("Reset to identity"));
}

void FilterDocument::setSize(int k) {
  if (k < kEditorSize || k > kMaxFilterSize || k % 2 == 0) return;
  change(resizeFilter(m_filter, k), tr("Resize to %1×%1").arg(k));
}

void FilterDocument::replace(const FilterSet& filter, const QString& what) {
  change(toEditorSize(filter), what);
}

void FilterDocument::restore(const FilterSet& filter) {
  m_undo.clear();
  apply(toEditorSize(filter));
}

}  // namespace convolab::gui
