//===- Validate.cpp - Validate built instructions through ptxlint::lint ---===//

#include "ptxlint/Builder.h"
#include "ptxlint/Linter.h"

namespace ptxlint {
namespace build {
namespace {

/// The rule groups that judge one instruction in isolation. Flow rules (F),
/// style (P) and meta (X) judge a whole kernel's protocol instead.
bool judgesInstruction(const std::string &Code) {
  return !Code.empty() && (Code[0] == 'S' || Code[0] == 'M' || Code[0] == 'Q' ||
                           Code[0] == 'O' || Code[0] == 'T' || Code[0] == 'L');
}

std::string header(const TargetVersion &T) {
  return ".version " + std::to_string(T.PtxMajor) + "." +
         std::to_string(T.PtxMinor) + "\n.target " + T.Target +
         "\n.address_size 64\n\n";
}

} // namespace

std::string wrapInModule(const std::vector<Inst> &Insts, const TargetVersion &T,
                         const std::string &KernelName) {
  std::string S = header(T);
  S += ".visible .entry " + KernelName + "()\n{\n";
  std::vector<std::pair<std::string, std::string>> Decls;
  for (const Inst &I : Insts)
    for (auto &U : registerUses(I)) {
      bool Seen = false;
      for (auto &D : Decls)
        Seen |= D.first == U.first;
      if (!Seen)
        Decls.push_back(U);
    }
  for (auto &[Name, Type] : Decls)
    S += "\t.reg " + Type + " " + Name + ";\n";
  for (const Inst &I : Insts)
    S += "\t" + print(I) + "\n";
  S += "\tret;\n}\n";
  return S;
}

Validation validate(const Inst &I, const TargetVersion &T) {
  Validation V;
  V.Text = print(I);
  std::string Module = wrapInModule({I}, T);
  uint32_t Begin = uint32_t(Module.find("\t" + V.Text + "\n") + 1);
  uint32_t End = Begin + uint32_t(V.Text.size());
  SourceBuffer Buf("<builder>", Module);
  LintResult R = lint(Buf);

  auto Remap = [&](SourceRange Rg) {
    if (Rg.Begin >= Begin && Rg.End <= End)
      return SourceRange{Rg.Begin - Begin, Rg.End - Begin};
    return SourceRange{0, uint32_t(V.Text.size())};
  };
  bool LintErrors = false, LintWarnings = false;
  for (Diagnostic &D : R.Diagnostics) {
    if (!judgesInstruction(D.Code))
      continue;
    bool Outside = !(D.Range.Begin >= Begin && D.Range.End <= End);
    if (Outside) {
      SourceBuffer::LineCol LC = Buf.lineCol(D.Range.Begin);
      D.Notes.push_back({"reported on line " + std::to_string(LC.Line) +
                             " of the validation module: " +
                             std::string(Buf.lineText(LC.Line)),
                         std::nullopt});
    }
    D.Range = Remap(D.Range);
    for (DiagNote &N : D.Notes)
      if (N.Range)
        N.Range = Remap(*N.Range);
    std::vector<FixIt> Fixes;
    for (FixIt &F : D.Fixes)
      if (F.Range.Begin >= Begin && F.Range.End <= End)
        Fixes.push_back({Remap(F.Range), F.Replacement});
    D.Fixes = std::move(Fixes);
    LintErrors |= D.Level >= Severity::Error;
    LintWarnings |= D.Level == Severity::Warning;
    V.Diagnostics.push_back(std::move(D));
  }

  SourceRange Whole{0, uint32_t(V.Text.size())};
  for (const std::string &E : structuralErrors(I)) {
    DiagnosticEngine Tmp;
    DiagBuilder(Tmp, Severity::Error, "L001", Whole, E).spec("9.7.9.25");
    for (Diagnostic &D : Tmp.take())
      V.Diagnostics.push_back(std::move(D));
  }
  // The builder's availability model only speaks where the checker did not.
  for (const Unsupported &U : checkTarget(I, T)) {
    if ((U.Advisory && LintWarnings) || (!U.Advisory && LintErrors))
      continue;
    DiagnosticEngine Tmp;
    DiagBuilder(Tmp, U.Advisory ? Severity::Warning : Severity::Error, "L002",
                Whole, U.Message)
        .spec("9.7.9.25");
    for (Diagnostic &D : Tmp.take())
      V.Diagnostics.push_back(std::move(D));
  }
  V.Ok = true;
  for (const Diagnostic &D : V.Diagnostics)
    V.Ok &= D.Level < Severity::Error;
  return V;
}

} // namespace build
} // namespace ptxlint
