//===- SpecTableGen.cpp - spec-tables/*.yaml -> SpecTables.inc -----------===//
//
// Reads the instruction tables with LLVM's YAML I/O (unknown keys are
// errors), checks that every name the data refers to exists, and writes one
// C++ function per instruction that fills an InstructionSpec. Any problem
// stops the build with "file: error: <instruction>: <what>".
//
// usage: ptxlint-spec-tblgen OUT_DIR IN.yaml...
// writes OUT_DIR/SpecTables.inc (instructions), OUT_DIR/Targets.inc (the
// chip table of targets.yaml), OUT_DIR/FlowRoles.inc (the flow classifier's
// role of each instruction), OUT_DIR/BuilderFields.inc (which builder struct
// field holds each operand) and OUT_DIR/public/ptxlint/BuilderEnums.inc
// (the builder's qualifier enums and spellings, from each group's
// builder_enum).
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/Optional.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

using llvm::Optional;
using Strings = std::vector<std::string>;

// ---- The YAML schema (spec-tables/README.md documents each key) -----------

struct YGroup {
  std::string Name, Display, Kind = "plain", Note;
  Strings Values;
  bool Undocumented = false;
  /// The builder's enum of this group (include/ptxlint/Builder.h): its name,
  /// one enumerator per value, and a leading enumerator for "not written".
  std::string BuilderEnum, BuilderNone;
  Strings BuilderNames;
  /// A one-value group the builder prints alone (".L2::cache_hint"): its
  /// enumerator of the builder's Flag enum.
  std::string BuilderFlag;
};
struct YValuesIf {
  std::string If;
  std::vector<int64_t> Values;
};
struct YCountIf {
  std::string If, Count;
};
struct YOperand {
  std::string Name, Shape = "value", PredName, PredMinPtx, Space, AlignFrom,
      Count, Check, Section;
  /// The field of the instruction's builder struct that holds this operand
  /// (and, for a slot that also takes a predicate, the field holding that).
  std::string BuilderField, BuilderPredField;
  bool Optional_ = false, Imm = false, Truncate32 = false, Symbol = false,
       BareWarn = false, BareImm = false, BareIfLast = false, ElemImm = false,
       PtxasRegsLast = false, AddrRegsLast = false, BareFloat = false;
  Strings If, Regs, AddrRegs, PtxasRegs, PtxasRegsIf, PtxasVectorRegs, BareRegs, BareVectorRegs,
      ElemRegs;
  std::vector<int64_t> Values;
  std::vector<YValuesIf> ValuesIf;
  std::vector<YCountIf> CountIf;
  Optional<int64_t> Min, Max, MultipleOf, WarnBits, WarnMin, SpaceIndex, Align,
      ElemWarnBits, ElemWarnMin;
};
struct YForm {
  std::string Name, Display, Section;
  /// The builder's direction enum and enumerator of this form (Builder.h);
  /// its spelling is the form's spaces, destination first. A form whose
  /// destination takes several spaces names one enumerator per space
  /// (builder_names, in the order of spaces[0]).
  std::string BuilderEnum, BuilderName;
  Strings BuilderNames;
  std::vector<Strings> Spaces, Only;
  Strings Required, Optional_, NarrowOn;
  std::vector<YOperand> Operands;
};
struct YRule {
  Strings Forms, If;
  std::vector<Strings> NeedOneOf;
  std::string Severity = "error", Message, Section, Note;
  bool FixInsert = false;
};
struct YTable {
  Strings Forms;
  std::string Row, Column, Section;
  std::vector<Strings> Allow;
  /// ptxas 13.0 judges the pair by PtxasBareAllow when operand
  /// PtxasBareOperand is written without brackets.
  std::string PtxasBareOperand;
  std::vector<Strings> PtxasBareAllow;
};
struct YFeature {
  Strings Forms, On, Targets;
  std::string What, MinPtx, Severity = "error", Note, Section;
  bool Advice = false;
};
struct YInstruction {
  std::string Name, Section;
  /// The flow rules' role (lib/Flow/AsyncOpClassifier.h's OpKind).
  std::string FlowRole;
  /// The builder's struct of this instruction (include/ptxlint/Builder.h).
  std::string BuilderStruct;
  bool ClassifyOnly = false;
  std::vector<YGroup> Groups;
  std::vector<YForm> Forms;
  std::vector<YRule> Rules;
  std::vector<YTable> Tables;
  std::vector<YFeature> Features;
};
/// One chip of targets.yaml.
struct YTarget {
  unsigned Chip = 0;
  Optional<unsigned> Family, RenamedTo;
  std::string MinPtx, ArchPtx, FamilyPtx;
};
struct YFile {
  std::vector<YInstruction> Instructions;
  std::vector<YTarget> Targets;
};

LLVM_YAML_IS_SEQUENCE_VECTOR(Strings)
LLVM_YAML_IS_SEQUENCE_VECTOR(YGroup)
LLVM_YAML_IS_SEQUENCE_VECTOR(YValuesIf)
LLVM_YAML_IS_SEQUENCE_VECTOR(YCountIf)
LLVM_YAML_IS_SEQUENCE_VECTOR(YOperand)
LLVM_YAML_IS_SEQUENCE_VECTOR(YForm)
LLVM_YAML_IS_SEQUENCE_VECTOR(YRule)
LLVM_YAML_IS_SEQUENCE_VECTOR(YTable)
LLVM_YAML_IS_SEQUENCE_VECTOR(YFeature)
LLVM_YAML_IS_SEQUENCE_VECTOR(YInstruction)
LLVM_YAML_IS_SEQUENCE_VECTOR(YTarget)

