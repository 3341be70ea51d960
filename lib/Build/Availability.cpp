//===- Availability.cpp - Structure and target requirements of forms ------===//
//
// The builder's own model of the async-copy family: which operand shapes a
// form needs (structuralErrors) and which targets and PTX versions take it
// (checkTarget). It follows PTX ISA 9.1 section 9.7.9.25 and, where the text
// lists fewer targets than ptxas 13.0 accepts, ptxas (shared/notes). The
// property tests run every form on every target through ptxas to keep the
// model honest; validate() prefers the linter's checker wherever it speaks.
//
//===----------------------------------------------------------------------===//

#include "ptxlint/Builder.h"

#include <cstdio>

namespace ptxlint {
namespace build {
namespace {

struct Tgt {
  unsigned N = 0; ///< 101 is folded into 110 (renamed in PTX 9.0)
  char V = 0;     ///< 0, 'a' or 'f'
  bool Valid = false;
};

Tgt parse(const std::string &S) {
  Tgt T;
  if (S.rfind("sm_", 0) != 0)
    return T;
  size_t K = 3;
  while (K < S.size() && S[K] >= '0' && S[K] <= '9')
    T.N = T.N * 10 + unsigned(S[K++] - '0');
  if (K < S.size() && (S[K] == 'a' || S[K] == 'f'))
    T.V = S[K++];
  if (K != S.size() || T.N == 0)
    return T;
  if (T.N == 101)
    T.N = 110;
  T.Valid = true;
  return T;
}

struct Ver {
  unsigned Maj, Min;
  unsigned key() const { return Maj * 10 + Min; }
};

/// sm_100a/f, sm_103a/f, sm_110a/f (sm_101a/f): the Blackwell datacenter
/// features (.cta_group, .tile::scatter4, .im2col::w::128, and gather4 /
/// im2col::w into .shared::cluster).
bool blackwellAF(const Tgt &T) {
  return (T.N == 100 || T.N == 103 || T.N == 110) && (T.V == 'a' || T.V == 'f');
}
/// Where .multicast::cluster is advised (no ptxas advisory).
bool multicastAdvised(const Tgt &T) {
  return (T.N == 90 && T.V == 'a') || blackwellAF(T);
}

std::string verStr(Ver V) {
  return std::to_string(V.Maj) + "." + std::to_string(V.Min);
}

struct Checker {
  const TargetVersion &TV;
  Tgt T;
  std::vector<Unsupported> Out;

  void needPtx(Ver V, const std::string &What) {
    if (TV.PtxMajor * 10 + TV.PtxMinor < V.key())
      Out.push_back({What + " needs PTX ISA " + verStr(V) + " (module has " +
                         std::to_string(TV.PtxMajor) + "." +
                         std::to_string(TV.PtxMinor) + ")",
                     false});
  }
  void needTarget(bool Ok, const std::string &What, const std::string &Which) {
    if (!Ok)
      Out.push_back({What + " needs " + Which + " (target is " + TV.Target + ")",
                     false});
  }
  void family(unsigned MinSm, Ver V, const std::string &Name) {
    needTarget(T.N >= MinSm, Name, "sm_" + std::to_string(MinSm) + " or later");
    needPtx(V, Name);
  }
  void blackwell(const std::string &What) {
    needTarget(blackwellAF(T), What, "sm_100a/f, sm_103a/f or sm_110a/f");
    needPtx({8, 6}, What);
  }
  void multicast() {
    if (!multicastAdvised(T))
      Out.push_back({".multicast::cluster is advised only on sm_90a, "
                     "sm_100a/f, sm_103a/f and sm_110a/f (target is " +
                         TV.Target + ")",
                     true});
  }

