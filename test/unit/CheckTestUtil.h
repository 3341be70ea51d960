//===- CheckTestUtil.h - Lint one async-copy instruction in a test -*- C++ -*-===//
#ifndef PTXLINT_TEST_CHECKTESTUTIL_H
#define PTXLINT_TEST_CHECKTESTUTIL_H

#include "ptxlint/Linter.h"

#include <string>
#include <vector>

namespace ptxlint {
namespace test {

/// Test cases named "... (needs ptxas)" run in their own ctest entry,
/// unit-ptxas; without ptxas they end the run with 77, which ctest reports
/// as skipped (a missing input is never a pass).
void skipWithoutPtxas();

/// The diagnostics of one instruction placed in a kernel that declares
/// registers of every type (%h .b16, %r .b32, %rd .b64, %f .f32, %p .pred,
/// smem .shared, gmem .global).
struct Linted {
  std::string Text;
  LintResult R;
  std::vector<std::string> codes() const {
    std::vector<std::string> C;
    for (const Diagnostic &D : R.Diagnostics)
      C.push_back(D.Code);
    return C;
  }
  bool has(const std::string &Code) const {
    for (const Diagnostic &D : R.Diagnostics)
      if (D.Code == Code)
        return true;
    return false;
  }
  const Diagnostic *first(const std::string &Code) const {
    for (const Diagnostic &D : R.Diagnostics)
      if (D.Code == Code)
        return &D;
    return nullptr;
  }
  /// The source text a diagnostic's range covers.
  std::string at(const Diagnostic &D) const {
    return Text.substr(D.Range.Begin, D.Range.End - D.Range.Begin);
  }
  /// The instruction with every fix-it of every diagnostic applied.
  std::string fixed() const;
  bool clean() const { return R.Errors == 0; }
};

Linted lintInstruction(const std::string &Instruction,
                       const std::string &Target = "sm_100a",
                       const std::string &Version = "8.8");

} // namespace test
} // namespace ptxlint
#endif