namespace llvm {
namespace yaml {
template <> struct MappingTraits<YGroup> {
  static void mapping(IO &IO, YGroup &G) {
    IO.mapRequired("name", G.Name);
    IO.mapOptional("display", G.Display);
    IO.mapOptional("kind", G.Kind);
    IO.mapRequired("values", G.Values);
    IO.mapOptional("undocumented", G.Undocumented);
    IO.mapOptional("note", G.Note);
    IO.mapOptional("builder_enum", G.BuilderEnum);
    IO.mapOptional("builder_names", G.BuilderNames);
    IO.mapOptional("builder_none", G.BuilderNone);
    IO.mapOptional("builder_flag", G.BuilderFlag);
  }
};
template <> struct MappingTraits<YValuesIf> {
  static void mapping(IO &IO, YValuesIf &V) {
    IO.mapRequired("if", V.If);
    IO.mapRequired("values", V.Values);
  }
};
template <> struct MappingTraits<YCountIf> {
  static void mapping(IO &IO, YCountIf &V) {
    IO.mapRequired("if", V.If);
    IO.mapRequired("count", V.Count);
  }
};
template <> struct MappingTraits<YOperand> {
  static void mapping(IO &IO, YOperand &O) {
    IO.mapRequired("name", O.Name);
    IO.mapOptional("shape", O.Shape);
    IO.mapOptional("optional", O.Optional_);
    IO.mapOptional("if", O.If);
    IO.mapOptional("regs", O.Regs);
    IO.mapOptional("ptxas_regs", O.PtxasRegs);
    IO.mapOptional("ptxas_regs_if", O.PtxasRegsIf);
    IO.mapOptional("ptxas_regs_last", O.PtxasRegsLast);
    IO.mapOptional("ptxas_vector_regs", O.PtxasVectorRegs);
    IO.mapOptional("imm", O.Imm);
    IO.mapOptional("pred_name", O.PredName);
    IO.mapOptional("pred_min_ptx", O.PredMinPtx);
    IO.mapOptional("values", O.Values);
    IO.mapOptional("values_if", O.ValuesIf);
    IO.mapOptional("min", O.Min);
    IO.mapOptional("max", O.Max);
    IO.mapOptional("multiple_of", O.MultipleOf);
    IO.mapOptional("truncate32", O.Truncate32);
    IO.mapOptional("warn_bits", O.WarnBits);
    IO.mapOptional("warn_min", O.WarnMin);
    IO.mapOptional("symbol", O.Symbol);
    IO.mapOptional("space_index", O.SpaceIndex);
    IO.mapOptional("space", O.Space);
    IO.mapOptional("align", O.Align);
    IO.mapOptional("addr_regs", O.AddrRegs);
    IO.mapOptional("addr_regs_last", O.AddrRegsLast);
    IO.mapOptional("align_from", O.AlignFrom);
    IO.mapOptional("bare_warn", O.BareWarn);
    IO.mapOptional("bare_regs", O.BareRegs);
    IO.mapOptional("bare_imm", O.BareImm);
    IO.mapOptional("bare_float", O.BareFloat);
    IO.mapOptional("bare_vector_regs", O.BareVectorRegs);
    IO.mapOptional("bare_if_last", O.BareIfLast);
    IO.mapOptional("count", O.Count);
    IO.mapOptional("count_if", O.CountIf);
    IO.mapOptional("elem_regs", O.ElemRegs);
    IO.mapOptional("elem_imm", O.ElemImm);
    IO.mapOptional("elem_warn_bits", O.ElemWarnBits);
    IO.mapOptional("elem_warn_min", O.ElemWarnMin);
    IO.mapOptional("check", O.Check);
    IO.mapOptional("section", O.Section);
    IO.mapOptional("builder_field", O.BuilderField);
    IO.mapOptional("builder_pred_field", O.BuilderPredField);
  }
};
template <> struct MappingTraits<YForm> {
  static void mapping(IO &IO, YForm &F) {
    IO.mapRequired("name", F.Name);
    IO.mapOptional("display", F.Display);
    IO.mapOptional("spaces", F.Spaces);
    IO.mapOptional("required", F.Required);
    IO.mapOptional("optional", F.Optional_);
    IO.mapOptional("only", F.Only);
    IO.mapOptional("narrow_on", F.NarrowOn);
    IO.mapOptional("operands", F.Operands);
    IO.mapOptional("section", F.Section);
    IO.mapOptional("builder_enum", F.BuilderEnum);
    IO.mapOptional("builder_name", F.BuilderName);
    IO.mapOptional("builder_names", F.BuilderNames);
  }
};
template <> struct MappingTraits<YRule> {
  static void mapping(IO &IO, YRule &R) {
    IO.mapOptional("forms", R.Forms);
    IO.mapRequired("if", R.If);
    IO.mapRequired("need_one_of", R.NeedOneOf);
    IO.mapOptional("severity", R.Severity);
    IO.mapOptional("message", R.Message);
    IO.mapOptional("fix_insert", R.FixInsert);
    IO.mapOptional("section", R.Section);
    IO.mapOptional("note", R.Note);
  }
};
template <> struct MappingTraits<YTable> {
  static void mapping(IO &IO, YTable &T) {
    IO.mapOptional("forms", T.Forms);
    IO.mapRequired("row", T.Row);
    IO.mapRequired("column", T.Column);
    IO.mapRequired("allow", T.Allow);
    IO.mapOptional("section", T.Section);
    IO.mapOptional("ptxas_bare_operand", T.PtxasBareOperand);
    IO.mapOptional("ptxas_bare_allow", T.PtxasBareAllow);
  }
};
template <> struct MappingTraits<YFeature> {
  static void mapping(IO &IO, YFeature &F) {
    IO.mapOptional("forms", F.Forms);
    IO.mapOptional("on", F.On);
    IO.mapOptional("what", F.What);
    IO.mapOptional("min_ptx", F.MinPtx);
    IO.mapOptional("targets", F.Targets);
    IO.mapOptional("severity", F.Severity);
    IO.mapOptional("advice", F.Advice);
    IO.mapOptional("note", F.Note);
    IO.mapOptional("section", F.Section);
  }
};
template <> struct MappingTraits<YInstruction> {
  static void mapping(IO &IO, YInstruction &I) {
    IO.mapRequired("name", I.Name);
    IO.mapRequired("section", I.Section);
    IO.mapOptional("classify_only", I.ClassifyOnly);
    IO.mapOptional("flow_role", I.FlowRole);
    IO.mapOptional("builder_struct", I.BuilderStruct);
    IO.mapOptional("groups", I.Groups);
    IO.mapOptional("forms", I.Forms);
    IO.mapOptional("rules", I.Rules);
    IO.mapOptional("tables", I.Tables);
    IO.mapOptional("features", I.Features);
  }
};
template <> struct MappingTraits<YFile> {
  static void mapping(IO &IO, YFile &F) {
    IO.mapOptional("instructions", F.Instructions);
    IO.mapOptional("targets", F.Targets);
  }
};
template <> struct MappingTraits<YTarget> {
  static void mapping(IO &IO, YTarget &T) {
    IO.mapRequired("chip", T.Chip);
    IO.mapRequired("min_ptx", T.MinPtx);
    IO.mapOptional("arch_ptx", T.ArchPtx);
    IO.mapOptional("family_ptx", T.FamilyPtx);
    IO.mapOptional("family", T.Family);
    IO.mapOptional("renamed_to", T.RenamedTo);
  }
};
} // namespace yaml
} // namespace llvm

// ---- Validation ------------------------------------------------------------

// Named predicates implemented in lib/Check/Predicates.cpp. A unit test
// (test_check_tables.cpp) checks that the two lists agree.
static const std::set<std::string> KnownPredicates = {
    "src-size-within-cp-size", "im2col-w-ranges"};

