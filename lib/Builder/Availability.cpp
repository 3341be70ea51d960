//===- Availability.cpp - Structure and target requirements of forms ------===//
//
// Which operand shapes a form needs (structuralErrors), and which targets and
// PTX versions take it (checkTarget). Availability is not modelled here: an
// instruction is printed into a module and judged by the linter's checker,
// i.e. by the features of spec-tables/*.yaml and the targets of
// spec-tables/targets.yaml, so the builder, lowering and the linter cannot
// disagree about a target. The redOp x type matrix is the tables' as well.
//
//===----------------------------------------------------------------------===//

#include "FormRules.h"
#include "ModuleText.h"
#include "Slots.h"

#include "ptxlint/Builder.h"
#include "ptxlint/Linter.h"
#include "ptxlint/RuleRegistry.h"
#include "ptxlint/SpecTables.h"
#include "ptxlint/Target.h"

#include <algorithm>
#include <type_traits>

namespace ptxlint {
namespace build {
namespace {

// --- structure -----------------------------------------------------------------

std::string quoted(std::string_view W) { return "'" + std::string(W) + "'"; }

/// The element count a vector or tensor slot takes with these qualifiers
/// (its count_if, else its count; a count from the rank adds Dim).
size_t wantedCount(const spec::OperandSpec &S, const WrittenQuals &Q, unsigned Dim) {
  spec::CountSpec C = S.Count;
  for (const spec::CountIfSpec &If : S.CountIf)
    if (Q.has(If.If))
      C = If.Count;
  return size_t(std::max(0, (C.FromDim ? int(Dim) : 0) + C.Offset));
}

/// A struct's problems read from the tables: what the checker would refuse
/// in its printed text and print() cannot show (a field its form has no
/// slot for is not printed in the slot's place), and what the tables refuse
/// of the qualifiers it prints. The builder's own reading of the tables:
/// the property tests hold it equal to the checker's.
struct Structure {
  std::vector<std::string> Out;
  void err(std::string S) { Out.push_back(std::move(S)); }

  // Immediates against the slot's range, values and warnings.
  void immediate(const spec::OperandSpec &S, int64_t V, const WrittenQuals &Q) {
    std::string What = quoted(S.Name) + " " + std::to_string(V);
    if (S.HasMin && V < S.Min)
      err(What + " is below " + std::to_string(S.Min));
    if (S.HasMax && V > S.Max)
      err(What + " is above " + std::to_string(S.Max));
    if (S.HasWarnMin && V < S.WarnMin)
      err(What + " is below " + std::to_string(S.WarnMin));
    if (S.MultipleOf && V % S.MultipleOf != 0)
      err(What + " is not a multiple of " + std::to_string(S.MultipleOf));
    const std::vector<int64_t> *Values = S.Values.empty() ? nullptr : &S.Values;
    for (const spec::ValuesIfSpec &If : S.ValuesIf)
      if (Q.has(If.If))
        Values = &If.Values;
    if (Values && std::find(Values->begin(), Values->end(), V) == Values->end())
      err(What + " is not one of the values it takes");
  }
  void value(const spec::OperandSpec &S, const Value &V, bool Pred, const WrittenQuals &Q) {
    if (Pred && V.IsImm)
      err(quoted(S.PredName) + " is a predicate register, not an immediate");
    if (!Pred && V.Negated)
      err(quoted(S.Name) + " cannot be negated");
    if (!Pred && V.IsImm)
      immediate(S, V.Imm, Q);
  }
  void count(const spec::OperandSpec &S, size_t Have, const WrittenQuals &Q, unsigned Dim) {
    size_t Want = wantedCount(S, Q, Dim);
    if (Have != Want)
      err(quoted(S.Name) + " has " + std::to_string(Have) + " elements, expected " +
          std::to_string(Want));
  }
  // One field of a slot of the form, by its type.
  void field(const spec::OperandSpec &S, const Value &V, bool Pred, const WrittenQuals &Q, unsigned) {
    value(S, V, Pred, Q);
  }
  void field(const spec::OperandSpec &, const Address &, bool, const WrittenQuals &, unsigned) {}
  void field(const spec::OperandSpec &S, const TensorRef &T, bool, const WrittenQuals &Q,
             unsigned Dim) {
    count(S, T.Coords.size(), Q, Dim);
  }
  void field(const spec::OperandSpec &S, const std::vector<Value> &Vs, bool,
             const WrittenQuals &Q, unsigned Dim) {
    count(S, Vs.size(), Q, Dim);
  }
  void field(const spec::OperandSpec &S, unsigned V, bool, const WrittenQuals &Q, unsigned) {
    immediate(S, int64_t(V), Q);
  }
  void field(const spec::OperandSpec &S, int64_t V, bool, const WrittenQuals &Q, unsigned) {
    immediate(S, V, Q);
  }
  template <typename V>
  void field(const spec::OperandSpec &S, const std::optional<V> &F, bool Pred,
             const WrittenQuals &Q, unsigned Dim) {
    if (F)
      field(S, *F, Pred, Q, Dim);
  }

