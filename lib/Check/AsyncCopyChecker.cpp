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
#include "Support/TextHash.h"

#include <algorithm>
#include <unordered_map>

namespace ptxlint {
namespace check {

InstructionCheck::InstructionCheck(LintContext &Ctx, const Instruction &I,
                                   const spec::InstructionSpec &Spec,
                                   int32_t Function, size_t NameWords,
                                   CheckBuffers &Buffers,
                                   const std::vector<const spec::GroupSpec *> *Groups)
    : Ctx(Ctx), I(I), Spec(Spec), Function(Function), Quals(Buffers.Quals),
      Spaces(Buffers.Spaces), Prefixes(Buffers.Prefixes), Targets(Buffers.Targets) {
  NameRange = I.OpcodeRange;
  if (NameWords)
    NameRange.End = I.rangeOf(I.Modifiers[NameWords - 1]).End;
  Quals.clear();
  Spaces.clear();
  for (size_t K = NameWords; K < I.Modifiers.size(); ++K)
    Quals.push_back({&I.Modifiers[K], Groups ? (*Groups)[K - NameWords]
                                             : spec::groupOf(Spec, I.Modifiers[K].Text)});
  if (!Buffers.TargetsKnown && Ctx.Settings.Effective)
    Buffers.Targets.push_back(*Ctx.Settings.Effective);
  Buffers.TargetsKnown = true;
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

std::optional<SymbolFacts> InstructionCheck::symbol(const Operand &Op) const {
  std::string_view Name = Op.Name;
  auto Facts = [](const Symbol *S) {
    return S ? std::optional<SymbolFacts>(SymbolFacts{S->Space, S->Type}) : std::nullopt;
  };
  unsigned N = LookedCount < std::size(Looked) ? LookedCount : unsigned(std::size(Looked));
  for (unsigned K = 0; K < N; ++K)
    if (Looked[K].Name == Name.data() && Looked[K].Size == Name.size())
      return Facts(Looked[K].Sym);
  const Symbol *S = Ctx.Symbols.lookup(Name, Function, Prefixes);
  Looked[LookedCount++ % std::size(Looked)] = {Name.data(), Name.size(), S};
  if (Record) {
    // Where the name is in I's statement: by its operand's range (the
    // operand's views may be the module's copy of another statement's text).
    SourceRange R = I.rangeOf(Op);
    LookedUp &L = Record->emplace_back();
    L.Offset = uint32_t(R.Begin - I.Range.Begin + (Name.data() - Op.Text.data()));
    L.Size = uint32_t(Name.size());
    Replayable &= R.Begin >= I.Range.Begin && L.Offset + L.Size <= I.Range.End - I.Range.Begin &&
                  L.set(S);
  }
  return Facts(S);
}

bool LookedUp::set(const Symbol *S) {
  Found = S;
  if (!S)
    return true;
  if (S->Type.size() > sizeof(Type))
    return false;
  TypeSize = uint8_t(S->Type.size());
  std::copy(S->Type.begin(), S->Type.end(), Type);
  Space = S->Space;
  return true;
}

bool LookedUp::finds(const Symbol *S) const {
  if (!S || !Found)
    return !S && !Found;
  return S->Space == Space && S->Type == std::string_view(Type, TypeSize);
}

std::string_view InstructionCheck::registerType(const Operand &Op) const {
  if (Op.Kind != OperandKind::Register && Op.Kind != OperandKind::Symbol)
    return {};
  std::optional<SymbolFacts> S = symbol(Op);
  return S && S->Space == StateSpace::Reg ? S->Type : std::string_view();
}

bool InstructionCheck::isRegister(const Operand &Op) const {
  if (Op.Kind == OperandKind::Register)
    return true;
  if (Op.Kind != OperandKind::Symbol)
    return false;
  // A name the symbol table cannot resolve (a .reg of a nested block, say)
  // is given the benefit of the doubt.
  std::optional<SymbolFacts> S = symbol(Op);
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
    uint32_t End = I.Modifiers.empty() ? I.OpcodeRange.End : I.rangeOf(I.Modifiers.back()).End;
    return {End, End};
  }
  const spec::GroupSpec *SpaceGroup = nullptr;
  for (const spec::GroupSpec &G : Spec.Groups)
    if (G.Kind == spec::GroupKind::StateSpace)
      SpaceGroup = &G;
  uint32_t After = NameRange.End;
  auto Consider = [&](const Modifier *M, const spec::GroupSpec *G) {
    if (M && G && RankOf(G) < Rank)
      After = std::max(After, I.rangeOf(*M).End);
  };
  for (const Qualifier &Q : Quals)
    Consider(Q.Mod, Q.Group);
  for (const Modifier *M : Spaces)
    Consider(M, SpaceGroup);
  return {After, After};
}

DiagBuilder InstructionCheck::report(rules::Id Rule, SourceRange Range,
                                     std::string Message) {
  ++Reports;
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
    // The batch's instructions are all parsed ones, in statement order
    // (a CUTLASS module has 14 statements per parsed instruction). Most of
    // async-dense's are of a text that checks nothing (bra, st.shared,
    // mbarrier.try_wait, fence.proxy.async, ...: 61 %): its bit is all
    // that is read of them.
    FunctionCursor Functions(Ctx.M, B.FirstFunction);
    for (const Instruction &I : Ctx.M.Instructions)
      if (I.TextId >= Idle.size() || !Idle[I.TextId])
        checkInstruction(Ctx, I, Functions.at(I.StatementIndex));
  }

private:
  /// What is known of one distinct head: its table entry, its qualifiers'
  /// groups, and what the checks that read the head alone found.
  struct HeadEntry {
    const spec::InstructionSpec *Spec = nullptr;
    size_t NameWords = 0;
    std::vector<const spec::GroupSpec *> Groups; ///< of the words after the name
    InstructionCheck::LayoutMemo Layout; ///< once QualifiersClean
    /// checkQualifiers() reported nothing; it chose Form and these state
    /// spaces (indices into the instruction's modifiers).
    bool QualifiersClean = false;
    bool TargetsClean = false; ///< checkTargets() reported nothing
    const spec::FormSpec *Form = nullptr;
    std::vector<uint8_t> Spaces;
    void rememberQualifiers(const InstructionCheck &C) {
      for (const Modifier *M : C.Spaces) {
        size_t X = size_t(M - C.I.Modifiers.data());
        if (X >= C.I.Modifiers.size() || X > 255)
          return; // not one of the written words: check again each time
        Spaces.push_back(uint8_t(X));
      }
      Form = C.Form;
      QualifiersClean = true;
    }
  };