namespace {
class Validator {
public:
  Validator(const std::string &File, const YInstruction &I) : File(File), I(I) {}
  bool run();

private:
  void error(const std::string &Msg) {
    llvm::errs() << File << ": error: " << I.Name << ": " << Msg << "\n";
    Ok = false;
  }
  bool isValue(const std::string &V) const { return ValueGroup.count(V); }
  void needValue(const std::string &V, const std::string &Where) {
    if (!isValue(V))
      error(Where + ": '" + V + "' is not a value of any group");
  }
  void needForms(const Strings &Forms, const std::string &Where) {
    for (const std::string &F : Forms)
      if (!FormNames.count(F))
        error(Where + ": no form named '" + F + "'");
  }
  void checkVersion(const std::string &V, const std::string &Where);
  void checkCount(const std::string &C, const std::string &Where);
  void checkOperand(const YForm &F, const YOperand &O);
  /// Operand name -> (builder_field, builder_pred_field), the same in every
  /// form of the instruction.
  using FieldMap = std::map<std::string, std::pair<std::string, std::string>>;
  void checkBuilderField(const YForm &F, const YOperand &O, FieldMap &Seen);
  void checkBuilderEnum(const YGroup &G);

  const std::string &File;
  const YInstruction &I;
  bool Ok = true;
  std::map<std::string, const YGroup *> Groups;
  std::map<std::string, std::string> ValueGroup; // value -> group
  std::set<std::string> FormNames;
};
} // namespace

void Validator::checkVersion(const std::string &V, const std::string &Where) {
  if (V.empty())
    return;
  size_t Dot = V.find('.');
  if (Dot == std::string::npos || Dot == 0 || Dot + 1 >= V.size() ||
      V.find_first_not_of("0123456789.") != std::string::npos)
    error(Where + ": '" + V + "' is not a PTX version like \"8.6\"");
}

void Validator::checkCount(const std::string &C, const std::string &Where) {
  if (C.empty() || C == "dim")
    return;
  if (C.rfind("dim-", 0) == 0 && C.size() == 5 && isdigit(C[4]))
    return;
  if (C.find_first_not_of("0123456789") == std::string::npos)
    return;
  error(Where + ": count '" + C + "' is not \"dim\", \"dim-N\" or a number");
}

static bool isIdentifier(const std::string &S) {
  if (S.empty() || !isupper(S[0]))
    return false;
  for (char C : S)
    if (!isalnum(C))
      return false;
  return true;
}

void Validator::checkBuilderEnum(const YGroup &G) {
  std::string Where = "group '" + G.Name + "'";
  if (!G.BuilderFlag.empty() && (!isIdentifier(G.BuilderFlag) || G.Values.size() != 1))
    error(Where + ": builder_flag '" + G.BuilderFlag +
          "' must be a C++ name on a group of one value");
  if (G.BuilderEnum.empty()) {
    if (!G.BuilderNames.empty() || !G.BuilderNone.empty())
      error(Where + ": builder_names/builder_none without builder_enum");
    return;
  }
  if (!isIdentifier(G.BuilderEnum))
    error(Where + ": builder_enum '" + G.BuilderEnum + "' is not a C++ type name");
  if (G.BuilderNames.size() != G.Values.size())
    error(Where + ": builder_names needs one name per value (" +
          std::to_string(G.Values.size()) + ")");
  std::set<std::string> Seen;
  for (const std::string &N : G.BuilderNames)
    if (!isIdentifier(N) || !Seen.insert(N).second)
      error(Where + ": builder name '" + N + "' is not a new C++ identifier");
  if (!G.BuilderNone.empty() &&
      (!isIdentifier(G.BuilderNone) || !Seen.insert(G.BuilderNone).second))
    error(Where + ": builder_none '" + G.BuilderNone + "' is not a new C++ identifier");
}

static bool isTargetPattern(const std::string &T) {
  // sm_NN+, sm_NNa, sm_NNf
  if (T.rfind("sm_", 0) != 0 || T.size() < 6)
    return false;
  size_t K = 3;
  while (K < T.size() && isdigit(T[K]))
    ++K;
  if (K == 3 || K + 1 != T.size())
    return false;
  return T[K] == '+' || T[K] == 'a' || T[K] == 'f';
}

void Validator::checkBuilderField(const YForm &F, const YOperand &O, FieldMap &Seen) {
  std::string Where = "form '" + F.Name + "' operand '" + O.Name + "'";
  if (I.BuilderStruct.empty()) {
    if (!O.BuilderField.empty() || !O.BuilderPredField.empty())
      error(Where + ": builder_field without the instruction's builder_struct");
    return;
  }
  if (!isIdentifier(O.BuilderField))
    error(Where + ": needs builder_field, the field of " + I.BuilderStruct + " holding it");
  if (!O.BuilderPredField.empty() && (O.PredName.empty() || !isIdentifier(O.BuilderPredField)))
    error(Where + ": builder_pred_field is the field of the pred_name alternative");
  auto [It, New] = Seen.emplace(O.Name, std::make_pair(O.BuilderField, O.BuilderPredField));
  if (!New && It->second != std::make_pair(O.BuilderField, O.BuilderPredField))
    error(Where + ": builder_field differs from another form's '" + O.Name + "'");
}

void Validator::checkOperand(const YForm &F, const YOperand &O) {
  std::string Where = "form '" + F.Name + "' operand '" + O.Name + "'";
  static const std::set<std::string> Shapes = {"value", "address", "tensor",
                                               "vector"};
  if (!Shapes.count(O.Shape))
    error(Where + ": shape '" + O.Shape + "' is not value/address/tensor/vector");
  for (const std::string &Q : O.If)
    needValue(Q, Where + " if");
  if (O.Optional_ && !O.If.empty())
    error(Where + ": 'optional' and 'if' exclude each other");
  for (const YValuesIf &V : O.ValuesIf)
    needValue(V.If, Where + " values_if");
  for (const std::string &Q : O.PtxasRegsIf)
    needValue(Q, Where + " ptxas_regs_if");
  for (const YCountIf &C : O.CountIf) {
    needValue(C.If, Where + " count_if");
    checkCount(C.Count, Where);
  }
  checkCount(O.Count, Where);
  checkVersion(O.PredMinPtx, Where);
  if ((O.Shape == "vector" || O.Shape == "tensor") && O.Count.empty())
    error(Where + ": a " + O.Shape + " operand needs 'count'");
  if (O.Shape == "value" && O.Regs.empty() && !O.Imm && O.PredName.empty())
    error(Where + ": accepts nothing (give regs, imm or pred_name)");
  if (!O.AlignFrom.empty()) {
    bool Found = false;
    for (const YOperand &P : F.Operands)
      Found |= P.Name == O.AlignFrom;
    if (!Found)
      error(Where + ": align_from names no operand '" + O.AlignFrom + "'");
  }
  if (O.SpaceIndex && (*O.SpaceIndex < 0 || *O.SpaceIndex >= (int64_t)F.Spaces.size()))
    error(Where + ": space_index out of range of the form's spaces");
  if (!O.Check.empty() && !KnownPredicates.count(O.Check))
    error(Where + ": unknown named predicate '" + O.Check + "'");
  for (const Strings *L : {&O.Regs, &O.AddrRegs, &O.PtxasRegs, &O.PtxasVectorRegs, &O.BareRegs,
                          &O.BareVectorRegs, &O.ElemRegs})
    for (const std::string &R : *L)
      if (R != "any" && (R.size() < 2 || R[0] != '.'))
        error(Where + ": register type '" + R + "' must look like '.b32'");
}

