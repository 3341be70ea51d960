// Property tests of the builder over every form and every target:
//  * print, parse back with ptxlint::parseModule, decode, compare equal;
//  * the printed module lints clean (instruction-level rules);
//  * both ways against ptxas (when present): it accepts every form the model
//    (checkTarget, i.e. the checker over the spec tables) allows and rejects,
//    on the form's own line, every form the model refuses.
// The versions tried come from the tables (every PTX version a target or a
// feature names), not from the model under test.
#include "CheckTestUtil.h"
#include "Builder/ModuleText.h"
#include "ptxlint/Builder.h"
#include "ptxlint/Linter.h"
#include "ptxlint/Ptxas.h"
#include "ptxlint/SpecTables.h"
#include "ptxlint/Target.h"
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

/// Every PTX version the tables name (target minimums, feature minimums,
/// operand minimums) up to 9.0, the newest ptxas 13.0 reads.
std::vector<PtxVersion> tableVersions() {
  std::set<unsigned> Keys;
  for (const Target &T : ptxlint::knownTargets())
    Keys.insert(T.minPtx().key());
  for (const spec::InstructionSpec &I : spec::instructions()) {
    for (const spec::FeatureSpec &F : I.Features)
      if (F.MinPtx.known())
        Keys.insert(F.MinPtx.key());
    for (const spec::FormSpec &F : I.Forms)
      for (const spec::OperandSpec &O : F.Operands)
        if (O.PredMinPtx.known())
          Keys.insert(O.PredMinPtx.key());
  }
  std::vector<PtxVersion> V;
  for (unsigned K : Keys)
    if (K <= 90)
      V.push_back({K / 10, K % 10});
  return V;
}

/// The versions to try on a target: those of the tables from its minimum on,
/// and the one just below its minimum (refused: M004).
std::vector<PtxVersion> versionsFor(const std::string &T) {
  auto Min = minPtxForTarget(T);
  unsigned MinKey = Min.first * 10 + Min.second;
  std::vector<PtxVersion> V;
  PtxVersion Below;
  for (PtxVersion X : tableVersions()) {
    if (X.key() >= MinKey)
      V.push_back(X);
    else
      Below = X;
  }
  if (Below.known())
    V.insert(V.begin(), Below);
  return V;
}

/// The targets of the async-copy family: sm_75 (none of it) and later.
std::vector<std::string> familyTargets() {
  std::vector<std::string> V;
  for (const Target &T : ptxlint::knownTargets())
    if (T.Number >= 75)
      V.push_back(T.name());
  return V;
}

bool allowed(const std::vector<Unsupported> &Problems) {
  for (const Unsupported &U : Problems)
    if (!U.Advisory)
      return false;
  return true;
}

} // namespace

