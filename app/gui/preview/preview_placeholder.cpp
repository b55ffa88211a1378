// SPDX-License-Identifier: MIT
// The preview's "no source" panel: what to open, and the hint that a file can be dropped.
#include "preview/preview_placeholder.hpp"

#include <QBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "window/theme.hpp"

namespace convolab::gui {

PreviewPlaceholder::PreviewPlaceholder(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("placeholder"));
  setAttribute(Qt::WA_TranslucentBackground);
  auto* layout = new QVBoxLayout(this);
  layout->setSpacing(10);
  layout->addStretch(1);
  auto* icon = new QLabel(this);
  icon->setPixmap(QIcon(QStringLiteral(":/icons/convolab.svg")).pixmap(72, 72));
  icon->setAlignment(Qt::AlignCenter);
  layout->addWidget(icon);
  m_title = new QLabel(this);
  m_title->setAlignment(Qt::AlignCenter);
  m_title->setStyleSheet(QStringLiteral("font-size: 15pt; font-weight: 600;"));
  layout->addWidget(m_title);
  m_detail = new QLabel(this);
  m_detail->setAlignment(Qt::AlignCenter);
  m_detail->setWordWrap(true);
  m_detail->setStyleSheet(theme::textStyle(theme::dimText()));
  layout->addWidget(m_detail);
  m_buttons = new QBoxLayout(QBoxLayout::LeftToRight);
  m_buttons->setSpacing(10);
  m_buttons->addStretch(1);
  m_openImage = new QPushButton(tr("Open image…"), this);
  m_openVideo = new QPushButton(tr("Open video…"), this);
  m_testPattern = new QPushButton(tr("Use test pattern"), this);
  m_testPattern->setObjectName(QStringLiteral("primary"));
  for (auto* b : {m_openImage, m_openVideo, m_testPattern}) {
    b->setCursor(Qt::PointingHandCursor);
    m_buttons->addWidget(b, 0, Qt::AlignCenter);
  }
  m_buttons->addStretch(1);
  layout->addLayout(m_buttons);
  auto* hint = new QLabel(tr("or drop an image or video file here"), this);
  hint->setAlignment(Qt::AlignCenter);
  hint->setStyleSheet(theme::textStyle(theme::faintText()));
  layout->addWidget(hint);
  layout->addStretch(1);
  hide();
}

void PreviewPlaceholder::setText(const QString& title, const QString& detail) {
  m_title->setText(title);
  m_detail->setText(detail);
  m_detail->setVisible(!detail.isEmpty());
}

QString PreviewPlaceholder::title() const {
  return m_title->text();
}

void PreviewPlaceholder::fitWidth(int width) {
  m_buttons->setDirection(width < 560 ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
}

}  // namespace convolab::gui