bool Validator::run() {
  if (I.Name.empty() || I.Name.find(' ') != std::string::npos)
    error("bad instruction name");
  if (I.Section.empty() ||
      I.Section.find_first_not_of("0123456789.") != std::string::npos)
    error("section '" + I.Section + "' must be a section number");
  for (const YGroup &G : I.Groups) {
    if (!Groups.emplace(G.Name, &G).second)
      error("group '" + G.Name + "' defined twice");
    if (G.Kind != "plain" && G.Kind != "state-space" && G.Kind != "dimension")
      error("group '" + G.Name + "': kind must be plain, state-space or dimension");
    if (G.Values.empty())
      error("group '" + G.Name + "' has no values");
    for (const std::string &V : G.Values) {
      if (V.size() < 2 || V[0] != '.')
        error("group '" + G.Name + "': value '" + V + "' must start with '.'");
      if (G.Kind == "dimension" &&
          !(V.size() == 3 && isdigit(V[1]) && V[2] == 'd'))
        error("group '" + G.Name + "': dimension value '" + V + "' is not .Nd");
      if (!ValueGroup.emplace(V, G.Name).second)
        error("value '" + V + "' is in two groups");
    }
    checkBuilderEnum(G);
  }
  if (!I.BuilderStruct.empty() && !isIdentifier(I.BuilderStruct))
    error("builder_struct '" + I.BuilderStruct + "' is not a C++ type name");
  if (!I.FlowRole.empty() && !isIdentifier(I.FlowRole))
    error("flow_role '" + I.FlowRole + "' is not an OpKind name");
  // The flow rules must know every instruction the checker validates.
  if (!I.ClassifyOnly && I.FlowRole.empty())
    error("no flow_role (an OpKind of lib/Flow/AsyncOpClassifier.h)");
  if (I.ClassifyOnly)
    return Ok;
  if (I.Forms.empty())
    error("no forms (an instruction without state spaces has one form)");
  FieldMap BuilderFields;
  for (const YForm &F : I.Forms) {
    if (!FormNames.insert(F.Name).second)
      error("form '" + F.Name + "' defined twice");
    for (const Strings &Pos : F.Spaces)
      for (const std::string &S : Pos)
        if (S != "none" && (!isValue(S) || Groups[ValueGroup[S]]->Kind != "state-space"))
          error("form '" + F.Name + "': '" + S + "' is not a state space");
    for (const Strings *L : {&F.Required, &F.Optional_})
      for (const std::string &G : *L)
        if (!Groups.count(G))
          error("form '" + F.Name + "': no group named '" + G + "'");
    for (const Strings &O : F.Only) {
      if (O.size() < 2 || !Groups.count(O[0])) {
        error("form '" + F.Name + "': 'only' entries are [group, values...]");
        continue;
      }
      for (size_t K = 1; K < O.size(); ++K)
        if (!isValue(O[K]) || ValueGroup[O[K]] != O[0])
          error("form '" + F.Name + "': '" + O[K] + "' is not in group '" + O[0] + "'");
    }
    if (!F.BuilderEnum.empty() || !F.BuilderName.empty() || !F.BuilderNames.empty()) {
      bool One = F.BuilderNames.empty();
      if (!isIdentifier(F.BuilderEnum) || One != !F.BuilderName.empty() ||
          (One && !isIdentifier(F.BuilderName)))
        error("form '" + F.Name + "': builder_enum and builder_name (or builder_names) "
              "must be C++ names");
      for (const std::string &N : F.BuilderNames)
        if (!isIdentifier(N))
          error("form '" + F.Name + "': builder name '" + N + "' is not a C++ name");
      for (size_t P = 0; P < F.Spaces.size(); ++P) {
        const Strings &Pos = F.Spaces[P];
        size_t Want = P == 0 && !One ? F.BuilderNames.size() : 1;
        if (Pos.size() != Want || std::count(Pos.begin(), Pos.end(), "none"))
          error("form '" + F.Name + "': a builder direction needs one state space per "
                "position (builder_names: one per destination space)");
      }
    }
    for (const std::string &T : F.NarrowOn)
      if (!isTargetPattern(T))
        error("form '" + F.Name + "': narrow_on target '" + T +
              "' is not sm_NN+, sm_NNa or sm_NNf");
    std::set<std::string> OpNames;
    for (const YOperand &O : F.Operands) {
      if (!OpNames.insert(O.Name).second)
        error("form '" + F.Name + "': operand '" + O.Name + "' twice");
      checkOperand(F, O);
      checkBuilderField(F, O, BuilderFields);
    }
  }
  for (const YRule &R : I.Rules) {
    needForms(R.Forms, "rule");
    for (const std::string &Q : R.If)
      needValue(Q, "rule if");
    for (const Strings &S : R.NeedOneOf)
      for (const std::string &Q : S)
        needValue(Q, "rule need_one_of");
    if (R.If.empty())
      error("rule without 'if'");
    if (R.Severity != "error" && R.Severity != "warning")
      error("rule severity must be error or warning");
    if (R.FixInsert && (R.NeedOneOf.size() != 1 || R.NeedOneOf[0].size() != 1))
      error("fix_insert needs exactly one qualifier in need_one_of");
  }
  for (const YTable &T : I.Tables) {
    needForms(T.Forms, "table");
    if (T.PtxasBareOperand.empty() != T.PtxasBareAllow.empty())
      error("table: ptxas_bare_operand and ptxas_bare_allow go together");
    for (const YForm &F : I.Forms)
      if (!T.PtxasBareOperand.empty() && std::count(T.Forms.begin(), T.Forms.end(), F.Name) &&
          std::none_of(F.Operands.begin(), F.Operands.end(),
                       [&](const YOperand &O) { return O.Name == T.PtxasBareOperand; }))
        error("table: form '" + F.Name + "' has no operand '" + T.PtxasBareOperand + "'");
    if (!Groups.count(T.Row) || !Groups.count(T.Column)) {
      error("table row/column must name groups");
      continue;
    }
    std::vector<Strings> Rows = T.Allow;
    Rows.insert(Rows.end(), T.PtxasBareAllow.begin(), T.PtxasBareAllow.end());
    for (const Strings &Row : Rows) {
      if (Row.empty())
        continue;
      if (ValueGroup[Row[0]] != T.Row)
        error("table: '" + Row[0] + "' is not in group '" + T.Row + "'");
      for (size_t K = 1; K < Row.size(); ++K)
        if (ValueGroup[Row[K]] != T.Column)
          error("table: '" + Row[K] + "' is not in group '" + T.Column + "'");
    }
  }
  for (const YFeature &F : I.Features) {
    needForms(F.Forms, "feature");
    for (const std::string &Q : F.On)
      needValue(Q, "feature on");
    checkVersion(F.MinPtx, "feature");
    for (const std::string &T : F.Targets)
      if (!isTargetPattern(T))
        error("feature target '" + T + "' is not sm_NN+, sm_NNa or sm_NNf");
    if (F.Severity != "error" && F.Severity != "warning")
      error("feature severity must be error or warning");
    if (F.MinPtx.empty() && F.Targets.empty())
      error("feature with neither min_ptx nor targets");
  }
  return Ok;
}

