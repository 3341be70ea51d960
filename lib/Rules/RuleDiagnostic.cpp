//===- RuleDiagnostic.cpp - Diagnostics of a rule, by rule id ------------===//
//
// The half of Diagnostic.h that reads the rule registry (code, default
// severity and spec section of a rules::Id). It is defined here, not in
// lib/Support, so that Support stays below Rules: Rules uses Support's
// Severity, and Support never calls into Rules (test/layering).
//
//===----------------------------------------------------------------------===//

#include "ptxlint/Diagnostic.h"
#include "ptxlint/RuleRegistry.h"

namespace ptxlint {

Diagnostic makeDiagnostic(rules::Id Rule, SourceRange R, std::string Msg) {
  const RuleInfo &Info = ruleInfo(Rule);
  Diagnostic D;
  D.Level = Info.DefaultSeverity;
  D.Code = std::string(Info.Code);
  D.Range = R;
  D.Message = std::move(Msg);
  return D;
}

DiagBuilder::DiagBuilder(DiagnosticEngine &E, rules::Id Rule, SourceRange R,
                         std::string Msg)
    : Engine(E), D(makeDiagnostic(Rule, R, std::move(Msg))),
      RuleSection(ruleInfo(Rule).Section) {}

DiagBuilder::DiagBuilder(DiagnosticEngine &E, rules::Id Rule, Severity S,
                         SourceRange R, std::string Msg)
    : DiagBuilder(E, Rule, R, std::move(Msg)) {
  D.Level = S;
}

} // namespace ptxlint
