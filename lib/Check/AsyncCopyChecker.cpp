//===- AsyncCopyChecker.cpp - The table-driven async-copy checker ---------===//
//
// A LintPass that finds every instruction of the async-copy family, matches
// it to its entry in the spec tables (spec-tables/*.yaml) and runs the
// generic checks of QualifierChecks.cpp, OperandChecks.cpp and
// TargetChecks.cpp on it. Nothing here knows a particular instruction: what
// is legal is data, and the few rules data cannot say are the named
// predicates of Predicates.cpp.
//
//===----------------------------------------------------------------------===//

#include "Check/AsyncCopyCheckPass.h"
#include "Check/CheckContext.h"

#include <unordered_map>

namespace ptxlint {
namespace check {

InstructionCheck::InstructionCheck(LintContext &Ctx, const Instruction &I,
                                   const spec::InstructionSpec &Spec,
                                   int32_t Function, size_t NameWords)
    : Ctx(Ctx), I(I), Spec(Spec), Function(Function) {
  NameRange = I.OpcodeRange;
  if (NameWords)
    NameRange.End = I.Modifiers[NameWords - 1].Range.End;
  Quals.reserve(I.Modifiers.size() - NameWords);
  for (size_t K = NameWords; K < I.Modifiers.size(); ++K)
    Quals.push_back({&I.Modifiers[K], spec::groupOf(Spec, I.Modifiers[K].Text)});
  if (Ctx.Settings.Effective)
    Targets.push_back(*Ctx.Settings.Effective);
  Version = {Ctx.Settings.PtxMajor, Ctx.Settings.PtxMinor};
}

const Modifier *InstructionCheck::find(std::string_view Text) const {
  for (const Qualifier &Q : Quals)
    if (Q.Mod->Text == Text)
      return Q.Mod;
  return nullptr;
}

unsigned InstructionCheck::dim() const {
  for (const Qualifier &Q : Quals)
    if (Q.Group && Q.Group->Kind == spec::GroupKind::Dimension)
      return unsigned(Q.Mod->Text[1] - '0');
  return 0;
}

bool InstructionCheck::inForms(const spec::Words &Forms) const {
  if (Forms.empty())
    return true;
  if (!Form)
    return false;
  for (std::string_view F : Forms)
    if (F == Form->Name)
      return true;
  return false;
}

std::string InstructionCheck::formName() const {
  std::string S(Spec.Name);
  if (Form && !Form->Display.empty())
    S += " " + std::string(Form->Display);
  return S;
}

const Symbol *InstructionCheck::symbol(std::string_view Name) const {
  return Ctx.Symbols.lookup(Name, Function);
}

std::string_view InstructionCheck::registerType(const Operand &Op) const {
  if (Op.Kind != OperandKind::Register && Op.Kind != OperandKind::Symbol)
    return {};
  const Symbol *S = symbol(Op.Name);
  return S && S->Space == StateSpace::Reg ? S->Type : std::string_view();
}

bool InstructionCheck::isRegister(const Operand &Op) const {
  if (Op.Kind == OperandKind::Register)
    return true;
  if (Op.Kind != OperandKind::Symbol)
    return false;
  // A name the symbol table cannot resolve (a .reg of a nested block, say)
  // is given the benefit of the doubt.
  const Symbol *S = symbol(Op.Name);
  return !S || S->Space == StateSpace::Reg;
}

SourceRange InstructionCheck::insertionPoint(std::string_view Word) const {
  // Groups are listed in the order of the spec's syntax line: the new word
  // goes after the last written qualifier of an earlier group (or after the
  // instruction's name), wherever the author put the later ones.
  auto RankOf = [&](const spec::GroupSpec *G) { return size_t(G - Spec.Groups.data()); };
  size_t Rank = Spec.Groups.size();
  for (const spec::GroupSpec &G : Spec.Groups)
    if (std::find(G.Values.begin(), G.Values.end(), Word) != G.Values.end()) {
      Rank = RankOf(&G);
      break;
    }
  if (Rank == Spec.Groups.size()) { // not a table word: after the last one
    uint32_t End = I.Modifiers.empty() ? I.OpcodeRange.End : I.Modifiers.back().Range.End;
    return {End, End};
  }
  const spec::GroupSpec *SpaceGroup = nullptr;
  for (const spec::GroupSpec &G : Spec.Groups)
    if (G.Kind == spec::GroupKind::StateSpace)
      SpaceGroup = &G;
  uint32_t After = NameRange.End;
  auto Consider = [&](const Modifier *M, const spec::GroupSpec *G) {
    if (M && G && RankOf(G) < Rank)
      After = std::max(After, M->Range.End);
  };
  for (const Qualifier &Q : Quals)
    Consider(Q.Mod, Q.Group);
  for (const Modifier *M : Spaces)
    Consider(M, SpaceGroup);
  return {After, After};
}

DiagBuilder InstructionCheck::report(rules::Id Rule, SourceRange Range,
                                     std::string Message) {
  return DiagBuilder(Ctx.Diags, Rule, Range, std::move(Message));
}

std::string quotedList(const spec::Words &Words, const char *Last) {
  std::string S;
  for (size_t K = 0; K < Words.size(); ++K) {
    if (K)
      S += K + 1 == Words.size() ? Last : ", ";
    S += q(Words[K]);
  }
  return S;
}

namespace {

class AsyncCopyCheckPass : public LintPass {
public:
  const char *name() const override { return "async-copy-checker"; }