  template <typename T> void operator()(const T &I) {
    const spec::InstructionSpec &Spec = tableOf<T>();
    const spec::FormSpec &Form = formOf(I);
    Inst Whole;
    Whole.Op = I;
    std::string Text = print(Whole);
    WrittenQuals Q = readQualifiers(Spec, printedQualifiers(Text, instructionName<T>()), Out);
    formProblems(Spec, Form, Q, Out);
    unsigned Dim = Q.of("dim").size() == 3 ? unsigned(Q.of("dim")[1] - '0') : 0;
    auto Has = [&](std::string_view W) { return Q.has(W); };
    std::vector<const spec::OperandSpec *> Filled;
    eachOperandField(I, [&](const spec::OperandSpec &S, const auto &F, bool Pred) {
      bool InForm = inForm(Form, S);
      bool Set = isSet(F), Required = InForm && spec::slotRequired(S, Has);
      if (Set && !InForm)
        err(quoted(S.Name) + " is not an operand of " + formName(Spec, Form));
      else if (Set && S.When == spec::Presence::If && !Required)
        err(quoted(S.Name) + " goes with " + quoted(S.If[0]) +
            (S.If.size() > 1 ? " (or another of its qualifiers)" : ""));
      else if (!Set && Required)
        err(quoted(S.Name) + " is required by " + formName(Spec, Form));
      if (!Set)
        return;
      if (std::count(Filled.begin(), Filled.end(), &S))
        err(quoted(S.Name) + (S.PredName.empty() ? "" : " and " + quoted(S.PredName)) +
            " cannot both be given");
      Filled.push_back(&S);
      field(S, F, Pred, Q, Dim);
    });
    extra(I);
  }
  // What a struct's fields say together that no slot's data does.
  void extra(const CpAsync &I) {
    if (I.SrcSize && I.SrcSize->IsImm && I.SrcSize->Imm > int64_t(I.CpSize))
      err("src-size " + std::to_string(I.SrcSize->Imm) + " is above cp-size");
  }
  template <typename T> void extra(const T &) {}
};

} // namespace

std::vector<std::string> structuralErrors(const Inst &I) {
  Structure S;
  std::visit(S, I.Op);
  if (I.Guard && I.Guard->IsImm)
    S.err("the guard is a predicate register");
  return S.Out;
}

namespace {

/// Whether a linter diagnostic says the target or version misses something:
/// the T rules on the instruction, and the module rules on the .target /
/// .version pair (unknown target, version too old for it, unknown version).
bool judgesTarget(const Diagnostic &D) {
  const RuleInfo *R = findRule(D.Code);
  return R && (R->Group == "target" || R->Id == rules::UnknownTarget ||
               R->Id == rules::VersionTooOldForTarget ||
               R->Id == rules::UnsupportedVersion);
}

} // namespace

std::vector<std::vector<Unsupported>>
checkTargets(const std::vector<Inst> &Insts, const TargetVersion &TV) {
  std::vector<std::vector<Unsupported>> Out(Insts.size());
  ModuleText M = moduleText(Insts, TV, "ptxlint_builder");
  SourceBuffer Buf("<builder>", M.Text);
  for (const Diagnostic &D : lint(Buf).Diagnostics) {
    if (!judgesTarget(D) || D.Level < Severity::Warning)
      continue;
    Unsupported U{D.Message, D.Level < Severity::Error};
    // The instruction whose text holds the range; module rules hit all.
    auto It = std::upper_bound(M.Begins.begin(), M.Begins.end(), D.Range.Begin);
    size_t K = size_t(It - M.Begins.begin());
    if (findRule(D.Code)->Group != "target" || K == 0 ||
        D.Range.Begin >= M.Ends[K - 1]) {
      for (auto &List : Out)
        List.push_back(U);
      continue;
    }
    Out[K - 1].push_back(std::move(U));
  }
  return Out;
}

std::vector<Unsupported> checkTarget(const Inst &I, const TargetVersion &TV) {
  return checkTargets({I}, TV).front();
}

const std::vector<std::string> &knownTargets() {
  static const std::vector<std::string> Names = [] {
    std::vector<std::string> V;
    for (const Target &T : ptxlint::knownTargets())
      V.push_back(T.name());
    return V;
  }();
  return Names;
}

std::pair<unsigned, unsigned> minPtxForTarget(const std::string &S) {
  if (auto T = parseTarget(S))
    return {T->minPtx().Major, T->minPtx().Minor};
  return {0, 0};
}

// --- enumeration -------------------------------------------------------------------

namespace {

/// Every enumerator of a generated enum, in order.
template <typename E> std::vector<E> every() {
  std::vector<E> V;
  for (unsigned K = 0; K < enumSize(E{}); ++K)
    V.push_back(E(K));
  return V;
}

/// The operands of one candidate: a fresh register of the type each slot
/// takes first (an address: .b64), element counts from the slot's count.
struct Filler {
  const WrittenQuals &Q;
  unsigned Dim;
  unsigned Next = 1;

