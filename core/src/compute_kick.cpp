// SPDX-License-Identifier: MIT
// ComputeKick: a one-work-item kernel (or a 4-byte copy) on its own queue, flushed, not waited for.
#include "convolab/compute_kick.hpp"

#include "convolab/context.hpp"
#include "convolab/error.hpp"

namespace convolab {

namespace {
constexpr const char* kSource = "__kernel void kick(__global uint* n) { n[0] += 1u; }";

std::string failure(const char* call, cl_int code) {
  return std::string(call) + " → " + clErrorName(code) + " (" + std::to_string(code) + ")";
}
}  // namespace

std::optional<ComputeKick::Work> ComputeKick::parseWork(std::string_view text) {
  for (Work w : {Work::None, Work::Kernel, Work::Copy, Work::All})
    if (text == workName(w)) return w;
  if (text == "none" || text == "off") return Work::None;
  return std::nullopt;
}

const char* ComputeKick::workName(Work work) {
  switch (work) {
    case Work::None:
      return "0";
    case Work::Kernel:
      return "kernel";
    case Work::Copy:
      return "copy";
    case Work::All:
      return "all";
  }
  return "0";
}

ComputeKick::ComputeKick(cl_context context, cl_device_id device, Work work)
    : m_context(context), m_device(device), m_work(work) {
  if (m_context) clRetainContext(m_context);
  setUp();
}

ComputeKick::ComputeKick(const Context& context, Work work)
    : ComputeKick(context.context()(), context.clDevice()(), work) {}

void ComputeKick::setUp() {
  if (!m_context || !m_device) {
    m_error = "no OpenCL context";
    return;
  }
  cl_int e = CL_SUCCESS;
  m_queue = clCreateCommandQueue(m_context, m_device, 0, &e);
  if (e != CL_SUCCESS) return void(m_error = failure("clCreateCommandQueue", e));
  m_buffer = clCreateBuffer(m_context, CL_MEM_READ_WRITE, 16, nullptr, &e);
  if (e != CL_SUCCESS) return void(m_error = failure("clCreateBuffer", e));
  const char* source = kSource;
  m_program = clCreateProgramWithSource(m_context, 1, &source, nullptr, &e);
  if (e != CL_SUCCESS) return void(m_error = failure("clCreateProgramWithSource", e));
  e = clBuildProgram(m_program, 1, &m_device, "", nullptr, nullptr);
  if (e != CL_SUCCESS) return void(m_error = failure("clBuildProgram", e));
  m_kernel = clCreateKernel(m_program, "kick", &e);
  if (e != CL_SUCCESS) return void(m_error = failure("clCreateKernel", e));
  e = clSetKernelArg(m_kernel, 0, sizeof(cl_mem), &m_buffer);
  if (e != CL_SUCCESS) return void(m_error = failure("clSetKernelArg", e));
  const cl_uint zero[4] = {0, 0, 0, 0};
  e = clEnqueueWriteBuffer(m_queue, m_buffer, CL_TRUE, 0, sizeof zero, zero, 0, nullptr, nullptr);
  if (e != CL_SUCCESS) return void(m_error = failure("clEnqueueWriteBuffer", e));
}

ComputeKick::~ComputeKick() {
  if (m_queue) clFinish(m_queue);  // the copy's host words and the buffer outlive what is in flight
  if (m_kernel) clReleaseKernel(m_kernel);
  if (m_program) clReleaseProgram(m_program);
  if (m_buffer) clReleaseMemObject(m_buffer);
  if (m_queue) clReleaseCommandQueue(m_queue);
  if (m_context) clReleaseContext(m_context);
}

bool ComputeKick::kick() {
  if (!ok() || m_work == Work::None) return false;
  cl_int e = CL_SUCCESS;
  // Copy: 4 bytes up into the buffer's second word, 4 bytes down from it.
  const bool copy = m_work == Work::Copy || m_work == Work::All;
  if (copy) e = clEnqueueWriteBuffer(m_queue, m_buffer, CL_FALSE, 4, 4, &m_host[0], 0, nullptr, nullptr);
  if (e == CL_SUCCESS && (m_work == Work::Kernel || m_work == Work::All)) {
    const std::size_t one = 1;
    e = clEnqueueNDRangeKernel(m_queue, m_kernel, 1, nullptr, &one, &one, 0, nullptr, nullptr);
  }
  if (e == CL_SUCCESS && copy)
    e = clEnqueueReadBuffer(m_queue, m_buffer, CL_FALSE, 4, 4, &m_host[1], 0, nullptr, nullptr);
  clFlush(m_queue);
  if (e != CL_SUCCESS) return false;
  ++m_kicks;
  return true;
}

std::uint64_t ComputeKick::kernelsRun() {
  if (!ok()) return 0;
  cl_uint n = 0;
  if (clEnqueueReadBuffer(m_queue, m_buffer, CL_TRUE, 0, sizeof n, &n, 0, nullptr, nullptr) != CL_SUCCESS)
    return 0;
  return n;
}

}  // namespace convolab
