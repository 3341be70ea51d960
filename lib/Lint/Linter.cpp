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
/// malformed nesting. Fed the functions as the scan closes them (take()),
/// it closes the batches a whole module's split would.
class BatchSplitter {
public:
  BatchSplitter(const Module &M, unsigned MinBodies) : M(M), MinBodies(MinBodies) {}
  /// Calls Run(B) for each batch the functions so far close. Between
  /// calls, every function of M is closed and every statement scanned is
  /// final (ScanLimits::Passed): a function still to come has its header
  /// at or after M.Statements.size(), past every closed function's reach.
  /// Last: the scan is over; the rest of the module is the last batch.
  template <typename Fn> void take(bool Last, Fn Run) {
    const uint32_t NF = uint32_t(M.Functions.size());
    for (; Next < NF; ++Next) {
      const Function &F = M.Functions[Next];
      Reach = std::max({Reach, F.EndStatement, F.HeaderStatement + 1});
      Bodies += !F.IsPrototype;
      bool NextInside = Next + 1 < NF && M.Functions[Next + 1].HeaderStatement < Reach;
      if (Reach - B.Begin >= BatchStatements && Bodies >= MinBodies && !NextInside) {
        Bodies = 0;
        B.End = Reach;
        B.EndFunction = Next + 1;
        Run(B);
        ++Closed;
        B = {Reach, Reach, Next + 1, Next + 1};
      }
    }
    if (!Last)
      return;
    B.End = std::max(Reach, uint32_t(M.Statements.size()));
    B.EndFunction = NF;
    if (B.Begin < B.End || !Closed)
      Run(B);
  }

  /// The first statement of the batch not closed yet.
  uint32_t openBegin() const { return B.Begin; }

private:
  const Module &M;
  const unsigned MinBodies;
  StatementBatch B;
  uint32_t Reach = 0; // one past the last statement of the batch's functions
  unsigned Bodies = 0;
  uint32_t Next = 0;   // the first function not taken
  size_t Closed = 0;
};

std::vector<StatementBatch> batchesOf(const Module &M, unsigned MinBodies) {
  std::vector<StatementBatch> Out;
  BatchSplitter(M, MinBodies).take(true, [&](const StatementBatch &B) { Out.push_back(B); });
  return Out;
}

bool sameBatch(const StatementBatch &A, const StatementBatch &B) {
  return A.Begin == B.Begin && A.End == B.End && A.FirstFunction == B.FirstFunction &&
         A.EndFunction == B.EndFunction;
}

bool sameDirectives(const ModuleDirectives &A, const ModuleDirectives &B) {
  auto Same = [](SourceRange X, SourceRange Y) { return X.Begin == Y.Begin && X.End == Y.End; };
  return A.VersionMajor == B.VersionMajor && A.VersionMinor == B.VersionMinor &&
         A.HasVersion == B.HasVersion && Same(A.VersionRange, B.VersionRange) &&
         A.Targets == B.Targets && Same(A.TargetRange, B.TargetRange) &&
         A.AddressSize == B.AddressSize;
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

/// Parses the statements Selected[From, To), in order; their diagnostics
/// (reported to Scratch) go to Into, tagged with the statement.
void parseSelected(StatementParser &Parser, DiagnosticEngine &Scratch,
                   const std::vector<uint32_t> &Selected, size_t From,
                   size_t To, StageDiags &Into) {
  // While K parses, the lexer memo's slot of the next statement parsed
  // loads (its text hashed), and the text of the one after it.
  for (size_t X = From; X < To; ++X) {
    if (X + 2 < To)
      Parser.prefetchText(Selected[X + 2]);
    if (X + 1 < To)
      Parser.prefetch(Selected[X + 1]);
    Parser.parse(Selected[X]);
    Into.collect(Scratch, Selected[X]);
  }
}

} // namespace