  void runBatch(LintContext &Ctx, const StatementBatch &B) override {
    for (uint32_t K = B.Begin; K < B.End; ++K) {
      const Statement &S = Ctx.M.Statements[K];
      if (S.Kind != StatementKind::Instruction || S.ParsedIndex < 0)
        continue;
      const Instruction &I = Ctx.M.Instructions[size_t(S.ParsedIndex)];
      checkInstruction(Ctx, I, S.Function, S.head(Ctx.M.Text));
    }
  }

private:
  void checkInstruction(LintContext &Ctx, const Instruction &I,
                        int32_t Function, std::string_view Head) {
    if (!spec::hasOpcode(I.Opcode))
      return; // parsed for the flow rules only (ld.shared, bra, ...)
    // The table entry of each distinct head, found once: a module repeats a
    // few dozen heads thousands of times. (A head is the opcode and the
    // modifiers as written, so it determines the entry.)
    bool Cacheable = I.spelledBy(Head);
    auto Known = Cacheable ? Entries.find(Head) : Entries.end();
    std::pair<const spec::InstructionSpec *, size_t> Entry;
    if (Known == Entries.end()) {
      Mods.clear(); // one buffer for every instruction: no allocation each
      for (const Modifier &M : I.Modifiers)
        Mods.push_back(M.Text);
      size_t Words = 0;
      const spec::InstructionSpec *Found =
          spec::findInstruction(I.Opcode, Mods, Words);
      Entry = {Found, Words};
      if (Cacheable)
        Entries.emplace(Head, Entry);
    } else {
      Entry = Known->second;
    }
    const spec::InstructionSpec *Spec = Entry.first;
    size_t NameWords = Entry.second;
    if (!Spec) {
      if (I.Opcode == "cp") // every cp.* instruction is in the tables
        reportUnknown(Ctx, I);
      return;
    }
    if (Spec->ClassifyOnly)
      return;
    InstructionCheck C(Ctx, I, *Spec, Function, NameWords);
    checkQualifiers(C);
    checkOperands(C);
    checkTargets(C);
  }

  spec::Words Mods;
  /// Head text (into the module) -> table entry and its name's word count.
  std::unordered_map<std::string_view,
                     std::pair<const spec::InstructionSpec *, size_t>>
      Entries;

  static void reportUnknown(LintContext &Ctx, const Instruction &I) {
    SourceRange R = I.OpcodeRange;
    if (!I.Modifiers.empty())
      R.End = I.Modifiers.front().Range.End;
    DiagBuilder(Ctx.Diags, rules::UnknownAsyncInstruction, R,
                "'" + std::string(Ctx.Buffer.text().substr(R.Begin, R.End - R.Begin)) +
                    "' is not an instruction; the cp family is cp.async, "
                    "cp.async.bulk{.prefetch}{.tensor} and "
                    "cp.reduce.async.bulk{.tensor}");
  }
};

} // namespace
} // namespace check

std::unique_ptr<LintPass> createAsyncCopyCheckPass() {
  return std::make_unique<check::AsyncCopyCheckPass>();
}

} // namespace ptxlint
