//===- Decode.cpp - Parsed instructions back to builder structs -----------===//

#include "ModuleText.h"
#include "FormRules.h"
#include "Slots.h"
#include "ptxlint/Builder.h"
#include "ptxlint/Linter.h"
#include "ptxlint/SpecTables.h"
#include "ptxlint/SymbolTable.h"

#include <algorithm>
#include <utility>
#include <variant>

namespace ptxlint {
namespace build {
namespace {

struct Failure {
  std::string Msg;
};

[[noreturn]] void fail(std::string Msg) { throw Failure{std::move(Msg)}; }

using Quals = WrittenQuals;

/// The rank of a dimension qualifier (".3d"), 0 for none.
unsigned rank(std::string_view W) { return W.size() == 3 ? unsigned(W[1] - '0') : 0; }

struct Decoder {
  const Instruction &I;
  const SymbolTable *Symbols;
  int32_t Function;
  const spec::InstructionSpec *Spec = nullptr;
  const spec::FormSpec *Form = nullptr;

  // --- operands -------------------------------------------------------------
  static Value value(const Operand &O) {
    switch (O.Kind) {
    case OperandKind::Immediate:
      if (!O.HasValue)
        fail("immediate '" + std::string(O.Text) + "' does not fit 64 bits");
      return imm(O.Value);
    case OperandKind::Register:
    case OperandKind::Symbol: {
      Value V = reg(std::string(O.Name) + std::string(O.component()));
      V.Negated = O.Negated;
      return V;
    }
    default:
      fail("operand '" + std::string(O.Text) + "' is not a register or integer");
    }
  }
  static Address address(const Operand &O) {
    if (O.Kind != OperandKind::Address || O.Elements.size() != 1)
      fail("operand '" + std::string(O.Text) + "' is not an address [base+offset]");
    return Address{value(O.Elements[0]), O.HasOffset ? O.Offset : 0};
  }
  static TensorRef tensor(const Operand &O) {
    if (O.Kind != OperandKind::Address || O.Elements.size() != 2 ||
        O.Elements[1].Kind != OperandKind::Vector)
      fail("operand '" + std::string(O.Text) + "' is not [tensorMap, {coords}]");
    TensorRef T;
    T.Map = value(O.Elements[0]);
    for (const Operand &C : O.Elements[1].Elements)
      T.Coords.push_back(value(C));
    return T;
  }
  static std::vector<Value> vector(const Operand &O) {
    if (O.Kind != OperandKind::Vector)
      fail("operand '" + std::string(O.Text) + "' is not a vector {...}");
    std::vector<Value> V;
    for (const Operand &E : O.Elements)
      V.push_back(value(E));
    return V;
  }
  static int64_t constant(const Operand &O, std::string_view Slot) {
    Value V = value(O);
    if (!V.IsImm)
      fail("'" + std::string(Slot) + "' must be an integer constant");
    return V.Imm;
  }
  // One field from its operand, by the field's type.
  static void read(const Operand &O, const spec::OperandSpec &, Address &F) { F = address(O); }
  static void read(const Operand &O, const spec::OperandSpec &, Value &F) { F = value(O); }
  static void read(const Operand &O, const spec::OperandSpec &, TensorRef &F) { F = tensor(O); }
  static void read(const Operand &O, const spec::OperandSpec &, std::vector<Value> &F) {
    F = vector(O);
  }
  static void read(const Operand &O, const spec::OperandSpec &S, unsigned &F) {
    F = unsigned(constant(O, S.Name));
  }
  static void read(const Operand &O, const spec::OperandSpec &S, int64_t &F) {
    F = constant(O, S.Name);
  }
  template <typename V>
  static void read(const Operand &O, const spec::OperandSpec &S, std::optional<V> &F) {
    read(O, S, F.emplace());
  }

  bool isPredicate(const Operand &O) const {
    if (O.Negated)
      return true;
    if (O.Kind != OperandKind::Register && O.Kind != OperandKind::Symbol)
      return false;
    if (Symbols)
      if (const Symbol *S = Symbols->lookup(O.Name, Function))
        return S->Type == ".pred";
    return O.Name.size() > 2 && O.Name.substr(0, 2) == "%p";
  }

