//===- Validate.cpp - Validate built instructions through ptxlint::lint ---===//

#include "ModuleText.h"

#include "ptxlint/Builder.h"
#include "ptxlint/Linter.h"
#include "ptxlint/RuleRegistry.h"

namespace ptxlint {
namespace build {
namespace {

/// The rule groups that judge one instruction in isolation. Flow rules (F)
/// judge a whole kernel's protocol instead, and X rules the configuration.
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

ModuleText moduleText(const std::vector<Inst> &Insts, const TargetVersion &T,
                      const std::string &KernelName) {
  ModuleText M;
  std::string &S = M.Text;
  S = header(T);
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
  for (const Inst &I : Insts) {
    S += "\t";
    M.Begins.push_back(uint32_t(S.size()));
    S += print(I);
    M.Ends.push_back(uint32_t(S.size()));
    S += "\n";
  }
  S += "\tret;\n}\n";
  return M;
}

std::string wrapInModule(const std::vector<Inst> &Insts, const TargetVersion &T,
                         const std::string &KernelName) {
  return moduleText(Insts, T, KernelName).Text;
}

Validation validate(const Inst &I, const TargetVersion &T) {
  Validation V;
  V.Text = print(I);
  ModuleText M = moduleText({I}, T, "ptxlint_builder");
  uint32_t Begin = M.Begins[0], End = M.Ends[0];
  SourceBuffer Buf("<builder>", M.Text);
  LintResult R = lint(Buf);

  auto Remap = [&](SourceRange Rg) {
    if (Rg.Begin >= Begin && Rg.End <= End)
      return SourceRange{Rg.Begin - Begin, Rg.End - Begin};
    return SourceRange{0, uint32_t(V.Text.size())};
  };
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
    V.Diagnostics.push_back(std::move(D));
  }

  SourceRange Whole{0, uint32_t(V.Text.size())};
  for (const std::string &E : structuralErrors(I)) {
    DiagnosticEngine Tmp;
    DiagBuilder(Tmp, rules::BuilderMalformed, Whole, E).spec("9.7.9.25");
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
