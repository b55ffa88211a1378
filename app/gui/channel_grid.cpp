// One channel of the filter editor: editable table, divisor/offset, sum, Normalise and Copy-to-all.
#include "channel_grid.hpp"

#include <QDoubleValidator>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

#include "compact_spin_box.hpp"
#include "filter_document.hpp"
#include "theme.hpp"

namespace convolab::gui {

namespace {

const char* const kNames[] = {"R", "G", "B"};
const char* const kLongNames[] = {"Red", "Green", "Blue"};

QString formatNumber(double v) {
  return QLocale::c().toString(v, 'g', 6);
}

// Cell editor: a line edit that accepts C-locale numbers only and starts with its text selected.
class CellDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const override {
    auto* edit = new QLineEdit(parent);
    auto* validator = new QDoubleValidator(edit);
    validator->setLocale(QLocale::c());
    validator->setNotation(QDoubleValidator::ScientificNotation);
    edit->setValidator(validator);
    edit->setAlignment(Qt::AlignCenter);
    edit->setFrame(false);
    return edit;
  }
  void setEditorData(QWidget* editor, const QModelIndex& index) const override {
    auto* edit = static_cast<QLineEdit*>(editor);
    edit->setText(index.data(Qt::EditRole).toString());
    edit->selectAll();
  }
};

}  // namespace

ChannelGrid::ChannelGrid(int channel, FilterDocument* document, QWidget* parent)
    : QFrame(parent), m_channel(channel), m_document(document) {
  setObjectName(QStringLiteral("channelCard"));
  setFrameShape(QFrame::NoFrame);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(10, 8, 10, 10);
  layout->setSpacing(6);

  // Header: coloured badge, channel name, the matrix sum, and the per-channel actions.
  auto* header = new QHBoxLayout;
  header->setSpacing(8);
  m_badge = new QLabel(QString::fromLatin1(kNames[channel]), this);
  m_badge->setObjectName(QStringLiteral("channelBadge"));
  m_badge->setAlignment(Qt::AlignCenter);
  m_badge->setFixedSize(22, 22);
  m_badge->setStyleSheet(QStringLiteral("background:%1;").arg(theme::channelColor(channel).name()));
  header->addWidget(m_badge);
  auto* name = new QLabel(tr(kLongNames[channel]), this);
  name->setObjectName(QStringLiteral("channelName"));
  header->addWidget(name);
  m_sum = new QLabel(this);
  m_sum->setObjectName(QStringLiteral("monoDim"));
  m_sum->setToolTip(
      tr("Sum of the coefficients. Normalise sets the divisor to it, so flat areas keep their "
         "brightness."));
  header->addWidget(m_sum);
  header->addStretch(1);
  m_normalise = new QToolButton(this);
  m_normalise->setText(tr("Normalise"));
  m_normalise->setToolTip(tr("Divisor = sum of the coefficients (unavailable when the sum is 0)"));
  header->addWidget(m_normalise);
  m_copyToAll = new QToolButton(this);
  m_copyToAll->setText(tr("Copy to all"));
  m_copyToAll->setToolTip(tr("Copy this channel's matrix, divisor and offset to the other two channels"));
  header->addWidget(m_copyToAll);
  layout->addLayout(header);

  m_table = new QTableWidget(this);
  m_table->setObjectName(QStringLiteral("kernelTable"));
  m_table->setAccessibleName(tr("%1 channel coefficients").arg(tr(kLongNames[channel])));
  m_table->horizontalHeader()->hide();
  m_table->verticalHeader()->hide();
  m_table->setItemDelegate(new CellDelegate(m_table));
  m_table->setEditTriggers(QAbstractItemView::AnyKeyPressed | QAbstractItemView::DoubleClicked |
                           QAbstractItemView::EditKeyPressed | QAbstractItemView::SelectedClicked);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_table->setTabKeyNavigation(true);
  m_table->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
  layout->addWidget(m_table, 0, Qt::AlignHCenter);

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
  layout->addLayout(params);

  connect(m_table, &QTableWidget::itemChanged, this, &ChannelGrid::onItemChanged);
  connect(m_divisor, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    if (m_updating) return;
    QString error;
    if (!m_document->setDivisor(m_channel, v, &error)) {
      emit editRejected(error);
      refresh(m_document->filter());  // show the divisor that is still in effect
    } else {
      emit editAccepted();
    }
  });
  connect(m_offset, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    if (m_updating) return;
    m_document->setOffset(m_channel, v);
    emit editAccepted();
  });
  connect(m_normalise, &QToolButton::clicked, this, [this] {
    if (m_document->normalise(m_channel))
      emit editAccepted();
    else
      emit editRejected(tr("%1: the coefficients sum to 0, so there is nothing to normalise by; keep the "
                           "divisor (e.g. 1) and use the offset.")
                            .arg(tr(kLongNames[m_channel])));
  });
  connect(m_copyToAll, &QToolButton::clicked, this, [this] { m_document->copyToAll(m_channel); });
}

void ChannelGrid::resizeTable(int k) {
  if (m_table->rowCount() == k) return;
  m_table->setRowCount(k);
  m_table->setColumnCount(k);
  const int cell = k <= 7 ? 50 : k <= 9 ? 40 : k <= 11 ? 33 : 28;
  const int rowH = k <= 9 ? 24 : 21;
  for (int i = 0; i < k; ++i) {
    m_table->setColumnWidth(i, cell);
    m_table->setRowHeight(i, rowH);
  }
  m_table->setFixedSize(cell * k + 2 * m_table->frameWidth(), rowH * k + 2 * m_table->frameWidth());
}

void ChannelGrid::refresh(const FilterSet& filter) {
  m_updating = true;
  const QSignalBlocker block(m_table);
  const ChannelFilter& ch = filter.channel(m_channel);
  const int k = ch.size;
  resizeTable(k);
  double sum = 0;
  const int centre = k / 2;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < k; ++i) {
      const double v = ch.at(j, i);
      sum += v;
      QTableWidgetItem* item = m_table->item(j, i);
      if (!item) {
        item = new QTableWidgetItem;
        item->setTextAlignment(Qt::AlignCenter);
        m_table->setItem(j, i, item);
      }
      item->setText(formatNumber(v));
      item->setForeground(theme::cellTextColor(v));
      item->setBackground(j == centre && i == centre ? theme::centreCellColor() : QBrush());
      item->setToolTip(tr("Row %1, column %2 (offset %3, %4 from the centre)")
                           .arg(j + 1)
                           .arg(i + 1)
                           .arg(i - centre)
                           .arg(j - centre));
    }
  m_sum->setText(tr("Σ %1").arg(formatNumber(sum)));
  m_normalise->setEnabled(sum != 0 && sum != ch.divisor);
  m_divisor->setValue(ch.divisor);
  m_offset->setValue(ch.offset);
  m_updating = false;
}

void ChannelGrid::onItemChanged(QTableWidgetItem* item) {
  if (m_updating) return;
  bool ok = false;
  const double v = QLocale::c().toDouble(item->text().trimmed(), &ok);
  if (!ok || !std::isfinite(v)) {
    emit editRejected(tr("%1 row %2, column %3: '%4' is not a number")
                          .arg(tr(kLongNames[m_channel]))
                          .arg(item->row() + 1)
                          .arg(item->column() + 1)
                          .arg(item->text()));
    refresh(m_document->filter());
    return;
  }
  m_document->setCell(m_channel, item->row(), item->column(), v);
  emit editAccepted();
}

}  // namespace convolab::gui