  /// The operands into Out's fields: the form's slots as the checker lays
  /// them out (spec::layoutSlots), each into the field the tables bind it
  /// to; a slot that also takes a predicate (ignore-src) fills its
  /// predicate field with one.
  template <typename T> void operands(T &Out, const Quals &Q) {
    std::vector<const spec::OperandSpec *> Slots;
    auto Has = [&](std::string_view W) { return Q.has(W); };
    if (!spec::layoutSlots(*Form, Has, I.Operands.size(), Slots)) {
      std::string Names;
      for (const spec::OperandSpec &S : Form->Operands)
        if (spec::slotRequired(S, Has) || S.When == spec::Presence::Optional)
          Names += (Names.empty() ? "" : ", ") + std::string(S.Name);
      fail("wrong number of operands (" + std::to_string(I.Operands.size()) + "); " +
           std::string(Spec->Name) + " takes " + (Names.empty() ? "none" : Names));
    }
    for (size_t K = 0; K < Slots.size(); ++K) {
      const Operand &O = I.Operands[K];
      bool Pred = !Slots[K]->PredName.empty() && isPredicate(O);
      Fields<T>::each(Out, [&](std::string_view Name, auto &Field, bool IsPred) {
        if (Name == Slots[K]->Name && IsPred == Pred)
          read(O, *Slots[K], Field);
      });
    }
  }

  // --- qualifiers -----------------------------------------------------------
  static void failOn(const std::vector<std::string> &Problems) {
    if (!Problems.empty())
      fail(Problems.front());
  }
  /// The enumerator of the group's written value (the group's default,
  /// enumerator 0, when none is written).
  template <typename E> static E pick(const Quals &Q, std::string_view Group) {
    std::optional<E> V = fromSpelling<E>(Q.of(Group));
    return V ? *V : E(0);
  }

  // --- instructions -----------------------------------------------------------
  Inst run() {
    spec::Words Mods;
    for (const Modifier &M : I.Modifiers)
      Mods.push_back(M.Text);
    size_t NameWords = 0;
    Spec = spec::findInstruction(I.Opcode, Mods, NameWords);
    if (!Spec || Spec->ClassifyOnly)
      fail("not an instruction of the async-copy family");
    Inst R;
    if (I.Guard) {
      Value G = reg(std::string(I.Guard->Name));
      G.Negated = I.Guard->Negated;
      R.Guard = G;
    }
    std::vector<std::string> Problems;
    Quals Q = readQualifiers(*Spec, spec::Words(Mods.begin() + NameWords, Mods.end()), Problems);
    failOn(Problems);
    Form = spec::formSpelled(*Spec, Q.Spaces);
    if (!Form)
      fail(std::string(Spec->Name) + " has no direction '" + Q.Spaces + "'");
    formProblems(*Spec, *Form, Q, Problems);
    failOn(Problems);
    // The builder struct whose table name (builder_struct) is Spec's.
    bool Found = false;
    auto decodeAs = [&](auto Struct) {
      using T = decltype(Struct);
      if (Found || Spec->Name != instructionName<T>())
        return;
      Found = true;
      qualifiers(Struct, Q);
      operands(Struct, Q);
      R.Op = Struct;
    };
    eachStruct(decodeAs, std::make_index_sequence<std::variant_size_v<AsyncCopy>>{});
    if (!Found)
      fail(std::string(Spec->Name) + " has no builder struct");
    faithful(R, Q);
    return R;
  }

  template <typename Fn, size_t... K>
  static void eachStruct(Fn &&F, std::index_sequence<K...>) {
    (F(std::variant_alternative_t<K, AsyncCopy>{}), ...);
  }