// ---- Emission ----------------------------------------------------------------

namespace {
class Emitter {
public:
  explicit Emitter(llvm::raw_ostream &OS) : OS(OS) {}
  void instruction(const YInstruction &I, unsigned Index);

private:
  static std::string str(const std::string &S) {
    std::string R = "\"";
    for (char C : S) {
      if (C == '"' || C == '\\')
        R += '\\';
      if (C == '\n') {
        R += "\\n";
        continue;
      }
      R += C;
    }
    return R + "\"";
  }
  static std::string words(const Strings &W) {
    std::string R = "{";
    for (size_t K = 0; K < W.size(); ++K)
      R += (K ? ", " : "") + str(W[K]);
    return R + "}";
  }
  static std::string wordLists(const std::vector<Strings> &L) {
    std::string R = "{";
    for (size_t K = 0; K < L.size(); ++K)
      R += (K ? ", " : "") + words(L[K]);
    return R + "}";
  }
  static std::string ints(const std::vector<int64_t> &V) {
    std::string R = "{";
    for (size_t K = 0; K < V.size(); ++K)
      R += (K ? ", " : "") + std::to_string(V[K]) + "LL";
    return R + "}";
  }
  static std::string version(const std::string &V) {
    if (V.empty())
      return "PtxVersion{}";
    size_t Dot = V.find('.');
    return "PtxVersion{" + V.substr(0, Dot) + ", " + V.substr(Dot + 1) + "}";
  }
  static std::string count(const std::string &C) {
    if (C.empty())
      return "CountSpec{}";
    if (C == "dim")
      return "CountSpec{true, 0}";
    if (C.rfind("dim-", 0) == 0)
      return "CountSpec{true, -" + C.substr(4) + "}";
    return "CountSpec{false, " + C + "}";
  }
  static std::string level(const std::string &S) {
    return S == "warning" ? "Level::Warning" : "Level::Error";
  }
  void operand(const YOperand &O);
  llvm::raw_ostream &OS;
};
} // namespace

void Emitter::operand(const YOperand &O) {
  OS << "    {\n      OperandSpec O;\n";
  OS << "      O.Name = " << str(O.Name) << ";\n";
  static const std::map<std::string, std::string> Shapes = {
      {"value", "Value"}, {"address", "Address"}, {"tensor", "Tensor"},
      {"vector", "Vector"}};
  OS << "      O.Kind = Shape::" << Shapes.at(O.Shape) << ";\n";
  OS << "      O.When = Presence::"
     << (!O.If.empty() ? "If" : O.Optional_ ? "Optional" : "Always") << ";\n";
  if (!O.If.empty())
    OS << "      O.If = " << words(O.If) << ";\n";
  if (!O.Regs.empty())
    OS << "      O.Regs = " << words(O.Regs) << ";\n";
  if (!O.PtxasRegs.empty())
    OS << "      O.PtxasRegs = " << words(O.PtxasRegs) << ";\n";
  if (!O.PtxasRegsIf.empty())
    OS << "      O.PtxasRegsIf = " << words(O.PtxasRegsIf) << ";\n";
  if (O.PtxasRegsLast)
    OS << "      O.PtxasRegsLast = true;\n";
  if (!O.PtxasVectorRegs.empty())
    OS << "      O.PtxasVectorRegs = " << words(O.PtxasVectorRegs) << ";\n";
  if (O.Imm)
    OS << "      O.Imm = true;\n";
  if (!O.PredName.empty())
    OS << "      O.PredName = " << str(O.PredName) << ";\n";
  if (!O.PredMinPtx.empty())
    OS << "      O.PredMinPtx = " << version(O.PredMinPtx) << ";\n";
  if (!O.Values.empty())
    OS << "      O.Values = " << ints(O.Values) << ";\n";
  for (const YValuesIf &V : O.ValuesIf)
    OS << "      O.ValuesIf.push_back(ValuesIfSpec{" << str(V.If) << ", "
       << ints(V.Values) << "});\n";
  if (O.Min)
    OS << "      O.HasMin = true; O.Min = " << *O.Min << "LL;\n";
  if (O.Max)
    OS << "      O.HasMax = true; O.Max = " << *O.Max << "LL;\n";
  if (O.MultipleOf)
    OS << "      O.MultipleOf = " << *O.MultipleOf << ";\n";
  if (O.Truncate32)
    OS << "      O.Truncate32 = true;\n";
  if (O.WarnBits)
    OS << "      O.WarnBits = " << *O.WarnBits << ";\n";
  if (O.WarnMin)
    OS << "      O.HasWarnMin = true; O.WarnMin = " << *O.WarnMin << "LL;\n";
  if (O.Symbol)
    OS << "      O.Symbol = true;\n";
  if (O.SpaceIndex)
    OS << "      O.SpaceIndex = " << *O.SpaceIndex << ";\n";
  if (!O.Space.empty())
    OS << "      O.Space = " << str(O.Space) << ";\n";
  if (O.Align)
    OS << "      O.Align = " << *O.Align << ";\n";
  if (!O.AddrRegs.empty())
    OS << "      O.AddrRegs = " << words(O.AddrRegs) << ";\n";
  if (O.AddrRegsLast)
    OS << "      O.AddrRegsLast = true;\n";
  if (!O.AlignFrom.empty())
    OS << "      O.AlignFrom = " << str(O.AlignFrom) << ";\n";
  if (O.BareWarn)
    OS << "      O.BareWarn = true;\n";
  if (!O.BareRegs.empty())
    OS << "      O.BareRegs = " << words(O.BareRegs) << ";\n";
  if (O.BareImm)
    OS << "      O.BareImm = true;\n";
  if (O.BareIfLast)
    OS << "      O.BareIfLast = true;\n";
  if (O.BareFloat)
    OS << "      O.BareFloat = true;\n";
  if (!O.BareVectorRegs.empty())
    OS << "      O.BareVectorRegs = " << words(O.BareVectorRegs) << ";\n";
  if (!O.Count.empty())
    OS << "      O.Count = " << count(O.Count) << ";\n";
  for (const YCountIf &C : O.CountIf)
    OS << "      O.CountIf.push_back(CountIfSpec{" << str(C.If) << ", "
       << count(C.Count) << "});\n";
  if (!O.ElemRegs.empty())
    OS << "      O.ElemRegs = " << words(O.ElemRegs) << ";\n";
  if (O.ElemImm)
    OS << "      O.ElemImm = true;\n";
  if (O.ElemWarnBits)
    OS << "      O.ElemWarnBits = " << *O.ElemWarnBits << ";\n";
  if (O.ElemWarnMin)
    OS << "      O.HasElemWarnMin = true; O.ElemWarnMin = " << *O.ElemWarnMin
       << "LL;\n";
  if (!O.Check.empty())
    OS << "      O.Check = " << str(O.Check) << ";\n";
  if (!O.Section.empty())
    OS << "      O.Section = " << str(O.Section) << ";\n";
  OS << "      F.Operands.push_back(std::move(O));\n    }\n";
}

