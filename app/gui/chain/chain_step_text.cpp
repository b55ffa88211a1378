// SPDX-License-Identifier: MIT
// Step names: the file's names where it has them, the size where it does not.
#include "chain_step_text.hpp"

#include <QCoreApplication>

namespace convolab::gui {
namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("ChainStep", text);
}

QString filterName(const FilterSet& filter) {
  if (!filter.name().empty()) return QString::fromStdString(filter.name());
  return tr("%1×%1").arg(filter.size());
}

}  // namespace

QString describeChainStep(const ChainStep& step) {
  if (step.isCustom())
    return step.filter.name().empty()
               ? tr("custom OpenCL")
               : tr("custom OpenCL: %1").arg(QString::fromStdString(step.filter.name()));
  if (step.isMagnitude())
    return tr("magnitude (%1, %2)").arg(filterName(step.filter), filterName(*step.other));
  return tr("filter: %1").arg(filterName(step.filter));
}

}  // namespace convolab::gui
