//===- CheckContext.h - One instruction under check -------------*- C++ -*-===//
//
// The async-copy checker looks at one instruction at a time. InstructionCheck
// holds what the three check files share: the instruction, the table entry
// it matched, its qualifiers classified into the entry's groups, and the form
// (direction) chosen from its state spaces. The checks run in order:
//   checkQualifiers  (QualifierChecks.cpp)  Q1xx; chooses the form
//   checkOperands    (OperandChecks.cpp)    O2xx; needs the form
//   checkTargets     (TargetChecks.cpp)     T3xx
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_CHECK_CHECKCONTEXT_H
#define PTXLINT_CHECK_CHECKCONTEXT_H

#include "ptxlint/LintContext.h"
#include "ptxlint/RuleRegistry.h"
#include "ptxlint/SpecTables.h"
#include "ptxlint/Target.h"

#include <list>
#include <optional>
#include <string>
#include <vector>

namespace ptxlint {
namespace check {

/// A written qualifier and the group of the instruction it belongs to
/// (nullptr: the instruction has no such word).
struct Qualifier {
  const Modifier *Mod = nullptr;
  const spec::GroupSpec *Group = nullptr;
  bool Reported = false; ///< already diagnosed: later checks skip it
};

/// Vectors every InstructionCheck fills, kept by the checker across
/// instructions so that checking one allocates nothing.
struct CheckBuffers {
  std::vector<Qualifier> Quals;
  std::vector<const Modifier *> Spaces;
  std::vector<Target> Targets; ///< the module's: filled once
  bool TargetsKnown = false;
  /// The register prefixes looked up last (consecutive instructions name
  /// registers of the same few declarations).
  SymbolTable::PrefixMemo Prefixes;
};

/// What the checks read of the declaration a name finds (symbol()): its
/// state space and type, nothing else, so that LookedUp can keep it.
struct SymbolFacts {
  StateSpace Space;
  std::string_view Type;
};

/// A name symbol() looked up for an instruction: where it is written (from
/// the instruction's first byte) and what the checks can read of what it
/// found (SymbolFacts). An operand check that reported nothing, replayed on
/// another instruction of the same text whose names find the same, reports
/// nothing either: the checks read the text, the head's entry, the module's
/// settings and these.
struct LookedUp {
  uint32_t Offset = 0, Size = 0;
  bool Found = false;
  StateSpace Space = StateSpace::None;
  uint8_t TypeSize = 0;
  char Type[15] = {};
  /// Records S as found for the name at Offset; false if its type is too
  /// long to keep here.
  bool set(const Symbol *S);
  bool finds(const Symbol *S) const;
};

struct InstructionCheck {
  LintContext &Ctx;
  const Instruction &I;
  const spec::InstructionSpec &Spec;
  int32_t Function = -1;
  SourceRange NameRange;             ///< "cp.async.bulk.tensor"
  std::vector<Qualifier> &Quals;     ///< the rest, in source order
  std::vector<const Modifier *> &Spaces; ///< state spaces, in source order
  SymbolTable::PrefixMemo &Prefixes;
  const spec::FormSpec *Form = nullptr;
  /// Groups already reported as wrong (not to be reported missing too).
  std::vector<const spec::GroupSpec *> Reported;
  /// Misspelt qualifiers with one near spelling: Quals points at the
  /// correction (in Corrections) and the check goes on with it; the report
  /// waits until the form is known (a fix-it only if the form takes it).
  struct Typo {
    const Modifier *Written;
    std::string Message;
  };
  std::vector<Typo> Typos;
  std::list<Modifier> Corrections; // stable addresses, nothing allocated until used
  const std::vector<Target> &Targets; ///< the module's target (see
                                      ///< effectiveTarget), if known
  PtxVersion Version;                ///< the module's PTX version (or 0.0)
  /// Number of report() calls so far, whatever the policy then does with
  /// them: the checker memoises a head's qualifier and target checks only
  /// when they reported nothing.
  unsigned Reports = 0;
  /// symbol()'s last lookups, by the operand text they were for: the checks
  /// ask again for the same operand (declared? a register? of which type?).
  struct SymbolMemo {
    const char *Name;
    size_t Size;
    const Symbol *Sym;
  };
  mutable SymbolMemo Looked[8];
  mutable unsigned LookedCount = 0;
  /// If set, every lookup symbol() makes is added (Replayable cleared when
  /// one cannot be kept: a name outside the instruction, a long type).
  mutable std::vector<LookedUp> *Record = nullptr;
  mutable bool Replayable = true;
  /// The operand layout (slots) last found for this instruction's head and
  /// form: a head whose qualifiers checked clean fixes the form and the
  /// written qualifiers, so a count of operands gets the same slots each
  /// time. Null: not kept (checkOperands lays them out alone).
  struct LayoutMemo {
    const spec::FormSpec *Form = nullptr;
    size_t Operands = 0;
    std::vector<const spec::OperandSpec *> Slots;
  };
  LayoutMemo *Layout = nullptr;

  /// Quals, Spaces and Targets live in Buffers (cleared here). Groups: the
  /// group of each qualifier after the name (spec::groupOf), when the
  /// caller knows them from an instruction of the same head; else found.
  InstructionCheck(LintContext &Ctx, const Instruction &I,
                   const spec::InstructionSpec &Spec, int32_t Function,
                   size_t NameWords, CheckBuffers &Buffers,
                   const std::vector<const spec::GroupSpec *> *Groups = nullptr);

  /// The written modifier with this text, or nullptr.
  const Modifier *find(std::string_view Text) const;
  bool has(std::string_view Text) const { return find(Text) != nullptr; }
  /// The tensor rank from ".Nd", 0 when none is written.
  unsigned dim() const;
  /// Whether a table entry limited to Forms applies (empty: all forms).
  bool inForms(const spec::Words &Forms) const;
  /// "cp.async.bulk .shared::cluster.global": how messages name the form.
  std::string formName() const;
  /// The type of a register operand (".b32"), empty when unknown.
  std::string_view registerType(const Operand &Op) const;
  /// A register, or a name that may be one (not a known variable).
  bool isRegister(const Operand &Op) const;
  /// What Op's name (one of the instruction's operands, or their elements)
  /// finds in the instruction's function (else the module), if it is
  /// declared.
  std::optional<SymbolFacts> symbol(const Operand &Op) const;
  /// Where to insert the qualifier Word (a value of one of the groups):
  /// where the spec's syntax writes its group, i.e. after the last written
  /// qualifier of an earlier group (after the name when there is none). PTX
  /// takes qualifiers in any order, so this is for the reader: the fix lands
  /// where the qualifier was most likely dropped.
  SourceRange insertionPoint(std::string_view Word) const;

  /// Reports with the rule's code and default severity.
  DiagBuilder report(rules::Id Rule, SourceRange Range, std::string Message);
};

void checkQualifiers(InstructionCheck &C);
void checkOperands(InstructionCheck &C);
void checkTargets(InstructionCheck &C);

/// Quotes a qualifier or name for a message: '.add'.
inline std::string q(std::string_view S) { return "'" + std::string(S) + "'"; }
/// "'.a', '.b' or '.c'".
std::string quotedList(const spec::Words &Words, const char *Last = " or ");

} // namespace check
} // namespace ptxlint
#endif
