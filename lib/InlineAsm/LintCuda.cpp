//===- LintCuda.cpp - Lint each asm statement, report in the C++ file -----===//

#include "InlineAsm/AsmScanner.h"
#include "InlineAsm/Guards.h"
#include "InlineAsm/Snippet.h"
#include "Lint/DiagnosticPolicy.h"
#include "ptxlint/InlineAsm.h"
#include "ptxlint/RuleRegistry.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>

namespace ptxlint {

const std::vector<std::string> &defaultCudaExtensions() {
  static const std::vector<std::string> Exts = {".cu",  ".cuh", ".h",  ".hpp",
                                                ".cpp", ".cc",  ".inl"};
  return Exts;
}

std::optional<SourceLanguage>
languageOfPath(std::string_view Path, const std::vector<std::string> *Exts) {
  auto EndsWith = [&](std::string_view Suffix) {
    return Path.size() > Suffix.size() &&
           Path.substr(Path.size() - Suffix.size()) == Suffix;
  };
  if (EndsWith(".ptx"))
    return SourceLanguage::Ptx;
  for (const std::string &E : Exts ? *Exts : defaultCudaExtensions())
    if (EndsWith(E))
      return SourceLanguage::Cuda;
  return std::nullopt;
}

LintResult lintAs(SourceLanguage Lang, const SourceBuffer &Buffer,
                  const LintOptions &Opts) {
  return Lang == SourceLanguage::Cuda         ? lintCuda(Buffer, Opts)
         : Lang == SourceLanguage::PtxSnippet ? lintPtxSnippet(Buffer, Opts)
                                              : lint(Buffer, Opts);
}

bool looksLikePtxSnippet(std::string_view Text) {
  constexpr size_t MaxSnippetBytes = 64 * 1024; // a few lines, not a module
  if (Text.size() > MaxSnippetBytes)
    return false;
  // A directive outside a // comment makes a module.
  for (std::string_view Word : {".version", ".entry", ".func"})
    for (size_t At = Text.find(Word); At != Text.npos; At = Text.find(Word, At + 1)) {
      size_t LineBegin = Text.rfind('\n', At);
      LineBegin = LineBegin == Text.npos ? 0 : LineBegin + 1;
      if (Text.substr(LineBegin, At - LineBegin).find("//") == Text.npos)
        return false;
    }
  return true;
}

namespace {

using namespace inlineasm;

constexpr const char *FunctionHead = ".func __ptxlint_asm()\n";

/// What lint() is told for every snippet: the module-level and flow rules
/// judge whole modules and kernels, and a snippet is one fragment of one.
LintOptions snippetOptions(const LintOptions &Opts) {
  LintOptions S = Opts;
  S.Suppressions = false; // read from the C++ file, by the caller
  S.WarningsAsErrors = false;
  S.MaxDiagnostics = 0;
  S.Threads = 1;
  for (const RuleInfo &R : allRules())
    if (R.Group == "flow" || R.Group == "module")
      S.SeverityOverrides.emplace_back(std::string(R.Code), Severity::Ignored);
  return S;
}

class StatementLinter {
public:
  StatementLinter(const SourceBuffer &Buffer, const LintOptions &Opts,
                  DiagnosticEngine &Diags)
      : Text(Buffer.text()), Opts(Opts),
        Base(snippetOptions(Opts)), Diags(Diags) {}

