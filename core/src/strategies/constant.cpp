// constant: placeholder until implemented; declines with a reason so the engine falls back.
#include "../strategy_support.hpp"

namespace convolab {
namespace {

class ConstantStrategy final : public Strategy {
 public:
  std::string name() const override { return "constant"; }
  std::optional<std::string> unsupportedReason(const Context&, const FilterSet&) const override {
    return "not implemented yet";
  }
  void prepare(Context&, const FilterSet&, int, int) override {}
  std::vector<NamedEvent> enqueue(Context&, const FrameBuffers&, const std::vector<cl::Event>&) override { return {}; }
};

}  // namespace

std::unique_ptr<Strategy> makeConstantStrategy() { return std::make_unique<ConstantStrategy>(); }

}  // namespace convolab
