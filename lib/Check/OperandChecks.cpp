//===- OperandChecks.cpp - O2xx: operands of the chosen form --------------===//
//
// The form lists its operand slots in order. A slot is always present, present
// exactly when one of its qualifiers is written (cache-policy with
// .L2::cache_hint), or optional (cp.async's src-size). Operands fill the
// present slots first and the optional ones with what is left, which is how
// ptxas reads "cp.async...L2::cache_hint [d], [s], 16, %rd": the fourth
// operand is the policy, not src-size.
//
// Then each operand is checked against its slot: its shape (address, tensor,
// vector, value), register types, immediate values, the state space of a
// named variable, alignment of immediate offsets, and the slot's named
// predicate if it has one.
//
//===----------------------------------------------------------------------===//

#include "Check/CheckContext.h"
#include "Check/Predicates.h"

#include <algorithm>
#include <cstring>

namespace ptxlint {
namespace check {

using spec::OperandSpec;
using spec::Presence;
using spec::Shape;

static bool present(const InstructionCheck &C, const OperandSpec &S) {
  return std::any_of(S.If.begin(), S.If.end(),
                     [&](std::string_view Q) { return C.has(Q); });
}

/// The written qualifiers, as spec::layoutSlots asks them.
static auto written(const InstructionCheck &C) {
  return [&C](std::string_view Q) { return C.has(Q); };
}

static std::string slotNames(const std::vector<const OperandSpec *> &Slots) {
  std::string S;
  for (size_t K = 0; K < Slots.size(); ++K)
    S += (K ? ", " : "") + std::string(Slots[K]->Name);
  return S;
}

static std::string plural(size_t N, const char *Word) {
  return std::to_string(N) + " " + Word + (N == 1 ? "" : "s");
}

/// Whether an operand as written has the shape a slot takes.
static bool shapeFits(const Operand &Op, Shape Want) {
  switch (Want) {
  case Shape::Address:
    return Op.isAddress() && Op.Elements.size() <= 1;
  case Shape::Tensor:
    return Op.isAddress() && Op.Elements.size() == 2 && Op.Elements[1].isVector();
  case Shape::Vector:
    return Op.isVector();
  case Shape::Value:
    return Op.isRegister() || Op.isImmediate();
  }
  return false;
}

/// Whether writing Extra's qualifier would make every operand fit its slot by
/// shape: only then is inserting it a certain fix (a tensor map written
/// without brackets also adds an operand, and no qualifier fixes it).
static bool fitsWith(const InstructionCheck &C, const OperandSpec &Extra) {
  auto WithExtra = [&](std::string_view Q) { return C.has(Q) || Q == Extra.If[0]; };
  std::vector<const OperandSpec *> Slots;
  if (!spec::layoutSlots(*C.Form, WithExtra, C.I.Operands.size(), Slots))
    return false;
  for (size_t K = 0; K < Slots.size(); ++K)
    if (!shapeFits(C.I.Operands[K], Slots[K]->Kind))
      return false;
  return true;
}

/// Whether the form's narrow_on targets reach the module's target.
static bool narrowHere(const InstructionCheck &C) {
  return !C.Form->NarrowOn.empty() && !C.Targets.empty() &&
         reachesAny(C.Form->NarrowOn, C.Targets.front());
}

/// A 16-bit register the operand holds as an address: the base of [r], a
/// bare register, an element of a vector, the tensor map. Empty: none.
static std::string_view narrowAddressRegister(const InstructionCheck &C,
                                              const Operand &Op) {
  auto Narrow = [&](const Operand &R) {
    std::string_view T = C.registerType(R);
    return C.isRegister(R) && T.size() == 4 && T.substr(2) == "16";
  };
  if (Op.isAddress() && !Op.Elements.empty())
    return Narrow(Op.Elements[0]) ? Op.Elements[0].Name : std::string_view();
  if (Op.isVector()) {
    for (const Operand &E : Op.Elements)
      if (Narrow(E))
        return E.Name;
    return {};
  }
  return Narrow(Op) ? Op.Name : std::string_view();
}

/// The form's narrow_on rule (sm_12x, .shared::cluster.global copies): no
/// 16-bit register as an address, no vector as a value. Reports O203 and
/// returns false when the operand breaks it.
static bool fitsNarrowTarget(InstructionCheck &C, const OperandSpec &S,
                             const Operand &Op) {
  if (!narrowHere(C))
    return true;
  std::string On = C.Targets.front().name();
  if (S.Kind == Shape::Value) {
    if (!Op.isVector())
      return true;
    C.report(rules::OperandType, C.I.rangeOf(Op),
             "'" + std::string(S.Name) + "' cannot be a vector on " + On +
                 " (ptxas 13.0 rejects it there)")
        .spec(C.Form->Section);
    return false;
  }
  if (S.Kind != Shape::Address && S.Kind != Shape::Tensor)
    return true;
  std::string_view Reg = narrowAddressRegister(C, Op);
  if (Reg.empty())
    return true;
  C.report(rules::OperandType, C.I.rangeOf(Op),
           "'" + std::string(S.Name) + "' cannot be addressed through the "
           "16-bit register " + q(Reg) + " on " + On + " in " +
               C.formName() + " (ptxas 13.0 rejects it there)")
      .spec(C.Form->Section);
  return false;
}

/// Matches operands to slots; reports O201 and returns false on a count
/// mismatch. Slots[K] is the slot of operand K.
static bool layout(InstructionCheck &C,
                   std::vector<const OperandSpec *> &Slots) {
  const std::vector<OperandSpec> &All = C.Form->Operands;
  size_t N = C.I.Operands.size();
  if (spec::layoutSlots(*C.Form, written(C), N, Slots))
    return true;
  size_t Mandatory = 0, Optional = 0;
  for (const OperandSpec &S : All) {
    Mandatory += spec::slotRequired(S, written(C));
    Optional += S.When == Presence::Optional;
  }

  std::vector<const OperandSpec *> Expected;
  for (const OperandSpec &S : All)
    if (S.When != Presence::If || present(C, S))
      Expected.push_back(&S);
  std::string Takes =
      Optional ? std::to_string(Mandatory) + " to " +
                     plural(Mandatory + Optional, "operand")
      : Mandatory ? plural(Mandatory, "operand")
                  : std::string("no operands");
  if (Mandatory + Optional)
    Takes += " (" + slotNames(Expected) + ")";
  std::string Msg = C.formName() + " takes " + Takes + ", but " +
                    std::to_string(N) + (N == 1 ? " was" : " were") + " given";
  SourceRange R = C.NameRange;
  if (N > Mandatory + Optional)
    R = C.I.rangeOf(C.I.Operands[Mandatory + Optional]);
  DiagBuilder D = C.report(rules::OperandCount, R, Msg);
  // Too few: show where the list stops (an operand dropped at the end, the
  // usual slip, is missing right there).
  if (N < Mandatory && N > 0) {
    uint32_t End = C.I.rangeOf(C.I.Operands.back()).End;
    D.note(SourceRange{End, End},
           "the operand list ends here, after " + plural(N, "operand"));
  }
  // An operand whose qualifier is missing, or a qualifier whose operand is.
  const OperandSpec *Fix = nullptr;
  size_t Fitting = 0;
  for (const OperandSpec &S : All) {
    if (S.When != Presence::If)
      continue;
    if (present(C, S) && N < Mandatory + Optional && N + 1 >= Mandatory)
      D.note(q(S.If[0]) + " needs the '" + std::string(S.Name) + "' operand");
    if (!present(C, S) && N > Mandatory + Optional && S.If.size() == 1) {
      D.note("an extra '" + std::string(S.Name) + "' operand needs " +
             q(S.If[0]));
      if (N == Mandatory + Optional + 1 && fitsWith(C, S)) {
        Fix = &S;
        ++Fitting;
      }
    }
  }
  // A fix-it must be certain: one qualifier, and every operand then fits.
  if (Fitting == 1)
    D.fix(C.insertionPoint(Fix->If[0]), std::string(Fix->If[0]));
  D.spec(C.Form->Section);
  return false;
}

static bool fitsBits(int64_t V, unsigned Bits) {
  if (Bits >= 64)
    return true;
  int64_t Lo = -(int64_t(1) << (Bits - 1));
  int64_t Hi = (int64_t(1) << Bits) - 1;
  return V >= Lo && V <= Hi;
}

static std::string typeList(const spec::Words &Regs) {
  std::string S;
  for (size_t K = 0; K < Regs.size(); ++K)
    S += (K ? K + 1 == Regs.size() ? " or " : ", " : "") + std::string(Regs[K]);
  return S;
}

/// The width of a register type: 32 for ".f32"; 0 when unknown.
static unsigned typeBits(std::string_view Type) {
  if (Type == ".pred")
    return 1;
  size_t K = Type.find_first_of("0123456789");
  if (K == std::string_view::npos)
    return 0;
  unsigned Bits = 0;
  for (; K < Type.size() && isdigit(static_cast<unsigned char>(Type[K])); ++K)
    Bits = Bits * 10 + unsigned(Type[K] - '0');
  return Bits;
}

static bool regAccepted(const spec::Words &Regs, std::string_view Type) {
  return Type.empty() ||
         std::any_of(Regs.begin(), Regs.end(), [&](std::string_view R) {
           // "any": every register that can hold an address (not a predicate)
           return (R == "any" && Type != ".pred") || R == Type;
         });
}

static const char *kindName(OperandKind K) {
  switch (K) {
  case OperandKind::Register: return "a register";
  case OperandKind::Symbol: return "a variable name";
  case OperandKind::Immediate: return "an immediate";
  case OperandKind::FloatImm: return "a floating-point constant";
  case OperandKind::Address: return "an address";
  case OperandKind::Vector: return "a vector";
  case OperandKind::Sink: return "'_'";
  case OperandKind::Expr: return "an expression";
  }
  return "an operand";
}

/// What a Value slot accepts, for messages: "a .b32, .u32 or .s32 register or
/// an immediate".
static std::string accepts(const OperandSpec &S) {
  std::string A;
  if (!S.Regs.empty())
    A = "a " + typeList(S.Regs) + " register";
  if (S.Imm)
    A += (A.empty() ? "" : " or ") + std::string("an immediate");
  if (!S.PredName.empty())
    A += (A.empty() ? "" : " or ") + std::string("a predicate (") +
         std::string(S.PredName) + ")";
  return A;
}

/// The value of another immediate operand of the instruction, by slot name.
static const Operand *
operandFor(const InstructionCheck &C,
           const std::vector<const OperandSpec *> &Slots, std::string_view Name) {
  for (size_t K = 0; K < Slots.size(); ++K)
    if (Slots[K]->Name == Name)
      return &C.I.Operands[K];
  return nullptr;
}

/// The accepted immediates of a slot, after values_if.
static const std::vector<int64_t> *acceptedValues(const InstructionCheck &C,
                                                  const OperandSpec &S,
                                                  std::string_view &Because) {
  for (const spec::ValuesIfSpec &V : S.ValuesIf)
    if (C.has(V.If)) {
      Because = V.If;
      return &V.Values;
    }
  return S.Values.empty() ? nullptr : &S.Values;
}

static std::string valueList(const std::vector<int64_t> &V) {
  std::string S;
  for (size_t K = 0; K < V.size(); ++K)
    S += (K ? K + 1 == V.size() ? " or " : ", " : "") + std::to_string(V[K]);
  return S;
}

/// PTX's predefined registers (section 10), by name stem: "%tid.x",
/// "%clock64", "%envreg3" need no declaration.
static bool isSpecialRegister(std::string_view Name) {
  static const char *const Stems[] = {
      "%tid", "%ntid", "%laneid", "%warpid", "%nwarpid", "%ctaid", "%nctaid",
      "%smid", "%nsmid", "%gridid", "%is_explicit_cluster", "%clusterid",
      "%nclusterid", "%cluster_", "%lanemask_", "%clock", "%pm",
      "%envreg", "%globaltimer", "%reserved_smem_offset", "%total_smem_size",
      "%aggr_smem_size", "%dynamic_smem_size", "%current_graph_exec"};
  for (const char *S : Stems)
    if (Name.substr(0, std::strlen(S)) == S)
      return true;
  return false;
}

/// Reports a name the module does not declare; ptxas rejects it ("Unknown
/// symbol"). Returns false when it reported.
static bool checkDeclared(InstructionCheck &C, const Operand &Op) {
  if (Op.Kind != OperandKind::Register && Op.Kind != OperandKind::Symbol)
    return true;
  if (C.symbol(Op) || isSpecialRegister(Op.Name))
    return true;
  C.report(rules::UndeclaredName, C.I.rangeOf(Op),
           q(Op.Name) + " is not declared")
      .spec(C.Form->Section);
  return false;
}

/// Every name in an operand (address bases, vector elements) is declared.
static bool allDeclared(InstructionCheck &C, const Operand &Op) {
  bool Ok = checkDeclared(C, Op);
  for (const Operand &E : Op.Elements)
    Ok &= allDeclared(C, E);
  return Ok;
}

static void checkImmediate(InstructionCheck &C, const OperandSpec &S,
                           const Operand &Op) {
  auto Name = [&] { return "'" + std::string(S.Name) + "'"; }; // for reports
  if (Op.Overflow)
    return; // ptxas's "Constant overflow": the parser reported it (O204)
  int64_t V = Op.Value;
  // ptxas judges some immediates after truncating them to 32 bits.
  int64_t Judged = S.Truncate32 ? int64_t(uint32_t(uint64_t(V))) : V;
  std::string_view Because;
  if (const std::vector<int64_t> *Values = acceptedValues(C, S, Because)) {
    if (std::find(Values->begin(), Values->end(), Judged) == Values->end()) {
      std::string Msg = Name() + " must be " + valueList(*Values);
      if (!Because.empty())
        Msg += " with " + q(Because);
      C.report(rules::OperandValue, C.I.rangeOf(Op), Msg + ", not " + std::to_string(V))
          .spec(C.Form->Section);
      return;
    }
  }
  if ((S.HasMin && Judged < S.Min) || (S.HasMax && Judged > S.Max)) {
    std::string Range = S.HasMin && S.HasMax
                            ? "in [" + std::to_string(S.Min) + ", " +
                                  std::to_string(S.Max) + "]"
                        : S.HasMin ? "at least " + std::to_string(S.Min)
                                   : "at most " + std::to_string(S.Max);
    C.report(rules::OperandValue, C.I.rangeOf(Op),
             Name() + " must be " + Range + ", not " + std::to_string(V))
        .spec(C.Form->Section);
    return;
  }
  if (S.MultipleOf && Judged % S.MultipleOf != 0) {
    C.report(rules::OperandValue, C.I.rangeOf(Op),
             Name() + " must be a multiple of " + std::to_string(S.MultipleOf) +
                 ", not " + std::to_string(V))
        .spec(C.Form->Section);
    return;
  }
  if (S.WarnBits && !fitsBits(V, S.WarnBits)) {
    DiagBuilder D = C.report(rules::ImmediateTooWide, C.I.rangeOf(Op),
                             Name() + " is a " + std::to_string(S.WarnBits) +
                                 "-bit operand; " + std::to_string(V) +
                                 " does not fit");
    if (S.Truncate32)
      D.note("ptxas 13.0 silently truncates it to " + std::to_string(Judged));
    D.spec(C.Form->Section);
  }
  if (S.HasWarnMin && V < S.WarnMin)
    C.report(rules::OperandRange, C.I.rangeOf(Op),
             Name() + " should be at least " + std::to_string(S.WarnMin) +
                 ", not " + std::to_string(V))
        .spec(C.Form->Section);
}

static void checkValue(InstructionCheck &C, const OperandSpec &S,
                       const Operand &Op) {
  auto Name = [&] { return "'" + std::string(S.Name) + "'"; }; // for reports
  if (C.isRegister(Op)) {
    std::string_view Type = C.registerType(Op);
    if (Type == ".pred") {
      if (S.PredName.empty()) {
        C.report(rules::OperandType, C.I.rangeOf(Op),
                 Name() + " must be " + accepts(S) + ", not a predicate")
            .spec(C.Form->Section);
        return;
      }
      if (S.PredMinPtx.known() && C.Version.known() &&
          C.Version < S.PredMinPtx)
        C.report(rules::PtxVersionTooOld, C.I.rangeOf(Op),
                 "'" + std::string(S.PredName) + "' needs PTX ISA " +
                     S.PredMinPtx.str() + ", but the module is .version " +
                     C.Version.str())
            .spec(C.Form->Section);
      return;
    }
    if (Op.Negated) {
      C.report(rules::OperandKind, C.I.rangeOf(Op),
               "only a predicate operand may be negated with '!'")
          .spec(C.Form->Section);
      return;
    }
    if (S.Regs.empty()) {
      C.report(rules::OperandKind, C.I.rangeOf(Op),
               Name() + " must be " + accepts(S) + ", not a register")
          .spec(C.Form->Section);
      return;
    }
    if (regAccepted(S.Regs, Type))
      return;
    bool PtxasTakes =
        !S.PtxasRegs.empty() && regAccepted(S.PtxasRegs, Type) &&
        (S.PtxasRegsIf.empty() ||
         std::any_of(S.PtxasRegsIf.begin(), S.PtxasRegsIf.end(),
                     [&](std::string_view Q) { return C.has(Q); })) &&
        (!S.PtxasRegsLast || &Op == &C.I.Operands.back());
    if (PtxasTakes)
      C.report(rules::OperandNotDocumented, C.I.rangeOf(Op),
               Name() + " should be " + accepts(S) + "; ptxas 13.0 also takes " +
                   q(Op.Name) + " (" + std::string(Type) + ")")
          .spec(C.Form->Section);
    else
      C.report(rules::OperandType, C.I.rangeOf(Op),
               Name() + " must be " + accepts(S) + ", but " + q(Op.Name) +
                   " is " + std::string(Type))
          .spec(C.Form->Section);
    return;
  }
  if (Op.Kind == OperandKind::Vector && !S.PtxasVectorRegs.empty() &&
      std::all_of(Op.Elements.begin(), Op.Elements.end(),
                  [&](const Operand &E) {
                    return C.isRegister(E) &&
                           regAccepted(S.PtxasVectorRegs, C.registerType(E));
                  })) {
    C.report(rules::OperandNotDocumented, C.I.rangeOf(Op),
             Name() + " should be " + accepts(S) +
                 "; ptxas 13.0 also takes a vector here")
        .spec(C.Form->Section);
    return;
  }
  if (Op.Kind == OperandKind::Immediate && S.Imm) {
    checkImmediate(C, S, Op);
    return;
  }
  if (Op.Kind == OperandKind::Expr)
    return; // a constant expression: nothing certain to say
  C.report(rules::OperandKind, C.I.rangeOf(Op),
           Name() + " must be " + accepts(S) + ", not " + kindName(Op.Kind))
      .spec(C.Form->Section);
}

/// The state space a slot's address must be in, as the module declares it.
static StateSpace slotSpace(const InstructionCheck &C, const OperandSpec &S,
                            std::string &Spelled) {
  std::string_view Space = S.Space;
  if (S.SpaceIndex >= 0 && size_t(S.SpaceIndex) < C.Spaces.size())
    Space = C.Spaces[size_t(S.SpaceIndex)]->Text;
  Spelled = std::string(Space);
  if (Space.substr(0, 7) == ".shared")
    return StateSpace::Shared;
  if (Space == ".global")
    return StateSpace::Global;
  if (Space == "generic") { // no state space written: a generic address
    Spelled = "generic memory";
    return StateSpace::Generic;
  }
  return StateSpace::None;
}

static const char *spaceName(StateSpace S) {
  switch (S) {
  case StateSpace::Shared: return ".shared";
  case StateSpace::Global: return ".global";
  case StateSpace::Const: return ".const";
  case StateSpace::Local: return ".local";
  case StateSpace::Param: return ".param";
  default: return "another state space";
  }
}

/// A named variable used as an address must live in the slot's space.
static void checkSymbolSpace(InstructionCheck &C, const OperandSpec &S,
                             const Operand &Base) {
  if (Base.Kind != OperandKind::Symbol)
    return;
  std::optional<SymbolFacts> Sym = C.symbol(Base);
  if (!Sym)
    return;
  std::string Spelled;
  StateSpace Want = slotSpace(C, S, Spelled);
  static const StateSpace Data[] = {StateSpace::Shared, StateSpace::Global,
                                    StateSpace::Const, StateSpace::Local,
                                    StateSpace::Param};
  bool IsData = std::find(std::begin(Data), std::end(Data), Sym->Space) !=
                std::end(Data);
  // A generic address names .shared, .global or .local memory (ptxas 13.0
  // refuses .param and .const variables there).
  if (Want == StateSpace::Generic && IsData && Sym->Space != StateSpace::Const &&
      Sym->Space != StateSpace::Param)
    return;
  if (Want == StateSpace::None || !IsData || Sym->Space == Want)
    return;
  DiagBuilder D = C.report(rules::OperandStateSpace, C.I.rangeOf(Base),
                           "'" + std::string(S.Name) + "' is in " + Spelled +
                               ", but " + q(Base.Name) + " is a " +
                               spaceName(Sym->Space) + " variable");
  if (S.Kind == Shape::Tensor)
    D.note("ptxas 13.0 takes a tensor map only as a .global variable or as a "
           "register holding its generic address");
  D.spec(C.Form->Section);
}

static void checkAlignment(InstructionCheck &C, const OperandSpec &S,
                           const Operand &Op,
                           const std::vector<const OperandSpec *> &Slots) {
  if (!Op.HasOffset)
    return;
  int64_t Align = S.Align;
  if (!S.AlignFrom.empty()) {
    const Operand *From = operandFor(C, Slots, S.AlignFrom);
    Align = From && From->Kind == OperandKind::Immediate ? From->Value : 0;
  }
  if (Align <= 1 || Op.Offset % Align == 0)
    return;
  SourceRange Offset = C.I.offsetRangeOf(Op);
  C.report(rules::MisalignedOffset, Offset.empty() ? C.I.rangeOf(Op) : Offset,
           "offset " + std::to_string(Op.Offset) + " of '" +
               std::string(S.Name) + "' is not a multiple of " +
               std::to_string(Align) + ": the address must be " +
               std::to_string(Align) + "-byte aligned")
      .spec(C.Form->Section);
}

static void checkAddress(InstructionCheck &C, const OperandSpec &S,
                         const Operand &Op,
                         const std::vector<const OperandSpec *> &Slots) {
  auto Name = [&] { return "'" + std::string(S.Name) + "'"; }; // for reports
  if (Op.Kind == OperandKind::Address) {
    if (Op.Elements.size() != 1) {
      C.report(rules::OperandKind, C.I.rangeOf(Op),
               Name() + " must be an address '[...]', not a tensor operand")
          .spec(C.Form->Section);
      return;
    }
    const Operand &Base = Op.Elements[0];
    if (Base.Kind == OperandKind::Immediate) {
      C.report(rules::OperandKind, C.I.rangeOf(Op),
               Name() + " cannot be an immediate address (ptxas takes those "
                      "only in .local)")
          .spec(C.Form->Section);
      return;
    }
    // PTX addresses take integer or bit-size registers only.
    std::string_view Type = C.registerType(Base);
    if (C.isRegister(Base) && (Type == ".pred" || Type.substr(0, 2) == ".f")) {
      C.report(rules::OperandType, C.I.rangeOf(Base),
               "an address register must be an integer or bit-size register, "
               "but " + q(Base.Name) + " is " + std::string(Type))
          .spec(C.Form->Section);
      return;
    }
    bool Last = &Op == &C.I.Operands.back();
    if (C.isRegister(Base) && !S.AddrRegs.empty() &&
        (Last || !S.AddrRegsLast) && !regAccepted(S.AddrRegs, Type)) {
      C.report(rules::OperandType, C.I.rangeOf(Base),
               Name() + " must be addressed through a " + typeList(S.AddrRegs) +
                   " register, but " + q(Base.Name) + " is " + std::string(Type))
          .spec(C.Form->Section);
      return;
    }
    checkSymbolSpace(C, S, Base);
    checkAlignment(C, S, Op, Slots);
    return;
  }
  bool BareReg = C.isRegister(Op) && !Op.Negated &&
                 (S.BareRegs.empty() ||
                  regAccepted(S.BareRegs, C.registerType(Op)));
  bool BareImm = Op.Kind == OperandKind::Immediate && S.BareImm;
  // Where any register passes bare, so does a variable of the right space.
  bool BareVar = Op.Kind == OperandKind::Symbol && !C.isRegister(Op) &&
                 S.BareRegs.empty();
  bool BareVector =
      Op.Kind == OperandKind::Vector && !S.BareVectorRegs.empty() &&
      std::all_of(Op.Elements.begin(), Op.Elements.end(),
                  [&](const Operand &E) {
                    return C.isRegister(E) &&
                           regAccepted(S.BareVectorRegs, C.registerType(E));
                  });
  if (BareVar)
    checkSymbolSpace(C, S, Op);
  if (Op.Kind == OperandKind::FloatImm && S.BareFloat) {
    C.report(rules::OperandNotDocumented, C.I.rangeOf(Op),
             Name() + " is an address; ptxas 13.0 also takes a floating-point "
                    "constant here")
        .spec(C.Form->Section);
    return;
  }
  bool Last = &Op == &C.I.Operands.back();
  if (S.BareWarn && (BareReg || BareImm || BareVar || BareVector) &&
      (Last || !S.BareIfLast)) {
    if (BareVector) {
      C.report(rules::OperandNotDocumented, C.I.rangeOf(Op),
               Name() + " is an address; ptxas 13.0 also takes a vector of "
                      "16-bit registers here")
          .spec(C.Form->Section);
      return;
    }
    SourceRange R = C.I.rangeOf(Op);
    DiagBuilder D = C.report(rules::BareAddress, R,
                             Name() + " is an address: write it in brackets");
    if (!BareImm) // "[64]" would be an immediate address, an error
      D.fix({R.Begin, R.Begin}, "[").fix({R.End, R.End}, "]");
    D.spec(C.Form->Section);
    return;
  }
  C.report(rules::OperandKind, C.I.rangeOf(Op),
           Name() + " must be an address '[...]', not " + kindName(Op.Kind))
      .spec(C.Form->Section);
}

/// The number of elements a Vector or the coordinates of a Tensor take.
static int expectedCount(const InstructionCheck &C, const OperandSpec &S,
                         std::string &Why) {
  spec::CountSpec Count = S.Count;
  for (const spec::CountIfSpec &CI : S.CountIf)
    if (C.has(CI.If)) {
      Count = CI.Count;
      Why = q(CI.If);
      break;
    }
  if (!Count.FromDim)
    return Count.Offset;
  unsigned Dim = C.dim();
  if (Why.empty())
    Why = "'." + std::to_string(Dim) + "d'";
  else
    Why += " on '." + std::to_string(Dim) + "d'";
  return Dim ? int(Dim) + Count.Offset : -1;
}

static void checkElements(InstructionCheck &C, const OperandSpec &S,
                          const Operand &Vec, const char *What) {
  std::string Why;
  int Want = expectedCount(C, S, Why);
  if (Want >= 0 && size_t(Want) != Vec.Elements.size()) {
    C.report(rules::VectorSize, C.I.rangeOf(Vec),
             "'" + std::string(S.Name) + "' takes " +
                 plural(size_t(Want), What) + " with " + Why + ", but " +
                 std::to_string(Vec.Elements.size()) +
                 (Vec.Elements.size() == 1 ? " was" : " were") + " given")
        .spec(C.Form->Section);
    return;
  }
  // ptxas wants the elements of one width (else "Incompatible elements of
  // vector expression") and at least one of them of an accepted type; a
  // same-width register of another type (a .f32 coordinate) then passes.
  // Led by an immediate ({0, %r1, %rd2}), a vector skips that check in
  // ptxas 13.0: any register type then passes next to an accepted one.
  // Found only for a report (most vectors have none).
  auto Width = [&] { return S.ElemRegs.empty() ? 0 : typeBits(S.ElemRegs.front()); };
  auto ImmediateFirst = [&] {
    return !Vec.Elements.empty() &&
           Vec.Elements.front().Kind == OperandKind::Immediate &&
           std::any_of(Vec.Elements.begin(), Vec.Elements.end(), [&](const Operand &E) {
             return C.isRegister(E) && regAccepted(S.ElemRegs, C.registerType(E));
           });
  };
  auto AnyAccepted = [&] {
    return std::any_of(Vec.Elements.begin(), Vec.Elements.end(), [&](const Operand &E) {
      return (E.Kind == OperandKind::Immediate && S.ElemImm) ||
             (C.isRegister(E) && regAccepted(S.ElemRegs, C.registerType(E)));
    });
  };
  auto Name = [&] {
    return std::string("each ") + What + " of '" + std::string(S.Name) + "'";
  };
  for (const Operand &E : Vec.Elements) {
    if (C.isRegister(E)) {
      std::string_view Type = C.registerType(E);
      if (regAccepted(S.ElemRegs, Type) && !E.Negated)
        continue;
      std::string Msg = Name() + " must be a " + typeList(S.ElemRegs) +
                        " register" + (S.ElemImm ? " or an immediate" : "") +
                        ", but " + q(E.Name) + " is " + std::string(Type);
      // ptxas 13.0 also takes a .pred coordinate next to an integer one,
      // except where the form is narrow on this target.
      bool PredCoord = Type == ".pred" && std::string_view(What) == "coordinate" &&
                       !narrowHere(C);
      if (AnyAccepted() && !E.Negated &&
          ((typeBits(Type) == Width() && Width() != 0) || PredCoord || ImmediateFirst()))
        C.report(rules::OperandNotDocumented, C.I.rangeOf(E),
                 Msg + (ImmediateFirst() && typeBits(Type) != Width()
                            ? " (ptxas 13.0 accepts it in a vector that "
                              "starts with an immediate)"
                            : " (ptxas 13.0 accepts it next to an integer one)"))
            .spec(C.Form->Section);
      else
        C.report(rules::OperandType, C.I.rangeOf(E), Msg).spec(C.Form->Section);
      continue;
    }
    if (E.Kind == OperandKind::Immediate && S.ElemImm) {
      if (S.ElemWarnBits && !fitsBits(E.Value, S.ElemWarnBits))
        C.report(rules::ImmediateTooWide, C.I.rangeOf(E),
                 Name() + " is " + std::to_string(S.ElemWarnBits) + "-bit; " +
                     std::to_string(E.Value) + " does not fit")
            .spec(C.Form->Section);
      if (S.HasElemWarnMin && E.Value < S.ElemWarnMin)
        C.report(rules::OperandRange, C.I.rangeOf(E),
                 Name() + " must be at least " + std::to_string(S.ElemWarnMin) +
                     " in this direction, not " + std::to_string(E.Value))
            .spec(S.Section.empty() ? C.Form->Section : S.Section);
      continue;
    }
    if (E.Kind == OperandKind::Expr)
      continue;
    C.report(rules::OperandKind, C.I.rangeOf(E),
             Name() + " must be a register" +
                 std::string(S.ElemImm ? " or an immediate" : "") + ", not " +
                 kindName(E.Kind))
        .spec(C.Form->Section);
  }
}

static void checkTensor(InstructionCheck &C, const OperandSpec &S,
                        const Operand &Op) {
  bool Shaped = Op.Kind == OperandKind::Address && Op.Elements.size() == 2 &&
                Op.Elements[1].Kind == OperandKind::Vector;
  if (!Shaped) {
    C.report(rules::OperandKind, C.I.rangeOf(Op),
             "expected '[tensorMap, {coordinates}]' here")
        .spec(C.Form->Section);
    return;
  }
  const Operand &Base = Op.Elements[0];
  if (Op.HasOffset || Base.Kind == OperandKind::Immediate ||
      (Base.Kind == OperandKind::Symbol && !S.Symbol)) {
    C.report(rules::OperandKind, C.I.rangeOf(Base),
             "the tensor map must be a register or a .global variable, "
             "without an offset")
        .spec(C.Form->Section);
    return;
  }
  if (C.isRegister(Base) && C.registerType(Base) == ".pred")
    // The spec asks a 64-bit address; ptxas 13.0 runs past 12 GB of memory
    // on a predicate here, so no run can be expected to finish: an error.
    C.report(rules::OperandType, C.I.rangeOf(Base),
             "the tensor map is a 64-bit address, not a predicate; ptxas does "
             "not finish on " + q(Base.Name))
        .spec(C.Form->Section);
  else if (C.isRegister(Base) && !regAccepted(S.Regs, C.registerType(Base)))
    C.report(rules::OperandType, C.I.rangeOf(Base),
             "the tensor map must be a " + typeList(S.Regs) + " register")
        .spec(C.Form->Section);
  checkSymbolSpace(C, S, Base);
  checkElements(C, S, Op.Elements[1], "coordinate");
}

static void checkVector(InstructionCheck &C, const OperandSpec &S,
                        const Operand &Op) {
  if (Op.Kind != OperandKind::Vector) {
    C.report(rules::OperandKind, C.I.rangeOf(Op),
             "'" + std::string(S.Name) + "' must be a vector '{...}', not " +
                 kindName(Op.Kind))
        .spec(C.Form->Section);
    return;
  }
  checkElements(C, S, Op, "element");
}

void checkOperands(InstructionCheck &C) {
  if (!C.Form)
    return;
  std::vector<const OperandSpec *> Own;
  InstructionCheck::LayoutMemo *Memo = C.Layout;
  size_t N = C.I.Operands.size();
  if (!Memo || Memo->Form != C.Form || Memo->Operands != N) {
    std::vector<const OperandSpec *> &Into = Memo ? Memo->Slots : Own;
    Into.clear();
    if (Memo)
      Memo->Form = nullptr; // until laid out
    if (!layout(C, Into))
      return;
    if (Memo) {
      Memo->Form = C.Form;
      Memo->Operands = N;
    }
  }
  const std::vector<const OperandSpec *> &Slots = Memo ? Memo->Slots : Own;
  for (size_t K = 0; K < Slots.size(); ++K) {
    const OperandSpec &S = *Slots[K];
    const Operand &Op = C.I.Operands[K];
    if (!allDeclared(C, Op) || !fitsNarrowTarget(C, S, Op))
      continue;
    switch (S.Kind) {
    case Shape::Value: checkValue(C, S, Op); break;
    case Shape::Address: checkAddress(C, S, Op, Slots); break;
    case Shape::Tensor: checkTensor(C, S, Op); break;
    case Shape::Vector: checkVector(C, S, Op); break;
    }
    if (!S.Check.empty())
      if (const NamedPredicate *P = findPredicate(S.Check))
        P->Run(C, S, Op, [&](std::string_view Name) {
          return operandFor(C, Slots, Name);
        });
  }
}

} // namespace check
} // namespace ptxlint
