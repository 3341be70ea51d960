//===- SpecTables.h - The async-copy family as data -------------*- C++ -*-===//
//
// These structures mirror the YAML files in spec-tables/ one to one; the
// build runs spec-tables/tblgen over the YAML, validates it and emits their
// contents as C++ initialisers (SpecTables.inc), compiled into libptxlint.
// spec-tables/README.md explains every field; the short version:
//
//   InstructionSpec  one instruction ("cp.async.bulk.tensor"): its qualifier
//                    groups, its forms, and the rules, tables and features
//                    that hold across forms (each may be limited to forms).
//   FormSpec         one direction: the state spaces it is written with, the
//                    groups it requires or allows, and its operand list.
//   OperandSpec      one operand slot: shape, accepted registers/immediates,
//                    when it is present, value and alignment constraints.
//   RuleSpec         "if these qualifiers, then one of these sets".
//   PairTableSpec    a matrix of allowed (row, column) qualifier pairs.
//   FeatureSpec      a minimum PTX version and/or a target set for the
//                    instruction or for some of its qualifiers.
//
// Everything is static data that lives for the whole program; string_views
// point at string literals.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_SPECTABLES_H
#define PTXLINT_SPECTABLES_H

#include "ptxlint/Target.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace ptxlint {
namespace spec {

using Words = std::vector<std::string_view>;

/// Error: ptxas rejects it. Warning: ptxas accepts it, the spec does not.
enum class Level { Error, Warning };

enum class GroupKind {
  Plain,      ///< at most one value of the group may be written
  StateSpace, ///< up to two values: the first is dst, the second src
  Dimension,  ///< ".1d".."5d": the value is the tensor rank
};

struct GroupSpec {
  std::string_view Name;     ///< "load_mode"
  std::string_view Display;  ///< how the spec names it: ".load_mode"
  GroupKind Kind = GroupKind::Plain;
  Words Values;              ///< ".tile", ".tile::gather4", ...
  /// ptxas accepts the group but the spec does not document it: warn.
  bool Undocumented = false;
  std::string_view Note;
};

enum class Shape {
  Value,   ///< register, immediate or predicate
  Address, ///< [base], [base+imm]
  Tensor,  ///< [tensorMap, {coords}]
  Vector,  ///< {a, b, ...}
};

enum class Presence { Always, Optional, If };

/// The element count of a vector: Fixed, or the tensor rank plus Offset.
struct CountSpec {
  bool FromDim = false;
  int Offset = 0; ///< Fixed count when !FromDim
  bool known() const { return FromDim || Offset > 0; }
};

/// "when qualifier Q is written, the count is C".
struct CountIfSpec {
  std::string_view If;
  CountSpec Count;
};

/// "when qualifier Q is written, the immediate must be one of Values".
struct ValuesIfSpec {
  std::string_view If;
  std::vector<int64_t> Values;
};

struct OperandSpec {
  std::string_view Name;            ///< "cp-size", as the spec names it
  Shape Kind = Shape::Value;
  Presence When = Presence::Always;
  Words If;                         ///< Presence::If: present iff any written

  // Value operands, vector elements, the tensorMap of a Tensor operand.
  Words Regs;                       ///< ".b32", ...; "any": every register
  /// Registers ptxas 13.0 also accepts that the spec does not document
  /// (warned, O211); and vectors of such registers in place of a value.
  Words PtxasRegs, PtxasVectorRegs;
  Words PtxasRegsIf;                ///< PtxasRegs only with one of these
  bool PtxasRegsLast = false;       ///< ... and only as the last operand
  bool Imm = false;                 ///< an integer immediate is accepted
  std::string_view PredName;        ///< a predicate is accepted in this slot
                                    ///< under that name ("ignore-src")
  PtxVersion PredMinPtx;
  std::vector<int64_t> Values;      ///< accepted immediates (empty: any)
  std::vector<ValuesIfSpec> ValuesIf;
  bool HasMin = false, HasMax = false;
  int64_t Min = 0, Max = 0;         ///< immediate range ptxas enforces
  int64_t MultipleOf = 0;
  bool Truncate32 = false;          ///< ptxas checks the value mod 2^32
  unsigned WarnBits = 0;            ///< warn when an immediate is wider
  bool HasWarnMin = false;
  int64_t WarnMin = 0;              ///< warn below this (spec: undefined)
  bool Symbol = false;              ///< a variable name is accepted

  // Address operands (and the tensorMap base).
  int SpaceIndex = -1;              ///< 0: dst, 1: src; -1: see Space
  std::string_view Space;           ///< fixed state space (".shared")
  unsigned Align = 0;               ///< offsets must be multiples of this
  /// Registers that may hold the address; empty: any integer or bit-size.
  Words AddrRegs;
  bool AddrRegsLast = false;        ///< AddrRegs only for the last operand
  std::string_view AlignFrom;       ///< ... of the value of that operand
  /// ptxas also takes a bare register here (the spec wants [addr]): warn.
  bool BareWarn = false;
  Words BareRegs;                   ///< which registers; empty: any
  bool BareImm = false;             ///< and a bare immediate
  /// and a vector of these registers (a ptxas 13.0 quirk: cp.async.bulk
  /// takes "{%h1, %h2}" as its mbar).
  Words BareVectorRegs;
  bool BareIfLast = false;          ///< ... only as the last operand
  bool BareFloat = false;           ///< a float constant (ptxas 13.0, O211)

