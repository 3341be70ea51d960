//===- Diagnostic.cpp - The diagnostics engine ----------------------------===//

#include "ptxlint/Diagnostic.h"

namespace ptxlint {

const char *severityName(Severity S) {
  switch (S) {
  case Severity::Ignored:
    return "ignored";
  case Severity::Note:
    return "note";
  case Severity::Remark:
    return "remark";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  case Severity::Fatal:
    return "fatal error";
  }
  return "error";
}

bool DiagnosticEngine::report(Diagnostic D) {
  if (TheFilter)
    D.Level = TheFilter(D, D.Level);
  if (D.Level == Severity::Ignored)
    return false;
  if (D.Level >= Severity::Error)
    ++NumErrors;
  else if (D.Level == Severity::Warning)
    ++NumWarnings;
  if (Limit && Diags.size() >= Limit) {
    if (!LimitHit) {
      LimitHit = true;
      Diagnostic Stop;
      Stop.Level = Severity::Note;
      Stop.Code = D.Code;
      Stop.Range = D.Range;
      Stop.Message = "too many diagnostics; the rest are counted but not shown";
      Diags.push_back(std::move(Stop));
    }
    return true;
  }
  Diags.push_back(std::move(D));
  return true;
}

DiagBuilder::~DiagBuilder() {
  if (!SpecGiven)
    spec(RuleSection);
  Engine.report(std::move(D));
}

DiagBuilder &DiagBuilder::severity(Severity S) {
  D.Level = S;
  return *this;
}

DiagBuilder &DiagBuilder::note(std::string Msg) {
  D.Notes.push_back({std::move(Msg), std::nullopt});
  return *this;
}

DiagBuilder &DiagBuilder::note(SourceRange R, std::string Msg) {
  D.Notes.push_back({std::move(Msg), R});
  return *this;
}

DiagBuilder &DiagBuilder::fix(SourceRange R, std::string Replacement) {
  D.Fixes.push_back({R, std::move(Replacement)});
  return *this;
}

DiagBuilder &DiagBuilder::spec(std::string_view Section) {
  SpecGiven = true;
  if (!Section.empty())
    D.Notes.push_back(
        {"see PTX ISA section " + std::string(Section), std::nullopt});
  return *this;
}

} // namespace ptxlint
