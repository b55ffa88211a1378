// SPDX-License-Identifier: MIT
// One channel of the filter editor: editable table, divisor/offset, sum, Normalise and Copy-to-all.
#include "editor/channel_grid.hpp"

#include <QCheckBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <functional>

#include "editor/compact_spin_box.hpp"
#include "editor/filter_document.hpp"
#include "editor/heat_map_panel.hpp"
#include "window/theme.hpp"

namespace convolab::gui {

namespace {

const char* const kNames[] = {"R", "G", "B"};
const char* const kLongNames[] = {"Red", "Green", "Blue"};

// The exact value of a cell, kept beside its (possibly shortened) display text.
constexpr int kValueRole = Qt::UserRole + 1;

// Cell editor: a plain line edit that starts with the cell's full value selected. Each keystroke that makes a
// number is applied at once (the preview follows typing; "-" or "1/" are not numbers yet); the commit
// parses the final text (0,5 and 1/9 included), and anything unreadable is refused with a message.
class CellDelegate : public QStyledItemDelegate {
 public:
  using Typed = std::function<void(int row, int col, const QString& text)>;
  CellDelegate(Typed typed, QObject* parent) : QStyledItemDelegate(parent), m_typed(std::move(typed)) {}

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&,
                        const QModelIndex& index) const override {
    auto* edit = new QLineEdit(parent);
    edit->setAlignment(Qt::AlignCenter);
    edit->setFrame(false);
    const int row = index.row(), col = index.column();
    connect(edit, &QLineEdit::textEdited, edit,
            [this, row, col](const QString& text) { m_typed(row, col, text); });
    return edit;
  }
  void setEditorData(QWidget* editor, const QModelIndex& index) const override {
    auto* edit = static_cast<QLineEdit*>(editor);
    // A live keystroke refreshes the grid, which would reset the text being typed: once typed into, the
    // editor keeps its own text.
    if (edit->isModified()) return;
    const QVariant exact = index.data(kValueRole);
    edit->setText(exact.isValid() ? fullNumberText(exact.toDouble()) : index.data(Qt::EditRole).toString());
    edit->selectAll();
  }

 private:
  Typed m_typed;
};

}  // namespace

ChannelGrid::ChannelGrid(int channel, FilterDocument* document, QWidget* parent)
    : QFrame(parent), m_channel(channel), m_document(document) {
  setObjectName(QStringLiteral("channelCard"));
  setFrameShape(QFrame::NoFrame);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(10, 8, 10, 10);
  layout->setSpacing(6);
  layout->addLayout(makeHeader());
  addTableAndHeatMap(layout);
  layout->addLayout(makeFields());
  addMessageLine(layout);
  connectFields();
}

QHBoxLayout* ChannelGrid::makeHeader() {
  const int channel = m_channel;
  // Header: coloured badge, channel name, the matrix sum, and the per-channel actions.
  auto* header = new QHBoxLayout;
  header->setSpacing(8);
  m_badge = new QLabel(QString::fromLatin1(kNames[channel]), this);
  m_badge->setObjectName(QStringLiteral("channelBadge"));
  m_badge->setAlignment(Qt::AlignCenter);
  m_badge->setFixedSize(22, 22);
  m_badge->setStyleSheet(QStringLiteral("background:%1;").arg(theme::channelColor(channel).name()));
  header->addWidget(m_badge);
  m_name = new QLabel(tr(kLongNames[channel]), this);
  m_name->setObjectName(QStringLiteral("channelName"));
  header->addWidget(m_name);
  m_sum = new QLabel(this);
  m_sum->setObjectName(QStringLiteral("monoDim"));
  m_sum->setToolTip(
      tr("Sum of the coefficients (Σ). Normalise sets the divisor to it, so flat areas keep their "
         "brightness."));
  header->addWidget(m_sum);
  header->addStretch(1);
  m_normalise = new QCheckBox(tr("Normalise"), this);
  m_normalise->setToolTip(
      tr("Keep divisor and offset normalised while you edit, as GIMP does: Σ > 0 → divisor Σ, offset 0; "
         "Σ < 0 → divisor −Σ, offset 255; Σ = 0 → divisor 1, offset 128"));
  header->addWidget(m_normalise);
  m_copyToAll = new QToolButton(this);
  m_copyToAll->setText(tr("Copy to all"));
  m_copyToAll->setToolTip(tr("Copy this channel's matrix, divisor and offset to the other two channels"));
  header->addWidget(m_copyToAll);
  return header;
}

