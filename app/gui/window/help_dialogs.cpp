// SPDX-License-Identifier: MIT
// The manual viewer and the scrolling HTML dialog of the Help menu.
#include "window/help_dialogs.hpp"

#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QScreen>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>
#include <map>

#include "resources.hpp"

namespace convolab::gui {

namespace {

/// Up to `w`×`h`, within 90 % of the screen `parent` is on.
QSize fitScreen(QWidget* parent, int w, int h) {
  QScreen* screen = parent ? parent->screen() : QGuiApplication::primaryScreen();
  if (!screen) return {w, h};
  const QRect avail = screen->availableGeometry();
  return {std::min(w, avail.width() * 9 / 10), std::min(h, avail.height() * 9 / 10)};
}

/// The help windows open now, by object name, with their browser (typed members, no findChild).
struct OpenDialog {
  QPointer<QDialog> dialog;
  QPointer<QTextBrowser> browser;
};
std::map<QString, OpenDialog>& openDialogs() {
  static std::map<QString, OpenDialog> dialogs;
  return dialogs;
}

/// The dialog named `name` already open under `parent`, else null.
OpenDialog existing(QWidget* parent, const QString& name) {
  const auto it = openDialogs().find(name);
  if (it == openDialogs().end() || !it->second.dialog || !it->second.browser ||
      it->second.dialog->parentWidget() != parent)
    return {};
  return it->second;
}

void present(QDialog* d) {
  d->show();
  d->raise();
  d->activateWindow();
}

/// Links leave the app (web pages) or are ignored (relative files of the docs folder are not compiled in).
void openLinksOutside(QTextBrowser* browser) {
  browser->setOpenLinks(false);
  QObject::connect(browser, &QTextBrowser::anchorClicked, browser, [browser](const QUrl& url) {
    if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"))
      QDesktopServices::openUrl(url);
    else if (url.hasFragment() && url.path().isEmpty())
      browser->scrollToAnchor(url.fragment());
  });
}

}  // namespace

QString manualMarkdown() {
  initResources();
  QFile file(QString::fromLatin1(kManualResource));
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

QDialog* showManual(QWidget* parent) {
  const QString name = QStringLiteral("manualDialog");
  if (QDialog* d = existing(parent, name).dialog) {
    present(d);
    return d;
  }
  auto* d = new QDialog(parent);
  d->setObjectName(name);
  d->setAttribute(Qt::WA_DeleteOnClose);
  d->setWindowTitle(QDialog::tr("ConvoLab — User Manual"));
  auto* browser = new QTextBrowser(d);
  browser->setObjectName(QStringLiteral("manualBrowser"));
  browser->setSearchPaths({QString::fromLatin1(kManualFolder)});  // guide/NAME.png, compiled in
  openLinksOutside(browser);
  const QString markdown = manualMarkdown();
  if (markdown.isEmpty())
    browser->setPlainText(QDialog::tr("The manual is not compiled into this build (%1 is missing).")
                              .arg(QString::fromLatin1(kManualResource)));
  else
    browser->setMarkdown(markdown);

  auto* find = new QLineEdit(d);
  find->setObjectName(QStringLiteral("manualFind"));
  find->setPlaceholderText(QDialog::tr("Find in the manual (Enter: next)"));
  find->setClearButtonEnabled(true);
  auto* status = new QLabel(d);
  QObject::connect(find, &QLineEdit::returnPressed, browser, [browser, find, status] {
    if (find->text().isEmpty()) return;
    bool found = browser->find(find->text());
    if (!found) {  // wrap around
      browser->moveCursor(QTextCursor::Start);
      found = browser->find(find->text());
    }
    status->setText(found ? QString() : QDialog::tr("not found"));
  });
  auto* close = new QDialogButtonBox(QDialogButtonBox::Close, d);
  QObject::connect(close, &QDialogButtonBox::rejected, d, &QDialog::close);
  // Enter belongs to the find box: QDialog makes the first auto-default button its default, and the line
  // edit passes Enter on after returnPressed, so Enter used to press Close and shut the manual.
  for (QAbstractButton* b : close->buttons())
    if (auto* push = qobject_cast<QPushButton*>(b)) {
      push->setAutoDefault(false);
      push->setDefault(false);
    }
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(find, 1);
  bottom->addWidget(status);
  bottom->addWidget(close);
  auto* layout = new QVBoxLayout(d);
  layout->addWidget(browser, 1);
  layout->addLayout(bottom);
  d->resize(fitScreen(parent, 960, 900));
  openDialogs()[name] = {d, browser};
  present(d);
  return d;
}

QDialog* showHtmlDialog(QWidget* parent, const QString& objectName, const QString& title, const QString& html,
                        int width) {
  const OpenDialog open = existing(parent, objectName);
  QDialog* d = open.dialog;
  QTextBrowser* browser = open.browser;
  if (!d) {
    d = new QDialog(parent);
    d->setObjectName(objectName);
    d->setAttribute(Qt::WA_DeleteOnClose);
    browser = new QTextBrowser(d);
    openLinksOutside(browser);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, d);
    QObject::connect(close, &QDialogButtonBox::rejected, d, &QDialog::close);
    auto* layout = new QVBoxLayout(d);
    layout->addWidget(browser, 1);
    layout->addWidget(close);
    openDialogs()[objectName] = {d, browser};
  }
  d->setWindowTitle(title);
  browser->setHtml(html);
  // As tall as the text, up to 90 % of the screen (then it scrolls): F1's list in a QMessageBox was taller
  // than a 768-line screen. Measured on a document of its own: the browser's is laid out to the width of
  // its viewport, not shown yet.
  QTextDocument measure;
  measure.setDefaultFont(browser->font());
  measure.setDefaultStyleSheet(browser->document()->defaultStyleSheet());
  measure.setHtml(html);
  measure.setTextWidth(width - 60);
  d->resize(fitScreen(parent, width, static_cast<int>(measure.size().height()) + 90));
  present(d);
  return d;
}

}  // namespace convolab::gui