void Emitter::instruction(const YInstruction &I, unsigned Index) {
  OS << "// " << I.Name << " (PTX ISA " << I.Section << ")\n";
  OS << "static InstructionSpec makeInstruction" << Index << "() {\n";
  OS << "  InstructionSpec I;\n";
  OS << "  I.Name = " << str(I.Name) << ";\n";
  OS << "  I.Section = " << str(I.Section) << ";\n";
  if (I.ClassifyOnly)
    OS << "  I.ClassifyOnly = true;\n";
  for (const YGroup &G : I.Groups) {
    std::string Kind = G.Kind == "state-space" ? "StateSpace"
                       : G.Kind == "dimension" ? "Dimension"
                                               : "Plain";
    OS << "  I.Groups.push_back(GroupSpec{" << str(G.Name) << ", "
       << str(G.Display.empty() ? "." + G.Name : G.Display)
       << ", GroupKind::" << Kind << ", " << words(G.Values) << ", "
       << (G.Undocumented ? "true" : "false") << ", " << str(G.Note) << "});\n";
  }
  for (const YForm &F : I.Forms) {
    OS << "  {\n    FormSpec F;\n";
    OS << "    F.Name = " << str(F.Name) << ";\n";
    OS << "    F.Display = " << str(F.Display) << ";\n";
    OS << "    F.Spaces = " << wordLists(F.Spaces) << ";\n";
    OS << "    F.Required = " << words(F.Required) << ";\n";
    OS << "    F.Optional = " << words(F.Optional_) << ";\n";
    OS << "    F.Only = " << wordLists(F.Only) << ";\n";
    if (!F.NarrowOn.empty())
      OS << "    F.NarrowOn = " << words(F.NarrowOn) << ";\n";
    OS << "    F.Section = " << str(F.Section.empty() ? I.Section : F.Section)
       << ";\n";
    for (const YOperand &O : F.Operands)
      operand(O);
    OS << "    I.Forms.push_back(std::move(F));\n  }\n";
  }
  for (const YRule &R : I.Rules) {
    OS << "  {\n    RuleSpec R;\n";
    OS << "    R.Forms = " << words(R.Forms) << ";\n";
    OS << "    R.If = " << words(R.If) << ";\n";
    OS << "    R.NeedOneOf = " << wordLists(R.NeedOneOf) << ";\n";
    OS << "    R.Severity = " << level(R.Severity) << ";\n";
    OS << "    R.Message = " << str(R.Message) << ";\n";
    OS << "    R.FixInsert = " << (R.FixInsert ? "true" : "false") << ";\n";
    OS << "    R.Section = " << str(R.Section.empty() ? I.Section : R.Section)
       << ";\n";
    OS << "    R.Note = " << str(R.Note) << ";\n";
    OS << "    I.Rules.push_back(std::move(R));\n  }\n";
  }
  for (const YTable &T : I.Tables) {
    OS << "  I.Tables.push_back(PairTableSpec{" << words(T.Forms) << ", "
       << str(T.Row) << ", " << str(T.Column) << ", " << wordLists(T.Allow)
       << ", " << str(T.Section.empty() ? I.Section : T.Section) << ", "
       << str(T.PtxasBareOperand) << ", " << wordLists(T.PtxasBareAllow) << "});\n";
  }
  for (const YFeature &F : I.Features) {
    OS << "  {\n    FeatureSpec F;\n";
    OS << "    F.Forms = " << words(F.Forms) << ";\n";
    OS << "    F.On = " << words(F.On) << ";\n";
    OS << "    F.What = " << str(F.What) << ";\n";
    OS << "    F.MinPtx = " << version(F.MinPtx) << ";\n";
    OS << "    F.Targets = " << words(F.Targets) << ";\n";
    OS << "    F.Severity = " << level(F.Severity) << ";\n";
    OS << "    F.Advice = " << (F.Advice ? "true" : "false") << ";\n";
    OS << "    F.Note = " << str(F.Note) << ";\n";
    OS << "    F.Section = " << str(F.Section.empty() ? I.Section : F.Section)
       << ";\n";
    OS << "    I.Features.push_back(std::move(F));\n  }\n";
  }
  OS << "  return I;\n}\n\n";
}

// ---- Targets ---------------------------------------------------------------

/// targets.yaml: chips ascending and unique, versions well-formed, family and
/// renamed_to naming listed chips, and every feature's target pattern naming
/// a listed chip.
static bool validateTargets(const std::string &File,
                            const std::vector<YTarget> &Targets,
                            const std::vector<YInstruction> &All) {
  bool Ok = true;
  auto Error = [&](const std::string &What) {
    llvm::errs() << File << ": error: targets: " << What << "\n";
    Ok = false;
  };
  std::set<unsigned> Chips;
  for (const YTarget &T : Targets) {
    if (!Chips.empty() && T.Chip <= *Chips.rbegin())
      Error("chip " + std::to_string(T.Chip) + " out of order or repeated");
    Chips.insert(T.Chip);
    for (const std::string *V : {&T.MinPtx, &T.ArchPtx, &T.FamilyPtx})
      if (!V->empty() && (V->size() != 3 || !isdigit((*V)[0]) ||
                          (*V)[1] != '.' || !isdigit((*V)[2])))
        Error("sm_" + std::to_string(T.Chip) + ": '" + *V +
              "' is not a PTX version like \"8.6\"");
  }
  for (const YTarget &T : Targets)
    for (const Optional<unsigned> &Ref : {T.Family, T.RenamedTo})
      if (Ref && !Chips.count(*Ref))
        Error("sm_" + std::to_string(T.Chip) + " refers to unknown chip " +
              std::to_string(*Ref));
  auto CheckPattern = [&](const YInstruction &I, const std::string &P) {
    unsigned N = unsigned(std::atoi(P.c_str() + 3));
    if (!Chips.count(N))
      Error(I.Name + ": target '" + P + "' names no listed chip");
  };
  for (const YInstruction &I : All) {
    for (const YFeature &F : I.Features)
      for (const std::string &P : F.Targets)
        CheckPattern(I, P);
    for (const YForm &F : I.Forms)
      for (const std::string &P : F.NarrowOn)
        CheckPattern(I, P);
  }
  return Ok;
}