  void operator()(const CpAsync &I) {
    family(80, {7, 0}, "cp.async");
    if (I.CachePolicy)
      needPtx({7, 4}, ".L2::cache_hint");
    if (I.Prefetch != PrefetchSize::None)
      needPtx({7, 4}, spelling(I.Prefetch));
    if (I.IgnoreSrc)
      needPtx({7, 5}, "the ignore-src operand");
    if (I.DstSharedCta)
      needPtx({7, 8}, ".shared::cta");
  }
  void operator()(const CpAsyncCommitGroup &) { family(80, {7, 0}, "cp.async.commit_group"); }
  void operator()(const CpAsyncWaitGroup &) { family(80, {7, 0}, "cp.async.wait_group"); }
  void operator()(const CpAsyncWaitAll &) { family(80, {7, 0}, "cp.async.wait_all"); }
  void operator()(const CpAsyncBulk &I) {
    family(90, {8, 0}, "cp.async.bulk");
    if (I.Dir == BulkDir::GlobalToSharedCta)
      needPtx({8, 6}, "cp.async.bulk to .shared::cta");
    if (I.ByteMask) {
      needTarget(T.N >= 100, ".cp_mask", "sm_100 or later");
      needPtx({8, 6}, ".cp_mask");
    }
    if (I.CtaMask)
      multicast();
  }
  void operator()(const CpReduceAsyncBulk &) { family(90, {8, 0}, "cp.reduce.async.bulk"); }
  void operator()(const CpAsyncBulkPrefetch &) { family(90, {8, 0}, "cp.async.bulk.prefetch"); }
  void operator()(const CpAsyncBulkTensor &I) {
    family(90, {8, 0}, "cp.async.bulk.tensor");
    bool Cta = I.Dir == TensorDir::GlobalToSharedCta;
    if (Cta)
      needPtx({8, 6}, "cp.async.bulk.tensor to .shared::cta");
    switch (I.Mode) {
    case LoadMode::TileGather4:
    case LoadMode::Im2colW:
      if (Cta) {
        needTarget(T.N >= 100, spelling(I.Mode), "sm_100 or later");
        needPtx({8, 6}, spelling(I.Mode));
      } else {
        blackwell(std::string(spelling(I.Mode)) + " to .shared::cluster");
      }
      break;
    case LoadMode::TileScatter4:
    case LoadMode::Im2colW128:
      blackwell(spelling(I.Mode));
      break;
    default:
      break;
    }
    if (I.Group != CtaGroup::None)
      blackwell(".cta_group");
    if (I.CtaMask)
      multicast();
  }
  void operator()(const CpReduceAsyncBulkTensor &) {
    family(90, {8, 0}, "cp.reduce.async.bulk.tensor");
  }
  void operator()(const CpAsyncBulkPrefetchTensor &I) {
    family(90, {8, 0}, "cp.async.bulk.prefetch.tensor");
    if (I.Mode == LoadMode::TileGather4 || I.Mode == LoadMode::Im2colW ||
        I.Mode == LoadMode::Im2colW128)
      blackwell(spelling(I.Mode));
  }
  void operator()(const CpAsyncBulkCommitGroup &) {
    family(90, {8, 0}, "cp.async.bulk.commit_group");
  }
  void operator()(const CpAsyncBulkWaitGroup &) {
    family(90, {8, 0}, "cp.async.bulk.wait_group");
  }
};

// --- structure -----------------------------------------------------------------

bool redAllowed(bool Global, RedOp Op, RedType T) {
  using O = RedOp;
  using Ty = RedType;
  auto In = [&](std::initializer_list<Ty> L) {
    for (Ty X : L)
      if (X == T)
        return true;
    return false;
  };
  switch (Op) {
  case O::Add:
    return Global ? In({Ty::U32, Ty::S32, Ty::U64, Ty::F32, Ty::F64, Ty::F16, Ty::BF16})
                  : In({Ty::U32, Ty::S32, Ty::U64});
  case O::Min:
  case O::Max:
    return Global ? In({Ty::U32, Ty::S32, Ty::U64, Ty::S64, Ty::F16, Ty::BF16})
                  : In({Ty::U32, Ty::S32});
  case O::Inc:
  case O::Dec:
    return T == Ty::U32;
  case O::And:
  case O::Or:
  case O::Xor:
    return Global ? In({Ty::B32, Ty::B64}) : T == Ty::B32;
  }
  return false;
}

struct Structure {
  std::vector<std::string> Out;
  void err(std::string S) { Out.push_back(std::move(S)); }

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
  static bool loadMode(LoadMode M) {
    return M == LoadMode::Tile || M == LoadMode::TileGather4 ||
           M == LoadMode::Im2col || M == LoadMode::Im2colW ||
           M == LoadMode::Im2colW128;
  }

