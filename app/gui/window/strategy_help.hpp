// SPDX-License-Identifier: MIT
// Help ▸ What Is This Strategy?: each strategy's one line (the registry's `description`, also the tooltips
// of the strategy menu and boxes), how it works in a few lines and when it wins, as HTML for a dialog.
#pragma once

#include <QString>

#include "convolab/strategy_id.hpp"

class QWidget;

namespace convolab::gui {

struct StrategyHelp {
  QString name;     ///< registry name: "tiled"
  QString summary;  ///< the registry's one-line description
  QString how;      ///< how it works, 3–5 lines
  QString wins;     ///< when it is the fastest (measured: docs/BENCHMARKS.md)
};

/// The help of registry strategy `name`; an empty `how` when the name is unknown.
StrategyHelp strategyHelp(const QString& name);

/// The dialog's text: the strategy asked for (`requested`, "auto" or a name) and, when auto runs something
/// else now (`live`, "auto:tiled/16x8"), that strategy too.
QString strategyHelpHtml(const QString& requested, const StrategyId& live);

/// Opens (non-modal) the What Is This Strategy? dialog with strategyHelpHtml.
void showStrategyHelp(QWidget* parent, const QString& requested, const StrategyId& live);

}  // namespace convolab::gui
