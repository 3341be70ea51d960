//===- Diagnostic.h - Diagnostics with ranges, notes and fix-its -*- C++ -*-===//
//
// A Diagnostic is plain data: severity, stable rule code, message, primary
// range, notes and fix-its. Checkers report through a DiagnosticEngine, which
// applies severity overrides and suppressions before storing them; renderers
// (text, JSON, SARIF, GitHub) only read the stored list.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_DIAGNOSTIC_H
#define PTXLINT_DIAGNOSTIC_H

#include "ptxlint/AST.h"

#include <functional>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

namespace ptxlint {

enum class Severity { Ignored, Note, Remark, Warning, Error, Fatal };

namespace rules {
enum Id : unsigned; // RuleRegistry.h: one enumerator per line of Rules.def
} // namespace rules

const char *severityName(Severity S);

struct FixIt {
  SourceRange Range;       ///< text to replace (empty range = insertion)
  std::string Replacement;
};

struct DiagNote {
  std::string Message;
  std::optional<SourceRange> Range; ///< none: a note without a location
};

struct Diagnostic {
  Severity Level = Severity::Error;
  std::string Code;       ///< stable rule code, e.g. "A101"
  std::string Message;
  SourceRange Range;      ///< primary range: caret at Begin, ~~~ to End
  std::vector<DiagNote> Notes;
  std::vector<FixIt> Fixes;
};

/// Calls Fn on every range of D: the primary range, each note's and each
/// fix-it's. For code that moves diagnostics onto other text (the C++ front
/// end's snippets, the language server's partial re-lint).
template <typename Fn> void forEachRange(Diagnostic &D, Fn F) {
  F(D.Range);
  for (DiagNote &N : D.Notes)
    if (N.Range)
      F(*N.Range);
  for (FixIt &X : D.Fixes)
    F(X.Range);
}

/// Collects diagnostics for one buffer. A filter (configuration, suppression
/// comments) may rewrite the severity or drop a diagnostic.
class DiagnosticEngine {
public:
  using Filter = std::function<Severity(const Diagnostic &, Severity)>;

  void setFilter(Filter F) { TheFilter = std::move(F); }

  /// Report a diagnostic; returns false if it was dropped by the filter.
  bool report(Diagnostic D);

  const std::vector<Diagnostic> &diagnostics() const { return Diags; }
  std::vector<Diagnostic> take() { return std::move(Diags); }
  unsigned errorCount() const { return NumErrors; }
  unsigned warningCount() const { return NumWarnings; }

  /// Stop storing after this many diagnostics (a fatal note is added once).
  void setLimit(size_t N) { Limit = N; }

private:
  std::vector<Diagnostic> Diags;
  Filter TheFilter;
  unsigned NumErrors = 0, NumWarnings = 0;
  size_t Limit = 0;
  bool LimitHit = false;
};

/// A diagnostic of a rule: its code and default severity from Rules.def.
/// This and the rules::Id constructor below are defined in lib/Rules.
Diagnostic makeDiagnostic(rules::Id Rule, SourceRange R, std::string Msg);

/// Reports a diagnostic when it goes out of scope:
///   DiagBuilder(Engine, rules::MissingVersion, Range, "msg").note(..).fix(..)
/// The rule gives the code and the default severity; the rule's spec section
/// is cited last unless spec() named a more precise one.
class DiagBuilder {
public:
  DiagBuilder(DiagnosticEngine &E, rules::Id Rule, SourceRange R, std::string Msg);
  /// The rule's report at a severity other than its default (a flow rule's
  /// "likely" report: a warning).
  DiagBuilder(DiagnosticEngine &E, rules::Id Rule, Severity S, SourceRange R,
              std::string Msg);
  DiagBuilder(const DiagBuilder &) = delete;
  ~DiagBuilder();
  /// A severity other than the rule's default (a table row that is a warning).
  DiagBuilder &severity(Severity S);
  DiagBuilder &note(std::string Msg);
  DiagBuilder &note(SourceRange R, std::string Msg);
  DiagBuilder &fix(SourceRange R, std::string Replacement);
  DiagBuilder &spec(std::string_view Section); ///< "see PTX ISA 9.7.9.25.4.1"

private:
  DiagnosticEngine &Engine;
  Diagnostic D;
  std::string_view RuleSection; ///< cited at the end unless spec() was called
  bool SpecGiven = false;
};

} // namespace ptxlint

#endif