  /// Every written qualifier must come back in print(): one that no field
  /// holds (an undocumented scope, say) cannot be decoded.
  static void faithful(const Inst &R, const Quals &Q) {
    std::string Printed = print(R);
    if (R.Guard)
      Printed = Printed.substr(Printed.find(' ') + 1);
    std::vector<std::string_view> Words = printedQualifiers(Printed, instructionName(R));
    for (const auto &[G, W] : Q.Words)
      if (std::find(Words.begin(), Words.end(), W) == Words.end())
        fail("'" + std::string(W) + "' is not part of what the builder expresses of " +
             instructionName(R));
  }

  // The qualifier fields of each struct (the state spaces chose the form).
  void qualifiers(CpAsync &C, const Quals &Q) {
    C.Cache = pick<CacheOp>(Q, "cache");
    C.DstSharedCta = Q.Spaces == spelling(CpAsyncDir::SharedCtaGlobal);
    C.Prefetch = pick<PrefetchSize>(Q, "prefetch_size");
  }
  void qualifiers(CpAsyncBulk &B, const Quals &Q) { B.Dir = *fromSpelling<BulkDir>(Q.Spaces); }
  void qualifiers(CpReduceAsyncBulk &R, const Quals &Q) {
    R.Dir = *fromSpelling<ReduceDir>(Q.Spaces);
    R.Op = pick<RedOp>(Q, "redOp");
    R.Type = pick<RedType>(Q, "type");
    bool Want = needsNoftz(R.Op, R.Type);
    if (Q.has(spelling(Flag::Noftz)) != Want)
      fail(Want ? std::string(spelling(R.Op)) + spelling(R.Type) + " needs " + spelling(Flag::Noftz)
                : std::string(spelling(Flag::Noftz)) + " does not go with " + spelling(R.Op) +
                      spelling(R.Type));
  }
  void qualifiers(CpAsyncBulkTensor &T, const Quals &Q) {
    T.Dir = *fromSpelling<TensorDir>(Q.Spaces);
    T.Dim = rank(Q.of("dim"));
    T.Mode = pick<LoadMode>(Q, "load_mode");
    T.Group = pick<CtaGroup>(Q, "cta_group");
  }
  void qualifiers(CpReduceAsyncBulkTensor &R, const Quals &Q) {
    R.Dim = rank(Q.of("dim"));
    R.Mode = pick<LoadMode>(Q, "load_mode");
    R.Op = pick<RedOp>(Q, "redOp");
  }
  void qualifiers(CpAsyncBulkPrefetchTensor &P, const Quals &Q) {
    P.Dim = rank(Q.of("dim"));
    P.Mode = pick<LoadMode>(Q, "load_mode");
  }
  void qualifiers(CpAsyncBulkWaitGroup &W, const Quals &Q) { W.Read = Q.has(spelling(Flag::Read)); }
  template <typename T> void qualifiers(T &, const Quals &) {}
};

} // namespace

std::optional<Inst> decode(const Instruction &I, std::string *Error,
                           const SymbolTable *Symbols, int32_t Function) {
  try {
    Decoder D{I, Symbols, Function};
    return D.run();
  } catch (const Failure &F) {
    if (Error)
      *Error = F.Msg;
    return std::nullopt;
  }
}

std::optional<Inst> parseInst(std::string_view Text, std::string *Error) {
  std::string Src = ".entry ptxlint_parse()\n{\n";
  Src += Text;
  Src += "\n}\n";
  SourceBuffer Buf("<inst>", std::move(Src));
  DiagnosticEngine Diags;
  Module M = parseModule(Buf, Diags);
  if (!Diags.diagnostics().empty()) {
    if (Error)
      *Error = Diags.diagnostics().front().Message;
    return std::nullopt;
  }
  for (const Statement &S : M.Statements)
    if (S.Kind == StatementKind::Instruction) {
      if (S.ParsedIndex < 0) {
        if (Error)
          *Error = "not an instruction of the async-copy family";
        return std::nullopt;
      }
      return decode(M.Instructions[size_t(S.ParsedIndex)], Error);
    }
  if (Error)
    *Error = "no instruction";
  return std::nullopt;
}

} // namespace build
} // namespace ptxlint
