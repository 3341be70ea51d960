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

#include "ModuleText.h"

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

/// Whether cp.reduce.async.bulk takes Op on T into .global (Global) or into
/// .shared::cluster: the redOp x type table of cp_reduce_async_bulk.yaml.
bool redAllowed(bool Global, RedOp Op, RedType T) {
  std::string_view Form =
      Global ? "shared-cta-to-global" : "shared-cta-to-shared-cluster";
  for (const spec::PairTableSpec &Table : tableOf<CpReduceAsyncBulk>().Tables) {
    if (!Table.Forms.empty() &&
        std::find(Table.Forms.begin(), Table.Forms.end(), Form) == Table.Forms.end())
      continue;
    for (const spec::Words &Row : Table.Allow)
      if (!Row.empty() && Row[0] == spelling(Op))
        return std::find(Row.begin() + 1, Row.end(), spelling(T)) != Row.end();
    return false;
  }
  return false;
}

/// Whether the tables let instruction T written with the spaces Dir ("" for
/// its one form) take load mode M: the form's `only` entry for the load
/// mode, else the instruction's load_mode group.
template <typename T> bool modeAllowed(std::string_view Dir, LoadMode M) {
  const spec::InstructionSpec &I = tableOf<T>();
  std::string_view W = spelling(M);
  auto has = [&](auto Begin, auto End) { return std::find(Begin, End, W) != End; };
  for (const spec::FormSpec &F : I.Forms) {
    std::string S;
    for (const spec::Words &Pos : F.Spaces)
      if (!Pos.empty())
        S += Pos[0];
    if (!Dir.empty() && S != Dir)
      continue;
    for (const spec::Words &O : F.Only)
      if (!O.empty() && O[0] == "load_mode")
        return has(O.begin() + 1, O.end());
    break;
  }
  const spec::GroupSpec *G = spec::findGroup(I, "load_mode");
  return G && has(G->Values.begin(), G->Values.end());
}

struct Structure {
  std::vector<std::string> Out;
  void err(std::string S) { Out.push_back(std::move(S)); }
  /// "CtaMask (.multicast::cluster) needs .shared::cluster.global"
  static std::string needs(const char *Field, Flag F, std::string_view What) {
    return std::string(Field) + " (" + spelling(F) + ") needs " + std::string(What);
  }

  void size(const Value &V) {
    if (V.IsImm && (V.Imm <= 0 || V.Imm % 16 != 0 || V.Imm > 1048560))
      err("size " + std::to_string(V.Imm) +
          " is not a positive multiple of 16 up to 1048560");
  }
  void mbar(bool Needs, const std::optional<Address> &M) {
    if (Needs && !M)
      err("this direction completes on an mbarrier: Mbar is required");
    if (!Needs && M)
      err("this direction completes with .bulk_group: Mbar must be empty");
  }
  void coords(unsigned Dim, LoadMode Mode, const TensorRef &T) {
    if (Dim < 1 || Dim > 5) {
      err("Dim " + std::to_string(Dim) + " is not 1..5");
      return;
    }
    bool Four = Mode == LoadMode::TileGather4 || Mode == LoadMode::TileScatter4;
    if (Four && Dim != 2)
      err(std::string(spelling(Mode)) + " needs .2d");
    if ((Mode == LoadMode::Im2col || Mode == LoadMode::Im2colW ||
         Mode == LoadMode::Im2colW128 || Mode == LoadMode::Im2colNoOffs) &&
        Dim < 3)
      err(std::string(spelling(Mode)) + " needs a tensor of 3 or more dimensions");
    size_t Want = Four ? 5 : Dim;
    if (T.Coords.size() != Want)
      err("tensorCoords has " + std::to_string(T.Coords.size()) +
          " elements, expected " + std::to_string(Want));
  }
  void im2col(unsigned Dim, LoadMode Mode, const std::vector<Value> &Info) {
    size_t Want = 0;
    if (Mode == LoadMode::Im2col)
      Want = Dim >= 3 ? Dim - 2 : 1;
    else if (Mode == LoadMode::Im2colW || Mode == LoadMode::Im2colW128)
      Want = 2;
    if (Info.size() != Want)
      err("im2colInfo has " + std::to_string(Info.size()) + " elements, " +
          spelling(Mode) + " needs " + std::to_string(Want));
  }