  /// Lints S; false when it was not checked.
  bool run(const AsmStatement &S, CudaLintStats &Stats, LintResult &Totals) {
    Snippet Snip = buildSnippet(S, constantsFor(S));
    for (const Snippet::BadReference &B : Snip.BadReferences)
      DiagBuilder(Diags, rules::AsmOperandReference, {B.Begin, B.End}, B.Message);
    SourceBuffer Module("<asm>", std::string(FunctionHead) + Snip.Text);
    const uint32_t Head = uint32_t(Module.text().size() - Snip.Text.size());
    std::vector<GuardAlternative> Alts = evaluateGuards(S.Guards, Opts.GuardMacros);
    bool Guarded = false;
    std::set<std::tuple<std::string, uint32_t, uint32_t>> Seen;
    for (const GuardAlternative &A : Alts) {
      LintOptions O = Base;
      if (A.Target)
        O.Target = A.Target;
      if (A.Ptx.known())
        O.PtxVersion = std::make_pair(A.Ptx.Major, A.Ptx.Minor);
      Guarded |= A.Target || A.Ptx.known();
      LintResult R = lint(Module, O);
      Totals.Statements += R.Statements;
      Totals.ParsedStatements += R.ParsedStatements;
      for (Diagnostic &D : R.Diagnostics) {
        if (!shift(D, Head) || inStandIn(D, Snip))
          continue;
        std::optional<size_t> Operand = operandAt(D, Snip);
        Diagnostic M = mapDiagnostic(std::move(D), Snip, S);
        if (Operand)
          noteConstraint(M, S.Operands[*Operand], *Operand);
        if (std::optional<Diagnostic> G = guardDiagnostic(M, A))
          M = std::move(*G);
        if (Seen.insert({M.Code, M.Range.Begin, M.Range.End}).second)
          Diags.report(std::move(M));
      }
    }
    Stats.Guarded += Guarded;
    return true;
  }

private:
  /// The file's named constants, scanned once and only when a statement has
  /// an "n" operand that is not a literal.
  const NamedConstants &constantsFor(const AsmStatement &S) {
    static const NamedConstants None;
    bool Named = std::any_of(S.Operands.begin(), S.Operands.end(), [](const AsmOperand &O) {
      return O.Constraint.find('n') != std::string::npos && !integerLiteral(O.Expression);
    });
    if (!Named)
      return None;
    if (!Constants)
      Constants = scanNamedConstants(Text);
    return *Constants;
  }

  /// Moves D's snippet ranges from the module's text to the snippet's.
  static bool shift(Diagnostic &D, uint32_t Head) {
    forEachRange(D, [&](SourceRange &R) {
      R.Begin = R.Begin >= Head ? R.Begin - Head : 0;
      R.End = R.End >= Head ? R.End - Head : 0;
    });
    return true;
  }

  /// A diagnostic about the value or type of a stand-in (an immediate of
  /// unknown value, a register of a constraint ptxlint does not model). The
  /// count of operands and the qualifiers are still judged.
  static bool inStandIn(const Diagnostic &D, const Snippet &Snip) {
    if (D.Code.empty() || D.Code[0] != 'O' ||
        D.Code == ruleInfo(rules::OperandCount).Code)
      return false;
    return std::any_of(Snip.StandIns.begin(), Snip.StandIns.end(),
                       [&](const std::pair<uint32_t, uint32_t> &R) {
                         return D.Range.Begin < R.second &&
                                R.first < std::max(D.Range.End, D.Range.Begin + 1);
                       });
  }

  /// The operand register a diagnostic about an operand's type or kind is
  /// about, if its caret is on one.
  static std::optional<size_t> operandAt(const Diagnostic &D, const Snippet &Snip) {
    if (D.Code != ruleInfo(rules::OperandType).Code &&
        D.Code != ruleInfo(rules::OperandKind).Code &&
        D.Code != ruleInfo(rules::OperandNotDocumented).Code)
      return std::nullopt;
    for (const Snippet::Reference &R : Snip.References)
      if (D.Range.Begin < R.End && R.Begin < std::max(D.Range.End, D.Range.Begin + 1))
        return R.Operand;
    return std::nullopt;
  }

  /// The register's type comes from its constraint: show where it is.
  static void noteConstraint(Diagnostic &D, const AsmOperand &Op, size_t K) {
    if (Op.ConstraintEnd <= Op.ConstraintBegin)
      return;
    D.Notes.insert(D.Notes.begin(),
                   DiagNote{"operand %" + std::to_string(K) +
                                " is a register of constraint \"" +
                                Op.Constraint + "\"",
                            SourceRange{Op.ConstraintBegin, Op.ConstraintEnd}});
  }

