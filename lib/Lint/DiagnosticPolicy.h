//===- DiagnosticPolicy.h - What becomes of each diagnostic -----*- C++ -*-===//
//
// One filter decides every diagnostic's fate, for .ptx and C++ buffers alike:
// configuration (severity overrides, disabled rules), then the suppression
// comments of the buffer, then -Werror. Unused suppressions are reported at
// the end (X001), malformed ones at the start (X002).
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_LINT_DIAGNOSTICPOLICY_H
#define PTXLINT_LINT_DIAGNOSTICPOLICY_H

#include "Suppress/Suppressions.h"
#include "ptxlint/Linter.h"

#include <optional>
#include <unordered_map>

namespace ptxlint {

class DiagnosticPolicy {
public:
  DiagnosticPolicy(const SourceBuffer &Buffer, const LintOptions &Opts);
  DiagnosticPolicy(const DiagnosticPolicy &) = delete;
  /// Reads the suppression comments that start before Offset, so that a
  /// pass over the text (the lint's scan) reads them while the text is in
  /// memory. Nothing may be decided before begin(): the set is not complete
  /// yet (a "disable-file" comment may come last).
  void searchBefore(uint32_t Offset);
  /// Reads the suppression comments not read yet, installs the filter on
  /// Diags (which must not outlive this policy) and reports the malformed
  /// suppression comments through it.
  void begin(DiagnosticEngine &Diags);
  /// The severity D gets (Ignored: dropped), from its default S. Deciding
  /// again on the result changes nothing, so lint() decides as diagnostics
  /// come and again when it reports the ones it held.
  Severity decide(const Diagnostic &D, Severity S);
  /// Reports the suppressions that suppressed nothing.
  void end(DiagnosticEngine &Diags);

private:
  void filter(DiagnosticEngine &Diags);
  const LintOptions &Opts;
  std::unordered_map<std::string, Severity> Overrides;
  std::vector<Diagnostic> InvalidSuppressions;
  std::optional<SuppressionSet> Supp;
};

} // namespace ptxlint
#endif
