//===- ProxyFenceRule.cpp - F405: generic writes need fence.proxy.async ---===//
//
// A write to shared memory through the generic proxy (st, st.shared, red/atom,
// stmatrix) is not ordered with a later access to the same memory by the
// async proxy (bulk/tensor store, bulk reduction, shared::cta ->
// shared::cluster copy) unless a fence.proxy.async covering shared memory
// runs in between (9.7.9.25.2). Likewise (F410, a warning: shipped kernels
// omit it) an mbarrier initialised by mbarrier.init and then signalled by a
// bulk copy needs the init to be made visible to the async proxy
// (fence.proxy.async or fence.mbarrier_init; a CTA barrier in between is
// accepted, as libcu++ relies on it).
//
// Only writes whose address definitely overlaps the async access (same
// symbol and overlapping constant offsets, a store that covers the whole
// symbol, or the same register value) are considered: with unknown
// addresses the rule stays silent.
//
//===----------------------------------------------------------------------===//

#include "Flow/Dataflow.h"
#include "Flow/FlowRules.h"
#include <algorithm>
#include <cctype>

namespace ptxlint {
namespace flow {
namespace {

struct Site {
  uint32_t Inst;
  bool Init; ///< mbarrier.init (else a generic write)
  AddrKey Addr;
  uint64_t Bytes;
};

constexpr size_t MaxSites = 64;

/// The sites' facts (Dataflow.h's lattice: Absent, Done, Mixed, Pending;
/// a write here never ages), one bit per site in three masks; a site in
/// none is Absent. 24 bytes a state where a FactVector takes 68, and a
/// state is joined, killed or asked for pending sites in a few word
/// operations instead of a loop over the sites.
struct SiteFacts {
  uint64_t Pending = 0, Done = 0, Mixed = 0;
  uint64_t present() const { return Pending | Done | Mixed; }
  /// joinFact() on every site: a site absent here takes O's fact, sites
  /// with different facts become Mixed.
  bool join(const SiteFacts &O) {
    uint64_t Here = present(), There = O.present();
    uint64_t Same = (Pending & O.Pending) | (Done & O.Done) | (Mixed & O.Mixed);
    uint64_t Take = There & ~Here, Clash = Here & There & ~Same;
    if (!(Take | (Clash & ~Mixed)))
      return false;
    Pending = (Pending & ~Clash) | (O.Pending & Take);
    Done = (Done & ~Clash) | (O.Done & Take);
    Mixed |= Clash | (O.Mixed & Take);
    return true;
  }
  /// killMaybe() on the sites in Mask: present ones become Done, or, where
  /// the kill may not run (Guarded), pending ones Mixed.
  void kill(uint64_t Mask, bool Guarded) {
    if (Guarded) {
      Mixed |= Pending & Mask;
    } else {
      Done |= present() & Mask;
      Mixed &= ~Mask;
    }
    Pending &= ~Mask;
  }
  void setPending(size_t X) {
    uint64_t Bit = uint64_t(1) << X;
    Pending |= Bit;
    Done &= ~Bit;
    Mixed &= ~Bit;
  }
  bool pending(size_t X) const { return Pending >> X & 1; }
};

bool isGenericWrite(const AsyncOp &Op) {
  return (Op.Kind == OpKind::Store || Op.Kind == OpKind::AtomRed ||
          Op.Kind == OpKind::StMatrix) &&
         (Op.Dst == Space::SharedCta || Op.Dst == Space::SharedCluster ||
          Op.Dst == Space::Generic);
}

/// What an instruction with a role is to the rule (Cls*, a bit each).
enum : uint8_t {
  ClsRole = 1,        ///< (every instruction with a role)
  ClsFence = 2,       ///< fence.proxy.async covering shared memory
  ClsRetireInit = 4,  ///< fence.mbarrier_init or a CTA barrier
  ClsCall = 8,
  ClsReader = 16,     ///< reads shared memory through the async proxy
  ClsArrive = 32,     ///< mbarrier.arrive (a hand-off to another role)
  ClsMbarCopy = 64,   ///< a bulk/tensor copy that signals an mbarrier
  ClsKill = 128,      ///< redefines an address base
};
uint8_t classOf(const FlowInst &I) {
  const AsyncOp &Op = I.Op;
  uint8_t Cl = ClsRole;
  if (Op.Kind == OpKind::FenceProxyAsync && Op.CoversShared)
    Cl |= ClsFence;
  if (Op.Kind == OpKind::FenceMbarrierInit || Op.Kind == OpKind::Barrier)
    Cl |= ClsRetireInit;
  if (Op.Kind == OpKind::Call)
    Cl |= ClsCall;
  if (Op.readsSharedAsync())
    Cl |= ClsReader;
  if (Op.Kind == OpKind::MbarArrive)
    Cl |= ClsArrive;
  if (Op.isCopy() && Op.Comp == Completion::Mbarrier &&
      Op.Kind != OpKind::CpAsync)
    Cl |= ClsMbarCopy;
  if (I.KillsBase >= 0)
    Cl |= ClsKill;
  return Cl;
}

/// The CTA barrier closest before instruction K in the text, not before
/// instruction From and at most 64 instructions back; -1 if none. (Only
/// for a note: the usual shape is "write; fence; bar.sync; store".)
int64_t barrierBefore(const FlowFunction &FF, uint32_t K, uint32_t From) {
  for (uint32_t X = K, N = 0; X > From && N < 64; ++N) {
    --X;
    if (FF.Insts[X].Op.Kind == OpKind::Barrier)
      return X;
  }
  return -1;
}

/// The first CTA barrier after the write at Wr in the text, before the copy
/// at K and at most 64 instructions on; -1 if none: where the writers'
/// threads meet the issuing thread (FA3: "stmatrix; bar.arrive", the
/// issuing warp's "bar.sync" later).
int64_t barrierAfter(const FlowFunction &FF, uint32_t Wr, uint32_t K) {
  for (uint32_t X = Wr + 1; X < K && X < Wr + 64; ++X)
    if (FF.Insts[X].Op.Kind == OpKind::Barrier)
      return X;
  return -1;
}

/// Where the thread that issues the copy at K puts its fence when a CTA
/// barrier orders the writers before it (TK: "writes; bar.sync; if (lane
/// 0) { fence; store }"): right before the copy and the instructions that
/// only materialise its cache policy and immediates ("mov.f32; createpolicy;
/// mov.b32 0; copy"), not before Floor (the barrier). (Only for a note:
/// any place between the barrier and the copy is as good.)
uint32_t issuePoint(const FlowFunction &FF, uint32_t K, uint32_t Floor) {
  uint32_t At = K, Begin = FF.Blocks[FF.blockOf(K)].Begin;
  // (By the statements' text: a tensor copy's coordinates sit inside its
  // address operand.)
  auto ReadFrom = [&](std::string_view Reg) {
    for (uint32_t X = At; X <= K; ++X) {
      SourceRange R = FF.Insts[X].Range;
      std::string_view T = FF.M.Text.substr(R.Begin, R.End - R.Begin);
      // Past the destination of a move or createpolicy.
      size_t From = X == K ? 0 : T.find(',');
      for (size_t P = T.find(Reg, From); From != T.npos && P != T.npos;
           P = T.find(Reg, P + 1)) {
        char After = P + Reg.size() < T.size() ? T[P + Reg.size()] : ' ';
        if (!std::isalnum(static_cast<unsigned char>(After)) && After != '_')
          return true;
      }
    }
    return false;
  };
  while (At > Begin && At - 1 > Floor && At + 8 > K) {
    const FlowInst &P = FF.Insts[At - 1];
    std::string_view W = opWord(P.Head);
    const Opnd *Dst = FF.operand(P, 0);
    if ((W != "mov" && W != "createpolicy") || !Dst || Dst->K != Opnd::Reg ||
        !ReadFrom(Dst->Name))
      break;
    --At;
  }
  return At;
}

/// The write of a site to name in a note: the closest one before the copy
/// at K in the text (sites merge many writes), else the site's first.
uint32_t lastWriteOf(const FlowFunction &FF, const std::vector<int8_t> &SiteOf,
                     uint32_t K, uint32_t First) {
  int8_t Site = SiteOf[First];
  for (uint32_t X = K, N = 0; X > First && N < 512; ++N) {
    --X;
    if (SiteOf[X] == Site)
      return X;
  }
  return First;
}

/// Whether any write can be pending where an access could report it. A
/// write is pending from its instruction until a fence covering its kind (a
/// guarded fence too: it leaves the write Mixed, and only a pending one
/// reports); an access reports only a pending write (a bulk read or an
/// arrive, a generic write; a copy that signals an mbarrier, an init).
/// Where every write is fenced in its own block before any such access
/// ("st.shared; fence.proxy.async", "inits; fence.mbarrier_init"), no state
/// anywhere holds a pending write at an access, and the solve cannot
/// report. (Calls, which may fence, are not asked: no is still exact.)
bool mayReport(const FlowFunction &FF) {
  constexpr KindSet Kinds =
      CopyKinds | kindSet({OpKind::FenceProxyAsync, OpKind::FenceMbarrierInit,
                           OpKind::Barrier, OpKind::MbarInit, OpKind::MbarArrive,
                           OpKind::Store, OpKind::AtomRed, OpKind::StMatrix});
  bool OpenWrite = false, OpenInit = false; // unfenced in this block
  size_t Bl = 0; // the block of the instruction below
  for (uint32_t K : roleInstsOf(FF, Kinds)) {
    if (Bl < FF.Blocks.size() && K >= FF.Blocks[Bl].End) {
      if (OpenWrite || OpenInit)
        return true; // pending into the successors
      while (Bl < FF.Blocks.size() && K >= FF.Blocks[Bl].End)
        ++Bl;
    }
    const FlowInst &I = FF.Insts[K];
    uint8_t Cl = classOf(I);
    if (Cl & ClsFence)
      OpenWrite = OpenInit = false;
    else if (Cl & ClsRetireInit)
      OpenInit = false;
    if ((OpenWrite && (Cl & (ClsReader | ClsArrive))) ||
        (OpenInit && (Cl & ClsMbarCopy)))
      return true;
    if (I.Op.Kind == OpKind::MbarInit)
      OpenInit = true;
    else if (isGenericWrite(I.Op))
      OpenWrite = true;
  }
  return OpenWrite || OpenInit;
}

} // namespace

void runProxyFenceRule(const FlowRuleContext &C) {
  const FlowFunction &FF = C.FF;
  if (!mayReport(FF))
    return;
  // One pass over the instructions with a role (each read once: a large
  // kernel's do not stay in cache): what each is to the transfer below
  // (Cls), the async-proxy accesses' source buffers and barriers, and the
  // writes that may be sites.
  std::vector<uint8_t> Cls(FF.Insts.size(), 0);
  std::vector<AddrKey> Sources, Barriers;
  std::vector<uint32_t> Candidates;
  Sources.reserve(FF.RoleInsts.size()); // (a few allocations, not a dozen)
  Barriers.reserve(FF.RoleInsts.size());
  Candidates.reserve(FF.RoleInsts.size());
  for (uint32_t RK : FF.RoleInsts) {
    const FlowInst &I = FF.Insts[RK];
    uint8_t Cl = classOf(I);
    Cls[RK] = Cl;
    if (Cl & ClsReader) {
      AddrKey A = FF.address(FF.operand(I, I.Op.SrcOp));
      if (A.valid())
        Sources.push_back(A);
    }
    if (Cl & ClsMbarCopy) {
      AddrKey A = FF.address(FF.operand(I, I.Op.MbarOp));
      if (A.valid() && A.OffKnown)
        Barriers.push_back(A);
    }
    if (I.Op.Kind == OpKind::MbarInit || isGenericWrite(I.Op))
      Candidates.push_back(RK);
  }
  if (Sources.empty() && Barriers.empty())
    return;
  auto SameBase = [](const std::vector<AddrKey> &V, const AddrKey &A) {
    for (const AddrKey &X : V)
      if (X.Base == A.Base)
        return true;
    return false;
  };
  std::vector<Site> Sites;
  Sites.reserve(MaxSites);
  // Per instruction: its site's index, -1: none (MaxSites fits a byte).
  std::vector<int8_t> SiteOf(FF.Insts.size(), -1);
  for (size_t RK = 0; RK < Candidates.size() && Sites.size() < MaxSites; ++RK) {
    uint32_t K = Candidates[RK];
    const FlowInst &I = FF.Insts[K];
    if (I.Op.Kind == OpKind::MbarInit) {
      AddrKey A = FF.address(FF.operand(I, I.Op.MbarOp));
      bool Used = false;
      for (const AddrKey &X : Barriers)
        Used |= X == A;
      if (A.valid() && Used) {
        SiteOf[K] = int8_t(Sites.size());
        Sites.push_back({K, true, A, 8});
      }
    } else if (isGenericWrite(I.Op)) {
      AddrKey A = FF.address(FF.operand(I, I.Op.DstOp));
      if (!A.valid() || !SameBase(Sources, A))
        continue;
      // Per-thread writes into one object ("smem + tid*4 + c": offset
      // unknown) are one site: an unrolled epilogue has hundreds of them.
      int8_t Same = -1;
      for (size_t X = 0; X < Sites.size() && Same < 0 && !A.OffKnown; ++X)
        if (!Sites[X].Init && Sites[X].Addr == A)
          Same = int8_t(X);
      if (Same >= 0) {
        SiteOf[K] = Same;
      } else {
        SiteOf[K] = int8_t(Sites.size());
        Sites.push_back({K, false, A, I.Op.AccessBytes});
      }
    }
  }
  if (Sites.empty())
    return;
  // The sites of each kind, one bit each (SiteFacts). An access that can
  // only report on, or a barrier that can only retire, a kind the function
  // lacks is no event.
  uint64_t InitMask = 0, WriteMask = 0;
  for (size_t X = 0; X < Sites.size(); ++X)
    (Sites[X].Init ? InitMask : WriteMask) |= uint64_t(1) << X;
  uint8_t Acts = ClsFence | ClsCall;
  if (InitMask)
    Acts |= ClsRetireInit | ClsMbarCopy;
  if (WriteMask)
    Acts |= ClsReader | ClsArrive;
  // Hand-offs to the async proxy in another role: the waiters of a barrier
  // then issue a bulk/tensor store (or reduction) from an object, so an
  // arrive on that barrier hands the object over. The writers' fence must
  // come before the arrive (an mbarrier orders threads, not proxies).
  BarrierBinding Readers(FF, [&](const FlowInst &I) -> int32_t {
    return I.Op.readsSharedAsync() ? FF.address(FF.operand(I, I.Op.SrcOp)).Base : -1;
  });

  SiteFacts Entry; // every site Absent
  // The events the transfer below acts on (a base redefinition only where
  // a site's address has that base).
  std::vector<char> SiteBase(FF.Bases.size(), 0);
  for (const Site &St : Sites)
    if (St.Addr.Base >= 0 && size_t(St.Addr.Base) < SiteBase.size())
      SiteBase[size_t(St.Addr.Base)] = 1;
  EventLists Events(FF, [&](uint32_t K) {
    uint8_t Cl = Cls[K];
    if ((Cl & Acts) || SiteOf[K] >= 0)
      return true;
    if ((Cl & ClsRole) && !(Cl & ClsKill))
      return false;
    int32_t Kills = FF.Insts[K].KillsBase; // (no role: a base redefinition)
    return Kills >= 0 &&
           (size_t(Kills) >= SiteBase.size() || SiteBase[size_t(Kills)]);
  });
  // Whether a write site (Init: an mbarrier.init) is pending in S: the
  // reports below need one, and most accesses meet none (their addresses
  // are then not looked up).
  auto AnyPending = [&](const SiteFacts &S, bool Init) {
    return (S.Pending & (Init ? InitMask : WriteMask)) != 0;
  };
  auto Transfer = [&](uint32_t B, SiteFacts &S, bool Report) {
    for (uint32_t K : Events.of(B)) {
      const FlowInst &I = FF.Insts[K];
      bool G = I.Guarded;
      const AsyncOp &Op = I.Op;
      // (Each block is reported once: an access reports at most once.)
      bool Reported = false;
      uint8_t Cl = Cls[K];
      if (Cl & ClsFence) {
        S.kill(~uint64_t(0), G);
      } else if (Cl & ClsRetireInit) {
        S.kill(InitMask, G);
      } else if ((Cl & ClsCall) && C.callHasEffects(I)) {
        S.kill(~uint64_t(0), false);
      }
      if (Report && (Cl & ClsReader) && AnyPending(S, false)) {
        AddrKey Src = FF.address(FF.operand(I, Op.SrcOp));
        uint64_t Bytes = C.copyBytes(I).value_or(0);
        // A definite overlap is an error; a write into the same shared
        // object at an offset the analysis cannot pin down (a per-thread
        // address, "smem + (tid << 2) + 512") a warning.
        int32_t Definite = -1, Maybe = -1;
        for (size_t X = 0; X < Sites.size() && Definite < 0; ++X) {
          const Site &St = Sites[X];
          if (St.Init || !S.pending(X))
            continue;
          if (FF.definitelyOverlap(St.Addr, St.Bytes, Src, Bytes))
            Definite = int32_t(X);
          else if (Maybe < 0 && FF.mayOverlap(St.Addr, St.Bytes, Src, Bytes))
            Maybe = int32_t(X);
        }
        if (Definite >= 0 || Maybe >= 0) {
          Reported = true;
          const Site &St = Sites[size_t(Definite >= 0 ? Definite : Maybe)];
          auto D = Definite >= 0
                       ? C.diag(rules::FlowMissingProxyFence, I.Range,
                                "this async-proxy copy reads shared memory "
                                "written through the generic proxy without an "
                                "intervening fence.proxy.async")
                       : C.likely(rules::FlowMissingProxyFence, I.Range,
                                  "this async-proxy copy reads shared memory "
                                  "that a generic-proxy write may have "
                                  "written, without an intervening "
                                  "fence.proxy.async");
          uint32_t Wr = lastWriteOf(FF, SiteOf, K, St.Inst);
          D.note(FF.Insts[Wr].Range,
                 "generic-proxy write here; add fence.proxy.async.shared::cta "
                 "between it and the copy");
          if (uint32_t Next = FF.nextExecuted(Wr); Next < K)
            D.note(FF.Insts[Next].Range,
                   "add fence.proxy.async.shared::cta here, after the writes");
          if (int64_t Bar = barrierBefore(FF, K, St.Inst); Bar >= 0) {
            int64_t First = barrierAfter(FF, Wr, K);
            D.note(FF.Insts[size_t(First >= 0 ? First : Bar)].Range,
                   "this barrier orders the threads, not the proxies: the "
                   "writers' fence.proxy.async belongs before it");
            D.note(FF.Insts[issuePoint(FF, K, uint32_t(Bar))].Range,
                   "or the thread that issues the copy fences after the "
                   "barrier: add fence.proxy.async.shared::cta here");
          }
        }
      }
      if (Report && (Cl & ClsArrive) && !Reported &&
          AnyPending(S, false)) {
        AddrKey Bar = FF.localBarrier(K);
        for (size_t X = 0; X < Sites.size() && Bar.valid(); ++X) {
          const Site &St = Sites[X];
          if (St.Init || !S.pending(X) ||
              !Readers.binds(Bar, St.Addr.Base))
            continue;
          Reported = true;
          uint32_t Wr = lastWriteOf(FF, SiteOf, K, St.Inst);
          auto D = C.likely(rules::FlowMissingProxyFence, I.Range,
                            "this mbarrier.arrive hands shared memory written "
                            "through the generic proxy to an async-proxy "
                            "reader in another role without "
                            "fence.proxy.async");
          D.note(FF.Insts[Wr].Range, "generic-proxy write here");
          if (uint32_t Next = FF.nextExecuted(Wr); Next < K)
            D.note(FF.Insts[Next].Range,
                   "add fence.proxy.async.shared::cta here, between the "
                   "writes and the arrive");
          D.note(I.Range, "the waiters of this barrier then read the memory "
                          "with a bulk/tensor copy");
          break;
        }
      }
      if (Report && !Reported && (Cl & ClsMbarCopy) && AnyPending(S, true)) {
        AddrKey Bar = FF.address(FF.operand(I, Op.MbarOp));
        for (size_t X = 0; X < Sites.size(); ++X) {
          const Site &St = Sites[X];
          if (!St.Init || !S.pending(X) || !(St.Addr == Bar))
            continue;
          C.diag(rules::FlowMbarrierInitUnfenced, I.Range,
                 "this copy signals an mbarrier whose mbarrier.init is not "
                 "made visible to the async proxy")
              .note(FF.Insts[St.Inst].Range,
                    "mbarrier initialised here; add fence.proxy.async.shared::cta "
                    "(or fence.mbarrier_init.release.cluster) after it");
          break;
        }
      }
      if (SiteOf[K] >= 0)
        S.setPending(size_t(SiteOf[K]));
      if (I.KillsBase >= 0)
        for (size_t X = 0; X < Sites.size(); ++X)
          if (Sites[X].Addr.Base == I.KillsBase)
            S.kill(uint64_t(1) << X, false);
    }
  };
  solveForward(FF, Entry, Transfer, AnyEdge(),
               [&](uint32_t B, bool) { return Events.none(B); });
}

} // namespace flow
} // namespace ptxlint
