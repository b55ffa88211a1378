// separable: placeholder until implemented; declines with a reason so the engine falls back.
#include "../strategy_support.hpp"

namespace convolab {
namespace {

class SeparableStrategy final : public Strategy {
 public:
  std::string name() const override { return "separable"; }
  std::optional<std::string> unsupportedReason(const Context&, const FilterSet&) const override {
    return "not implemented yet";
  }
  void prepare(Context&, const FilterSet&, int, int) override {}
  std::vector<NamedEvent> enqueue(Context&, const FrameBuffers&, const std::vector<cl::Event>&) override { return {}; }
};

}  // namespace

std::unique_ptr<Strategy> makeSeparableStrategy() { return std::make_unique<SeparableStrategy>(); }

}  // namespace convolab
