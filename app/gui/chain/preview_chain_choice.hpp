// SPDX-License-Identifier: MIT
// PreviewChainChoice: which chain the preview runs instead of the editor's filter — the Custom OpenCL dock's
// kernel or the Chain dock's list. Their switches exclude each other: the last one switched on wins.
#pragma once

#include <QObject>
#include <optional>

#include "convolab/filter_chain.hpp"

namespace convolab::gui {

class Pipeline;

class PreviewChainChoice : public QObject {
  Q_OBJECT

 public:
  enum class Owner { CustomKernel, ChainList };

  /// The one choice of `pipeline`, made on first use as its child (both docks reach it without an order of
  /// construction between them).
  static PreviewChainChoice* of(Pipeline* pipeline);

  /// What `owner` would run: its chain while its switch is on, nullopt while off (or nothing valid to run).
  /// The pipeline runs the Custom OpenCL chain if offered, else the list's, else the editor's filter.
  void offer(Owner owner, std::optional<FilterChain> chain);
  /// `owner`'s switch went on: the other owner is told to switch off (switchedOn).
  void announceOn(Owner owner);

 signals:
  /// `owner` switched on; any other owner switches its own switch off.
  void switchedOn(convolab::gui::PreviewChainChoice::Owner owner);

 private:
  explicit PreviewChainChoice(Pipeline* pipeline);
  void publish();

  Pipeline* m_pipeline;
  std::optional<FilterChain> m_custom;
  std::optional<FilterChain> m_list;
};

}  // namespace convolab::gui
