// SPDX-License-Identifier: MIT
// The preview's chain: one of two offers, published to the pipeline only when what runs changes.
#include "preview_chain_choice.hpp"

#include "processing/pipeline.hpp"

namespace convolab::gui {

PreviewChainChoice::PreviewChainChoice(Pipeline* pipeline) : QObject(pipeline), m_pipeline(pipeline) {
  setObjectName(QStringLiteral("previewChainChoice"));
}

PreviewChainChoice* PreviewChainChoice::of(Pipeline* pipeline) {
  if (auto* existing = pipeline->findChild<PreviewChainChoice*>(QString(), Qt::FindDirectChildrenOnly))
    return existing;
  return new PreviewChainChoice(pipeline);
}

void PreviewChainChoice::offer(Owner owner, std::optional<FilterChain> chain) {
  (owner == Owner::CustomKernel ? m_custom : m_list) = std::move(chain);
  publish();
}

void PreviewChainChoice::announceOn(Owner owner) {
  emit switchedOn(owner);
}

void PreviewChainChoice::publish() {
  const std::optional<FilterChain>& wanted = m_custom ? m_custom : m_list;
  // An off dock re-offering nothing is no edit: no new revision for the editor's filter.
  if (!wanted && !m_pipeline->runsChain()) return;
  m_pipeline->setChain(wanted);
}

}  // namespace convolab::gui
