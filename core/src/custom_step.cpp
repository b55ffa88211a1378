// SPDX-License-Identifier: MIT
// CustomStep: the user's code wrapped, built through the context's cache, one work-item per pixel.
#include "custom_step.hpp"

#include "convolab/error.hpp"
#include "strategy_support.hpp"

namespace convolab {

cl::Program buildCustomProgram(Context& ctx, const CustomKernel& kernel, const FilterSet& border,
                               std::vector<KernelDiagnostic>* warnings) {
  cl::Program program;
  try {
    program = ctx.buildProgram(wrapCustomKernelSource(kernel), baseBuildOptions(border), "custom");
  } catch (const BuildError& e) {
    throw CustomKernelError(parseBuildDiagnostics(e.log(), customCodeSpan(kernel)), e.log());
  }
  if (warnings) {
    warnings->clear();
    std::string log;
    try {
      log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(ctx.clDevice());
    } catch (const cl::Error&) {
    }
    if (log.find("warning") != std::string::npos)
      for (KernelDiagnostic& d : parseBuildDiagnostics(log, customCodeSpan(kernel)))
        if (!d.isError) warnings->push_back(std::move(d));
  }
  return program;
}

void CustomStep::prepare(Context& ctx, const ChainStep& step) {
  if (!step.custom) throw Error(ErrorKind::BadInput, "CustomStep::prepare: not a custom step");
  const std::string source = wrapCustomKernelSource(*step.custom);
  const std::string options = baseBuildOptions(step.filter);
  if (source != m_source || options != m_options) {
    m_kernel = cl::Kernel(buildCustomProgram(ctx, *step.custom, step.filter, &m_warnings), "convolve_custom");
    m_source = source;
    m_options = options;
  }
  m_params = {};
  for (size_t i = 0; i < step.custom->params.size(); ++i)
    m_params.s[i] = static_cast<float>(step.custom->params[i].value);
  m_border = borderValuesOf(step.filter);
}

std::vector<NamedEvent> CustomStep::enqueue(Context& ctx, const FrameBuffers& frame,
                                            const std::vector<cl::Event>& waitFor, double time) {
  setArgs(m_kernel, frame.input, frame.output, frame.width, frame.height, static_cast<float>(time), m_border,
          m_params);
  const cl::NDRange local(16, 8);
  const cl::NDRange global(roundUp(static_cast<size_t>(frame.width), 16),
                           roundUp(static_cast<size_t>(frame.height), 8));
  return {launch2d(ctx, m_kernel, "convolve_custom", global, local, waitFor)};
}

}  // namespace convolab
