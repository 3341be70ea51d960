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
      bool InForm = std::any_of(Form.Operands.begin(), Form.Operands.end(),
                                [&](const spec::OperandSpec &O) { return &O == &S; });
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

/// Whether direction D completes on an mbarrier (and so takes one).
template <typename E> bool onMbarrier(E D) {
  return std::string_view(completion(D)) == completion(BulkDir::GlobalToSharedCta);
}

/// Every instruction the builder's structs can spell: each enumerator of the
/// generated enums, each optional operand present or not, dimensions 1-5,
/// with well-shaped operands (fixed register names). Most are not valid:
/// allForms() keeps what the checker takes.
std::vector<Inst> candidates() {
  std::vector<Inst> F;
  const Address Dst = addr("%rd1"), Src = addr("%rd2"), Mbar = addr("%rd3");
  const Value Map = reg("%rd4"), Policy = reg("%rd5"), Size = reg("%r1");
  const Value CtaMask = reg("%rs1"), ByteMask = reg("%rs2");
  const bool Both[] = {false, true};
  // With the optional cache policy (.L2::cache_hint) or without.
  auto push = [&](auto I, bool Hint) {
    if (Hint)
      I.CachePolicy = Policy;
    F.push_back(I);
  };
  auto Regs = [](const char *Prefix, size_t N) {
    std::vector<Value> C;
    for (size_t K = 0; K < N; ++K)
      C.push_back(reg(Prefix + std::to_string(3 + K)));
    return C;
  };
  // The operand shapes of Builder.h: .im2col takes Dim-2 offsets, ::w two;
  // gather4/scatter4 five coordinates.
  auto InfoFor = [&](unsigned D, LoadMode M) {
    if (M == LoadMode::Im2col)
      return Regs("%rs", D >= 3 ? D - 2 : 1);
    if (M == LoadMode::Im2colW || M == LoadMode::Im2colW128)
      return Regs("%rs", 2);
    return std::vector<Value>();
  };
  auto CoordsFor = [&](unsigned D, LoadMode M) {
    return Regs("%r", M == LoadMode::TileGather4 || M == LoadMode::TileScatter4 ? 5 : D);
  };

  for (CacheOp C : every<CacheOp>())
    for (CpAsyncDir Dir : every<CpAsyncDir>())
      for (unsigned Sz : {4u, 8u, 16u})
        for (PrefetchSize P : every<PrefetchSize>())
          for (int Tail = 0; Tail < 3; ++Tail)
            for (bool Hint : Both) {
              CpAsync I;
              I.Cache = C;
              I.DstSharedCta = Dir == CpAsyncDir::SharedCtaGlobal;
              I.Prefetch = P;
              I.Dst = Dst;
              I.Src = Src;
              I.CpSize = Sz;
              if (Tail == 1)
                I.SrcSize = reg("%r2");
              if (Tail == 2)
                I.IgnoreSrc = reg("%p1");
              push(I, Hint);
            }
  F.push_back(CpAsyncCommitGroup{});
  F.push_back(CpAsyncWaitGroup{0});
  F.push_back(CpAsyncWaitGroup{3});
  F.push_back(CpAsyncWaitAll{});

  for (BulkDir D : every<BulkDir>())
    for (bool Multicast : Both)
      for (bool Hint : Both)
        for (bool Mask : Both) {
          CpAsyncBulk I;
          I.Dir = D;
          I.Dst = Dst;
          I.Src = Src;
          I.Size = Size;
          if (onMbarrier(D))
            I.Mbar = Mbar;
          if (Multicast)
            I.CtaMask = CtaMask;
          if (Hint)
            I.CachePolicy = Policy;
          if (Mask)
            I.ByteMask = ByteMask;
          F.push_back(I);
        }
  for (ReduceDir D : every<ReduceDir>())
    for (RedOp Op : every<RedOp>())
      for (RedType Ty : every<RedType>())
        for (bool Hint : Both) {
          CpReduceAsyncBulk I;
          I.Dir = D;
          I.Op = Op;
          I.Type = Ty;
          I.Dst = Dst;
          I.Src = Src;
          I.Size = Size;
          if (onMbarrier(D))
            I.Mbar = Mbar;
          push(I, Hint);
        }
  for (bool Hint : Both) {
    CpAsyncBulkPrefetch I;
    I.Src = Src;
    I.Size = Size;
    push(I, Hint);
  }

  // One instruction after another, as allForms() lists them (a module of
  // them, each mode's dimensions together).
  for (TensorDir D : every<TensorDir>())
    for (LoadMode M : every<LoadMode>())
      for (unsigned Dim = 1; Dim <= 5; ++Dim)
        for (bool Multicast : Both)
          for (CtaGroup G : every<CtaGroup>())
            for (bool Hint : Both) {
              CpAsyncBulkTensor I;
              I.Dir = D;
              I.Dim = Dim;
              I.Mode = M;
              I.Shared = Dst;
              I.Tensor = TensorRef{Map, CoordsFor(Dim, M)};
              if (onMbarrier(D)) {
                I.Mbar = Mbar;
                I.Im2colInfo = InfoFor(Dim, M);
              } else {
                I.Shared = Src;
              }
              if (Multicast)
                I.CtaMask = CtaMask;
              I.Group = G;
              push(I, Hint);
            }
  for (LoadMode M : every<LoadMode>())
    for (unsigned Dim = 1; Dim <= 5; ++Dim)
      for (RedOp Op : every<RedOp>())
        for (bool Hint : Both) {
          CpReduceAsyncBulkTensor I;
          I.Dim = Dim;
          I.Mode = M;
          I.Op = Op;
          I.Tensor = TensorRef{Map, CoordsFor(Dim, M)};
          I.Src = Src;
          push(I, Hint);
        }
  for (LoadMode M : every<LoadMode>())
    for (unsigned Dim = 1; Dim <= 5; ++Dim)
      for (bool Hint : Both) {
        CpAsyncBulkPrefetchTensor I;
        I.Dim = Dim;
        I.Mode = M;
        I.Tensor = TensorRef{Map, CoordsFor(Dim, M)};
        I.Im2colInfo = InfoFor(Dim, M);
        push(I, Hint);
      }
  F.push_back(CpAsyncBulkCommitGroup{});
  F.push_back(CpAsyncBulkWaitGroup{false, 0});
  F.push_back(CpAsyncBulkWaitGroup{true, 1});
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