  /// The C++ range of a snippet range; outside the template: the keyword.
  SourceRange mapRange(SourceRange R, const Snippet &Snip,
                       const AsmStatement &S) const {
    if (R.Begin < Snip.BodyBegin || R.Begin >= Snip.BodyEnd ||
        Snip.Map[R.Begin] == NoOffset)
      return {S.Begin, S.Begin + 3};
    uint32_t Begin = Snip.Map[R.Begin];
    if (R.End <= R.Begin)
      return {Begin, Begin};
    uint32_t Last = std::min(R.End, Snip.BodyEnd) - 1;
    uint32_t End = Snip.Map[Last] != NoOffset && Snip.Map[Last] >= Begin
                       ? Snip.Map[Last] + 1
                       : Begin + 1;
    // A byte that came from an escape sequence covers all of it.
    if (Text[End - 1] == '\\')
      End = escapeEnd(End - 1);
    return {Begin, End};
  }

  /// The end of the escape sequence at the backslash At: \n, \x2e, \056.
  uint32_t escapeEnd(uint32_t At) const {
    size_t P = At + 1;
    if (P >= Text.size())
      return uint32_t(Text.size());
    if (Text[P] == 'x') {
      ++P;
      while (P < Text.size() && std::isxdigit(static_cast<unsigned char>(Text[P])))
        ++P;
    } else if (Text[P] >= '0' && Text[P] <= '7') {
      for (size_t N = 0; N < 3 && P < Text.size() && Text[P] >= '0' && Text[P] <= '7'; ++N)
        ++P;
    } else {
      ++P;
    }
    return uint32_t(P);
  }

  /// Whether snippet byte K is the same byte in the C++ file.
  bool verbatim(const Snippet &Snip, uint32_t K) const {
    return K >= Snip.BodyBegin && K < Snip.BodyEnd && Snip.Map[K] != NoOffset &&
           Text[Snip.Map[K]] == Snip.Text[K];
  }

  /// The fix in the C++ literal, when it edits verbatim template text with
  /// text a literal holds as is; nullopt otherwise.
  std::optional<FixIt> mapFix(const FixIt &F, const Snippet &Snip) const {
    if (F.Replacement.find_first_of("\"\\%\n\r") != std::string::npos)
      return std::nullopt;
    FixIt Out;
    Out.Replacement = F.Replacement;
    if (F.Range.empty()) {
      uint32_t P = F.Range.Begin;
      if (P > Snip.BodyBegin && verbatim(Snip, P - 1))
        Out.Range = {Snip.Map[P - 1] + 1, Snip.Map[P - 1] + 1};
      else if (verbatim(Snip, P))
        Out.Range = {Snip.Map[P], Snip.Map[P]};
      else
        return std::nullopt;
      return Out;
    }
    for (uint32_t K = F.Range.Begin; K < F.Range.End; ++K)
      if (!verbatim(Snip, K) ||
          (K > F.Range.Begin && Snip.Map[K] != Snip.Map[K - 1] + 1))
        return std::nullopt;
    Out.Range = {Snip.Map[F.Range.Begin], Snip.Map[F.Range.End - 1] + 1};
    return Out;
  }

  /// The snippet's register %_3 is the template's %3.
  static std::string templateNames(std::string Message) {
    for (size_t P = Message.find("%_"); P != std::string::npos;
         P = Message.find("%_", P + 1))
      if (P + 2 < Message.size() &&
          std::isdigit(static_cast<unsigned char>(Message[P + 2])))
        Message.erase(P + 1, 1);
    return Message;
  }

  Diagnostic mapDiagnostic(Diagnostic D, const Snippet &Snip,
                           const AsmStatement &S) const {
    D.Message = templateNames(std::move(D.Message));
    for (DiagNote &N : D.Notes)
      N.Message = templateNames(std::move(N.Message));
    D.Range = mapRange(D.Range, Snip, S);
    for (DiagNote &N : D.Notes)
      if (N.Range)
        N.Range = mapRange(*N.Range, Snip, S);
    std::vector<FixIt> Fixes;
    bool AllMapped = true;
    for (const FixIt &F : D.Fixes) {
      if (std::optional<FixIt> M = mapFix(F, Snip))
        Fixes.push_back(std::move(*M));
      else
        AllMapped = false;
    }
    // A fix is applied whole or not at all.
    D.Fixes = AllMapped ? std::move(Fixes) : std::vector<FixIt>{};
    return D;
  }

