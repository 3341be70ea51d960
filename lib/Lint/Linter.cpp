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
#include <functional>
#include <iterator>

namespace ptxlint {

Module parseModule(const SourceBuffer &Buffer, DiagnosticEngine &Diags,
                   size_t *ParsedStatements) {
  Module M;
  scanModule(Buffer.text(), M, Diags);
  // Select first, then parse: knowing the count lets the instruction array
  // be allocated once instead of growing (growth held two copies at peak).
  std::vector<uint32_t> Selected = selectForParse(M);
  M.Instructions.reserve(size_t(std::count_if(
      Selected.begin(), Selected.end(), [&](uint32_t K) {
        return M.Statements[K].Kind == StatementKind::Instruction;
      }))); // declarations and headers build none
  StatementParser Parser(M, Diags);
  for (uint32_t K : Selected)
    Parser.parse(K);
  if (ParsedStatements)
    *ParsedStatements = Selected.size();
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
    Supp.emplace(Buffer); // read by searchBefore() and begin()
}

void DiagnosticPolicy::searchBefore(uint32_t Offset) {
  if (Supp)
    Supp->search(Offset, InvalidSuppressions);
}

void DiagnosticPolicy::begin(DiagnosticEngine &Diags) {
  if (Supp)
    Supp->finish(InvalidSuppressions);
  if (Opts.MaxDiagnostics)
    Diags.setLimit(Opts.MaxDiagnostics);
  filter(Diags);
  for (Diagnostic &D : InvalidSuppressions)
    Diags.report(std::move(D));
  InvalidSuppressions.clear();
}

void DiagnosticPolicy::filter(DiagnosticEngine &Diags) {
  if (!Overrides.empty() || Opts.WarningsAsErrors || (Supp && !Supp->empty()))
    Diags.setFilter([this](const Diagnostic &D, Severity S) { return decide(D, S); });
}

Severity DiagnosticPolicy::decide(const Diagnostic &D, Severity S) {
  if (auto It = Overrides.find(D.Code); It != Overrides.end())
    S = It->second;
  if (S == Severity::Ignored)
    return S;
  if (Supp && Supp->suppresses(D))
    return Severity::Ignored;
  if (Opts.WarningsAsErrors && S == Severity::Warning)
    S = Severity::Error;
  return S;
}

void DiagnosticPolicy::end(DiagnosticEngine &Diags) {
  if (Supp)
    for (Diagnostic &D : Supp->unused())
      Diags.report(std::move(D));
}

namespace {

/// Statements per batch: about a thousand instructions' AST at a time (0.7 MB
/// on async-dense code, where a batch's AST and instruction array are most of
/// the peak after the text and the statement table; 16384 held 3.8 MB, and
/// smaller batches cost no measurable time).
constexpr uint32_t BatchStatements = 4096;

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

/// Diagnostics of one stage, held until every stage has run and then
/// reported in the order of a whole-module run. The policy decides each as it
/// comes (deciding again on replay changes nothing), and with a limit of N
/// shown only the first N + 1 are kept (no more can be shown; the one after
/// the limit names the "too many" note): the rest are counted and dropped, so
/// a module of a million errors holds no more than before streaming.
struct StageDiags {
  DiagnosticEngine Engine; ///< where a pass reports
  size_t Cap = 0;          ///< 0: keep all
  size_t Admitted = 0;
  unsigned DroppedErrors = 0, DroppedWarnings = 0;
  std::vector<std::pair<uint32_t, Diagnostic>> Kept; ///< statement, diagnostic

