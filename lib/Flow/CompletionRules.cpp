//===- CompletionRules.cpp - F401, F402, F406, F407 ------------------------===//
//
// Tracks, per copy instruction ("site"), whether its most recent execution is
// uncommitted, committed (and how many commits of its kind followed), or
// complete, along every path:
//   * cp.async: committed by cp.async.commit_group, completed by
//     cp.async.wait_group N (older than the N newest groups) / wait_all,
//     handed to an mbarrier by cp.async.mbarrier.arrive;
//   * .bulk_group operations: cp.async.bulk.commit_group / .wait_group{.read};
//   * mbarrier-completed loads into shared memory: try_wait/test_wait on the
//     barrier they signal.
// Facts use the Absent/Pending/Done/Mixed lattice of Dataflow.h: a rule only
// speaks when every path that issued the copy agrees it is still pending.
//
//===----------------------------------------------------------------------===//

#include "Flow/Dataflow.h"
#include "Flow/FlowRules.h"
#include "Flow/PathConditions.h"

#include <algorithm>
#include <optional>

namespace ptxlint {
namespace flow {
namespace {

enum class Role : uint8_t { CpAsync, BulkGroup, MbarLoad };

struct Site {
  uint32_t Inst;
  Role R;
  AddrKey Dst, Src, Mbar;
  uint64_t Bytes = 0;
};

constexpr size_t MaxSites = 64;

/// One may-fact condition per committed site, kept empty while none
/// holds: most states (a main loop's, an epilogue's after its commits and
/// waits) have none, and states are copied on every visit. Live marks the
/// sites whose condition holds (at most MaxSites = 64), so that the path
/// events and edges, which only ever weaken a condition, visit those alone.
struct MayConds {
  std::vector<Cond> V; ///< empty: no fact holds
  size_t N = 0;        ///< number of sites
  uint64_t Live = 0;   ///< bit K: V[K] holds
  bool holds(size_t K) const { return K < 64 && (Live >> K & 1); }
  void set(size_t K, const PathLits &P) {
    if (V.empty())
      V.assign(N, Cond{});
    V[K].assignFrom(P);
    mark(K);
  }
  void clear() {
    V.clear();
    Live = 0;
  }
  /// Drops the facts of the sites Pred names.
  template <class PredFn> void drop(PredFn &&Pred) {
    for (uint64_t M = Live; M; M &= M - 1) {
      size_t K = size_t(__builtin_ctzll(M));
      if (Pred(K)) {
        V[K].setNone();
        Live &= ~(uint64_t(1) << K);
      }
    }
    if (!Live)
      V.clear();
  }
  bool join(const MayConds &O) {
    if (O.V.empty())
      return false;
    if (V.empty()) {
      V = O.V;
      Live = O.Live;
      return true;
    }
    bool Changed = false;
    for (uint64_t M = O.Live; M; M &= M - 1) { // joinMay(none) changes nothing
      size_t K = size_t(__builtin_ctzll(M));
      Changed |= V[K].joinMay(O.V[K]);
      mark(K);
    }
    return Changed;
  }
  /// F(C) for each condition that holds; F may only weaken it.
  template <class Fn> void each(Fn &&F) {
    for (uint64_t M = Live; M; M &= M - 1) {
      size_t K = size_t(__builtin_ctzll(M));
      F(V[K]);
      mark(K);
    }
  }

private:
  void mark(size_t K) {
    uint64_t Bit = uint64_t(1) << K;
    Live = V[K].holds() ? Live | Bit : Live & ~Bit;
  }
};

/// Per-site completion facts plus, for the commit checks, under which path
/// condition the site's copy may be uncommitted (a may-fact: joined by "or",
/// set by the copy to the path condition there, cleared by a commit that
/// surely runs or by a branch edge that contradicts the condition: a store
/// and its commit behind two tests of one register). P: what holds on every
/// path here (PathConditions.h).
struct CompState : FactVector {
  MayConds U;
  PathLits P;
  /// Per bulk store, a may-fact like U: under which path condition the
  /// store has been issued and no cp.async.bulk.wait_group (of any N) has
  /// run since. A kernel that keeps N stores in flight still waits after
  /// each commit; a store that reaches a rewrite of shared memory, a release
  /// of a buffer or the exit with no wait at all since it was issued is one
  /// whose wait is missing (F406). The path condition keeps an elected
  /// thread's store of one loop iteration from meeting the other threads'
  /// paths of the next.
  MayConds W;
  bool join(const CompState &O) {
    bool Changed = FactVector::join(O);
    Changed |= U.join(O.U);
    Changed |= W.join(O.W);
    Changed |= P.intersect(O.P);
    return Changed;
  }
  template <class Fn> void eachCond(Fn &&F) {
    U.each(F);
    W.each(F);
  }
};

bool isSharedSpace(Space S) {
  return S == Space::SharedCta || S == Space::SharedCluster ||
         S == Space::Generic;
}

std::string opName(const FlowInst &I) {
  switch (I.Op.Kind) {
  case OpKind::CpAsync:
    return "cp.async";
  case OpKind::BulkCopy:
    return I.Op.Dst == Space::Global ? "bulk store" : "bulk copy";
  case OpKind::BulkReduce:
    return "bulk reduction";
  case OpKind::TensorCopy:
    return I.Op.Dst == Space::Global ? "tensor store" : "tensor load";
  case OpKind::TensorReduce:
    return "tensor reduction";
  default:
    return std::string(I.Head);
  }
}

/// Whether the guards of instructions A < B test the same condition: one
/// predicate not redefined between them, or two predicates set by the
/// same setp of the same values (CUTLASS recomputes "setp.ne.s32 p, r, 0"
/// before each elected-thread region).
bool sameGuard(const FlowFunction &FF, uint32_t A, uint32_t B) {
  const FlowInst &IA = FF.Insts[A], &IB = FF.Insts[B];
  if (IA.Guard.empty() || IB.Guard.empty() || IA.GuardNeg != IB.GuardNeg)
    return false;
  int32_t RA = FF.regId(IA.Guard), RB = FF.regId(IB.Guard);
  int64_t DA = FF.lastDefBefore(RA, A), DB = FF.lastDefBefore(RB, B);
  if (RA < 0 || DA < 0 || DB < 0)
    return false;
  if (RA == RB)
    return DA == DB;
  const FlowInst &SA = FF.Insts[size_t(DA)], &SB = FF.Insts[size_t(DB)];
  if (opWord(SA.Head) != "setp" || SA.Head != SB.Head || !SA.Guard.empty() ||
      !SB.Guard.empty())
    return false;
  FF.operand(SA, 0); // decodes them all
  FF.operand(SB, 0);
  if (SA.Ops.size() != SB.Ops.size() || SA.Ops.size() < 3)
    return false;
  for (size_t K = 1; K < SA.Ops.size(); ++K) {
    const Opnd &X = SA.Ops[K], &Y = SB.Ops[K];
    if (X.K != Y.K || X.Name != Y.Name || X.Value != Y.Value)
      return false;
    if (X.K == Opnd::Reg && FF.lastDefBefore(FF.regId(X), uint32_t(DA)) !=
                                FF.lastDefBefore(FF.regId(Y), uint32_t(DB)))
      return false;
    if (X.K != Opnd::Reg && X.K != Opnd::Imm)
      return false;
  }
  return true;
}

/// Where the threads that ran instruction K inside a region guarded by
/// "@p bra L" (K in the fall-through, L after K) run again: the region of
/// the next branch on the same condition just after L, with only
/// arithmetic between (CUTLASS's epilogue: "@p bra L1; store; commit; L1:
/// add; @p bra L2; wait_group.read 1; L2:"); that region's first
/// instruction, or 0 if there is none.
uint32_t sameThreadsAgain(const FlowFunction &FF, uint32_t K) {
  int64_t Guard = -1;
  for (uint32_t X = K, N = 0; X-- > 0 && N < 64; ++N) {
    const FlowInst &I = FF.Insts[X];
    if (I.Op.Kind != OpKind::Branch || I.Guard.empty())
      continue;
    const Block &B = FF.Blocks[FF.blockOf(X)];
    uint32_t L = 0;
    for (uint32_t S : B.Succs)
      L = std::max(L, FF.Blocks[S].Begin);
    if (L > K)
      Guard = X;
    break;
  }
  if (Guard < 0)
    return 0;
  const Block &GB = FF.Blocks[FF.blockOf(uint32_t(Guard))];
  uint32_t L = 0;
  for (uint32_t S : GB.Succs)
    L = std::max(L, FF.Blocks[S].Begin);
  for (uint32_t Y = L; Y < FF.Insts.size() && Y < L + 8; ++Y) {
    const FlowInst &I = FF.Insts[Y];
    if (I.Op.Kind == OpKind::Branch)
      return !I.Guard.empty() && sameGuard(FF, uint32_t(Guard), Y) ? Y + 1 : 0;
    if (I.Op.Kind != OpKind::Other)
      return 0;
  }
  return 0;
}

} // namespace

void runCompletionRules(const FlowRuleContext &C) {
  const FlowFunction &FF = C.FF;
  std::vector<Site> Sites;
  std::vector<int32_t> SiteOf(FF.Insts.size(), -1);
  bool Complete = true;
  // Copies that are committed first, then the mbarrier-completed loads: a
  // kernel's many TMA loads must not crowd its epilogue's stores out of the
  // site cap.
  for (bool Loads : {false, true})
    for (uint32_t K : FF.RoleInsts) {
      const FlowInst &I = FF.Insts[K];
      Role R;
      if (I.Op.Kind == OpKind::CpAsync)
        R = Role::CpAsync;
      else if (I.Op.isCopy() && I.Op.Comp == Completion::BulkGroup)
        R = Role::BulkGroup;
      else if (I.Op.isCopy() && I.Op.Comp == Completion::Mbarrier &&
               I.Op.writesShared())
        R = Role::MbarLoad;
      else
        continue;
      if ((R == Role::MbarLoad) != Loads)
        continue;
      if (Sites.size() >= MaxSites) {
        Complete = false;
        continue;
      }
      Site S{K, R, FF.address(FF.operand(I, I.Op.DstOp)), FF.address(FF.operand(I, I.Op.SrcOp)),
             FF.address(FF.operand(I, I.Op.MbarOp)), C.copyBytes(I).value_or(0)};
      SiteOf[K] = int32_t(Sites.size());
      Sites.push_back(S);
    }
  if (Sites.empty())
    return;
  // The committed sites come first; only they have commit conditions (U)
  // and, for bulk stores, "no wait since" facts (W): the states stay small
  // in kernels whose many TMA loads fill the rest of the sites.
  size_t NC = 0;
  while (NC < Sites.size() && Sites[NC].R != Role::MbarLoad)
    ++NC;
  const bool HasCommit = FF.has(OpKind::CpAsyncCommit);
  const bool HasBulkCommit = FF.has(OpKind::BulkCommit);
  std::vector<char> ReportedSite(Sites.size(), 0); // F401/F402
  std::vector<char> ReportedUse(Sites.size(), 0);  // F406/F407

  auto ForRole = [&](CompState &S, Role R, auto &&Fn) {
    for (size_t K = 0; K < Sites.size(); ++K)
      if (Sites[K].R == R)
        Fn(S.F[K], Sites[K]);
  };
  // Whether a predicated commit/wait surely covers a site: it runs under
  // the same predicate as the copy ("@p cp...; @p commit").
  auto Covers = [&](const FlowInst &Op, const Site &St) {
    if (Op.Guard.empty())
      return true;
    const FlowInst &Cp = FF.Insts[St.Inst];
    return Cp.Guard == Op.Guard && Cp.GuardNeg == Op.GuardNeg;
  };
  // A commit (or wait_all, or mbarrier hand-over). A predicated one counts
  // as committing too: the uncommitted-copy checks rather miss a bug than
  // guess that two different predicates disagree.
  auto Committed = [&](CompState &S, Role R, const FlowInst *Op) {
    S.U.drop([&](size_t K) {
      return Sites[K].R == R && (!Op || Covers(*Op, Sites[K]));
    });
  };

  // A wait of kind R: copies of that kind that are still uncommitted.
  // "cp.async.wait_group N" with N > 0 may deliberately leave the newest,
  // not yet committed copies in flight ("issue next stage, wait for the
  // older one, then commit"), so only wait_group 0 is judged, unless the
  // function never commits cp.async at all. Bulk stores are committed right
  // after they are issued (the source must not be rewritten before a .read
  // wait covers them), so every bulk wait is judged: the store, its commit
  // and the wait are often guarded by separate tests of one register, which
  // the path conditions correlate.
  const bool HasArriveHandOver = FF.has(OpKind::CpAsyncMbarrierArrive);
  // Where the missing commit goes: after the last copy of kind R that is
  // still uncommitted in S, before instruction Before in the text if one
  // is (the group's last store), on its own path (through an if-else's
  // "bra.uni JOIN").
  auto NoteCommitPlace = [&](FlowDiag &D, const CompState &S, Role R,
                             uint32_t Before) {
    int64_t Last = -1, LastAny = -1;
    for (size_t K = 0; K < NC; ++K) {
      if (Sites[K].R != R || !S.U.holds(K))
        continue;
      int64_t I = Sites[K].Inst;
      LastAny = std::max(LastAny, I);
      if (I < int64_t(Before))
        Last = std::max(Last, I);
    }
    if (Last < 0)
      Last = LastAny;
    uint32_t X = Last < 0 ? uint32_t(FF.Insts.size())
                          : FF.nextExecuted(uint32_t(Last));
    if (X < FF.Insts.size())
      D.note(FF.Insts[X].Range, R == Role::BulkGroup
                                    ? "add cp.async.bulk.commit_group here, "
                                      "after the group's last bulk operation"
                                    : "add cp.async.commit_group here, after "
                                      "the group's last cp.async");
  };
  auto CheckUncommitted = [&](const CompState &S, Role R, uint32_t WaitK) {
    const FlowInst &W = FF.Insts[WaitK];
    auto N = FF.constant(FF.operand(W, W.Op.WaitNOp));
    bool NeverCommits = R == Role::CpAsync ? !HasCommit && !HasArriveHandOver
                                           : !HasBulkCommit;
    if (!N || (R == Role::CpAsync && *N != 0 && !NeverCommits))
      return;
    for (size_t K = 0; K < NC; ++K) {
      if (Sites[K].R != R || !S.U.holds(K) || ReportedSite[K])
        continue;
      ReportedSite[K] = 1;
      const FlowInst &Cp = FF.Insts[Sites[K].Inst];
      bool Bulk = R == Role::BulkGroup;
      auto D = C.diag(Bulk ? rules::FlowBulkGroupProtocol
                           : rules::FlowCpAsyncUncommitted,
                      Cp.Range,
                      Bulk ? opName(Cp) + " is not committed to a bulk "
                                          "async-group before the "
                                          "cp.async.bulk.wait_group that "
                                          "follows it; the wait does not "
                                          "cover it"
                           : "cp.async is not committed to a cp.async-group "
                             "before the cp.async.wait_group that follows it; "
                             "the wait does not cover it");
      D.note(W.Range, Bulk ? "this wait covers committed bulk async-groups "
                             "only; add cp.async.bulk.commit_group before it"
                           : "this wait covers committed cp.async-groups only; "
                             "add cp.async.commit_group before it");
      // A commit right after the wait: the classic misplaced commit.
      if (WaitK + 1 < FF.Insts.size()) {
        const FlowInst &Next = FF.Insts[WaitK + 1];
        OpKind Want = Bulk ? OpKind::BulkCommit : OpKind::CpAsyncCommit;
        if (Next.Op.Kind == Want)
          D.note(Next.Range, "the commit_group is placed after the wait it "
                             "was meant for");
      }
      NoteCommitPlace(D, S, R, WaitK);
    }
  };

  // A wait of the other kind: nothing of its own kind may be pending, and a
  // copy of the other kind is. Kernels only: a .func's caller may wait.
  struct Candidate {
    uint32_t Site, Wait;
    bool BulkWait;
  };
  std::vector<Candidate> WrongKind;
  CompState AtExit;
  AtExit.F.assign(Sites.size(), Absent);
  AtExit.W.N = AtExit.U.N = NC;
  auto CheckWrongKind = [&](const CompState &S, bool BulkWait, uint32_t WaitK) {
    if (!Complete || !FF.F.IsEntry)
      return;
    Role Own = BulkWait ? Role::BulkGroup : Role::CpAsync;
    Role Other = BulkWait ? Role::CpAsync : Role::BulkGroup;
    int32_t Witness = -1;
    for (size_t K = 0; K < Sites.size(); ++K) {
      if (Sites[K].R == Own && S.F[K] != Absent && S.F[K] != Done)
        return;
      if (Sites[K].R == Other && isPending(S.F[K]) && Witness < 0 &&
          !ReportedSite[K])
        Witness = int32_t(K);
    }
    if (Witness < 0)
      return;
    WrongKind.push_back({uint32_t(Witness), WaitK, BulkWait});
  };
  // Emitted after the solve, for copies still pending at the exits: a
  // later wait of the right kind means the wrong one was incidental.
  auto EmitWrongKind = [&](uint32_t Site, uint32_t WaitK, bool BulkWait) {
    if (ReportedSite[Site] || !isPending(AtExit.F[Site]))
      return;
    ReportedSite[Site] = 1;
    const FlowInst &Cp = FF.Insts[Sites[Site].Inst];
    const FlowInst &W = FF.Insts[WaitK];
    if (BulkWait)
      C.diag(rules::FlowBulkGroupProtocol, Cp.Range,
             "cp.async is waited for with cp.async.bulk.wait_group, which "
             "covers bulk async-groups only")
          .note(W.Range, "this bulk wait does not wait for cp.async; use "
                         "cp.async.commit_group and cp.async.wait_group");
    else
      C.diag(rules::FlowBulkGroupProtocol, Cp.Range,
             opName(Cp) + " is a bulk async-group operation, but it is waited "
                          "for with " + std::string(W.Head) +
                 ", which covers cp.async only")
          .note(W.Range, "this wait does not cover bulk async-groups; use "
                         "cp.async.bulk.commit_group and "
                         "cp.async.bulk.wait_group");
  };

  auto CheckExit = [&](const CompState &S, SourceRange ExitAt, uint32_t ExitK) {
    AtExit.join(S);
    if (!FF.F.IsEntry)
      return; // a .func may leave commits to its caller
    for (size_t K = 0; K < NC; ++K) {
      Role R = Sites[K].R;
      if (!S.U.holds(K) || ReportedSite[K])
        continue;
      if (!((R == Role::CpAsync && HasCommit) ||
            (R == Role::BulkGroup && HasBulkCommit)))
        continue;
      ReportedSite[K] = 1;
      const FlowInst &Cp = FF.Insts[Sites[K].Inst];
      auto D = R == Role::CpAsync
                   ? C.diag(rules::FlowCpAsyncUncommitted, Cp.Range,
                            "cp.async is never committed to a cp.async-group "
                            "before the kernel exits on this path")
                   : C.diag(rules::FlowBulkGroupProtocol, Cp.Range,
                            opName(Cp) + " is never committed to a bulk "
                                         "async-group before the kernel "
                                         "exits on this path, so it cannot "
                                         "be waited for");
      D.note(ExitAt, R == Role::CpAsync
                         ? "the kernel exits here without cp.async.commit_group"
                         : "the kernel exits here without "
                           "cp.async.bulk.commit_group");
      NoteCommitPlace(D, S, R, ExitK);
    }
  };

  // Notes of a store no bulk wait followed (Trigger): the store that may
  // still be reading (Victim: the oldest one still pending, often an older
  // store of the same ring slot), and where the wait belongs (after the
  // trigger's commit).
  auto NoteUnwaited = [&](FlowDiag &D, size_t Victim, size_t Trigger) {
    uint32_t V = Sites[Victim].Inst;
    D.note(FF.Insts[V].Range, opName(FF.Insts[V]) + " issued here");
    uint32_t At = Sites[Trigger].Inst;
    for (uint32_t X = At + 1; X < FF.Insts.size() && X < At + 64; ++X)
      if (FF.Insts[X].Op.Kind == OpKind::BulkCommit) {
        // In the committing thread: past the end of an elected thread's
        // region, where that thread runs next.
        uint32_t P = sameThreadsAgain(FF, X);
        if (!P)
          P = X + 1;
        if (P < FF.Insts.size())
          D.note(FF.Insts[P].Range,
                 "add cp.async.bulk.wait_group.read here, after its commit, "
                 "before the buffer is reused");
        break;
      }
  };
  auto CheckWrite = [&](const CompState &S, const FlowInst &W) {
    if (!isSharedSpace(W.Op.Dst))
      return;
    AddrKey A = FF.address(FF.operand(W, W.Op.DstOp));
    if (!A.valid())
      return;
    for (size_t K = 0; K < Sites.size(); ++K) {
      const Site &St = Sites[K];
      if (St.R != Role::BulkGroup || ReportedUse[K])
        continue;
      const FlowInst &Cp = FF.Insts[St.Inst];
      if (!Cp.Op.readsSharedAsync())
        continue;
      if (isPending(S.F[K]) &&
          FF.definitelyOverlap(A, W.Op.AccessBytes, St.Src, St.Bytes)) {
        ReportedUse[K] = 1;
        C.diag(rules::FlowWriteInFlightSource, Cp.Range,
               opName(Cp) + " reads shared memory that is overwritten while "
                            "the store may still be reading it")
            .note(W.Range, "source buffer written here before "
                           "cp.async.bulk.wait_group.read covers the " +
                               opName(Cp));
      } else if (S.W.holds(K) &&
                 FF.mayOverlap(A, W.Op.AccessBytes, St.Src, St.Bytes)) {
        // Same buffer, offsets not pinned down (per-thread, swizzled, a
        // ring slot): the rewrite may hit the bytes being read.
        ReportedUse[K] = 1;
        size_t Victim = K;
        for (size_t X = 0; X < Sites.size(); ++X)
          if (Sites[X].R == Role::BulkGroup && isPending(S.F[X]) &&
              FF.mayOverlap(A, W.Op.AccessBytes, Sites[X].Src, Sites[X].Bytes) &&
              (!isPending(S.F[Victim]) || ageOf(S.F[X]) > ageOf(S.F[Victim])))
            Victim = X;
        auto D = C.likely(rules::FlowWriteInFlightSource, W.Range,
                          "this write may overwrite the source of a " +
                              opName(Cp) +
                              " that no cp.async.bulk.wait_group.read has "
                              "waited for since it was issued");
        NoteUnwaited(D, Victim, K);
        return; // one report per write
      }
    }
  };
  // Barriers whose waiters then write shared memory: a waiter that rewrites
  // object O after its try_wait on barrier X makes an arrive on X a release
  // of O (hand-written kernels keep barriers apart from their buffers).
  BarrierBinding Rewriters(FF, [&](const FlowInst &I) -> int32_t {
    bool Generic = (I.Op.Kind == OpKind::Store ||
                    I.Op.Kind == OpKind::StMatrix ||
                    I.Op.Kind == OpKind::AtomRed) &&
                   isSharedSpace(I.Op.Dst);
    if (!Generic && !I.Op.writesShared())
      return -1;
    return FF.address(FF.operand(I, I.Op.DstOp)).Base;
  });
  // Stage bindings (CUTLASS 77's epilogue: wait FULL[0]; store half 0;
  // commit; wait FULL[1]; store half 1; commit; wait_group.read 1; arrive
  // EMPTY[0]; wait_group.read 0; arrive EMPTY[1]; the correction warps
  // wait EMPTY[k] and then arrive on FULL[k]). A bulk store belongs to the
  // stage whose full barrier the nearest wait before it (in program order)
  // waited on; the stage of a release E is the barrier that E's waiters
  // signal first after waiting on it. Constant addresses only.
  struct StageBinding {
    bool Built = false;
    std::vector<AddrKey> Acquired;              ///< per site (any wait's)
    std::vector<char> Waited;                   ///< per site: a wait before it
    std::vector<std::pair<AddrKey, AddrKey>> Refill; ///< (E, F)
  } Stages;
  auto Constant = [](const AddrKey &A) { return A.valid() && A.OffKnown; };
  auto BuildStages = [&] {
    Stages.Built = true;
    Stages.Acquired.assign(Sites.size(), AddrKey());
    Stages.Waited.assign(Sites.size(), 0);
    const std::vector<uint32_t> &RI = FF.RoleInsts;
    size_t X = 0;
    AddrKey Last; // the last wait's barrier, in program order
    bool Any = false;
    for (size_t K = 0; K < Sites.size(); ++K) {
      if (Sites[K].R != Role::BulkGroup)
        continue;
      for (; X < RI.size() && RI[X] < Sites[K].Inst; ++X) {
        const FlowInst &I = FF.Insts[RI[X]];
        if (I.Op.Kind == OpKind::MbarWait) {
          Last = FF.address(FF.operand(I, I.Op.MbarOp));
          Any = true;
        }
      }
      Stages.Acquired[K] = Last;
      Stages.Waited[K] = Any;
    }
    for (size_t W = 0; W < RI.size(); ++W) {
      const FlowInst &I = FF.Insts[RI[W]];
      AddrKey E = I.Op.Kind == OpKind::MbarWait
                      ? FF.address(FF.operand(I, I.Op.MbarOp))
                      : AddrKey();
      if (!Constant(E))
        continue;
      for (size_t Y = W + 1; Y < RI.size() && Y < W + 64; ++Y) {
        OpKind Kd = FF.Insts[RI[Y]].Op.Kind;
        if (Kd == OpKind::MbarWait)
          break;
        if (Kd != OpKind::MbarArrive)
          continue;
        AddrKey F = FF.localBarrier(RI[Y]);
        if (Constant(F) && !(F == E))
          Stages.Refill.push_back({E, F});
        break;
      }
    }
  };
  // Whether a bulk wait between instructions From and To in the text
  // covers a store issued at From: "wait_group N" after more than N commits
  // since the store. (A persistent loop's states mix this iteration's store
  // with the last one's, waited for: the text of the straight-line epilogue
  // says which wait covers which store.)
  auto CoveredBetween = [&](uint32_t From, uint32_t To) {
    int64_t Commits = 0;
    for (uint32_t X = From + 1; X < To; ++X) {
      const FlowInst &I = FF.Insts[X];
      if (I.Op.Kind == OpKind::BulkCommit) {
        ++Commits;
      } else if (I.Op.Kind == OpKind::BulkWait) {
        auto N = FF.constant(FF.operand(I, I.Op.WaitNOp));
        if (!N || *N < Commits)
          return true;
      } else if (I.Op.Kind == OpKind::Call) {
        return true;
      }
    }
    return Commits == 0; // uncommitted: F402's
  };
  // A release of a stage whose bulk store may still be reading it: not
  // complete on every path, and no wait since the store in the text covers
  // it (a wait_group.read with too large an N, or none).
  auto CheckStageRelease = [&](const CompState &S, uint32_t AtK,
                               const AddrKey &Bar) {
    if (!Constant(Bar))
      return false;
    if (!Stages.Built)
      BuildStages();
    for (size_t K = 0; K < Sites.size(); ++K) {
      const Site &St = Sites[K];
      if (St.R != Role::BulkGroup || ReportedUse[K] || S.F[K] == Absent ||
          S.F[K] == Done || St.Inst >= AtK || St.Inst + 4096 < AtK ||
          !FF.Insts[St.Inst].Op.readsSharedAsync() ||
          !Constant(Stages.Acquired[K]) || CoveredBetween(St.Inst, AtK))
        continue;
      bool Bound = false;
      for (const auto &P : Stages.Refill)
        Bound |= P.first == Bar && P.second == Stages.Acquired[K];
      if (!Bound)
        continue;
      ReportedUse[K] = 1;
      const FlowInst &Cp = FF.Insts[St.Inst];
      auto D = C.likely(rules::FlowWriteInFlightSource, FF.Insts[AtK].Range,
                        "this mbarrier.arrive releases the stage that a " +
                            opName(Cp) +
                            " still reads: no cp.async.bulk.wait_group.read "
                            "since the store covers it");
      D.note(Cp.Range, opName(Cp) + " of this stage issued here");
      // The wait goes after the async-copy or mbarrier step before the
      // release (the previous stage's release, or the store's commit).
      for (uint32_t X = AtK; X-- > St.Inst;) {
        const AsyncOp &Op = FF.Insts[X].Op;
        if (Op.Kind == OpKind::MbarArrive || Op.Kind == OpKind::MbarWait ||
            Op.Kind == OpKind::BulkWait || Op.Kind == OpKind::BulkCommit) {
          if (uint32_t N = FF.nextExecuted(X); N <= AtK)
            D.note(FF.Insts[N].Range,
                   "add cp.async.bulk.wait_group.read here, before the "
                   "release");
          break;
        }
      }
      return true;
    }
    return false;
  };
  // Whether the ring barrier released at AtK (a stage-indexed arrive) is
  // one whose waiters -- on its form, or on one of its constant elements (a
  // producer unrolled into fixed stages) -- then fill an address on which
  // bulk store K's source may lie: CUTLASS 49's epilogue stores from the
  // C-load stage buffer it releases (smem + 13312, the fourth of the fills
  // at smem + 1024 + 4096*k). A mainloop ring's refills (A and B tiles
  // above the staging tile) do not reach an epilogue's tile.
  auto RingRefills = [&](uint32_t AtK, size_t K) {
    const FlowInst &Rel = FF.Insts[AtK], &Cp = FF.Insts[Sites[K].Inst];
    std::optional<Form> R = FF.form(FF.operand(Rel, Rel.Op.MbarOp), AtK);
    std::optional<Form> S = FF.form(FF.operand(Cp, Cp.Op.SrcOp), Sites[K].Inst);
    if (!R || !S)
      return false;
    for (const BarrierUse &U : Rewriters.uses()) {
      const FlowInst &W = FF.Insts[U.Wait], &Fill = FF.Insts[U.Use];
      std::optional<Form> B = FF.form(FF.operand(W, W.Op.MbarOp), U.Wait);
      if (!B || !(*B == *R || B->elementOf(*R)) || !Fill.Op.writesShared())
        continue;
      std::optional<Form> D = FF.form(FF.operand(Fill, Fill.Op.DstOp), U.Use);
      if (D && S->onLatticeOf(*D))
        return true;
    }
    return false;
  };
  // Whether an arrive on Bar hands the source of bulk store K to another
  // role. A barrier in another object does when its waiters rewrite the
  // source's object (hand-written kernels keep barriers apart from their
  // buffers; a scheduler's "finished" flag nobody writes after waiting on
  // is no release). A barrier in the source's own object is taken to guard
  // it only between fixed stages: a constant barrier released while the
  // store was issued under a constant barrier's wait, or under none
  // (example 77's two-half epilogue). CUTLASS and FA3 keep every barrier
  // and buffer in one shared array, where a ring's stage-indexed barrier
  // (the consumer's release of a mainloop stage, or a store issued inside
  // the mainloop's ring) says nothing of the epilogue's staging tile: the
  // holdout kernels (scripts/holdout-kernels.sh) warned falsely there.
  auto Releases = [&](const AddrKey &Bar, size_t K, uint32_t AtK) {
    const Site &St = Sites[K];
    if (St.Src.Base != Bar.Base)
      return Rewriters.binds(Bar, St.Src.Base);
    if (!Constant(Bar))
      return RingRefills(AtK, K);
    if (!Stages.Built)
      BuildStages();
    return !Stages.Waited[K] || Constant(Stages.Acquired[K]);
  };
  // A release of shared memory to another role (mbarrier.arrive without
  // expect_tx: "this slot is free") while a store issued since the last
  // bulk wait may still be reading: if the released buffer is its source,
  // the next writer races with the store. (Not the exit: shipped kernels,
  // TK's B200 GEMM, CUTLASS 70 fp8, exit with a store in flight.)
  auto CheckRelease = [&](const CompState &S, uint32_t AtK) {
    AddrKey Bar = FF.localBarrier(AtK);
    if (!Bar.valid())
      return;
    // One report per release, naming the store issued last before it.
    int64_t Pick = -1;
    for (size_t K = 0; K < Sites.size(); ++K) {
      const Site &St = Sites[K];
      if (St.R != Role::BulkGroup || !S.W.holds(K) || ReportedUse[K] ||
          !FF.Insts[St.Inst].Op.readsSharedAsync() || !St.Src.valid() ||
          !Releases(Bar, K, AtK))
        continue;
      ReportedUse[K] = 1;
      auto Before = [&](int64_t X) { return Sites[size_t(X)].Inst < AtK; };
      if (Pick < 0 || (Before(int64_t(K)) &&
                       (!Before(Pick) || Sites[size_t(Pick)].Inst < St.Inst)))
        Pick = int64_t(K);
    }
    if (Pick < 0) {
      // Each store has been waited for, some with too large an N.
      CheckStageRelease(S, AtK, Bar);
      return;
    }
    const FlowInst &Cp = FF.Insts[Sites[size_t(Pick)].Inst];
    auto D = C.likely(rules::FlowWriteInFlightSource, FF.Insts[AtK].Range,
                      "this mbarrier.arrive releases shared memory while a " +
                          opName(Cp) +
                          " may still be reading it: no "
                          "cp.async.bulk.wait_group.read has waited for the "
                          "store since it was issued");
    NoteUnwaited(D, size_t(Pick), size_t(Pick));
  };

  // Copies whose destination a read may hit: not bulk-group operations
  // (which read shared memory), pending, not reported yet, resolved.
  auto Watched = [&](const CompState &S, size_t K) {
    const Site &St = Sites[K];
    return St.R != Role::BulkGroup && isPending(S.F[K]) && !ReportedUse[K] &&
           St.Dst.valid();
  };
  // Most reads happen with no copy pending: the read's address (a deferred
  // operand) is then never decoded or evaluated. The first watched site,
  // or Sites.size().
  auto FirstWatched = [&](const CompState &S) {
    size_t First = 0;
    while (First < Sites.size() && !Watched(S, First))
      ++First;
    return First;
  };
  // A read of shared memory at A (Bytes: 0 when unknown, at least one)
  // through address operand RdAddr (null: a descriptor).
  auto CheckReadAt = [&](const CompState &S, const FlowInst &Rd, size_t First,
                         const AddrKey &A, uint64_t Bytes, const Opnd *RdAddr) {
    for (size_t K = First; K < Sites.size(); ++K) {
      const Site &St = Sites[K];
      if (!Watched(S, K))
        continue;
      // The bytes the copy writes, read back: overlapping known ranges, or
      // the very address the copy wrote through (a per-thread "base +
      // tid*16" in one register).
      const FlowInst &Cp = FF.Insts[St.Inst];
      if (!FF.definitelyOverlap(A, Bytes, St.Dst, St.Bytes) &&
          !FF.sameAddress(RdAddr, FF.operand(Cp, Cp.Op.DstOp)))
        continue;
      ReportedUse[K] = 1;
      C.diag(rules::FlowReadBeforeComplete, Cp.Range,
             "the destination of this " + opName(Cp) +
                 " is read before the copy is known to be complete")
          .note(Rd.Range, St.R == Role::CpAsync
                              ? "read here before cp.async.wait_group or "
                                "cp.async.wait_all covers the copy"
                              : "read here before mbarrier.try_wait or "
                                "test_wait on the copy's mbarrier");
    }
  };
  // False when no pending copy could be hit by any read in state S.
  auto CheckRead = [&](const CompState &S, const FlowInst &Rd) -> bool {
    if (!isSharedSpace(Rd.Op.Src))
      return true;
    size_t First = FirstWatched(S);
    if (First == Sites.size())
      return false;
    const Opnd *RdAddr = FF.operand(Rd, Rd.Op.SrcOp);
    AddrKey A = FF.address(RdAddr);
    if (A.valid())
      CheckReadAt(S, Rd, First, A, Rd.Op.AccessBytes, RdAddr);
    return true;
  };
  // wgmma / tcgen05.mma: the shared memory their matrix descriptors start
  // at (FlowFunction::descriptorAddress), read before the copy completes.
  auto CheckDescriptorRead = [&](const CompState &S, const FlowInst &Rd) {
    size_t First = FirstWatched(S);
    if (First == Sites.size())
      return;
    FF.operand(Rd, 0); // decodes them all
    for (const Opnd &O : Rd.Ops)
      if (O.K == Opnd::Reg)
        if (AddrKey A = FF.descriptorAddress(&O); A.valid())
          CheckReadAt(S, Rd, First, A, 0, nullptr);
  };

  CompState Entry;
  Entry.F.assign(Sites.size(), Absent);
  Entry.W.N = Entry.U.N = NC;
  Entry.P.setTrue();
  // Branch correlation matters to the commit checks only.
  std::optional<PathConditions> PC;
  std::vector<char> PathEvent;
  bool Commits = false;
  for (const Site &St : Sites)
    Commits |= St.R != Role::MbarLoad;
  if (Commits && (HasCommit || HasBulkCommit)) {
    PC.emplace(FF);
    PathEvent.assign(FF.Insts.size(), 0);
    for (uint32_t K : PC->events())
      PathEvent[K] = 1;
  }
  const std::vector<uint32_t> *Extra = PC ? &PC->events() : nullptr;
  // The events the transfer below acts on: during the fixpoint, those that
  // change the state; when reporting, the accesses and exits too.
  std::vector<char> SiteBase(FF.Bases.size(), 0);
  for (const Site &St : Sites)
    for (int32_t B : {St.Dst.Base, St.Src.Base, St.Mbar.Base})
      if (B >= 0 && size_t(B) < SiteBase.size())
        SiteBase[size_t(B)] = 1;
  auto Changes = [&](uint32_t K) {
    switch (FF.Insts[K].Op.Kind) {
    case OpKind::CpAsyncCommit:
    case OpKind::BulkCommit:
    case OpKind::CpAsyncWait:
    case OpKind::CpAsyncWaitAll:
    case OpKind::CpAsyncMbarrierArrive:
    case OpKind::BulkWait:
    case OpKind::MbarWait:
    case OpKind::Call:
      return true;
    default:
      int32_t KB = FF.Insts[K].KillsBase;
      return SiteOf[K] >= 0 ||
             (KB >= 0 && (size_t(KB) >= SiteBase.size() || SiteBase[size_t(KB)]));
    }
  };
  EventLists FixEvents(FF, Changes, Extra);
  EventLists ReportEvents(FF, [&](uint32_t K) {
    switch (FF.Insts[K].Op.Kind) {
    case OpKind::Ret:
    case OpKind::Exit:
    case OpKind::Store:
    case OpKind::AtomRed:
    case OpKind::StMatrix:
    case OpKind::Load:
    case OpKind::LdMatrix:
    case OpKind::DescriptorRead:
    case OpKind::MbarArrive:
      return true;
    default:
      return Changes(K);
    }
  }, Extra);
  auto Transfer = [&](uint32_t B, CompState &S, bool Report) {
    const Block &Bl = FF.Blocks[B];
    // Reads come in long runs (unrolled tiles) that leave the state alone:
    // once one finds no pending copy it could hit, the rest of the run skip
    // the search.
    bool NoneWatched = false;
    for (uint32_t K : (Report ? ReportEvents : FixEvents).of(B)) {
      const FlowInst &I = FF.Insts[K];
      if (PC && PathEvent[K])
        PC->apply(K, S.P, [&](auto &&Fn) { S.eachCond(Fn); });
      bool IsRead = I.Op.Kind == OpKind::Load || I.Op.Kind == OpKind::LdMatrix;
      if (!IsRead || I.KillsBase >= 0 || SiteOf[K] >= 0)
        NoneWatched = false; // the state may change here
      bool G = !I.Guard.empty();
      auto Commit = [&](Role R) {
        ForRole(S, R, [&](uint8_t &F, const Site &St) {
          if (!isPending(F))
            return;
          uint8_t Aged = pending(ageOf(F) + 1);
          F = Covers(I, St) ? Aged : joinFact(F, Aged);
        });
      };
      auto Wait = [&](Role R, std::optional<int64_t> N) {
        ForRole(S, R, [&](uint8_t &F, const Site &St) {
          if (!isPending(F))
            return;
          if (!N)
            F = Mixed;
          else if (int64_t(ageOf(F)) > *N)
            F = killMaybe(F, !Covers(I, St));
        });
      };
      switch (I.Op.Kind) {
      case OpKind::CpAsyncCommit:
        Commit(Role::CpAsync);
        Committed(S, Role::CpAsync, nullptr);
        break;
      case OpKind::BulkCommit:
        Commit(Role::BulkGroup);
        Committed(S, Role::BulkGroup, nullptr);
        break;
      case OpKind::CpAsyncWait:
        if (Report) {
          CheckUncommitted(S, Role::CpAsync, K);
          CheckWrongKind(S, false, K);
        }
        Wait(Role::CpAsync, FF.constant(FF.operand(I, I.Op.WaitNOp)));
        break;
      case OpKind::CpAsyncWaitAll:
        if (Report)
          CheckWrongKind(S, false, K);
        ForRole(S, Role::CpAsync, [&](uint8_t &F, const Site &St) {
          F = killMaybe(F, !Covers(I, St));
        });
        Committed(S, Role::CpAsync, nullptr);
        break;
      case OpKind::CpAsyncMbarrierArrive:
        ForRole(S, Role::CpAsync, [&](uint8_t &F, const Site &St) {
          F = killMaybe(F, !Covers(I, St));
        });
        Committed(S, Role::CpAsync, nullptr);
        break;
      case OpKind::BulkWait:
        if (Report) {
          CheckUncommitted(S, Role::BulkGroup, K);
          CheckWrongKind(S, true, K);
        }
        Wait(Role::BulkGroup, FF.constant(FF.operand(I, I.Op.WaitNOp)));
        S.W.drop([&](size_t X) { return Covers(I, Sites[X]); });
        break;
      case OpKind::MbarWait: {
        AddrKey Bar = FF.address(FF.operand(I, I.Op.MbarOp));
        ForRole(S, Role::MbarLoad, [&](uint8_t &F, const Site &St) {
          if (!Bar.valid() || !St.Mbar.valid() || Bar == St.Mbar)
            F = killMaybe(F, G);
        });
        break;
      }
      case OpKind::Call:
        if (FF.callHasEffects(I)) {
          for (uint8_t &F : S.F)
            F = killMaybe(F, false);
          S.W.clear();
          Committed(S, Role::CpAsync, nullptr);
          Committed(S, Role::BulkGroup, nullptr);
        }
        break;
      case OpKind::Ret:
      case OpKind::Exit:
        if (Report)
          CheckExit(S, I.Range, K);
        break;
      case OpKind::MbarArrive:
        if (Report)
          CheckRelease(S, K);
        break;
      case OpKind::Store:
      case OpKind::AtomRed:
      case OpKind::StMatrix:
        if (Report)
          CheckWrite(S, I);
        break;
      case OpKind::Load:
      case OpKind::LdMatrix:
        if (Report && !NoneWatched)
          NoneWatched = !CheckRead(S, I);
        break;
      case OpKind::DescriptorRead:
        if (Report)
          CheckDescriptorRead(S, I);
        break;
      default:
        break;
      }
      if (SiteOf[K] >= 0) {
        size_t X = size_t(SiteOf[K]);
        S.F[X] = pending(0);
        if (X < NC) {
          S.U.set(X, S.P);
          if (Sites[X].R == Role::BulkGroup)
            S.W.set(X, S.P);
        }
      }
      if (I.KillsBase >= 0)
        for (size_t X = 0; X < Sites.size(); ++X) {
          const Site &St = Sites[X];
          if (St.Dst.Base == I.KillsBase || St.Src.Base == I.KillsBase ||
              St.Mbar.Base == I.KillsBase)
            S.F[X] = killMaybe(S.F[X], false);
        }
    }
    if (Report && Bl.FallsOffEnd) {
      SourceRange End{FF.M.Statements[FF.F.EndStatement - 1].Range};
      CheckExit(S, End, uint32_t(FF.Insts.size()));
    }
  };
  auto Edge = [&](uint32_t B, size_t X, CompState &S) {
    return !PC || PC->takeEdge(B, X, S.P, [&](auto &&Fn) { S.eachCond(Fn); });
  };
  auto Quiet = [&](uint32_t B, bool Report) {
    if (Report)
      return ReportEvents.none(B) && !FF.Blocks[B].FallsOffEnd;
    return FixEvents.none(B) &&
           (!PC || (PC->edge(B, 0).size() == 0 && PC->edge(B, 1).size() == 0));
  };
  if (!solveForward(FF, Entry, Transfer, Edge, Quiet))
    return;
  for (const Candidate &Cd : WrongKind)
    EmitWrongKind(Cd.Site, Cd.Wait, Cd.BulkWait);
}

} // namespace flow
} // namespace ptxlint