void ChannelGrid::addTableAndHeatMap(QVBoxLayout* layout) {
  const int channel = m_channel;
  m_table = new QTableWidget(this);
  m_table->setObjectName(QStringLiteral("kernelTable"));
  m_table->setAccessibleName(tr("%1 channel coefficients").arg(tr(kLongNames[channel])));
  m_table->horizontalHeader()->hide();
  m_table->verticalHeader()->hide();
  auto* delegate =
      new CellDelegate([this](int row, int col, const QString& text) { onTyped(row, col, text); }, m_table);
  m_table->setItemDelegate(delegate);
  // Each opened cell editor is one undo step; Esc takes back what its keystrokes applied.
  connect(delegate, &QAbstractItemDelegate::closeEditor, this,
          [this](QWidget*, QAbstractItemDelegate::EndEditHint hint) {
            if (hint == QAbstractItemDelegate::RevertModelCache) m_document->cancelCellEdit(m_liveEdit);
            m_liveEdit = 0;
          });
  m_table->setEditTriggers(QAbstractItemView::AnyKeyPressed | QAbstractItemView::DoubleClicked |
                           QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_table->setTabKeyNavigation(true);
  m_table->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
  layout->addWidget(m_table, 0, Qt::AlignHCenter);
  m_heatMap = new HeatMapPanel(channel, m_document, this);
  m_heatMap->hide();
  connect(m_heatMap, &HeatMapPanel::edited, this, &ChannelGrid::report);
  layout->addWidget(m_heatMap);
}

QHBoxLayout* ChannelGrid::makeFields() {
  const int channel = m_channel;
  auto* params = new QHBoxLayout;
  params->setSpacing(6);
  auto* divLabel = new QLabel(tr("Divisor"), this);
  m_divisor = new CompactSpinBox(this);
  m_divisor->setToolTip(tr("Each weighted sum is divided by this (never 0)"));
  m_divisor->setAccessibleName(tr("%1 divisor").arg(tr(kLongNames[channel])));
  divLabel->setBuddy(m_divisor);
  auto* offLabel = new QLabel(tr("Offset"), this);
  m_offset = new CompactSpinBox(this);
  m_offset->setRange(-1024, 1024);
  m_offset->setToolTip(tr("Added after dividing (128 centres edge and emboss filters on grey)"));
  m_offset->setAccessibleName(tr("%1 offset").arg(tr(kLongNames[channel])));
  offLabel->setBuddy(m_offset);
  params->addWidget(divLabel);
  params->addWidget(m_divisor, 1);
  params->addSpacing(8);
  params->addWidget(offLabel);
  params->addWidget(m_offset, 1);
  return params;
}

void ChannelGrid::addMessageLine(QVBoxLayout* layout) {
  m_message = new QLabel(this);
  m_message->setObjectName(QStringLiteral("fieldMessage"));
  m_message->setWordWrap(true);
  m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_message->hide();
  layout->addWidget(m_message);
  m_messageTimer = new QTimer(this);
  m_messageTimer->setSingleShot(true);
  connect(m_messageTimer, &QTimer::timeout, m_message, &QLabel::hide);
}

void ChannelGrid::connectFields() {
  connect(m_table, &QTableWidget::itemChanged, this, &ChannelGrid::onItemChanged);
  connect(m_divisor, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    if (m_updating) return;
    QString error;
    report(m_document->setDivisor(m_channel, v, &error), error);
  });
  connect(m_offset, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    if (m_updating) return;
    QString error;
    report(m_document->setOffset(m_channel, v, &error), error);
  });
  connect(m_normalise, &QCheckBox::toggled, this, [this](bool on) {
    if (m_updating) return;
    QString error;
    report(m_document->setAutoNormalise(m_channel, on, &error), error);
  });
  connect(m_document, &FilterDocument::autoNormaliseChanged, this, [this] { refresh(m_document->filter()); });
  connect(m_copyToAll, &QToolButton::clicked, this, [this] {
    QString error;
    report(m_document->copyToAll(m_channel, &error), error);
  });
}

