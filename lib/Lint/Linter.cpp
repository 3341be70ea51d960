//===- Linter.cpp - Scan, parse, run the passes ---------------------------===//

#include "ptxlint/Linter.h"

#include "Lint/DiagnosticPolicy.h"
#include "Lint/Passes.h"
#include "Parse/Scanner.h"
#include "Parse/StatementFilter.h"
#include "Parse/StatementParser.h"
#include "ptxlint/LintContext.h"
#include "ptxlint/RuleRegistry.h"

namespace ptxlint {

Module parseModule(const SourceBuffer &Buffer, DiagnosticEngine &Diags,
                   size_t *ParsedStatements) {
  Module M;
  scanModule(Buffer.text(), M, Diags);
  // Select first, then parse: knowing the count lets the instruction array
  // be allocated once instead of growing (growth held two copies at peak).
  std::vector<uint32_t> Selected;
  size_t SelectedInstructions = 0; // declarations and headers build none
  for (uint32_t K = 0; K < M.Statements.size(); ++K)
    if (needsFullParse(M.Statements[K], M.Text)) {
      Selected.push_back(K);
      SelectedInstructions += M.Statements[K].Kind == StatementKind::Instruction;
    }
  M.Instructions.reserve(SelectedInstructions);
  StatementParser Parser(M, Diags);
  for (uint32_t K : Selected)
    Parser.parse(K);
  size_t Parsed = Selected.size();
  if (ParsedStatements)
    *ParsedStatements = Parsed;
  return M;
}

static ModuleSettings settingsFor(const Module &M, const LintOptions &Opts) {
  ModuleSettings S;
  const ModuleDirectives &D = M.Directives;
  if (D.HasVersion && !(Opts.OverridePtxVersion && Opts.PtxVersion)) {
    S.PtxMajor = D.VersionMajor;
    S.PtxMinor = D.VersionMinor;
    S.VersionRange = D.VersionRange;
  } else if (Opts.PtxVersion) {
    S.PtxMajor = Opts.PtxVersion->first;
    S.PtxMinor = Opts.PtxVersion->second;
    S.VersionFromOptions = true;
  }
  if (!D.Targets.empty() && !(Opts.OverrideTarget && Opts.Target)) {
    for (std::string_view T : D.Targets)
      S.Targets.emplace_back(T);
    S.TargetRange = D.TargetRange;
  } else if (Opts.Target) {
    S.Targets.push_back(*Opts.Target);
  }
  return S;
}

DiagnosticPolicy::DiagnosticPolicy(const SourceBuffer &Buffer,
                                   const LintOptions &Opts)
    : Opts(Opts) {
  for (const auto &[Code, Sev] : Opts.SeverityOverrides)
    Overrides[Code] = Sev;
  if (Opts.Suppressions)
    Supp.emplace(SuppressionSet::parse(Buffer, InvalidSuppressions));
}

void DiagnosticPolicy::begin(DiagnosticEngine &Diags) {
  if (Opts.MaxDiagnostics)
    Diags.setLimit(Opts.MaxDiagnostics);
  if (!Overrides.empty() || Opts.WarningsAsErrors || (Supp && !Supp->empty())) {
    Diags.setFilter([this](const Diagnostic &D, Severity S) {
      if (auto It = Overrides.find(D.Code); It != Overrides.end())
        S = It->second;
      if (S == Severity::Ignored)
        return S;
      if (Supp && Supp->suppresses(D))
        return Severity::Ignored;
      if (Opts.WarningsAsErrors && S == Severity::Warning)
        S = Severity::Error;
      return S;
    });
  }
  for (Diagnostic &D : InvalidSuppressions)
    Diags.report(std::move(D));
  InvalidSuppressions.clear();
}

void DiagnosticPolicy::end(DiagnosticEngine &Diags) {
  if (Supp)
    for (Diagnostic &D : Supp->unused())
      Diags.report(std::move(D));
}

LintResult lint(const SourceBuffer &Buffer, const LintOptions &Opts) {
  DiagnosticEngine Diags;
  DiagnosticPolicy Policy(Buffer, Opts);
  Policy.begin(Diags);
  LintResult R;
  Module M = parseModule(Buffer, Diags, &R.ParsedStatements);
  R.Statements = M.Statements.size();
  SymbolTable Symbols(M);
  LintContext Ctx{Buffer, M, Symbols, Opts, settingsFor(M, Opts), Diags};
  for (auto &Pass : createAllPasses())
    Pass->run(Ctx);
  Policy.end(Diags);
  R.Errors = Diags.errorCount();
  R.Warnings = Diags.warningCount();
  R.Diagnostics = Diags.take();
  return R;
}

} // namespace ptxlint
