// SPDX-License-Identifier: MIT
// The edited filter and its undoable operations.
#include "editor/filter_document.hpp"

#include <cmath>

#include "convolab/error.hpp"
#include "editor/filter_commands.hpp"

namespace convolab::gui {

namespace {
const char* const kChannelNames[] = {"R", "G", "B"};

// Merge keys: one per (field, channel) so repeated steps on the same spin box are one undo step.
int mergeKey(int field, int channel) {
  return 1000 + field * 10 + channel;
}
enum Field { kDivisor = 1, kOffset = 2, kBorderValue = 3 };
// Cell edits (one undo step each, whatever the keystrokes) take keys from this range, above mergeKey's.
constexpr int kFirstCellEditKey = 100000;
constexpr int kCellEditKeys = 100000;
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
  m_undo.setUndoLimit(kUndoLimit);
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

bool FilterDocument::setAutoNormalise(int channel, bool on, QString* error) {
  const auto [first, last] = channelRange(channel);
  std::array<bool, kChannels> next = m_autoNormalise;
  for (int c = first; c < last; ++c) next[static_cast<size_t>(c)] = on;
  if (next == m_autoNormalise) return true;
  if (on) {
    // Normalising can itself break the range rule (Σ near 0 with large weights: divisor Σ is tiny); then the
    // box stays off.
    const std::array<bool, kChannels> before = m_autoNormalise;
    m_autoNormalise = next;
    const bool done =
        tryChange([&] { return rebuilt(withAutoNormalise(m_filter.channels())); }, tr("Normalise"), error);
    if (!done) {
      m_autoNormalise = before;
      return false;
    }
  }
  m_autoNormalise = next;
  emit autoNormaliseChanged();
  return true;
}

std::array<ChannelFilter, kChannels> FilterDocument::withAutoNormalise(
    std::array<ChannelFilter, kChannels> channels) const {
  for (int c = 0; c < kChannels; ++c)
    if (m_autoNormalise[static_cast<size_t>(c)])
      channels[static_cast<size_t>(c)] = normalisedLikeGimp(channels[static_cast<size_t>(c)]);
  return channels;
}

FilterSet FilterDocument::rebuilt(const std::array<ChannelFilter, kChannels>& channels) const {
  // An edit keeps the generator's parameters (the matrix stays the truth; GeneratorPanel says it was edited).
  return FilterSet::make(channels, m_filter.border(), m_filter.borderValue(), m_filter.name())
      .withGenerator(m_filter.generator());
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

bool FilterDocument::tryChange(const std::function<FilterSet()>& build, const QString& what, QString* error,
                               int key, bool resetsBaseline) {
  std::optional<FilterSet> next;
  try {
    next = build();
  } catch (const Error& e) {
    if (error) *error = tr("%1: not applied — %2").arg(what, QString::fromUtf8(e.what()));
    return false;
  }
  change(*next, what, key, resetsBaseline ? &*next : nullptr);
  return true;
}

void FilterDocument::change(const FilterSet& next, const QString& what, int key,
                            const FilterSet* newBaseline) {
  if (next == m_filter && (!newBaseline || *newBaseline == m_baseline)) return;
  if (m_route) {
    if (QUndoCommand* routed =
            m_route({m_filter, next, m_baseline, newBaseline ? *newBaseline : m_baseline, what, key}))
      m_undo.push(routed);
    return;
  }
  m_undo.push(new SetFilterCommand(this, m_filter, next, m_baseline, newBaseline ? *newBaseline : m_baseline,
                                   what, key));
}

int FilterDocument::beginCellEdit() {
  m_nextCellEditKey = (m_nextCellEditKey + 1) % kCellEditKeys;
  return kFirstCellEditKey + m_nextCellEditKey;
}

void FilterDocument::cancelCellEdit(int editKey) {
  if (editKey == 0 || m_undo.index() == 0) return;
  // Only while that edit is still the newest step (nothing else was pushed or undone since).
  auto* top = const_cast<QUndoCommand*>(m_undo.command(m_undo.index() - 1));
  if (m_undo.index() != m_undo.count() || top->id() != editKey) return;
  // QUndoStack::undo() skips undo() of a command that is already obsolete, then deletes it: undo it here.
  top->undo();
  top->setObsolete(true);
  m_undo.undo();
}

bool FilterDocument::setCell(int channel, int row, int col, double value, QString* error, int editKey) {
  const QString where = m_linked ? QStringLiteral("RGB") : QString::fromLatin1(kChannelNames[channel]);
  const QString what = tr("Set %1[%2, %3] = %4").arg(where).arg(row + 1).arg(col + 1).arg(value);
  if (row < 0 || col < 0 || row >= m_filter.size() || col >= m_filter.size()) {
    if (error) *error = tr("%1: not applied — the matrix is %2×%2").arg(what).arg(m_filter.size());
    return false;
  }
  return tryChange(
      [&] {
        auto channels = m_filter.channels();
        const auto [first, last] = channelRange(channel);
        for (int c = first; c < last; ++c)
          channels[static_cast<size_t>(c)].matrix[static_cast<size_t>(row * m_filter.size() + col)] = value;
        return rebuilt(withAutoNormalise(channels));  // refuses a non-finite value too
      },
      what, error, editKey);
}

bool FilterDocument::setDivisor(int channel, double divisor, QString* error) {
  if (divisor == 0 || !std::isfinite(divisor)) {
    if (error) *error = tr("Divisor cannot be 0: every output would be infinite. Use Normalise, or 1.");
    return false;
  }
  auto channels = m_filter.channels();
  const auto [first, last] = channelRange(channel);
  for (int c = first; c < last; ++c) channels[static_cast<size_t>(c)].divisor = divisor;
  const auto build = [&] { return rebuilt(channels); };
  const QString what = tr("Set divisor to %1").arg(divisor);
  // Checked before Normalise is turned off, so a refused divisor changes nothing.
  try {
    build();
  } catch (const Error& e) {
    if (error) *error = tr("%1: not applied — %2").arg(what, QString::fromUtf8(e.what()));
    return false;
  }
  setAutoNormalise(channel, false);  // a typed divisor takes over from Normalise
  return tryChange(build, what, error, mergeKey(kDivisor, m_linked ? 9 : channel));
}

bool FilterDocument::setOffset(int channel, double offset, QString* error) {
  auto channels = m_filter.channels();
  const auto [first, last] = channelRange(channel);
  for (int c = first; c < last; ++c) channels[static_cast<size_t>(c)].offset = offset;
  const auto build = [&] { return rebuilt(channels); };
  const QString what = tr("Set offset to %1").arg(offset);
  try {
    build();
  } catch (const Error& e) {
    if (error) *error = tr("%1: not applied — %2").arg(what, QString::fromUtf8(e.what()));
    return false;
  }
  setAutoNormalise(channel, false);
  return tryChange(build, what, error, mergeKey(kOffset, m_linked ? 9 : channel));
}

bool FilterDocument::normalise(int channel, QString* error) {
  return tryChange(
      [&] {
        auto channels = m_filter.channels();
        const auto [first, last] = channelRange(channel);
        for (int c = first; c < last; ++c)
          channels[static_cast<size_t>(c)] = normalisedLikeGimp(channels[static_cast<size_t>(c)]);
        return rebuilt(channels);
      },
      tr("Normalise"), error);
}

bool FilterDocument::copyToAll(int channel, QString* error) {
  // Refused when a channel's constant border value puts the copied weights out of range.
  return tryChange(
      [&] {
        auto channels = m_filter.channels();
        for (auto& ch : channels) ch = m_filter.channel(channel);
        return rebuilt(withAutoNormalise(channels));
      },
      tr("Copy %1 to all channels").arg(QString::fromLatin1(kChannelNames[channel])), error);
}

bool FilterDocument::setBorder(BorderMode border, QString* error) {
  return tryChange([&] { return m_filter.withBorder(border); },
                   tr("Border: %1").arg(QString::fromUtf8(std::string(borderName(border)).c_str())), error);
}

bool FilterDocument::setBorderValue(int channel, double value, QString* error) {
  auto values = m_filter.borderValue();
  const auto [first, last] = channelRange(channel);
  for (int c = first; c < last; ++c) values[static_cast<size_t>(c)] = value;
  return tryChange(
      [&] {
        return FilterSet::make(m_filter.channels(), m_filter.border(), values, m_filter.name())
            .withGenerator(m_filter.generator());
      },
      tr("Border value"), error, mergeKey(kBorderValue, m_linked ? 9 : channel));
}

void FilterDocument::resetToIdentity() {
  QString error;
  const bool done = tryChange(
      [&] { return FilterSet::uniform(ChannelFilter::identity(kEditorSize), m_filter.border(), "Identity"); },
      tr("Reset to identity"), &error, 0, /*resetsBaseline=*/true);
  if (!done) {
    emit editRefused(error);
    return;
  }
  m_autoNormalise.fill(false);
  emit autoNormaliseChanged();
}

bool FilterDocument::setSize(int k, QString* error) {
  if (k < kEditorSize || k > kMaxFilterSize || k % 2 == 0) {
    if (error)
      *error = tr("Size %1 is not offered: choose an odd size from %2 to %3")
                   .arg(k)
                   .arg(kEditorSize)
                   .arg(kMaxFilterSize);
    return false;
  }
  return tryChange([&] { return m_filter.resizedTo(k); }, tr("Resize to %1×%1").arg(k), error);
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

void FilterDocument::setGenerated(const FilterSet& filter, const QString& what, int mergeKey) {
  if (m_autoNormalise != std::array<bool, kChannels>{}) {
    m_autoNormalise.fill(false);  // the generator's divisor stands (a LoG's Σ is 0)
    emit autoNormaliseChanged();
  }
  change(toEditorSize(filter), what, mergeKey);
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