void ChannelGrid::setLinkedLook(bool linked) {
  m_badge->setText(linked ? QStringLiteral("RGB") : QString::fromLatin1(kNames[m_channel]));
  m_badge->setFixedSize(linked ? 40 : 22, 22);
  m_badge->setStyleSheet(QStringLiteral("background:%1;")
                             .arg(linked ? theme::accent().name() : theme::channelColor(m_channel).name()));
  m_name->setText(linked ? tr("R, G and B (linked)") : tr(kLongNames[m_channel]));
  m_name->setToolTip(linked ? tr("Channels are linked: this one matrix applies to red, green and blue "
                                 "(Ctrl+L unlinks them)")
                            : QString());
  m_copyToAll->setVisible(!linked);
  m_table->setAccessibleName(linked ? tr("Coefficients of all channels")
                                    : tr("%1 channel coefficients").arg(tr(kLongNames[m_channel])));
}

void ChannelGrid::showMessage(const QString& message, int ms) {
  m_message->setText(message);
  m_message->setVisible(!message.isEmpty());
  if (message.isEmpty() || ms <= 0)
    m_messageTimer->stop();
  else
    m_messageTimer->start(ms);
}

QString ChannelGrid::messageText() const {
  return m_message->isVisibleTo(this) ? m_message->text() : QString();
}

void ChannelGrid::resizeTable(int k) {
  if (m_table->rowCount() == k) return;
  m_table->setRowCount(k);
  m_table->setColumnCount(k);
  const int cell = k <= 7 ? 50 : k <= 9 ? 40 : k <= 11 ? 34 : 30;
  const int rowH = k <= 9 ? 24 : 21;
  // Big matrices draw their cells in a condensed, slightly smaller font so that cells keep their digits
  // (the item font wins over the style sheet's monospace one).
  m_table->ensurePolished();
  m_cellFont = m_table->font();
  if (k >= 11) {
    m_cellFont.setFamilies({QStringLiteral("DejaVu Sans"), m_cellFont.family()});
    m_cellFont.setStretch(QFont::Condensed);
    if (m_cellFont.pointSizeF() > 0) m_cellFont.setPointSizeF(m_cellFont.pointSizeF() * 0.9);
  }
  for (int i = 0; i < k; ++i) {
    m_table->setColumnWidth(i, cell);
    m_table->setRowHeight(i, rowH);
  }
  m_table->setFixedSize(cell * k + 2 * m_table->frameWidth(), rowH * k + 2 * m_table->frameWidth());
}