  void operator()(const CpAsync &I) {
    if (I.CpSize != 4 && I.CpSize != 8 && I.CpSize != 16)
      err("cp-size " + std::to_string(I.CpSize) + " is not 4, 8 or 16");
    if (I.Cache == CacheOp::CG && I.CpSize != 16)
      err(std::string(spelling(CacheOp::CG)) + " needs cp-size 16");
    if (I.SrcSize && I.IgnoreSrc)
      err("src-size and ignore-src cannot both be given");
    if (I.IgnoreSrc && I.IgnoreSrc->IsImm)
      err("ignore-src is a predicate register, not an immediate");
    if (I.SrcSize && I.SrcSize->Negated)
      err("src-size cannot be negated");
    if (I.SrcSize && I.SrcSize->IsImm &&
        (I.SrcSize->Imm < 0 || I.SrcSize->Imm > int64_t(I.CpSize)))
      err("src-size " + std::to_string(I.SrcSize->Imm) + " is not in [0, cp-size]");
  }
  void operator()(const CpAsyncWaitGroup &I) {
    if (I.N < 0)
      err("wait_group N must not be negative");
  }
  void operator()(const CpAsyncBulkWaitGroup &I) {
    if (I.N < 0)
      err("wait_group N must not be negative");
  }
  void operator()(const CpAsyncBulk &I) {
    size(I.Size);
    mbar(I.Dir != BulkDir::SharedCtaToGlobal, I.Mbar);
    if (I.CtaMask && I.Dir != BulkDir::GlobalToSharedCluster)
      err(needs("CtaMask", Flag::Multicast, spelling(BulkDir::GlobalToSharedCluster)));
    if (I.ByteMask && I.Dir != BulkDir::SharedCtaToGlobal)
      err(needs("ByteMask", Flag::CpMask, spelling(BulkDir::SharedCtaToGlobal)));
    if (I.CachePolicy && I.Dir == BulkDir::SharedCtaToSharedCluster)
      err("CachePolicy needs a .global state space");
  }
  void operator()(const CpReduceAsyncBulk &I) {
    size(I.Size);
    bool Global = I.Dir == ReduceDir::SharedCtaToGlobal;
    mbar(!Global, I.Mbar);
    if (!redAllowed(Global, I.Op, I.Type))
      err(std::string(spelling(I.Op)) + " does not take " + spelling(I.Type) +
          (Global ? " into .global" : " into .shared::cluster"));
    if (I.CachePolicy && !Global)
      err("CachePolicy needs a .global state space");
  }
  void operator()(const CpAsyncBulkPrefetch &I) { size(I.Size); }
  void operator()(const CpAsyncBulkTensor &I) {
    bool Store = I.Dir == TensorDir::SharedCtaToGlobal;
    coords(I.Dim, I.Mode, I.Tensor);
    if (Store) {
      if (!modeAllowed<CpAsyncBulkTensor>(spelling(I.Dir), I.Mode))
        err(std::string(spelling(I.Mode)) + " is not a store mode");
      if (!I.Im2colInfo.empty())
        err("a store takes no im2colInfo");
      if (I.Group != CtaGroup::None)
        err("CtaGroup needs the mbarrier completion (a load)");
    } else {
      if (!modeAllowed<CpAsyncBulkTensor>(spelling(I.Dir), I.Mode))
        err(std::string(spelling(I.Mode)) + " is not a load mode");
      else
        im2col(I.Dim, I.Mode, I.Im2colInfo);
    }
    mbar(!Store, I.Mbar);
    if (I.CtaMask && I.Dir != TensorDir::GlobalToSharedCluster)
      err(needs("CtaMask", Flag::Multicast, spelling(BulkDir::GlobalToSharedCluster)));
  }
  void operator()(const CpReduceAsyncBulkTensor &I) {
    if (!modeAllowed<CpReduceAsyncBulkTensor>("", I.Mode))
      err(std::string(spelling(I.Mode)) + " is not a load mode of " +
          instructionName<CpReduceAsyncBulkTensor>());
    coords(I.Dim, I.Mode, I.Tensor);
  }
  void operator()(const CpAsyncBulkPrefetchTensor &I) {
    if (!modeAllowed<CpAsyncBulkPrefetchTensor>("", I.Mode))
      err(std::string(spelling(I.Mode)) + " is not a load mode of " +
          instructionName<CpAsyncBulkPrefetchTensor>());
    else
      im2col(I.Dim, I.Mode, I.Im2colInfo);
    coords(I.Dim, I.Mode, I.Tensor);
  }
  template <typename T> void operator()(const T &) {}
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

  for (unsigned Dim = 1; Dim <= 5; ++Dim)
    for (LoadMode M : every<LoadMode>()) {
      for (TensorDir D : every<TensorDir>())
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
      for (bool Hint : Both) {
        CpAsyncBulkPrefetchTensor I;
        I.Dim = Dim;
        I.Mode = M;
        I.Tensor = TensorRef{Map, CoordsFor(Dim, M)};
        I.Im2colInfo = InfoFor(Dim, M);
        push(I, Hint);
      }
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