namespace {

/// One lint of a module. With Stream (LintOptions::Streaming), each batch of functions is
/// linted as soon as the scan has passed it, while its text is in memory
/// (the scan drops the text behind it, and a batch run after the scan mapped
/// it back: a second read of the file). A batch then sees the module only up
/// to its end: the symbol table logs each lookup a later declaration could
/// answer otherwise, and at the end the run says whether one could have
/// (false: the caller lints again without streaming). Module-level
/// declarations after a function that uses them are rare (CUTLASS modules
/// declare globals between functions, before the kernels that use them).
bool lintOnce(const SourceBuffer &Buffer, const LintOptions &Opts, bool Stream,
              LintResult &R) {
  DiagnosticEngine Diags;
  DiagnosticPolicy Policy(Buffer, Opts);
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
  auto Passes = createAllPasses();
  std::vector<StageDiags> PassDiags(Passes.size());

  // The suppression comments and the non-ASCII bytes (S005) are looked for
  // behind the scan, at each ScanLimits::Passed, while the text is in memory
  // (not in passes of their own before the scan, which had the whole text in
  // memory at once: async-dense's peak). Nothing can be decided before the
  // suppression set is whole (a "disable-file" comment may come last), and
  // the S005s come before the scan's diagnostics: what the scan, the parser
  // and the passes report is held undecided until Begin() reads the rest of
  // the text for both, then decided in the order a whole-text pass first
  // would have given. Begin() runs at the scan's end, or early when the
  // limit's worth is held, so that a module of many errors holds no more
  // than with a limit.
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
    BodyParse.admitHeld(Policy);
    for (StageDiags &S : PassDiags)
      S.admitHeld(Policy);
  };
  auto HoldFull = [&] {
    if (!Cap)
      return false;
    size_t Held = ScanDiags.diagnostics().size() + HeadParse.Kept.size() + BodyParse.Kept.size();
    for (const StageDiags &S : PassDiags)
      Held += S.Kept.size();
    return Held >= Cap;
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
  SymbolTable Symbols(M, SymbolTable::Empty{});
  // The instructions to parse, in order, not parsed yet from Selected[X]
  // on: each is parsed in its batch; the other statements to parse are
  // parsed as the scan passes them.
  std::vector<uint32_t> Selected;
  size_t X = 0, ParsedCount = 0;
  size_t Named = 0; // of M.Symbols, copied to Declared
  auto ParseHeads = [&] {
    for (uint32_t K : M.ParseCandidates) {
      if (!candidateParsed(M.Statements[K]))
        continue;
      ++ParsedCount;
      if (IsInstruction(K)) {
        Selected.push_back(K);
        continue;
      }
      Parser.parse(K);
      HeadParse.collect(ParseScratch, K);
      if (!Begun && HoldFull())
        Begin();
    }
    M.ParseCandidates.clear(); // keeps its capacity for the scan
    Declared.append(M, Named);
    Named = M.Symbols.size();
  };

  ModuleSettings Settings;
  ModuleDirectives DirectivesUsed; // of Settings, to be checked at the end
  std::vector<LintContext> Contexts;
  Contexts.reserve(Passes.size());
  // The passes' module-level work, before the first batch.
  auto StartPasses = [&] {
    Settings = settingsFor(M, Opts);
    DirectivesUsed = M.Directives;
    for (StageDiags &S : PassDiags) {
      S.Cap = Cap;
      S.Engine.setFilter([&Begun, &Policy, &S](const Diagnostic &D, Severity Sev) {
        return Begun ? S.admit(Policy, D, Sev) : Sev; // else held, see Begin
      });
      Contexts.push_back({Buffer, M, Symbols, Opts, Settings, S.Engine});
    }
    for (size_t P = 0; P < Passes.size(); ++P) {
      Passes[P]->runModule(Contexts[P]);
      PassDiags[P].collect(PassDiags[P].Engine, 0);
    }
  };

  // One batch: its instructions parsed, then every pass. Passed: where its
  // text ends.
  auto RunBatch = [&](const StatementBatch &B, uint32_t Passed) {
    size_t From = X;
    while (X < Selected.size() && Selected[X] < B.End)
      ++X;
    M.Instructions.clear(); // keeps the capacity for the next batch
    M.Nodes.reset();        // and the blocks of their lists
    M.Instructions.reserve(X - From);
    Parsing = Begun ? &BodyParse : nullptr;
    parseSelected(Parser, ParseScratch, Selected, From, X, BodyParse);
    Parsing = Begun ? &HeadParse : nullptr;
    for (size_t P = 0; P < Passes.size(); ++P) {
      Passes[P]->runBatch(Contexts[P], B);
      PassDiags[P].collect(PassDiags[P].Engine, 0);
    }
    for (size_t Y = From; Y < X; ++Y)
      M.Statements[Selected[Y]].ParsedIndex = -1;
    // Diagnostics print their lines: with one found, the newlines are
    // counted here, while the batch's text is in memory.
    if (anyFound(Diags, HeadParse, BodyParse, PassDiags))
      Buffer.countLinesBefore(Passed);
  };

  // Each pass over the whole text drops mapped text behind it (see
  // SourceBuffer::dropBefore): a pass touches it again only where it reads.
  BatchSplitter Splitter(M, Opts.threadCount());
  std::vector<StatementBatch> Ran; // the batches run while scanning
  ScanLimits Limits;
  Limits.Passed = [&](uint32_t Offset) {
    if (!Begun) {
      NonAscii.checkBefore(Offset);
      Policy.searchBefore(Offset);
    }
    ParseHeads();
    if (Stream) {
      size_t Before = Ran.size();
      Splitter.take(false, [&](const StatementBatch &B) { Ran.push_back(B); });
      if (Ran.size() > Before) {
        Symbols.extend(Declared);
        Declared.forgetNames(M.Symbols.size(), M.Functions.size());
        if (Before == 0) {
          StartPasses();
          Symbols.logLookups();
        }
        for (size_t K = Before; K < Ran.size(); ++K) {
          const StatementBatch &B = Ran[K]; // ends before Offset
          RunBatch(B, B.End < M.Statements.size() ? M.Statements[B.End].Range.Begin : Offset);
        }
        Selected.erase(Selected.begin(), Selected.begin() + std::ptrdiff_t(X));
        X = 0;
        if (!Begun && HoldFull())
          Begin();
      }
      // The batch not closed yet reads its text when it closes.
      uint32_t Open = Splitter.openBegin();
      if (Open < M.Statements.size())
        Offset = std::min(Offset, M.Statements[Open].Range.Begin);
      // No statement before the open batch is read again: its room in the
      // table is reused (StatementTable::dropBefore).
      M.Statements.dropBefore(Open);
    }
    Buffer.dropBefore(Offset);
  };
  Limits.NonAsciiByCaller = true;
  Buffer.startPass();
  // Streaming, the table holds the open batch and the statements scanned
  // past it to the next function's end (up to 3.8 K on the real modules):
  // room for four batches, not a statement per 30 bytes of the module (the
  // scanner's reservation, which async-dense filled with 4.1 MB and CUTLASS
  // 77 with 7.2 MB: memory the kernel zeroes at its first touch, 2 and 4
  // huge pages). A larger function's batch grows it.
  if (Stream)
    M.Statements.reserve(std::min<size_t>(4 * BatchStatements, Buffer.text().size() / 30 + 16));
  scanModule(Buffer.text(), M, ScanDiags, Limits);
  if (!Begun)
    Begin();
  ParseHeads(); // those after the last function
  Symbols.extend(Declared);
  Declared = {};
  if (Ran.empty())
    StartPasses();

  // Then the batches the scan did not close, one at a time.
  if (Ran.empty())
    Buffer.startPass(); // else the text before the scan's end is dropped
  std::vector<StatementBatch> Rest;
  Splitter.take(true, [&](const StatementBatch &B) { Rest.push_back(B); });
  for (const StatementBatch &B : Rest) {
    uint32_t Passed = B.End < M.Statements.size() ? M.Statements[B.End].Range.Begin
                                                  : uint32_t(Buffer.text().size());
    RunBatch(B, Passed);
    if (B.End < M.Statements.size())
      Buffer.dropBefore(Passed);
  }
  M.Instructions = {};
  if (!Ran.empty()) {
    // What the streamed batches assumed of the module's rest.
    Ran.insert(Ran.end(), Rest.begin(), Rest.end());
    std::vector<StatementBatch> Whole = batchesOf(M, Opts.threadCount());
    if (!Symbols.laterDeclarationsChangedNothing() || !sameDirectives(M.Directives, DirectivesUsed) ||
        !std::equal(Ran.begin(), Ran.end(), Whole.begin(), Whole.end(), sameBatch))
      return false;
  }
  R.Statements = M.Statements.size();
  R.ParsedStatements = ParsedCount;

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
  return true;
}

} // namespace

LintResult lint(const SourceBuffer &Buffer, const LintOptions &Opts) {
  LintResult R;
  if (!lintOnce(Buffer, Opts, Opts.Streaming, R)) {
    R = {};
    R.Relinted = true;
    lintOnce(Buffer, Opts, false, R);
  }
  return R;
}

} // namespace ptxlint
