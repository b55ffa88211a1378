// SPDX-License-Identifier: MIT
// Typed errors of the core: each carries a user-facing message and the kind the CLI maps to an exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace convolab {

/// What went wrong, as far as the caller must act on it (CLI exit codes: usage 2, bad input 3, device 4).
enum class ErrorKind { Usage, BadInput, Device };

/// Every error the core throws. The message is meant for a person and names what was wrong.
class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), m_kind(kind) {}
  ErrorKind kind() const { return m_kind; }

 private:
  ErrorKind m_kind;
};

/// An OpenCL call that failed: names the call and the cl_int with its symbolic name.
class ClError : public Error {
 public:
  ClError(const std::string& call, int code, const std::string& detail = {});
  int code() const { return m_code; }
  const std::string& call() const { return m_call; }

 private:
  std::string m_call;
  int m_code;
};

/// A program that failed to build; the message includes the build log.
class BuildError : public Error {
 public:
  BuildError(const std::string& label, const std::string& log);
  const std::string& log() const { return m_log; }

 private:
  std::string m_log;
};

/// Symbolic name of an OpenCL error code, e.g. "CL_OUT_OF_RESOURCES".
std::string clErrorName(int code);

}  // namespace convolab
