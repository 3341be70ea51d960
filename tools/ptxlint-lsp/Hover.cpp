//===- Hover.cpp - Instruction hover from spec-tables/ ---------------------===//

#include "Hover.h"

#include "ptxlint/SpecTables.h"
#include "ptxlint/Target.h"

#include <algorithm>

namespace ptxlint::lsp {

namespace {

bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\r' || C == '\n'; }

std::string_view trim(std::string_view S) {
  while (!S.empty() && isBlank(S.front()))
    S.remove_prefix(1);
  while (!S.empty() && isBlank(S.back()))
    S.remove_suffix(1);
  return S;
}

/// The first word after a directive name on the line that holds it.
std::string directiveValue(std::string_view Text, std::string_view Name) {
  for (size_t Pos = Text.find(Name); Pos != std::string_view::npos;
       Pos = Text.find(Name, Pos + 1)) {
    if (Pos && !isBlank(Text[Pos - 1]) && Text[Pos - 1] != ';')
      continue; // ".target" inside a longer word or a comment's text
    size_t B = Pos + Name.size();
    if (B >= Text.size() || !isBlank(Text[B]))
      continue;
    while (B < Text.size() && (Text[B] == ' ' || Text[B] == '\t'))
      ++B;
    size_t E = B;
    while (E < Text.size() && !isBlank(Text[E]) && Text[E] != ',' && Text[E] != ';')
      ++E;
    return std::string(Text.substr(B, E - B));
  }
  return "";
}

/// The spec's operand list of a form: "[dstMem], [srcMem], size{, mbar}".
std::string operandList(const spec::FormSpec &F) {
  std::string S;
  for (const spec::OperandSpec &O : F.Operands) {
    bool Opt = O.When != spec::Presence::Always;
    std::string One = O.Kind == spec::Shape::Address || O.Kind == spec::Shape::Tensor
                          ? "[" + std::string(O.Name) + "]"
                          : std::string(O.Name);
    if (Opt)
      S += "{" + std::string(S.empty() ? "" : ", ") + One + "}";
    else
      S += (S.empty() ? "" : ", ") + One;
  }
  return S;
}

/// The form whose state spaces are the ones written (in order).
const spec::FormSpec *formOf(const spec::InstructionSpec &I, const spec::Words &Written) {
  spec::Words Spaces;
  for (std::string_view W : Written)
    if (const spec::GroupSpec *G = spec::groupOf(I, W); G && G->Kind == spec::GroupKind::StateSpace)
      Spaces.push_back(W);
  for (const spec::FormSpec &F : I.Forms) {
    if (Spaces.size() > F.Spaces.size())
      continue;
    bool Ok = true;
    for (size_t K = 0; K < F.Spaces.size() && Ok; ++K) {
      const spec::Words &Accept = F.Spaces[K];
      if (K < Spaces.size())
        Ok = std::find(Accept.begin(), Accept.end(), Spaces[K]) != Accept.end();
      else
        Ok = std::find(Accept.begin(), Accept.end(), "none") != Accept.end();
    }
    if (Ok)
      return &F;
  }
  return I.Forms.size() == 1 ? &I.Forms.front() : nullptr;
}

bool contains(const spec::Words &W, std::string_view S) {
  return std::find(W.begin(), W.end(), S) != W.end();
}

std::string join(const spec::Words &W, std::string_view Sep) {
  std::string S;
  for (std::string_view X : W)
    S += (S.empty() ? "" : std::string(Sep)) + std::string(X);
  return S;
}

} // namespace

ModuleDirectives findDirectives(std::string_view Text) {
  // Directives come first in a module; the first 64 KB hold them.
  std::string_view Head = Text.substr(0, 64 * 1024);
  return {directiveValue(Head, ".target"), directiveValue(Head, ".version")};
}

std::string instructionHover(std::string_view Line, const ModuleDirectives &M) {
  if (size_t C = Line.find("//"); C != std::string_view::npos)
    Line = Line.substr(0, C);
  std::string_view S = trim(Line);
  // A label before the instruction ("L1: cp.async..."), then a guard.
  if (size_t Colon = S.find(':'); Colon != std::string_view::npos && Colon + 1 < S.size() &&
                                  S[Colon + 1] != ':' && S.substr(0, Colon).find_first_of(" \t.[") ==
                                                             std::string_view::npos)
    S = trim(S.substr(Colon + 1));
  if (!S.empty() && S.front() == '@') {
    size_t E = S.find_first_of(" \t");
    S = E == std::string_view::npos ? std::string_view() : trim(S.substr(E));
  }
  std::string_view Head = S.substr(0, std::min(S.find_first_of(" \t;"), S.size()));
  if (Head.empty())
    return "";
  size_t Dot = Head.find('.');
  std::string_view Opcode = Head.substr(0, Dot);
  spec::Words Mods;
  while (Dot != std::string_view::npos) {
    size_t Next = Head.find('.', Dot + 1);
    Mods.push_back(Head.substr(Dot, Next == std::string_view::npos ? Next : Next - Dot));
    Dot = Next;
  }
  size_t Consumed = 0;
  const spec::InstructionSpec *I = spec::findInstruction(Opcode, Mods, Consumed);
  if (!I || I->ClassifyOnly)
    return "";
  spec::Words Written(Mods.begin() + long(Consumed), Mods.end());
  const spec::FormSpec *F = formOf(*I, Written);

  std::optional<Target> T = M.Target.empty() ? std::nullopt : parseTarget(M.Target);
  std::optional<PtxVersion> V = M.Version.empty() ? std::nullopt : parsePtxVersion(M.Version);

  std::string Md = "**" + std::string(I->Name) + "**";
  if (F)
    Md += " — form `" + std::string(F->Name) + "` (`" + std::string(F->Display) + "`)";
  Md += "\n\n```ptx\n" + std::string(I->Name);
  if (F)
    Md += std::string(F->Display) + " " + operandList(*F);
  Md += ";\n```\n";
  std::string_view Section = F && !F->Section.empty() ? F->Section : I->Section;
  if (!Section.empty())
    Md += "PTX ISA section " + std::string(Section) + "\n";
  Md += "\n" + M.Origin + ": `.target " + (M.Target.empty() ? std::string("(none)") : M.Target) +
        "`, `.version " + (M.Version.empty() ? std::string("(none)") : M.Version) + "`\n";

  std::string Reqs;
  for (const spec::FeatureSpec &Feat : I->Features) {
    if (!Feat.Forms.empty() && (!F || !contains(Feat.Forms, F->Name)))
      continue;
    bool Applies = Feat.On.empty();
    for (std::string_view W : Feat.On)
      Applies |= contains(Written, W);
    if (!Applies)
      continue;
    std::string What = !Feat.What.empty() ? std::string(Feat.What)
                       : Feat.On.empty()  ? std::string(I->Name)
                                          : join(Feat.On, " / ");
    std::string Line = "- " + What + ":";
    bool Met = true, Known = true;
    if (Feat.MinPtx.known()) {
      Line += " PTX ISA " + Feat.MinPtx.str() + "+";
      if (V)
        Met &= *V >= Feat.MinPtx;
      else
        Known = false;
    }
    if (!Feat.Targets.empty()) {
      Line += std::string(Feat.MinPtx.known() ? "," : "") + " " + describeTargets(Feat.Targets);
      if (T)
        Met &= reachesAny(Feat.Targets, *T);
      else
        Known = false;
    }
    if (Feat.Advice)
      Line += " (advice)";
    Line += Known ? (Met ? " — met" : " — **not met by this module**") : "";
    Reqs += Line + "\n";
  }
  if (!Reqs.empty())
    Md += "\nRequirements:\n" + Reqs;
  return Md;
}

std::string_view stringLiteralAt(std::string_view Line, size_t Column) {
  // Quotes pair up from the start of the line; an escaped quote is text.
  size_t Open = std::string_view::npos;
  for (size_t K = 0; K < Line.size(); ++K) {
    if (Open != std::string_view::npos && Line[K] == '\\') {
      ++K;
      continue;
    }
    if (Line[K] != '"')
      continue;
    if (Open == std::string_view::npos) {
      Open = K;
    } else {
      if (Open < Column && Column <= K)
        return Line.substr(Open + 1, K - Open - 1);
      Open = std::string_view::npos;
    }
  }
  return {};
}

} // namespace ptxlint::lsp
