// SPDX-License-Identifier: MIT
// The hint pill: its word-wrapped text and its close button.
#include "editor/hint_pill.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace convolab::gui {

HintPill::HintPill(QWidget* parent) : QFrame(parent) {
  setObjectName(QStringLiteral("hintPill"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(10, 6, 4, 6);
  layout->setSpacing(6);
  m_text = new QLabel(this);
  m_text->setWordWrap(true);
  layout->addWidget(m_text, 1);
  auto* dismiss = new QToolButton(this);
  dismiss->setObjectName(QStringLiteral("hintClose"));
  dismiss->setText(QStringLiteral("×"));
  dismiss->setToolTip(tr("Hide this hint"));
  dismiss->setAutoRaise(true);
  connect(dismiss, &QToolButton::clicked, this, &QWidget::hide);
  layout->addWidget(dismiss, 0, Qt::AlignTop);
  hide();
}

void HintPill::showText(const QString& text) {
  m_text->setText(text);
  setVisible(!text.isEmpty());
}

}  // namespace convolab::gui