  /// The guard's directive line, for a note.
  SourceRange lineAt(uint32_t Offset) const {
    size_t End = Text.find('\n', Offset);
    if (End == std::string_view::npos)
      End = Text.size();
    if (End > Offset && Text[End - 1] == '\r')
      --End;
    return {Offset, uint32_t(End)};
  }

  /// T301/T302 on a target or version that only a guard said: the guard
  /// admits what the instruction cannot take (C002).
  std::optional<Diagnostic> guardDiagnostic(const Diagnostic &D,
                                            const GuardAlternative &A) const {
    uint32_t Guard;
    std::string What;
    if (D.Code == ruleInfo(rules::TargetUnsupported).Code && A.Target) {
      Guard = A.TargetGuard;
      What = "target " + *A.Target;
    } else if (D.Code == ruleInfo(rules::PtxVersionTooOld).Code && A.Ptx.known()) {
      Guard = A.PtxGuard;
      What = "PTX ISA " + A.Ptx.str();
    } else {
      return std::nullopt;
    }
    const RuleInfo &Info = ruleInfo(rules::GuardAdmitsInvalid);
    Diagnostic G = D;
    G.Code = std::string(Info.Code);
    G.Level = Info.DefaultSeverity;
    // "..., but the module targets sm_80": the guard, not a module, says so.
    std::string Why = D.Message.substr(0, D.Message.find(", but the module"));
    G.Message = "the preprocessor guard admits " + What + ": " + Why;
    G.Notes.insert(G.Notes.begin(),
                   DiagNote{"the guard that admits " + What, lineAt(Guard)});
    return G;
  }