  void operator()(const CpAsync &I) {
    if (I.CpSize != 4 && I.CpSize != 8 && I.CpSize != 16)
      err("cp-size " + std::to_string(I.CpSize) + " is not 4, 8 or 16");
    if (I.Cache == CacheOp::CG && I.CpSize != 16)
      err(".cg needs cp-size 16");
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
      err("CtaMask (.multicast::cluster) needs .shared::cluster.global");
    if (I.ByteMask && I.Dir != BulkDir::SharedCtaToGlobal)
      err("ByteMask (.cp_mask) needs .global.shared::cta");
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
      if (I.Mode != LoadMode::Tile && I.Mode != LoadMode::TileScatter4 &&
          I.Mode != LoadMode::Im2colNoOffs)
        err(std::string(spelling(I.Mode)) + " is not a store mode");
      if (!I.Im2colInfo.empty())
        err("a store takes no im2colInfo");
      if (I.Group != CtaGroup::None)
        err(".cta_group needs the mbarrier completion (a load)");
    } else {
      if (!loadMode(I.Mode))
        err(std::string(spelling(I.Mode)) + " is not a load mode");
      else
        im2col(I.Dim, I.Mode, I.Im2colInfo);
    }
    mbar(!Store, I.Mbar);
    if (I.CtaMask && I.Dir != TensorDir::GlobalToSharedCluster)
      err("CtaMask (.multicast::cluster) needs .shared::cluster.global");
  }
  void operator()(const CpReduceAsyncBulkTensor &I) {
    if (I.Mode != LoadMode::Tile && I.Mode != LoadMode::Im2colNoOffs)
      err(std::string(spelling(I.Mode)) +
          " is not a load mode of cp.reduce.async.bulk.tensor");
    coords(I.Dim, I.Mode, I.Tensor);
  }
  void operator()(const CpAsyncBulkPrefetchTensor &I) {
    if (!loadMode(I.Mode))
      err(std::string(spelling(I.Mode)) +
          " is not a load mode of cp.async.bulk.prefetch.tensor");
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

std::vector<Unsupported> checkTarget(const Inst &I, const TargetVersion &TV) {
  Checker C{TV, parse(TV.Target), {}};
  if (!C.T.Valid) {
    C.Out.push_back({"unknown target '" + TV.Target + "'", false});
    return C.Out;
  }
  auto [Maj, Min] = minPtxForTarget(TV.Target);
  if (Maj && TV.PtxMajor * 10 + TV.PtxMinor < Maj * 10 + Min)
    C.Out.push_back({".target " + TV.Target + " needs PTX ISA " +
                         verStr({Maj, Min}),
                     false});
  std::visit(C, I.Op);
  return C.Out;
}

const std::vector<std::string> &knownTargets() {
  static const std::vector<std::string> T = {
      "sm_75",   "sm_80",   "sm_86",   "sm_87",   "sm_88",   "sm_89",
      "sm_90",   "sm_90a",  "sm_100",  "sm_100a", "sm_100f", "sm_103",
      "sm_103a", "sm_103f", "sm_110",  "sm_110a", "sm_110f", "sm_120",
      "sm_120a", "sm_120f", "sm_121",  "sm_121a", "sm_121f"};
  return T;
}

std::pair<unsigned, unsigned> minPtxForTarget(const std::string &S) {
  if (S == "sm_101" || S == "sm_101a")
    return {8, 6};
  if (S == "sm_101f")
    return {8, 8};
  Tgt T = parse(S);
  if (!T.Valid)
    return {0, 0};
  if (T.V == 'f')
    return T.N >= 110 ? std::pair{9u, 0u} : std::pair{8u, 8u};
  switch (T.N) {
  case 75: case 80: return {7, 0};
  case 86: return {7, 1};
  case 87: return {7, 4};
  case 88: return {7, 3};
  case 89: case 90: return T.V == 'a' ? std::pair{8u, 0u} : std::pair{7u, 8u};
  case 100: return {8, 6};
  case 103: return {8, 8};
  case 110: return {9, 0};
  case 120: return {8, 7};
  case 121: return {8, 8};
  default: return {0, 0};
  }
}

// --- enumeration -------------------------------------------------------------------

std::vector<Inst> allForms() {
  std::vector<Inst> F;
  const Address Dst = addr("%rd1"), Src = addr("%rd2"), Mbar = addr("%rd3");
  const Value Map = reg("%rd4"), Policy = reg("%rd5"), Size = reg("%r1");
  const Value CtaMask = reg("%rs1"), ByteMask = reg("%rs2");
  auto Coords = [](size_t N) {
    std::vector<Value> C;
    for (size_t K = 0; K < N; ++K)
      C.push_back(reg("%r" + std::to_string(3 + K)));
    return C;
  };
  auto Info = [](size_t N) {
    std::vector<Value> C;
    for (size_t K = 0; K < N; ++K)
      C.push_back(reg("%rs" + std::to_string(3 + K)));
    return C;
  };

  // cp.async and its group operations.
  for (CacheOp C : {CacheOp::CA, CacheOp::CG})
    for (bool Cta : {false, true})
      for (unsigned Sz : {4u, 8u, 16u}) {
        if (C == CacheOp::CG && Sz != 16)
          continue;
        for (PrefetchSize P : {PrefetchSize::None, PrefetchSize::B64,
                               PrefetchSize::B128, PrefetchSize::B256})
          for (int Tail = 0; Tail < 3; ++Tail)
            for (bool Hint : {false, true}) {
              CpAsync I;
              I.Cache = C;
              I.DstSharedCta = Cta;
              I.Prefetch = P;
              I.Dst = Dst;
              I.Src = Src;
              I.CpSize = Sz;
              if (Tail == 1)
                I.SrcSize = reg("%r2");
              if (Tail == 2)
                I.IgnoreSrc = reg("%p1");
              if (Hint)
                I.CachePolicy = Policy;
              F.push_back(I);
            }
      }
  F.push_back(CpAsyncCommitGroup{});
  F.push_back(CpAsyncWaitGroup{0});
  F.push_back(CpAsyncWaitGroup{3});
  F.push_back(CpAsyncWaitAll{});

  // cp.async.bulk
  for (BulkDir D : {BulkDir::GlobalToSharedCta, BulkDir::GlobalToSharedCluster,
                    BulkDir::SharedCtaToSharedCluster, BulkDir::SharedCtaToGlobal})
    for (bool Multicast : {false, true})
      for (bool Hint : {false, true})
        for (bool Mask : {false, true}) {
          if (Multicast && D != BulkDir::GlobalToSharedCluster)
            continue;
          if (Mask && D != BulkDir::SharedCtaToGlobal)
            continue;
          if (Hint && D == BulkDir::SharedCtaToSharedCluster)
            continue;
          CpAsyncBulk I;
          I.Dir = D;
          I.Dst = Dst;
          I.Src = Src;
          I.Size = Size;
          if (D != BulkDir::SharedCtaToGlobal)
            I.Mbar = Mbar;
          if (Multicast)
            I.CtaMask = CtaMask;
          if (Hint)
            I.CachePolicy = Policy;
          if (Mask)
            I.ByteMask = ByteMask;
          F.push_back(I);
        }

  // cp.reduce.async.bulk: the redOp x type table per destination.
  for (ReduceDir D : {ReduceDir::SharedCtaToSharedCluster, ReduceDir::SharedCtaToGlobal})
    for (unsigned Op = 0; Op < 8; ++Op)
      for (unsigned Ty = 0; Ty < 10; ++Ty)
        for (bool Hint : {false, true}) {
          bool Global = D == ReduceDir::SharedCtaToGlobal;
          if (!redAllowed(Global, RedOp(Op), RedType(Ty)) || (Hint && !Global))
            continue;
          CpReduceAsyncBulk I;
          I.Dir = D;
          I.Op = RedOp(Op);
          I.Type = RedType(Ty);
          I.Dst = Dst;
          I.Src = Src;
          I.Size = Size;
          if (!Global)
            I.Mbar = Mbar;
          if (Hint)
            I.CachePolicy = Policy;
          F.push_back(I);
        }

  for (bool Hint : {false, true}) {
    CpAsyncBulkPrefetch I;
    I.Src = Src;
    I.Size = Size;
    if (Hint)
      I.CachePolicy = Policy;
    F.push_back(I);
  }

  // Tensor forms: each (dim, mode) that is well-formed.
  struct DimMode {
    unsigned Dim;
    LoadMode Mode;
  };
  auto Pairs = [](std::initializer_list<LoadMode> Modes) {
    std::vector<DimMode> P;
    for (LoadMode M : Modes)
      for (unsigned D = 1; D <= 5; ++D) {
        bool Four = M == LoadMode::TileGather4 || M == LoadMode::TileScatter4;
        bool Im2 = M != LoadMode::Tile && !Four;
        if ((Four && D != 2) || (Im2 && D < 3))
          continue;
        P.push_back({D, M});
      }
    return P;
  };
  auto InfoFor = [&](unsigned D, LoadMode M) {
    if (M == LoadMode::Im2col)
      return Info(D - 2);
    if (M == LoadMode::Im2colW || M == LoadMode::Im2colW128)
      return Info(2);
    return std::vector<Value>();
  };
  auto CoordsFor = [&](unsigned D, LoadMode M) {
    return Coords(M == LoadMode::TileGather4 || M == LoadMode::TileScatter4 ? 5 : D);
  };
  const auto LoadPairs = Pairs({LoadMode::Tile, LoadMode::TileGather4, LoadMode::Im2col,
                                LoadMode::Im2colW, LoadMode::Im2colW128});
  for (TensorDir D : {TensorDir::GlobalToSharedCta, TensorDir::GlobalToSharedCluster})
    for (const DimMode &P : LoadPairs)
      for (bool Multicast : {false, true})
        for (CtaGroup G : {CtaGroup::None, CtaGroup::One, CtaGroup::Two})
          for (bool Hint : {false, true}) {
            if (Multicast && D != TensorDir::GlobalToSharedCluster)
              continue;
            CpAsyncBulkTensor I;
            I.Dir = D;
            I.Dim = P.Dim;
            I.Mode = P.Mode;
            I.Shared = Dst;
            I.Tensor = TensorRef{Map, CoordsFor(P.Dim, P.Mode)};
            I.Mbar = Mbar;
            I.Im2colInfo = InfoFor(P.Dim, P.Mode);
            if (Multicast)
              I.CtaMask = CtaMask;
            I.Group = G;
            if (Hint)
              I.CachePolicy = Policy;
            F.push_back(I);
          }
  for (const DimMode &P : Pairs({LoadMode::Tile, LoadMode::TileScatter4,
                                 LoadMode::Im2colNoOffs}))
    for (bool Hint : {false, true}) {
      CpAsyncBulkTensor I;
      I.Dir = TensorDir::SharedCtaToGlobal;
      I.Dim = P.Dim;
      I.Mode = P.Mode;
      I.Shared = Src;
      I.Tensor = TensorRef{Map, CoordsFor(P.Dim, P.Mode)};
      if (Hint)
        I.CachePolicy = Policy;
      F.push_back(I);
    }
  for (const DimMode &P : Pairs({LoadMode::Tile, LoadMode::Im2colNoOffs}))
    for (unsigned Op = 0; Op < 8; ++Op)
      for (bool Hint : {false, true}) {
        CpReduceAsyncBulkTensor I;
        I.Dim = P.Dim;
        I.Mode = P.Mode;
        I.Op = RedOp(Op);
        I.Tensor = TensorRef{Map, CoordsFor(P.Dim, P.Mode)};
        I.Src = Src;
        if (Hint)
          I.CachePolicy = Policy;
        F.push_back(I);
      }
  for (const DimMode &P : LoadPairs)
    for (bool Hint : {false, true}) {
      CpAsyncBulkPrefetchTensor I;
      I.Dim = P.Dim;
      I.Mode = P.Mode;
      I.Tensor = TensorRef{Map, CoordsFor(P.Dim, P.Mode)};
      I.Im2colInfo = InfoFor(P.Dim, P.Mode);
      if (Hint)
        I.CachePolicy = Policy;
      F.push_back(I);
    }
  F.push_back(CpAsyncBulkCommitGroup{});
  F.push_back(CpAsyncBulkWaitGroup{false, 0});
  F.push_back(CpAsyncBulkWaitGroup{true, 1});
  return F;
}

std::vector<Inst> formsFor(const TargetVersion &T) {
  std::vector<Inst> Out;
  for (Inst &I : allForms()) {
    bool Ok = true;
    for (const Unsupported &U : checkTarget(I, T))
      Ok &= U.Advisory;
    if (Ok)
      Out.push_back(std::move(I));
  }
  return Out;
}

} // namespace build
} // namespace ptxlint