  /// Marks I's text as one whose check does nothing, in any function: what
  /// decides that is its opcode and modifiers, the same for each
  /// instruction of the text.
  void idle(const Instruction &I) {
    if (!I.TextId)
      return;
    if (I.TextId >= Idle.size())
      Idle.resize(std::max<size_t>(I.TextId + 1, 2 * Idle.size()));
    Idle[I.TextId] = true;
  }

  void checkInstruction(LintContext &Ctx, const Instruction &I, int32_t Function) {
    // Instructions of one text (the parser's TextId) have one head: its
    // entry is found once (async-dense code repeats whole statements).
    HeadEntry **Known = nullptr;
    if (I.TextId) {
      if (I.TextId >= ByText.size())
        ByText.resize(I.TextId + 1, nullptr);
      Known = &ByText[I.TextId];
    }
    bool Cacheable = Known && *Known;
    HeadEntry Uncached;
    HeadEntry *E = Cacheable ? *Known : &Uncached;
    if (!Cacheable) {
      if (!spec::hasOpcode(I.Opcode)) {
        idle(I);
        return; // parsed for the flow rules only (ld.shared, bra, ...)
      }
      std::string_view Head = Ctx.M.Statements[I.StatementIndex].head(Ctx.M.Text);
      // A module repeats a few dozen heads thousands of times. A head is
      // the opcode and the modifiers as written, so it determines the table
      // entry; and the qualifier and target checks read the head alone (its
      // words, the entry, the module's target and version): a head they
      // passed once passes again, with the same form. Operands are checked
      // every time.
      Cacheable = I.spelledBy(Head);
      if (Cacheable) {
        auto [It, New] = Entries.try_emplace(Head);
        E = &It->second;
        if (New) {
          findEntry(I, *E);
          for (size_t K = E->NameWords; E->Spec && K < I.Modifiers.size(); ++K)
            E->Groups.push_back(spec::groupOf(*E->Spec, I.Modifiers[K].Text));
        }
        if (Known)
          *Known = E;
      } else {
        findEntry(I, *E);
      }
    }
    if (!E->Spec) {
      if (I.Opcode == "cp") // every cp.* instruction is in the tables
        reportUnknown(Ctx, I);
      else
        idle(I);
      return;
    }
    if (E->Spec->ClassifyOnly) {
      idle(I);
      return;
    }
    // The head checked clean: only the operands are checked, and an
    // instruction of a text checked clean before is clean again where its
    // names find what that one's found.
    Replay *R = nullptr;
    if (Known && E->QualifiersClean && E->TargetsClean) {
      if (I.TextId >= Replays.size())
        Replays.resize(I.TextId + 1);
      R = &Replays[I.TextId];
      // In a function of the same percentScope() as the recording's, the
      // names that start with '%' find what they found there: only the
      // others are looked up.
      if (R->Clean &&
          findsAsBefore(Ctx, I, Function, R->First,
                        Ctx.Symbols.percentScope(Function) == R->Scope ? R->Others : R->Count))
        return;
    }
    InstructionCheck C(Ctx, I, *E->Spec, Function, E->NameWords, Buffers,
                       Cacheable ? &E->Groups : nullptr);
    size_t RecordFrom = Recorded.size();
    if (R && !R->Recorded) { // the text's first check with its head clean
      R->Recorded = true;
      C.Record = &Recorded;
    }
    if (E->QualifiersClean) {
      C.Form = E->Form;
      for (uint8_t X : E->Spaces)
        C.Spaces.push_back(&I.Modifiers[X]);
      C.Layout = &E->Layout;
    } else {
      checkQualifiers(C);
      if (Cacheable && C.Reports == 0)
        E->rememberQualifiers(C);
    }
    checkOperands(C);
    if (C.Record)
      keepRecord(Ctx, I, Function, C.Reports == 0 && C.Replayable, RecordFrom, *R);
    if (E->TargetsClean)
      return;
    unsigned Before = C.Reports;
    checkTargets(C);
    if (E->QualifiersClean && C.Reports == Before)
      E->TargetsClean = true;
  }