  // Vector and Tensor operands.
  CountSpec Count;
  std::vector<CountIfSpec> CountIf;
  Words ElemRegs;
  bool ElemImm = false;
  unsigned ElemWarnBits = 0;
  bool HasElemWarnMin = false;
  int64_t ElemWarnMin = 0;

  std::string_view Check;           ///< named predicate (lib/Check/Predicates)
  std::string_view Section;
};

struct FormSpec {
  std::string_view Name;            ///< "global-to-shared-cta"
  std::string_view Display;         ///< ".shared::cta.global"
  std::vector<Words> Spaces;        ///< per position, accepted spaces;
                                    ///< "none" allows omitting it
  Words Required;                   ///< groups that must be written
  Words Optional;                   ///< groups that may be written
  /// Per group, the subset of its values this form accepts (others of the
  /// group are illegal here); groups not listed accept all their values.
  std::vector<Words> Only;          ///< each: {group, value, value, ...}
  /// Target patterns on which ptxas 13.0 takes no 16-bit register in an
  /// address or tensor map (bracketed, bare or in a vector) and no vector in
  /// place of a value operand of this form.
  Words NarrowOn;
  std::vector<OperandSpec> Operands;
  std::string_view Section;
};

struct RuleSpec {
  Words Forms;                      ///< empty: every form
  Words If;                         ///< all of these written ...
  std::vector<Words> NeedOneOf;     ///< ... then all of one of these sets
  Level Severity = Level::Error;
  std::string_view Message;         ///< empty: generated
  bool FixInsert = false;           ///< fix-it: insert the single need
  std::string_view Section;
  std::string_view Note;
};

struct PairTableSpec {
  Words Forms;
  std::string_view Row, Column;     ///< group names
  std::vector<Words> Allow;         ///< each: {row value, column values...}
  std::string_view Section;
  /// ptxas 13.0 judges the pair by PtxasBareAllow (rows as Allow's) when
  /// operand PtxasBareOperand is written without brackets: a pair only that
  /// table allows is then a warning (Q109), not an error.
  std::string_view PtxasBareOperand;
  std::vector<Words> PtxasBareAllow;
};

struct FeatureSpec {
  Words Forms;                      ///< empty: every form
  Words On;                         ///< empty: the instruction; else any of
                                    ///< these qualifiers
  std::string_view What;            ///< how messages name it; empty: derived
  PtxVersion MinPtx;
  Words Targets;                    ///< empty: every target
  Level Severity = Level::Error;
  bool Advice = false;              ///< a performance advisory, not a limit
  std::string_view Note;
  std::string_view Section;
};

struct InstructionSpec {
  std::string_view Name;            ///< "cp.async.bulk.tensor"
  std::string_view Section;
  /// Only named so flow rules can classify it; not validated here.
  bool ClassifyOnly = false;
  std::vector<GroupSpec> Groups;
  std::vector<FormSpec> Forms;
  std::vector<RuleSpec> Rules;
  std::vector<PairTableSpec> Tables;
  std::vector<FeatureSpec> Features;
};

/// Every instruction of spec-tables/*.yaml, in file order.
const std::vector<InstructionSpec> &instructions();

/// Whether any table entry starts with this opcode word ("cp", "mbarrier").
bool hasOpcode(std::string_view Opcode);

/// The instruction whose name is the longest match of Opcode followed by the
/// leading modifiers; Consumed is set to the number of modifiers that are
/// part of the name. nullptr when none matches.
const InstructionSpec *findInstruction(std::string_view Opcode,
                                       const Words &Modifiers,
                                       size_t &Consumed);

/// Whether any instruction of the tables uses this qualifier word.
bool isKnownQualifier(std::string_view Word);

/// Helpers over one instruction.
const GroupSpec *groupOf(const InstructionSpec &I, std::string_view Value);
const GroupSpec *findGroup(const InstructionSpec &I, std::string_view Name);
const FormSpec *findForm(const InstructionSpec &I, std::string_view Name);
/// The form whose state spaces, destination first, are spelled Spaces
/// (".shared::cta.global"; "" for a form without spaces), nullptr if none.
const FormSpec *formSpelled(const InstructionSpec &I, std::string_view Spaces);

/// Whether slot S must be written when Has(qualifier) tells which
/// qualifiers are: always, or an `if` slot one of whose qualifiers is.
template <typename HasFn> bool slotRequired(const OperandSpec &S, HasFn &&Has) {
  if (S.When == Presence::Always)
    return true;
  if (S.When == Presence::Optional)
    return false;
  for (std::string_view Q : S.If)
    if (Has(Q))
      return true;
  return false;
}

/// The slots that N written operands fill in form F, in order: every
/// required slot, and the optional ones in order with what is left. This is
/// how ptxas reads "cp.async...L2::cache_hint [d], [s], 16, %rd": the fourth
/// operand is the policy, not src-size. False (Slots untouched) when N is
/// fewer than the required slots or more than all that may be written.
template <typename HasFn>
bool layoutSlots(const FormSpec &F, HasFn &&Has, size_t N,
                 std::vector<const OperandSpec *> &Slots) {
  size_t Required = 0, Optional = 0;
  for (const OperandSpec &S : F.Operands) {
    Required += slotRequired(S, Has);
    Optional += S.When == Presence::Optional;
  }
  if (N < Required || N > Required + Optional)
    return false;
  size_t Extra = N - Required;
  Slots.reserve(Slots.size() + N);
  for (const OperandSpec &S : F.Operands)
    if (slotRequired(S, Has) || (S.When == Presence::Optional && Extra > 0 && Extra--))
      Slots.push_back(&S);
  return true;
}

} // namespace spec
} // namespace ptxlint
#endif