/// Targets.inc: the initialisers of lib/Target/Target.cpp's chip table.
static std::string emitTargets(const std::vector<YTarget> &Targets) {
  auto Version = [](const std::string &V) -> std::string {
    return V.empty() ? "{}" : std::string("{") + V[0] + ", " + V[2] + "}";
  };
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "// Generated by ptxlint-spec-tblgen from spec-tables/targets.yaml.\n"
        "// Do not edit: change the YAML instead.\n"
        "// {chip, family, renamed_to, min_ptx, arch_ptx, family_ptx}\n";
  for (const YTarget &T : Targets)
    OS << "{" << T.Chip << ", " << (T.Family ? *T.Family : T.Chip) << ", "
       << (T.RenamedTo ? *T.RenamedTo : 0) << ", " << Version(T.MinPtx) << ", "
       << Version(T.ArchPtx) << ", " << Version(T.FamilyPtx) << "},\n";
  OS.flush();
  return Text;
}

/// One enum of BuilderEnums.inc: the enumerators, enumSize(), spelling() (""
/// past the end) and enumeratorName() (the C++ name, for bindings).
static void emitEnum(llvm::raw_ostream &OS, const std::string &Comment,
                     const std::string &E, const Strings &Names,
                     const Strings &Spellings) {
  auto table = [&](const char *Fn, const Strings &Items) {
    OS << "inline const char *" << Fn << "(" << E << " V) {\n"
       << "  static const char *const S[] = {";
    for (size_t K = 0; K < Items.size(); ++K)
      OS << (K ? ", " : "") << "\"" << Items[K] << "\"";
    OS << "};\n  return unsigned(V) < " << Items.size() << " ? S[unsigned(V)] : \"\";\n}\n";
  };
  OS << "\n/// " << Comment << "\nenum class " << E << " : unsigned {";
  for (size_t K = 0; K < Names.size(); ++K)
    OS << (K ? ", " : " ") << Names[K];
  OS << " };\n";
  OS << "constexpr unsigned enumSize(" << E << ") { return " << Names.size() << "; }\n";
  table("spelling", Spellings);
  table("enumeratorName", Names);
}

/// BuilderEnums.inc: the enums of include/ptxlint/Builder.h: one per group
/// with a builder_enum, Flag (every builder_flag), one per direction
/// builder_enum of the forms (with each direction's completion mechanism),
/// and instructionName<Struct>() of each builder_struct. Fails on an enum
/// named twice or a flag spelled two ways.
static bool emitBuilderEnums(const std::vector<YInstruction> &All, std::string &Text) {
  llvm::raw_string_ostream OS(Text);
  OS << "// Generated by ptxlint-spec-tblgen from spec-tables/*.yaml (the builder_*\n"
        "// keys). Do not edit: change the YAML instead. Included by\n"
        "// include/ptxlint/Builder.h inside namespace ptxlint::build.\n";
  std::map<std::string, std::string> Defined; // enum -> instruction
  bool Ok = true;
  auto define = [&](const std::string &E, const YInstruction &I) {
    if (Defined.emplace(E, I.Name).second)
      return true;
    llvm::errs() << "error: " << I.Name << ": builder_enum " << E
                 << " already defined by " << Defined[E] << "\n";
    Ok = false;
    return false;
  };
  Strings FlagNames, FlagSpellings;
  for (const YInstruction &I : All)
    for (const YGroup &G : I.Groups) {
      if (!G.BuilderFlag.empty()) {
        auto It = std::find(FlagNames.begin(), FlagNames.end(), G.BuilderFlag);
        if (It == FlagNames.end()) {
          FlagNames.push_back(G.BuilderFlag);
          FlagSpellings.push_back(G.Values[0]);
        } else if (FlagSpellings[size_t(It - FlagNames.begin())] != G.Values[0]) {
          llvm::errs() << "error: " << I.Name << ": builder_flag " << G.BuilderFlag
                       << " spelled two ways\n";
          Ok = false;
        }
      }
      if (G.BuilderEnum.empty() || !define(G.BuilderEnum, I))
        continue;
      Strings Names = G.BuilderNames, Spellings = G.Values;
      if (!G.BuilderNone.empty()) {
        Names.insert(Names.begin(), G.BuilderNone);
        Spellings.insert(Spellings.begin(), "");
      }
      std::string Comment = I.Name + " " + (G.Display.empty() ? G.Name : G.Display) + ":";
      for (const std::string &V : G.Values)
        Comment += " " + V;
      if (!G.BuilderNone.empty())
        Comment += " (" + G.BuilderNone + ": none written)";
      emitEnum(OS, Comment, G.BuilderEnum, Names, Spellings);
    }
  emitEnum(OS, "The one-value qualifiers the builder prints alone (builder_flag)", "Flag",
           FlagNames, FlagSpellings);
  // Directions: the forms of one instruction with the same builder_enum, in
  // order; the spelling is the form's spaces (".shared::cta.global").
  for (const YInstruction &I : All) {
    std::vector<std::pair<std::string, std::vector<const YForm *>>> Enums;
    for (const YForm &F : I.Forms) {
      if (F.BuilderEnum.empty())
        continue;
      auto It = std::find_if(Enums.begin(), Enums.end(),
                             [&](const auto &E) { return E.first == F.BuilderEnum; });
      if (It == Enums.end()) {
        Enums.push_back({F.BuilderEnum, {}});
        It = Enums.end() - 1;
      }
      It->second.push_back(&F);
    }
    // The mechanism of a form: its `only` entry, else the instruction's one.
    std::string OneCompletion;
    for (const YGroup &G : I.Groups)
      if (G.Name == "completion_mechanism" && G.Values.size() == 1)
        OneCompletion = G.Values[0];
    for (const auto &[E, Forms] : Enums) {
      if (!define(E, I))
        continue;
      Strings Names, Spellings, Completion;
      for (const YForm *F : Forms) {
        std::string Mechanism = OneCompletion;
        for (const Strings &O : F->Only)
          if (O.size() == 2 && O[0] == "completion_mechanism")
            Mechanism = O[1];
        std::string Rest;
        for (size_t P = 1; P < F->Spaces.size(); ++P)
          Rest += F->Spaces[P][0];
        const Strings &Dsts = F->Spaces.empty() ? Strings{""} : F->Spaces[0];
        for (size_t K = 0; K < Dsts.size(); ++K) {
          Names.push_back(F->BuilderNames.empty() ? F->BuilderName : F->BuilderNames[K]);
          Spellings.push_back(Dsts[K] + Rest);
          Completion.push_back(Mechanism);
        }
      }
      emitEnum(OS, I.Name + " directions (.dst.src)", E, Names, Spellings);
      if (std::count(Completion.begin(), Completion.end(), ""))
        continue;
      OS << "/// The completion mechanism this direction takes.\n"
         << "inline const char *completion(" << E << " V) {\n"
         << "  static const char *const S[] = {";
      for (size_t K = 0; K < Completion.size(); ++K)
        OS << (K ? ", " : "") << "\"" << Completion[K] << "\"";
      OS << "};\n  return unsigned(V) < " << Completion.size() << " ? S[unsigned(V)] : \"\";\n}\n";
    }
  }
  OS << "\n/// The instruction name of each builder struct (builder_struct).\n"
        "template <typename T> const char *instructionName();\n";
  for (const YInstruction &I : All)
    if (!I.BuilderStruct.empty())
      OS << "struct " << I.BuilderStruct << ";\ntemplate <> inline const char *instructionName<"
         << I.BuilderStruct << ">() { return \"" << I.Name << "\"; }\n";
  OS.flush();
  return Ok;
}