void ChannelGrid::fillTable(const ChannelFilter& ch) {
  const QSignalBlocker block(m_table);
  const int k = ch.size;
  resizeTable(k);
  const int centre = k / 2;
  const QFontMetrics metrics(m_cellFont);
  // The delegate's text margin on both sides (focus frame margin + 1), and a pixel of grid line.
  const int textMargin =
      2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1) + 1;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      const double v = ch.at(j, i);
      QTableWidgetItem* item = m_table->item(j, i);
      if (!item) {
        item = new QTableWidgetItem;
        item->setTextAlignment(Qt::AlignCenter);
        m_table->setItem(j, i, item);
      }
      const QString full = fullNumberText(v);
      const QString shown = fittedNumberText(v, metrics, m_table->columnWidth(i) - textMargin);
      item->setText(shown);
      item->setData(kValueRole, v);
      item->setFont(m_cellFont);
      item->setForeground(theme::cellTextColor(v));
      item->setBackground(j == centre && i == centre ? theme::centreCellColor() : QBrush());
      item->setToolTip(tr("%1%2\nRow %3, column %4 (offset %5, %6 from the centre)")
                           .arg(full, shown == full ? QString() : tr("  (shown as %1)").arg(shown))
                           .arg(j + 1)
                           .arg(i + 1)
                           .arg(i - centre)
                           .arg(j - centre));
    }
}

void ChannelGrid::refresh(const FilterSet& filter) {
  m_updating = true;
  const ChannelFilter& ch = filter.channel(m_channel);
  const bool heat = ch.size > kMaxGridSize;
  m_table->setVisible(!heat);
  m_heatMap->setVisible(heat);
  if (heat)
    m_heatMap->refresh(ch);
  else
    fillTable(ch);
  double sum = 0;
  for (double v : ch.matrix) sum += v;
  m_sum->setText(tr("Σ %1").arg(QLocale::c().toString(sum, 'g', 6)));
  m_sum->setToolTip(tr("Sum of the coefficients: %1").arg(fullNumberText(sum)));
  const bool autoNormalise = m_document->autoNormalise(m_channel);
  m_normalise->setChecked(autoNormalise);
  m_divisor->setEnabled(!autoNormalise);  // Normalise owns them while it is on
  m_offset->setEnabled(!autoNormalise);
  m_divisor->setValue(ch.divisor);
  m_offset->setValue(ch.offset);
  m_updating = false;
}

void ChannelGrid::report(bool applied, const QString& error) {
  if (applied) {
    emit editAccepted();
    return;
  }
  emit editRejected(error);
  refresh(m_document->filter());  // show the values that are still in effect
}

QString ChannelGrid::cellName(int row, int col) const {
  return tr("%1 row %2, column %3").arg(tr(kLongNames[m_channel])).arg(row + 1).arg(col + 1);
}

void ChannelGrid::onTyped(int row, int col, const QString& text) {
  const auto parsed = parseUserNumber(text);
  if (!parsed) return;  // not a number yet ("-", "1/", "2e"): the preview keeps the last one
  if (m_liveEdit == 0) m_liveEdit = m_document->beginCellEdit();
  QString error;
  if (m_document->setCell(m_channel, row, col, *parsed, &error, m_liveEdit))
    emit editAccepted();
  else  // said at once; the cell keeps what is typed until Enter, which refuses it for good
    emit editRejected(tr("%1: %2").arg(cellName(row, col), error));
}

void ChannelGrid::onItemChanged(QTableWidgetItem* item) {
  if (m_updating) return;
  const auto parsed = parseUserNumber(item->text());
  QString error;
  if (!parsed)
    error = tr("%1: '%2' is not a number (write 0.5, 0,5 or a fraction such as 1/9)")
                .arg(cellName(item->row(), item->column()), item->text());
  else if (!m_document->setCell(m_channel, item->row(), item->column(), *parsed, &error, m_liveEdit))
    error = tr("%1: %2").arg(cellName(item->row(), item->column()), error);
  if (error.isEmpty()) {
    emit editAccepted();
    refresh(m_document->filter());  // "1/2" reads "0.5" (the keystrokes applied it already: no change signal)
    return;
  }
  // The whole edit is refused: what its keystrokes applied is taken back, and the cell shows its old value.
  m_document->cancelCellEdit(m_liveEdit);
  m_liveEdit = 0;
  emit editRejected(error);
  refresh(m_document->filter());
}

}  // namespace convolab::gui