  Severity admit(DiagnosticPolicy &P, const Diagnostic &D, Severity S) {
    S = P.decide(D, S);
    if (S == Severity::Ignored)
      return S;
    if (!Cap || Admitted < Cap) {
      ++Admitted;
      return S;
    }
    DroppedErrors += S >= Severity::Error;
    DroppedWarnings += S == Severity::Warning;
    return Severity::Ignored;
  }
  /// Admits what was kept undecided, in order, as if it came now.
  void admitHeld(DiagnosticPolicy &P) {
    size_t Out = 0;
    for (size_t K = 0; K < Kept.size(); ++K) {
      Diagnostic &D = Kept[K].second;
      D.Level = admit(P, D, D.Level);
      if (D.Level == Severity::Ignored)
        continue;
      if (Out != K)
        Kept[Out] = std::move(Kept[K]);
      ++Out;
    }
    Kept.resize(Out);
  }
  /// Moves what From collected to Kept, tagged with statement K.
  void collect(DiagnosticEngine &From, uint32_t K) {
    if (From.diagnostics().empty())
      return;
    for (Diagnostic &D : From.take())
      Kept.emplace_back(K, std::move(D));
  }
};

/// Whether any stage has a diagnostic to report.
bool anyFound(const DiagnosticEngine &Diags, const StageDiags &HeadParse,
              const StageDiags &BodyParse, const std::vector<StageDiags> &PassDiags) {
  return !Diags.diagnostics().empty() || HeadParse.Admitted || BodyParse.Admitted ||
         std::any_of(PassDiags.begin(), PassDiags.end(),
                     [](const StageDiags &S) { return S.Admitted != 0; });
}

/// Parses the statements of Selected that pass Want, in order; their
/// diagnostics (reported to Scratch) go to Into, tagged with the statement.
template <typename Pred>
void parseSelected(StatementParser &Parser, DiagnosticEngine &Scratch,
                   const std::vector<uint32_t> &Selected, size_t From,
                   size_t To, Pred Want, StageDiags &Into) {
  auto NextWanted = [&](size_t X) {
    while (X < To && !Want(Selected[X]))
      ++X;
    return X;
  };
  // While K parses, the lexer memo's slot of the next statement parsed
  // loads (its text hashed), and the text of the one after it: each is the
  // batch's first read of that text, a cache miss. The next ones are those
  // parsed, past those not wanted (CUTLASS kernels interleave their
  // instructions with the inline-asm blocks' .reg lines, and an instruction
  // after one was hashed with its text's miss in the way).
  size_t X = NextWanted(From);
  size_t After = X < To ? NextWanted(X + 1) : To;
  while (X < To) {
    uint32_t K = Selected[X];
    X = After;
    After = X < To ? NextWanted(X + 1) : To;
    if (After < To)
      Parser.prefetchText(Selected[After]);
    if (X < To)
      Parser.prefetch(Selected[X]);
    Parser.parse(K);
    Into.collect(Scratch, K);
  }
}

} // namespace

LintResult lint(const SourceBuffer &Buffer, const LintOptions &Opts) {
  DiagnosticEngine Diags;
  DiagnosticPolicy Policy(Buffer, Opts);
  LintResult R;
  Module M;

  // Module-level facts first: directives, declarations, function headers,
  // parsed as the scan passes them (ScanLimits::Passed), while their text
  // is in memory: they are on every page (inline-asm blocks declare
  // predicates, call sequences parameters), and a pass of their own after
  // the scan mapped the dropped text back whole.
  const size_t Cap = Opts.MaxDiagnostics ? Opts.MaxDiagnostics + 1 : 0;
  StageDiags HeadParse, BodyParse; // each in statement order
  HeadParse.Cap = BodyParse.Cap = Cap;
  StageDiags *Parsing = nullptr; // none: held, see Begin
  DiagnosticEngine ParseScratch;
  ParseScratch.setFilter([&](const Diagnostic &D, Severity S) {
    return Parsing ? Parsing->admit(Policy, D, S) : S;
  });

  // The suppression comments and the non-ASCII bytes (S005) are looked for
  // behind the scan, at each ScanLimits::Passed, while the text is in memory
  // (not in passes of their own before the scan, which had the whole text in
  // memory at once: async-dense's peak). Nothing can be decided before the
  // suppression set is whole (a "disable-file" comment may come last), and
  // the S005s come before the scan's diagnostics: what the scan and the head
  // parse report is held undecided until Begin() reads the rest of the text
  // for both, then decided in the order a whole-text pass first would have
  // given. Begin() runs at the scan's end, or early when the limit's worth is
  // held, so that a module of many errors holds no more than with a limit.
  DiagnosticEngine NonAsciiDiags, ScanDiags; // the non-ASCII check's, the scanner's
  NonAsciiCheck NonAscii(Buffer.text(), NonAsciiDiags);
  bool Begun = false;
  auto Begin = [&] {
    Begun = true;
    Policy.begin(Diags); // X002 first
    NonAscii.checkBefore(uint32_t(Buffer.text().size()));
    for (DiagnosticEngine *Held : {&NonAsciiDiags, &ScanDiags})
      for (Diagnostic &D : Held->take())
        Diags.report(std::move(D));
    Parsing = &HeadParse;
    HeadParse.admitHeld(Policy);
  };
  auto HoldFull = [&] {
    return Cap && ScanDiags.diagnostics().size() + HeadParse.Kept.size() >= Cap;
  };
  ScanDiags.setFilter([&](const Diagnostic &D, Severity S) {
    if (!Begun && !HoldFull())
      return S; // held
    if (!Begun)
      Begin();
    Diags.report(D);
    return Severity::Ignored;
  });
  StatementParser Parser(M, ParseScratch);
  auto IsInstruction = [&](uint32_t K) {
    return M.Statements[K].Kind == StatementKind::Instruction;
  };
  // The real modules declare a name per 550-2,700 bytes: room for one per
  // 512 spares them the array's growth (its copies and their first touch:
  // 2 % of async-dense's time); what is not filled is never touched.
  M.Symbols.reserve(Buffer.text().size() / 512);
  // The symbol table gets the declarations copied as they are parsed.
  SymbolTable::Declared Declared;
  size_t Listed = 0, Named = 0; // of M.ParseCandidates, of M.Symbols, done
  auto ParseHeads = [&] {
    for (; Listed < M.ParseCandidates.size(); ++Listed) {
      uint32_t K = M.ParseCandidates[Listed];
      if (IsInstruction(K) || !candidateParsed(M.Statements[K]))
        continue; // an instruction is parsed in its batch
      Parser.parse(K);
      HeadParse.collect(ParseScratch, K);
      if (!Begun && HoldFull())
        Begin();
    }
    Declared.append(M, Named);
    Named = M.Symbols.size();
  };
  // Each pass over the whole text drops mapped text behind it (see
  // SourceBuffer::dropBefore): a pass touches it again only where it reads.
  ScanLimits Limits;
  Limits.Passed = [&](uint32_t Offset) {
    if (!Begun) {
      NonAscii.checkBefore(Offset);
      Policy.searchBefore(Offset);
    }
    ParseHeads();
    Buffer.dropBefore(Offset);
  };
  Limits.NonAsciiByCaller = true;
  Buffer.startPass();
  scanModule(Buffer.text(), M, ScanDiags, Limits);
  if (!Begun)
    Begin();
  ParseHeads(); // those after the last function
  R.Statements = M.Statements.size();
  std::vector<uint32_t> Selected = selectForParse(M);
  R.ParsedStatements = Selected.size();
  SymbolTable Symbols(M, Declared);
  Declared = {};
  ModuleSettings Settings = settingsFor(M, Opts);
  auto Passes = createAllPasses();
  std::vector<StageDiags> PassDiags(Passes.size());
  std::vector<LintContext> Contexts;
  Contexts.reserve(Passes.size());
  for (StageDiags &S : PassDiags) {
    S.Cap = Cap;
    S.Engine.setFilter([&Policy, &S](const Diagnostic &D, Severity Sev) {
      return S.admit(Policy, D, Sev);
    });
    Contexts.push_back({Buffer, M, Symbols, Opts, Settings, S.Engine});
  }
  for (size_t P = 0; P < Passes.size(); ++P) {
    Passes[P]->runModule(Contexts[P]);
    PassDiags[P].collect(PassDiags[P].Engine, 0);
  }

  // Then the instructions, one batch of functions at a time.
  Parsing = &BodyParse;
  Buffer.startPass();
  size_t X = 0;
  for (const StatementBatch &B : batchesOf(M, Opts.threadCount())) {
    size_t From = X;
    size_t Count = 0;
    for (; X < Selected.size() && Selected[X] < B.End; ++X)
      Count += IsInstruction(Selected[X]);
    M.Instructions.clear(); // keeps the capacity for the next batch
    M.Nodes.reset();        // and the blocks of their lists
    M.Instructions.reserve(Count);
    parseSelected(Parser, ParseScratch, Selected, From, X, IsInstruction,
                  BodyParse);
    for (size_t P = 0; P < Passes.size(); ++P) {
      Passes[P]->runBatch(Contexts[P], B);
      PassDiags[P].collect(PassDiags[P].Engine, 0);
    }
    for (size_t Y = From; Y < X; ++Y)
      if (IsInstruction(Selected[Y]))
        M.Statements[Selected[Y]].ParsedIndex = -1;
    uint32_t Passed = B.End < M.Statements.size() ? M.Statements[B.End].Range.Begin
                                                  : uint32_t(Buffer.text().size());
    // Diagnostics print their lines: with one found, the newlines are
    // counted here, while the batch's text is in memory.
    if (anyFound(Diags, HeadParse, BodyParse, PassDiags))
      Buffer.countLinesBefore(Passed);
    if (B.End < M.Statements.size())
      Buffer.dropBefore(Passed);
  }
  M.Instructions = {};

  // The parser's diagnostics in statement order, then each pass's.
  std::vector<std::pair<uint32_t, Diagnostic>> Parsed;
  Parsed.reserve(HeadParse.Kept.size() + BodyParse.Kept.size());
  std::merge(std::make_move_iterator(HeadParse.Kept.begin()),
             std::make_move_iterator(HeadParse.Kept.end()),
             std::make_move_iterator(BodyParse.Kept.begin()),
             std::make_move_iterator(BodyParse.Kept.end()), std::back_inserter(Parsed),
             [](const auto &A, const auto &B) { return A.first < B.first; });
  auto Report = [&](std::vector<std::pair<uint32_t, Diagnostic>> &Kept) {
    for (auto &KD : Kept)
      Diags.report(std::move(KD.second));
    Kept.clear();
  };
  Report(Parsed);
  for (StageDiags &S : PassDiags)
    Report(S.Kept);
  unsigned DroppedErrors = 0, DroppedWarnings = 0;
  for (const StageDiags *S : {&HeadParse, &BodyParse})
    DroppedErrors += S->DroppedErrors, DroppedWarnings += S->DroppedWarnings;
  for (const StageDiags &S : PassDiags)
    DroppedErrors += S.DroppedErrors, DroppedWarnings += S.DroppedWarnings;
  Policy.end(Diags);
  R.Errors = Diags.errorCount() + DroppedErrors;
  R.Warnings = Diags.warningCount() + DroppedWarnings;
  R.Diagnostics = Diags.take();
  return R;
}

} // namespace ptxlint