TEST_CASE("builder properties: print -> parseModule -> decode round trip, lint clean") {
  size_t Checked = 0;
  for (const std::string &T : familyTargets()) {
    TargetVersion TV{T, 9, 0};
    std::vector<Inst> Forms = formsFor(TV);
    std::string Text = wrapInModule(Forms, TV);
    SourceBuffer B(T + ".ptx", Text);
    DiagnosticEngine Diags;
    Module M = parseModule(B, Diags);
    CHECK(Diags.diagnostics().empty());
    SymbolTable Symbols(M);
    size_t K = 0;
    FunctionCursor Functions(M);
    for (uint32_t SK = 0; SK < M.Statements.size(); ++SK) {
      const Statement &S = M.Statements[SK];
      if (S.Kind != StatementKind::Instruction || S.head(M.Text) == "ret")
        continue;
      REQUIRE(K < Forms.size());
      REQUIRE_MESSAGE(S.ParsedIndex >= 0, print(Forms[K]));
      std::string Err;
      auto D = decode(M.Instructions[size_t(S.ParsedIndex)], &Err, &Symbols,
                      Functions.at(SK));
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

TEST_CASE("builder properties: ptxas agrees with the model on every target and version (needs ptxas)") {
  test::skipWithoutPtxas();
  auto Ptxas = findPtxas();
  std::vector<Inst> All = allForms();
  size_t Accepted = 0, Rejected = 0, Modules = 0;
  for (const std::string &T : familyTargets()) {
    for (PtxVersion Version : versionsFor(T)) {
      const unsigned Maj = Version.Major, Min = Version.Minor;
      TargetVersion TV{T, Maj, Min};
      std::vector<Inst> Good, Bad;
      std::vector<std::vector<Unsupported>> Problems = checkTargets(All, TV);
      std::vector<std::string> BadWhy;
      for (size_t K = 0; K < All.size(); ++K) {
        (allowed(Problems[K]) ? Good : Bad).push_back(All[K]);
        if (!allowed(Problems[K]))
          BadWhy.push_back(Problems[K].front().Message);
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
      // After a fatal error ptxas stops reading: the forms past it are
      // assembled again in a module of their own, until none is left.
      for (size_t From = 0; From < Bad.size();) {
        std::vector<Inst> Rest(Bad.begin() + long(From), Bad.end());
        std::string Text = wrapInModule(Rest, TV);
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
        std::vector<unsigned> Lines = instructionLines(Text, Rest.size());
        // A version below the target's minimum: ptxas refuses the module on
        // its .target line (line 2), every instruction with it.
        bool ModuleRefused = ErrorLines.count(2) != 0;
        CHECK_MESSAGE(ModuleRefused == (Maj * 10 + Min <
                                        minPtxForTarget(T).first * 10 +
                                            minPtxForTarget(T).second),
                      T << " PTX " << Maj << "." << Min
                        << ": ptxas and the target table disagree on the "
                           ".target/.version pair");
        if (ModuleRefused)
          break;
        size_t K = 0;
        for (; K < Rest.size() && Lines[K] <= Fatal; ++K) {
          CHECK_MESSAGE(ErrorLines.count(Lines[K]),
                        T << " PTX " << Maj << "." << Min
                          << ": ptxas accepts a form the model refuses: "
                          << print(Rest[K]) << " ("
                          << BadWhy[From + K] << ")");
          ++Rejected;
        }
        REQUIRE_MESSAGE(K > 0, T << ": ptxas stopped before the first instruction");
        From += K;
      }
    }
  }
  MESSAGE("ptxas: " << Modules << " modules, " << Accepted << " accepted and "
                    << Rejected << " refused (form, target, version) triples");
}

TEST_CASE("builder properties: the struct model and the checker refuse the same candidates") {
  // Both ways over every qualifier choice of the structs: structuralErrors()
  // (the builder's model) is empty exactly where the checker (the tables)
  // reports no error that a target or version could fix.
  std::vector<Inst> C = build::formCandidates();
  std::vector<bool> Checker = build::checkerRefuses(C);
  size_t Refused = 0;
  for (size_t K = 0; K < C.size(); ++K) {
    std::vector<std::string> Model = structuralErrors(C[K]);
    CHECK_MESSAGE(Model.empty() == !Checker[K],
                  print(C[K]) << ": model "
                              << (Model.empty() ? std::string("allows")
                                                : "refuses (" + Model.front() + ")")
                              << ", checker "
                              << std::string(Checker[K] ? "refuses" : "accepts"));
    Refused += Checker[K];
  }
  CHECK(Refused > 1000);
  CHECK(C.size() - Refused == allForms().size());
  MESSAGE(C.size() << " candidates, " << Refused << " refused by both");
}

TEST_CASE("builder properties: ptxas refuses every candidate the model refuses (needs ptxas)") {
  test::skipWithoutPtxas();
  auto Ptxas = findPtxas();
  std::vector<Inst> C = build::formCandidates(), Bad;
  std::vector<bool> Checker = build::checkerRefuses(C);
  for (size_t K = 0; K < C.size(); ++K)
    if (Checker[K])
      Bad.push_back(C[K]);
  // The newest PTX version of the tables and a target taking every
  // arch-specific feature of sm_100: what is refused is not the target's.
  PtxVersion Newest = tableVersions().back();
  for (const char *T : {"sm_100a", "sm_90a"}) {
    TargetVersion TV{T, Newest.Major, Newest.Minor};
    std::string Text = wrapInModule(Bad, TV);
    SourceBuffer B("bad.ptx", Text);
    PtxasOptions PO;
    PO.FrontEndOnly = true;
    PO.PtxasPath = *Ptxas;
    PtxasResult R = runPtxas(B, PO);
    REQUIRE_MESSAGE(R.Ran, R.Command << "\n" << R.Output);
    std::set<unsigned> ErrorLines;
    for (const Diagnostic &D : R.Diagnostics)
      if (D.Level >= Severity::Error && D.Range.End != 0)
        ErrorLines.insert(B.lineCol(D.Range.Begin).Line);
    std::vector<unsigned> Lines = instructionLines(Text, Bad.size());
    size_t Missed = 0;
    for (size_t K = 0; K < Bad.size(); ++K)
      if (!ErrorLines.count(Lines[K]) && ++Missed <= 20)
        FAIL_CHECK(std::string(T) << ": ptxas accepts a candidate the model and checker refuse: "
                     << print(Bad[K]));
    CHECK(Missed == 0);
    MESSAGE(std::string(T) << " PTX " << Newest.Major << "." << Newest.Minor << ": ptxas refuses all "
              << Bad.size() - Missed << " of " << Bad.size() << " refused candidates");
  }
}

TEST_CASE("builder properties: validate() refuses every form checkTarget refuses") {
  // checkTarget and validate read the same checker; this holds validate's
  // filtering of the linter's diagnostics to that reading.
  size_t Refused = 0;
  std::vector<Inst> All = allForms();
  for (const char *T : {"sm_80", "sm_90", "sm_90a", "sm_100", "sm_100f", "sm_120a"}) {
    TargetVersion TV{T, 8, 6};
    std::vector<std::vector<Unsupported>> Problems = checkTargets(All, TV);
    for (size_t K = 0; K < All.size(); ++K) {
      if (allowed(Problems[K]) || K % 7 != 0) // a sample: validate lints alone
        continue;
      Validation V = validate(All[K], TV);
      CHECK_MESSAGE(!V.Ok, T << ": " << V.Text);
      ++Refused;
    }
  }
  CHECK(Refused > 50);
  MESSAGE("validate() refused " << Refused << " sampled forms");
}