/// BuilderFields.inc: for each builder struct, which field holds which
/// operand slot (builder_field, builder_pred_field): Fields<Struct>::each(I,
/// Fn) calls Fn(slot name, field, is the predicate alternative) once per
/// field, in the order the slots first appear in the forms. lib/Builder
/// prints, decodes and checks operands through it, in the forms' slot order.
static std::string emitBuilderFields(const std::vector<YInstruction> &All) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "// Generated by ptxlint-spec-tblgen from spec-tables/*.yaml (each\n"
        "// operand's builder_field). Do not edit: change the YAML instead.\n"
        "// Included by lib/Builder inside namespace ptxlint::build.\n\n"
        "template <typename T> struct Fields;\n";
  for (const YInstruction &I : All) {
    if (I.BuilderStruct.empty())
      continue;
    OS << "template <> struct Fields<" << I.BuilderStruct << "> {\n"
       << "  template <typename S, typename F> static void each(S &I, F &&Fn) {\n";
    std::set<std::string> Done;
    for (const YForm &F : I.Forms)
      for (const YOperand &O : F.Operands) {
        if (!Done.insert(O.Name).second)
          continue;
        OS << "    Fn(\"" << O.Name << "\", I." << O.BuilderField << ", false);\n";
        if (!O.BuilderPredField.empty())
          OS << "    Fn(\"" << O.Name << "\", I." << O.BuilderPredField << ", true);\n";
      }
    if (Done.empty())
      OS << "    (void)I;\n    (void)Fn;\n";
    OS << "  }\n};\n";
  }
  OS.flush();
  return Text;
}

/// FlowRoles.inc: {opcode, name words after it, OpKind} of every instruction
/// with a flow_role, the table lib/Flow/AsyncOpClassifier.cpp reads.
static std::string emitFlowRoles(const std::vector<YInstruction> &All) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "// Generated by ptxlint-spec-tblgen from spec-tables/*.yaml (each\n"
        "// instruction's flow_role). Do not edit: change the YAML instead.\n"
        "// {opcode, {name words after the opcode}, OpKind}\n";
  for (const YInstruction &I : All) {
    if (I.FlowRole.empty())
      continue;
    llvm::SmallVector<llvm::StringRef, 6> Words;
    llvm::StringRef(I.Name).split(Words, '.');
    OS << "{\"" << Words[0] << "\", {";
    for (size_t K = 1; K < Words.size(); ++K)
      OS << (K > 1 ? ", " : "") << "\"" << Words[K] << "\"";
    OS << "}, OpKind::" << I.FlowRole << "},\n";
  }
  OS.flush();
  return Text;
}

static bool writeFile(const std::string &Path, const std::string &Text) {
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC);
  if (EC) {
    llvm::errs() << Path << ": error: " << EC.message() << "\n";
    return false;
  }
  Out << Text;
  return true;
}

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    llvm::errs() << "usage: " << Argv[0] << " OUT_DIR IN.yaml...\n";
    return 2;
  }
  std::vector<YInstruction> All;
  std::vector<YTarget> Targets;
  std::string TargetsFile;
  std::set<std::string> Names;
  bool Ok = true;
  for (int K = 2; K < Argc; ++K) {
    auto Buf = llvm::MemoryBuffer::getFile(Argv[K]);
    if (!Buf) {
      llvm::errs() << Argv[K] << ": error: cannot read\n";
      return 1;
    }
    YFile File;
    llvm::yaml::Input In((*Buf)->getMemBufferRef());
    In >> File;
    if (In.error()) {
      llvm::errs() << Argv[K] << ": error: not a valid spec table\n";
      return 1;
    }
    if (!File.Targets.empty()) {
      if (!TargetsFile.empty()) {
        llvm::errs() << Argv[K] << ": error: targets already listed in "
                     << TargetsFile << "\n";
        return 1;
      }
      TargetsFile = Argv[K];
      Targets = File.Targets;
    }
    for (const YInstruction &I : File.Instructions) {
      Ok &= Validator(Argv[K], I).run();
      if (!Names.insert(I.Name).second) {
        llvm::errs() << Argv[K] << ": error: " << I.Name << " defined twice\n";
        Ok = false;
      }
      All.push_back(I);
    }
  }
  if (Targets.empty()) {
    llvm::errs() << "error: no file lists the targets\n";
    return 1;
  }
  Ok &= validateTargets(TargetsFile, Targets, All);
  if (!Ok)
    return 1;

  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "// Generated by ptxlint-spec-tblgen from spec-tables/*.yaml.\n"
        "// Do not edit: change the YAML instead.\n\n";
  Emitter E(OS);
  for (unsigned K = 0; K < All.size(); ++K)
    E.instruction(All[K], K);
  OS << "static std::vector<InstructionSpec> buildInstructionTable() {\n"
        "  std::vector<InstructionSpec> T;\n";
  for (unsigned K = 0; K < All.size(); ++K)
    OS << "  T.push_back(makeInstruction" << K << "());\n";
  OS << "  return T;\n}\n";
  OS.flush();

  std::string Enums;
  if (!emitBuilderEnums(All, Enums))
    return 1;
  // SpecTables.inc and Targets.inc are the library's own; public/ holds what
  // an installed header includes (ptxlint/BuilderEnums.inc).
  std::string Dir = Argv[1];
  std::error_code EC = llvm::sys::fs::create_directories(Dir + "/public/ptxlint");
  if (EC) {
    llvm::errs() << Dir << "/public/ptxlint: error: " << EC.message() << "\n";
    return 1;
  }
  return writeFile(Dir + "/SpecTables.inc", Text) &&
                 writeFile(Dir + "/Targets.inc", emitTargets(Targets)) &&
                 writeFile(Dir + "/FlowRoles.inc", emitFlowRoles(All)) &&
                 writeFile(Dir + "/BuilderFields.inc", emitBuilderFields(All)) &&
                 writeFile(Dir + "/public/ptxlint/BuilderEnums.inc", Enums)
             ? 0
             : 1;
}
