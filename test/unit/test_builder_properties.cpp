// Property tests of the builder over every form and every target:
//  * print, parse back with ptxlint::parseModule, decode, compare equal;
//  * the printed module lints clean (instruction-level rules);
//  * ptxas (when present) accepts every form the model allows and rejects,
//    on the form's own line, every form the model refuses.
#include "ptxlint/Builder.h"
#include "ptxlint/Linter.h"
#include "ptxlint/Ptxas.h"
#include "ptxlint/SymbolTable.h"

#include <doctest/doctest.h>

#include <map>
#include <set>

using namespace ptxlint;
using namespace ptxlint::build;

namespace {

bool judgesInstruction(const std::string &C) {
  return !C.empty() && std::string("SMQOTL").find(C[0]) != std::string::npos;
}

/// Line (1-based) of each instruction in wrapInModule's output.
std::vector<unsigned> instructionLines(const std::string &Text, size_t N) {
  SourceBuffer B("<m>", Text);
  DiagnosticEngine D;
  Module M = parseModule(B, D);
  std::vector<unsigned> L;
  for (const Statement &S : M.Statements)
    if (S.Kind == StatementKind::Instruction && S.head(M.Text) != "ret")
      L.push_back(B.lineCol(S.Range.Begin).Line);
  REQUIRE(L.size() == N);
  return L;
}

/// The versions to try on a target: its minimum, the versions where the
/// family gained features, and the newest ptxas 13.0 takes.
std::vector<std::pair<unsigned, unsigned>> versionsFor(const std::string &T) {
  auto Min = minPtxForTarget(T);
  std::vector<std::pair<unsigned, unsigned>> V;
  for (auto X : std::vector<std::pair<unsigned, unsigned>>{
           {7, 0}, {7, 4}, {7, 5}, {7, 8}, {8, 0}, {8, 5}, {8, 6}, {8, 8}, {9, 0}})
    if (X.first * 10 + X.second >= Min.first * 10 + Min.second)
      V.push_back(X);
  if (V.empty() || V.front() != Min)
    V.insert(V.begin(), Min);
  return V;
}

/// Where the model follows the spec and ptxas 13.0 is known to be more
/// lenient (shared/notes/ptxas-13.0.md): cp.async's ".shared::cta" below
/// PTX 7.8.
bool specStricter(const Inst &I, const TargetVersion &TV) {
  for (const Unsupported &U : checkTarget(I, TV))
    if (U.Message.find(".shared::cta needs PTX ISA 7.8") == std::string::npos &&
        !U.Advisory)
      return false;
  return true;
}

} // namespace

TEST_CASE("builder properties: print -> parseModule -> decode round trip, lint clean") {
  size_t Checked = 0;
  for (const std::string &T : knownTargets()) {
    TargetVersion TV{T, 9, 0};
    std::vector<Inst> Forms = formsFor(TV);
    std::string Text = wrapInModule(Forms, TV);
    SourceBuffer B(T + ".ptx", Text);
    DiagnosticEngine Diags;
    Module M = parseModule(B, Diags);
    CHECK(Diags.diagnostics().empty());
    SymbolTable Symbols(M);
    size_t K = 0;
    for (const Statement &S : M.Statements) {
      if (S.Kind != StatementKind::Instruction || S.head(M.Text) == "ret")
        continue;
      REQUIRE(K < Forms.size());
      REQUIRE_MESSAGE(S.ParsedIndex >= 0, print(Forms[K]));
      std::string Err;
      auto D = decode(M.Instructions[size_t(S.ParsedIndex)], &Err, &Symbols,
                      S.Function);
      REQUIRE_MESSAGE(D, print(Forms[K]) << ": " << Err);
      CHECK_MESSAGE(*D == Forms[K], print(Forms[K]) << " read back as " << print(*D));
      ++K;
      ++Checked;
    }
    CHECK(K == Forms.size());

    LintResult R = lint(B);
    for (const Diagnostic &D : R.Diagnostics)
      CHECK_MESSAGE(!(judgesInstruction(D.Code) && D.Level >= Severity::Error),
                    T << ": [" << D.Code << "] " << D.Message << " on line "
                      << B.lineCol(D.Range.Begin).Line);
  }
  MESSAGE("round-tripped " << Checked << " (form, target) pairs");
  CHECK(Checked > 5000);
}

TEST_CASE("builder properties: the single-form round trip through print/parseInst") {
  for (const Inst &I : allForms()) {
    std::string Err;
    auto D = parseInst(print(I), &Err);
    REQUIRE_MESSAGE(D, print(I) << ": " << Err);
    CHECK_MESSAGE(*D == I, print(I));
  }
}