  void findEntry(const Instruction &I, HeadEntry &E) {
    Mods.clear(); // one buffer for every instruction: no allocation each
    for (const Modifier &M : I.Modifiers)
      Mods.push_back(M.Text);
    E.Spec = spec::findInstruction(I.Opcode, Mods, E.NameWords);
  }

  spec::Words Mods;
  CheckBuffers Buffers;
  /// Head text (into the module) -> what is known of it.
  std::unordered_map<std::string_view, HeadEntry, TextHash> Entries;
  /// Instruction::TextId -> its head's entry in Entries, or null (not seen
  /// yet, or its words are apart: no entry by head text).
  std::vector<HeadEntry *> ByText;
  /// By Instruction::TextId: whether the text's check does nothing (see
  /// idle()). A bit each: runBatch() reads it for every instruction.
  std::vector<bool> Idle;

  /// By Instruction::TextId: the names an operand check of the text looked
  /// up, and whether it reported nothing (async-dense code repeats its
  /// wrappers' statements in every function). 16 bytes, the names kept in
  /// one array: a module has one per lexer memo entry.
  struct Replay {
    bool Clean = false;
    bool Recorded = false; ///< one check of the text records
    /// Its names: Count of Recorded from First, those that do not start
    /// with '%' first (Others of them), as looked up in a function of
    /// percentScope() Scope (async-dense code repeats a kernel's wrappers in
    /// dozens of functions that declare the same registers).
    uint16_t Count = 0, Others = 0;
    uint32_t Scope = 0, First = 0;
  };
  std::vector<Replay> Replays;
  std::vector<LookedUp> Recorded; ///< the names of every Replay
  /// Keeps in R what a check of I recorded from Recorded[From], if Clean
  /// (else drops it).
  void keepRecord(LintContext &Ctx, const Instruction &I, int32_t Function, bool Clean,
                  size_t From, Replay &R) {
    size_t Count = Recorded.size() - From;
    if (!Clean || Count > UINT16_MAX || Recorded.size() > UINT32_MAX) {
      Recorded.resize(From);
      return;
    }
    const char *Begin = Ctx.M.Text.data() + I.Range.Begin;
    auto Others = std::stable_partition(Recorded.begin() + std::ptrdiff_t(From), Recorded.end(),
                                        [&](const LookedUp &L) { return Begin[L.Offset] != '%'; });
    R.Clean = true;
    R.Count = uint16_t(Count);
    R.Others = uint16_t(Others - (Recorded.begin() + std::ptrdiff_t(From)));
    R.Scope = Ctx.Symbols.percentScope(Function);
    R.First = uint32_t(From);
  }
  /// Whether I's names find what the N names of Recorded from First found
  /// (each lookup of the check depended only on the ones before it: where
  /// every one finds the same, the check runs the same).
  bool findsAsBefore(LintContext &Ctx, const Instruction &I, int32_t Function, uint32_t First,
                     uint32_t N) {
    const char *Begin = Ctx.M.Text.data() + I.Range.Begin;
    for (uint32_t K = First; K < First + N; ++K) {
      const LookedUp &L = Recorded[K];
      if (!L.finds(Ctx.Symbols.lookup(std::string_view(Begin + L.Offset, L.Size), Function,
                                      Buffers.Prefixes)))
        return false;
    }
    return true;
  }

  static void reportUnknown(LintContext &Ctx, const Instruction &I) {
    SourceRange R = I.OpcodeRange;
    if (!I.Modifiers.empty())
      R.End = I.rangeOf(I.Modifiers.front()).End;
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
