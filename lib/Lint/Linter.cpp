//===- Linter.cpp - Scan, parse, run the passes ---------------------------===//

#include "ptxlint/Linter.h"

#include "Lint/DiagnosticPolicy.h"
#include "Lint/Passes.h"
#include "Parse/Scanner.h"
#include "Parse/StatementFilter.h"
#include "Parse/StatementParser.h"
#include "ptxlint/LintContext.h"
#include "ptxlint/RuleRegistry.h"

#include <algorithm>
#include <thread>

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
  S.Effective = effectiveTarget(S.Targets);
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

namespace {

/// Statements per batch: a few thousand instructions' AST at a time (about
/// 2 MB on async-dense code).
constexpr uint32_t BatchStatements = 16384;

/// Splits the module into batches of whole functions of about
/// BatchStatements statements each (a larger function is a batch of its
/// own), and of at least MinBodies function bodies, so that the flow pass's
/// threads have a function each. Module-scope statements go with the
/// functions around them. A batch closes only where no function of it
/// reaches further, so every function's statements lie in its batch also in
/// malformed nesting.
std::vector<StatementBatch> batchesOf(const Module &M, unsigned MinBodies) {
  std::vector<StatementBatch> Out;
  StatementBatch B;
  uint32_t Reach = 0; // one past the last statement of the batch's functions
  unsigned Bodies = 0;
  const uint32_t NF = uint32_t(M.Functions.size());
  for (uint32_t K = 0; K < NF; ++K) {
    const Function &F = M.Functions[K];
    Reach = std::max({Reach, F.EndStatement, F.HeaderStatement + 1});
    Bodies += !F.IsPrototype;
    bool NextInside = K + 1 < NF && M.Functions[K + 1].HeaderStatement < Reach;
    if (Reach - B.Begin >= BatchStatements && Bodies >= MinBodies && !NextInside) {
      Bodies = 0;
      B.End = Reach;
      B.EndFunction = K + 1;
      Out.push_back(B);
      B = {Reach, Reach, K + 1, K + 1};
    }
  }
  B.End = std::max(Reach, uint32_t(M.Statements.size()));
  B.EndFunction = NF;
  if (B.Begin < B.End || Out.empty())
    Out.push_back(B);
  return Out;
}

/// A pass's diagnostics, held unfiltered until every stage has run, then
/// reported in the order of a whole-module run (the policy's filter and the
/// limit see the same sequence as before streaming).
struct StageDiags {
  DiagnosticEngine Engine;
  void replay(DiagnosticEngine &Into) {
    for (Diagnostic &D : Engine.take())
      Into.report(std::move(D));
  }
};

/// Parses the statements of Selected that pass Want, in order; their
/// diagnostics, tagged with the statement, go to Out.
template <typename Pred>
void parseSelected(StatementParser &Parser, DiagnosticEngine &Scratch,
                   const std::vector<uint32_t> &Selected, size_t From,
                   size_t To, Pred Want,
                   std::vector<std::pair<uint32_t, Diagnostic>> &Out) {
  for (size_t X = From; X < To; ++X) {
    uint32_t K = Selected[X];
    if (!Want(K))
      continue;
    Parser.parse(K);
    if (!Scratch.diagnostics().empty())
      for (Diagnostic &D : Scratch.take())
        Out.emplace_back(K, std::move(D));
  }
}

} // namespace

LintResult lint(const SourceBuffer &Buffer, const LintOptions &Opts) {
  DiagnosticEngine Diags;
  DiagnosticPolicy Policy(Buffer, Opts);
  Policy.begin(Diags);
  LintResult R;
  Module M;
  scanModule(Buffer.text(), M, Diags);
  R.Statements = M.Statements.size();
  std::vector<uint32_t> Selected;
  for (uint32_t K = 0; K < M.Statements.size(); ++K)
    if (needsFullParse(M.Statements[K], M.Text))
      Selected.push_back(K);
  R.ParsedStatements = Selected.size();

  // Module-level facts first: directives, declarations, function headers.
  DiagnosticEngine ParseScratch;
  std::vector<std::pair<uint32_t, Diagnostic>> ParseDiags;
  StatementParser Parser(M, ParseScratch);
  auto IsInstruction = [&](uint32_t K) {
    return M.Statements[K].Kind == StatementKind::Instruction;
  };
  parseSelected(Parser, ParseScratch, Selected, 0, Selected.size(),
                [&](uint32_t K) { return !IsInstruction(K); }, ParseDiags);
  SymbolTable Symbols(M);
  ModuleSettings Settings = settingsFor(M, Opts);
  auto Passes = createAllPasses();
  std::vector<StageDiags> PassDiags(Passes.size());
  std::vector<LintContext> Contexts;
  Contexts.reserve(Passes.size());
  for (StageDiags &S : PassDiags)
    Contexts.push_back({Buffer, M, Symbols, Opts, Settings, S.Engine});
  for (size_t P = 0; P < Passes.size(); ++P)
    Passes[P]->runModule(Contexts[P]);

  // Then the instructions, one batch of functions at a time.
  size_t X = 0;
  unsigned Threads = Opts.Threads ? Opts.Threads
                                  : std::max(1u, std::thread::hardware_concurrency());
  for (const StatementBatch &B : batchesOf(M, Threads)) {
    size_t From = X;
    size_t Count = 0;
    for (; X < Selected.size() && Selected[X] < B.End; ++X)
      Count += IsInstruction(Selected[X]);
    M.Instructions.clear(); // keeps the capacity for the next batch
    M.Instructions.reserve(Count);
    parseSelected(Parser, ParseScratch, Selected, From, X, IsInstruction,
                  ParseDiags);
    for (size_t P = 0; P < Passes.size(); ++P)
      Passes[P]->runBatch(Contexts[P], B);
    for (size_t Y = From; Y < X; ++Y)
      if (IsInstruction(Selected[Y]))
        M.Statements[Selected[Y]].ParsedIndex = -1;
  }
  M.Instructions = {};

  std::stable_sort(ParseDiags.begin(), ParseDiags.end(),
                   [](const auto &A, const auto &B) { return A.first < B.first; });
  for (auto &[K, D] : ParseDiags)
    Diags.report(std::move(D));
  for (StageDiags &S : PassDiags)
    S.replay(Diags);
  Policy.end(Diags);
  R.Errors = Diags.errorCount();
  R.Warnings = Diags.warningCount();
  R.Diagnostics = Diags.take();
  return R;
}

} // namespace ptxlint