TEST_CASE("builder properties: ptxas agrees with the model on every target and version") {
  auto Ptxas = findPtxas();
  if (!Ptxas) {
    MESSAGE("ptxas not found: skipped");
    return;
  }
  std::vector<Inst> All = allForms();
  size_t Accepted = 0, Rejected = 0, Modules = 0;
  for (const std::string &T : knownTargets()) {
    for (const auto &Version : versionsFor(T)) {
      // Named copies, not a structured binding: doctest's *_MESSAGE macros
      // capture them in a lambda, which C++17 forbids for bindings (clang).
      const unsigned Maj = Version.first, Min = Version.second;
      // ptxas 13.0 knows PTX up to 9.0 only.
      TargetVersion TV{T, Maj, Min};
      std::vector<Inst> Good, Bad;
      for (const Inst &I : All) {
        bool Ok = true;
        for (const Unsupported &U : checkTarget(I, TV))
          Ok &= U.Advisory;
        (Ok ? Good : Bad).push_back(I);
      }
      PtxasOptions PO;
      PO.FrontEndOnly = true;
      PO.PtxasPath = *Ptxas;
      if (!Good.empty()) {
        std::string Text = wrapInModule(Good, TV);
        SourceBuffer B("good.ptx", Text);
        PtxasResult R = runPtxas(B, PO);
        ++Modules;
        REQUIRE_MESSAGE(R.Ran, R.Command << "\n" << R.Output);
        if (!R.Accepted) {
          std::string Report;
          for (const Diagnostic &D : R.Diagnostics)
            if (D.Level >= Severity::Error)
              Report += std::string(B.lineText(B.lineCol(D.Range.Begin).Line)) +
                        "\n    " + D.Message + "\n";
          FAIL_CHECK(T << " PTX " << Maj << "." << Min
                       << ": ptxas rejects forms the model allows:\n"
                       << Report);
        }
        Accepted += Good.size();
      }
      if (!Bad.empty()) {
        std::string Text = wrapInModule(Bad, TV);
        SourceBuffer B("bad.ptx", Text);
        PtxasResult R = runPtxas(B, PO);
        ++Modules;
        REQUIRE(R.Ran);
        std::set<unsigned> ErrorLines;
        unsigned Fatal = ~0u;
        for (const Diagnostic &D : R.Diagnostics)
          if (D.Level >= Severity::Error && D.Range.End != 0) {
            unsigned L = B.lineCol(D.Range.Begin).Line;
            ErrorLines.insert(L);
            if (D.Message.find("fatal") != std::string::npos)
              Fatal = std::min(Fatal, L);
          }
        std::vector<unsigned> Lines = instructionLines(Text, Bad.size());
        for (size_t K = 0; K < Bad.size(); ++K) {
          if (Lines[K] > Fatal)
            break; // ptxas stopped reading
          if (specStricter(Bad[K], TV))
            continue;
          CHECK_MESSAGE(ErrorLines.count(Lines[K]),
                        T << " PTX " << Maj << "." << Min
                          << ": ptxas accepts a form the model refuses: "
                          << print(Bad[K]) << " ("
                          << checkTarget(Bad[K], TV).front().Message << ")");
          ++Rejected;
        }
      }
    }
  }
  MESSAGE("ptxas: " << Modules << " modules, " << Accepted << " accepted and "
                    << Rejected << " refused (form, target, version) triples");
}

TEST_CASE("builder properties: the checker refuses every form the model refuses") {
  // validate() reports the linter's own (non-L) errors first; the model's
  // L002 only where the checker is silent. No form may rely on L002 alone.
  size_t Refused = 0;
  for (const std::string &T : knownTargets())
    for (const auto &Version : versionsFor(T)) {
      // Named copies, not a structured binding: doctest's *_MESSAGE macros
      // capture them in a lambda, which C++17 forbids for bindings (clang).
      const unsigned Maj = Version.first, Min = Version.second;
      TargetVersion TV{T, Maj, Min};
      for (const Inst &I : allForms()) {
        bool Ok = true;
        for (const Unsupported &U : checkTarget(I, TV))
          Ok &= U.Advisory;
        if (Ok || specStricter(I, TV))
          continue;
        Validation V = validate(I, TV);
        bool Checker = false;
        for (const Diagnostic &D : V.Diagnostics)
          Checker |= D.Level >= Severity::Error && D.Code[0] != 'L';
        CHECK_MESSAGE(Checker, T << " PTX " << Maj << "." << Min << ": " << V.Text);
        CHECK_FALSE(V.Ok);
        ++Refused;
      }
    }
  MESSAGE("checker and model agree on " << Refused << " refusals");
}
