//===- Verify.h - clang-style -verify for .ptx tests ------------*- C++ -*-===//
//
// A test file states the diagnostics it expects in comments:
//   cp.async.ca.shared.global [%r1], [%rd1], 3; // expected-error {{cp-size}}
//   // expected-warning@+1 {{misaligned}}
//   // expected-error@-2 [Q101] {{...}}      (an optional rule code)
//   // expected-no-diagnostics
// Every diagnostic must be expected and every expectation met; the text in
// braces must occur in the message.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_VERIFY_H
#define PTXLINT_VERIFY_H

#include "ptxlint/Diagnostic.h"
#include "ptxlint/SourceBuffer.h"

#include <string>
#include <vector>

namespace ptxlint {

struct VerifyResult {
  bool Ok = true;
  std::string Report; ///< clang-like list of unexpected / unseen diagnostics
  unsigned Expectations = 0;
};

VerifyResult verifyDiagnostics(const SourceBuffer &Buffer,
                               const std::vector<Diagnostic> &Diags);

} // namespace ptxlint
#endif
