// SPDX-License-Identifier: MIT
// The filter as plain text and as OpenCV snippets, to and from the system clipboard.
#include "editor/filter_clipboard.hpp"

#include <QApplication>
#include <QClipboard>

#include "convolab/filter_io.hpp"
#include "editor/filter_document.hpp"
#include "editor/opencv_snippet.hpp"
#include "editor/parse_error_text.hpp"

namespace convolab::gui {

FilterClipboard::FilterClipboard(FilterDocument* document, QObject* parent)
    : QObject(parent), m_document(document) {}

QString FilterClipboard::filterText() const {
  return QString::fromStdString(toFilterText(m_document->filter()));
}

bool FilterClipboard::pasteText(const QString& text) {
  try {
    const std::string utf8 = text.toStdString();
    const FilterSet pasted = parseFilterText(utf8, m_document->filter(), "<clipboard>");
    m_document->replaceEdited(pasted, tr("Paste filter"));
    emit message({});
    emit status(tr("Pasted a %1×%1 filter").arg(pasted.size()));
    return true;
  } catch (const std::exception& e) {
    emit message(describeParseError(QString::fromUtf8(e.what()), tr("Cannot paste — ")));
    return false;
  }
}

void FilterClipboard::copyToClipboard() {
  QApplication::clipboard()->setText(filterText());
  emit status(tr("Filter copied as text"));
}

void FilterClipboard::pasteFromClipboard() {
  pasteText(QApplication::clipboard()->text());
}

QString FilterClipboard::openCvCpp() const {
  return openCvCppSnippet(m_document->filter());
}

QString FilterClipboard::openCvPython() const {
  return openCvPythonSnippet(m_document->filter());
}

void FilterClipboard::copyOpenCvCpp() {
  QApplication::clipboard()->setText(openCvCpp());
  emit status(tr("Filter copied as OpenCV C++ (cv::filter2D)"));
}

void FilterClipboard::copyOpenCvPython() {
  QApplication::clipboard()->setText(openCvPython());
  emit status(tr("Filter copied as OpenCV Python (cv2.filter2D)"));
}

}  // namespace convolab::gui