  Value fresh(std::string_view Type) {
    const char *Prefix = Type == ".pred" ? "%p" : Type.size() == 4 && Type.substr(2) == "16" ? "%rs"
                         : Type.size() == 4 && Type.substr(2) == "64"                         ? "%rd"
                                                                                              : "%r";
    return reg(Prefix + std::to_string(Next++));
  }
  static std::string_view first(const spec::Words &W) { return W.empty() ? ".b32" : W[0]; }
  std::vector<Value> elements(const spec::OperandSpec &S) {
    std::vector<Value> V;
    for (size_t K = 0, N = std::max<size_t>(1, wantedCount(S, Q, Dim)); K < N; ++K)
      V.push_back(fresh(first(S.ElemRegs)));
    return V;
  }
  void fill(const spec::OperandSpec &, Address &F, bool) { F = addr(fresh(".b64").Name); }
  void fill(const spec::OperandSpec &S, Value &F, bool Pred) {
    F = Pred ? fresh(".pred") : S.Regs.empty() ? imm(S.HasMin ? S.Min : 0) : fresh(S.Regs[0]);
  }
  void fill(const spec::OperandSpec &S, TensorRef &F, bool) {
    F.Map = fresh(".b64");
    F.Coords = elements(S);
  }
  void fill(const spec::OperandSpec &S, std::vector<Value> &F, bool) { F = elements(S); }
  template <typename V> void fill(const spec::OperandSpec &S, std::optional<V> &F, bool Pred) {
    fill(S, F.emplace(), Pred);
  }
  // Integer fields are enumerated (immediates()), not filled.
  void fill(const spec::OperandSpec &, unsigned &, bool) {}
  void fill(const spec::OperandSpec &, int64_t &, bool) {}
};

/// The values an integer field takes among the candidates: the slot's list
/// of values, else 0 and 3 (a count or size of either sign of "none").
std::vector<int64_t> immediates(const spec::OperandSpec &S) {
  if (!S.Values.empty())
    return S.Values;
  return {0, 3};
}

/// The candidates of one struct whose qualifier fields are set: the fields
/// of the form's required slots filled, its other slots' fields filled in
/// every combination, and each field no slot of the form has filled alone
/// (refused: the property tests check that the model and ptxas say so).
template <typename T> void withOperands(T Base, std::vector<Inst> &Out) {
  const spec::InstructionSpec &Spec = tableOf<T>();
  const spec::FormSpec &Form = formOf(Base);
  Inst Plain;
  Plain.Op = Base;
  std::vector<std::string> Ignored;
  std::string Text = print(Plain);
  WrittenQuals Q = readQualifiers(Spec, printedQualifiers(Text, instructionName<T>()), Ignored);
  unsigned Dim = Q.of("dim").size() == 3 ? unsigned(Q.of("dim")[1] - '0') : 0;
  auto Has = [&](std::string_view W) { return Q.has(W); };
  // Which fields (by position in eachOperandField's order) to fill how.
  enum Role { Required, Toggled, Foreign, Enumerated };
  std::vector<Role> Roles;
  std::vector<std::vector<int64_t>> Values;
  eachOperandField(Base, [&](const spec::OperandSpec &S, auto &F, bool) {
    using V = std::decay_t<decltype(F)>;
    bool InForm = inForm(Form, S);
    bool Integer = std::is_same_v<V, unsigned> || std::is_same_v<V, int64_t>;
    Roles.push_back(Integer ? Enumerated
                    : !InForm ? Foreign
                    : spec::slotRequired(S, Has) ? Required
                                                 : Toggled);
    Values.push_back(Integer ? immediates(S) : std::vector<int64_t>());
  });
  auto Build = [&](auto Chosen, const std::vector<size_t> &Pick) {
    T I = Base;
    Filler Fill{Q, Dim};
    size_t K = 0;
    eachOperandField(I, [&](const spec::OperandSpec &S, auto &F, bool Pred) {
      using V = std::decay_t<decltype(F)>;
      if constexpr (std::is_same_v<V, unsigned> || std::is_same_v<V, int64_t>)
        F = V(Values[K][Pick[K]]);
      else if (Roles[K] == Required || Chosen(K))
        Fill.fill(S, F, Pred);
      ++K;
    });
    Inst R;
    R.Op = I;
    Out.push_back(std::move(R));
  };
  // Every choice of the integer fields' values (an odometer over Pick).
  std::vector<size_t> Pick(Roles.size());
  for (;;) {
    std::vector<size_t> Toggles;
    for (size_t K = 0; K < Roles.size(); ++K)
      if (Roles[K] == Toggled)
        Toggles.push_back(K);
    for (unsigned Mask = 0; Mask < (1u << Toggles.size()); ++Mask)
      Build([&](size_t K) {
        for (size_t B = 0; B < Toggles.size(); ++B)
          if (Toggles[B] == K)
            return ((Mask >> B) & 1) != 0;
        return false;
      }, Pick);
    for (size_t K = 0; K < Roles.size(); ++K)
      if (Roles[K] == Foreign)
        Build([&](size_t J) { return J == K; }, Pick);
    size_t K = 0;
    while (K < Roles.size() && (Roles[K] != Enumerated || ++Pick[K] == Values[K].size()))
      Pick[K++] = 0;
    if (K == Roles.size())
      break;
  }
}

/// Every instruction the builder's structs can spell: each enumerator of the
/// generated enums and dimensions 1-5, with their operands as the tables'
/// slots take them (withOperands). Most are not valid: allForms() keeps
/// what the checker takes.
std::vector<Inst> candidates() {
  std::vector<Inst> F;
  for (CacheOp C : every<CacheOp>())
    for (CpAsyncDir Dir : every<CpAsyncDir>())
      for (PrefetchSize P : every<PrefetchSize>()) {
        CpAsync I;
        I.Cache = C;
        I.DstSharedCta = Dir == CpAsyncDir::SharedCtaGlobal;
        I.Prefetch = P;
        withOperands(I, F);
      }
  withOperands(CpAsyncCommitGroup{}, F);
  withOperands(CpAsyncWaitGroup{}, F);
  withOperands(CpAsyncWaitAll{}, F);
  for (BulkDir D : every<BulkDir>()) {
    CpAsyncBulk I;
    I.Dir = D;
    withOperands(I, F);
  }
  for (ReduceDir D : every<ReduceDir>())
    for (RedOp Op : every<RedOp>())
      for (RedType Ty : every<RedType>()) {
        CpReduceAsyncBulk I;
        I.Dir = D;
        I.Op = Op;
        I.Type = Ty;
        withOperands(I, F);
      }
  withOperands(CpAsyncBulkPrefetch{}, F);
  // One instruction after another, as allForms() lists them (a module of
  // them, each mode's dimensions together).
  for (TensorDir D : every<TensorDir>())
    for (LoadMode M : every<LoadMode>())
      for (unsigned Dim = 1; Dim <= 5; ++Dim)
        for (CtaGroup G : every<CtaGroup>()) {
          CpAsyncBulkTensor I;
          I.Dir = D;
          I.Dim = Dim;
          I.Mode = M;
          I.Group = G;
          withOperands(I, F);
        }
  for (LoadMode M : every<LoadMode>())
    for (unsigned Dim = 1; Dim <= 5; ++Dim)
      for (RedOp Op : every<RedOp>()) {
        CpReduceAsyncBulkTensor I;
        I.Dim = Dim;
        I.Mode = M;
        I.Op = Op;
        withOperands(I, F);
      }
  for (LoadMode M : every<LoadMode>())
    for (unsigned Dim = 1; Dim <= 5; ++Dim) {
      CpAsyncBulkPrefetchTensor I;
      I.Dim = Dim;
      I.Mode = M;
      withOperands(I, F);
    }
  withOperands(CpAsyncBulkCommitGroup{}, F);
  for (bool Read : {false, true}) {
    CpAsyncBulkWaitGroup W;
    W.Read = Read;
    withOperands(W, F);
  }
  return F;
}

} // namespace

std::vector<Inst> formCandidates() { return candidates(); }

std::vector<bool> checkerRefuses(const std::vector<Inst> &Insts) {
  // The checker's errors that no target or version fixes (one module).
  std::vector<bool> Bad(Insts.size());
  ModuleText M = moduleText(Insts, TargetVersion{}, "ptxlint_builder");
  SourceBuffer Buf("<builder>", M.Text);
  for (const Diagnostic &D : lint(Buf).Diagnostics) {
    if (D.Level < Severity::Error || judgesTarget(D))
      continue;
    auto It = std::upper_bound(M.Begins.begin(), M.Begins.end(), D.Range.Begin);
    if (It != M.Begins.begin() && D.Range.Begin < M.Ends[size_t(It - M.Begins.begin()) - 1])
      Bad[size_t(It - M.Begins.begin()) - 1] = true;
  }
  return Bad;
}

std::vector<Inst> allForms() {
  // Which candidates are forms is the tables' word (the checker), and the
  // struct's (structuralErrors); the property tests hold the two equal.
  std::vector<Inst> All = candidates(), Out;
  std::vector<bool> Bad = checkerRefuses(All);
  for (size_t K = 0; K < All.size(); ++K)
    if (!Bad[K] && structuralErrors(All[K]).empty())
      Out.push_back(std::move(All[K]));
  return Out;
}

std::vector<Inst> formsFor(const TargetVersion &T) {
  std::vector<Inst> All = allForms(), Out;
  std::vector<std::vector<Unsupported>> Problems = checkTargets(All, T);
  for (size_t K = 0; K < All.size(); ++K)
    if (std::all_of(Problems[K].begin(), Problems[K].end(),
                    [](const Unsupported &U) { return U.Advisory; }))
      Out.push_back(std::move(All[K]));
  return Out;
}

} // namespace build
} // namespace ptxlint
