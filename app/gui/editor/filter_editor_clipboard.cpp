// SPDX-License-Identifier: MIT
// FilterEditor's clipboard: the filter as plain text (copy, paste with the error's line and column) and as
// OpenCV C++ / Python snippets.
#include <QApplication>
#include <QClipboard>

#include "convolab/filter_io.hpp"
#include "editor/filter_document.hpp"
#include "editor/filter_editor.hpp"
#include "editor/opencv_snippet.hpp"
#include "editor/parse_error_text.hpp"

namespace convolab::gui {

QString FilterEditor::filterText() const {
  return QString::fromStdString(toFilterText(m_document->filter()));
}

bool FilterEditor::pasteText(const QString& text) {
  try {
    const std::string utf8 = text.toStdString();
    const FilterSet pasted = parseFilterText(utf8, m_document->filter(), "<clipboard>");
    m_document->replaceEdited(pasted, tr("Paste filter"));
    showError({});
    emit status(tr("Pasted a %1×%1 filter").arg(pasted.size()));
    return true;
  } catch (const std::exception& e) {
    showError(describeParseError(QString::fromUtf8(e.what()), tr("Cannot paste — ")));
    return false;
  }
}

void FilterEditor::copyToClipboard() {
  QApplication::clipboard()->setText(filterText());
  emit status(tr("Filter copied as text"));
}

void FilterEditor::pasteFromClipboard() {
  pasteText(QApplication::clipboard()->text());
}

QString FilterEditor::openCvCpp() const {
  return openCvCppSnippet(m_document->filter());
}

QString FilterEditor::openCvPython() const {
  return openCvPythonSnippet(m_document->filter());
}

void FilterEditor::copyOpenCvCpp() {
  QApplication::clipboard()->setText(openCvCpp());
  emit status(tr("Filter copied as OpenCV C++ (cv::filter2D)"));
}

void FilterEditor::copyOpenCvPython() {
  QApplication::clipboard()->setText(openCvPython());
  emit status(tr("Filter copied as OpenCV Python (cv2.filter2D)"));
}

}  // namespace convolab::gui