  std::string_view Text;
  std::optional<NamedConstants> Constants;
  const LintOptions &Opts;
  LintOptions Base;
  DiagnosticEngine &Diags;
};

} // namespace

std::vector<AsmSnippet> asmSnippets(const SourceBuffer &Buffer,
                                    const LintOptions &Opts) {
  std::vector<AsmSnippet> Out;
  const NamedConstants Constants = scanNamedConstants(Buffer.text());
  for (const AsmStatement &S : scanAsmStatements(Buffer.text())) {
    if (!S.Unresolved.empty())
      continue;
    AsmSnippet A;
    A.Begin = S.Begin;
    GuardAlternative G = evaluateGuards(S.Guards, Opts.GuardMacros).front();
    A.Target = G.Target ? *G.Target : Opts.Target.value_or("");
    if (G.Ptx.known())
      A.Ptx = G.Ptx.str();
    else if (Opts.PtxVersion)
      A.Ptx = PtxVersion{Opts.PtxVersion->first, Opts.PtxVersion->second}.str();
    if (!A.Ptx.empty())
      A.Module += ".version " + A.Ptx + "\n";
    if (!A.Target.empty())
      A.Module += ".target " + A.Target + "\n";
    A.Module += ".address_size 64\n" + std::string(FunctionHead) +
                buildSnippet(S, Constants).Text;
    Out.push_back(std::move(A));
  }
  return Out;
}

namespace {
/// Lints Statements of Buffer, each as a snippet, under the policy (rule
/// selection, suppression comments) of Buffer; Before adds diagnostics first.
template <typename Statements, typename BeforeFn>
LintResult lintStatements(const SourceBuffer &Buffer, const LintOptions &Opts,
                          const Statements &All, CudaLintStats &Stats,
                          BeforeFn Before) {
  DiagnosticEngine Diags;
  DiagnosticPolicy Policy(Buffer, Opts);
  Policy.begin(Diags);
  Before(Diags);
  LintResult R;
  StatementLinter Linter(Buffer, Opts, Diags);
  for (const AsmStatement &S : All) {
    ++Stats.AsmStatements;
    if (!S.Unresolved.empty()) {
      ++Stats.Unresolved;
      continue;
    }
    if (Linter.run(S, Stats, R))
      ++Stats.Checked;
  }
  Policy.end(Diags);
  R.Errors = Diags.errorCount();
  R.Warnings = Diags.warningCount();
  R.Diagnostics = Diags.take();
  return R;
}
} // namespace

LintResult lintCuda(const SourceBuffer &Buffer, const LintOptions &Opts,
                    CudaLintStats *StatsOut) {
  CudaLintStats Stats;
  LintResult R = lintStatements(Buffer, Opts, scanAsmStatements(Buffer.text()),
                                Stats, [](DiagnosticEngine &) {});
  if (StatsOut)
    *StatsOut = Stats;
  return R;
}

namespace {

/// The type nvcc's register names imply: %r1 .b32, %rd1 .b64, %rs1 .b16,
/// %p1 .pred, %f1 .f32, %fd1 .f64; "" for any other name.
std::string registerTypeOfName(std::string_view Name) {
  size_t Digits = Name.find_first_of("0123456789");
  if (Digits == Name.npos || Name.find_first_not_of("0123456789", Digits) != Name.npos)
    return "";
  std::string_view Prefix = Name.substr(0, Digits);
  static const std::pair<std::string_view, const char *> Types[] = {
      {"%r", ".b32"}, {"%rd", ".b64"}, {"%rs", ".b16"},
      {"%p", ".pred"}, {"%f", ".f32"}, {"%fd", ".f64"}};
  for (const auto &[P, T] : Types)
    if (Prefix == P)
      return T;
  return "";
}

/// The registers Text uses that it does not declare (".reg .b32 %r<4>;"
/// declares %r0..%r3 and, here, every %r name), with their types.
std::vector<std::pair<std::string, std::string>> implicitRegisters(std::string_view Text) {
  std::set<std::string> Declared; // names and "%r<" prefixes
  for (size_t At = Text.find(".reg"); At != Text.npos; At = Text.find(".reg", At + 4)) {
    size_t End = std::min(Text.find(';', At), Text.size());
    for (size_t P = Text.find('%', At); P < End; P = Text.find('%', P + 1)) {
      size_t E = P + 1;
      while (E < End && (std::isalnum(static_cast<unsigned char>(Text[E])) || Text[E] == '_' || Text[E] == '$'))
        ++E;
      Declared.insert(std::string(Text.substr(P, E - P)) + (E < End && Text[E] == '<' ? "<" : ""));
    }
  }
  std::vector<std::pair<std::string, std::string>> Out;
  std::set<std::string> Seen;
  for (size_t P = Text.find('%'); P != Text.npos; P = Text.find('%', P + 1)) {
    size_t E = P + 1;
    while (E < Text.size() && std::isalnum(static_cast<unsigned char>(Text[E])))
      ++E;
    std::string Name(Text.substr(P, E - P));
    std::string Type = registerTypeOfName(Name);
    std::string Prefix = Name.substr(0, Name.find_first_of("0123456789")) + "<";
    if (Type.empty() || Declared.count(Name) || Declared.count(Prefix) ||
        !Seen.insert(Name).second)
      continue;
    Out.push_back({Type, Name});
  }
  return Out;
}

} // namespace

LintResult lintPtxSnippet(const SourceBuffer &Buffer, const LintOptions &Opts) {
  std::string_view Text = Buffer.text();
  // One statement: the template is the text itself, byte for byte.
  std::vector<AsmStatement> One(1);
  AsmStatement &S = One.front();
  S.End = uint32_t(Text.size());
  for (uint32_t K = 0; K < Text.size(); ++K)
    S.Template.append(Text[K], K);
  S.ImplicitRegisters = implicitRegisters(Text);
  LintOptions O = Opts;
  O.SeverityOverrides.emplace_back(std::string(ruleInfo(rules::UndeclaredName).Code),
                                   Severity::Ignored);
  CudaLintStats Stats;
  return lintStatements(Buffer, O, One, Stats, [&](DiagnosticEngine &Diags) {
    DiagBuilder(Diags, rules::SnippetMode, {0, 0},
                "linted as a snippet, the body of a kernel (no .version, .entry "
                "or .func, or --snippet): " +
                    std::to_string(S.ImplicitRegisters.size()) +
                    " register(s) declared from their names (%r .b32, %rd .b64, "
                    "%p .pred, ...); names declared elsewhere are not reported");
  });
}

} // namespace ptxlint
