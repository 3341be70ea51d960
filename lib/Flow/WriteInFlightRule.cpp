//===- WriteInFlightRule.cpp - F406: a bulk store's source rewritten ------===//
//
// Read from the completion tracking (CompletionTracker.h): shared memory a
// bulk or tensor store may still be reading (no cp.async.bulk.wait_group.read
// covers it yet) written again (error where the ranges surely meet), or
// released to another role with an mbarrier.arrive (warning).
//
//===----------------------------------------------------------------------===//

#include "Flow/CompletionTracker.h"

#include <algorithm>
#include <optional>

namespace ptxlint {
namespace flow {
namespace {

bool isConstant(const AddrKey &A) { return A.valid() && A.OffKnown; }

/// Whether the guards of instructions A < B test the same condition: one
/// predicate not redefined between them, or two predicates set by the
/// same setp of the same values (CUTLASS recomputes "setp.ne.s32 p, r, 0"
/// before each elected-thread region).
bool sameGuard(const FlowFunction &FF, uint32_t A, uint32_t B) {
  const FlowInst &IA = FF.Insts[A], &IB = FF.Insts[B];
  if (!IA.Guarded || !IB.Guarded || IA.GuardNeg != IB.GuardNeg)
    return false;
  int32_t RA = FF.regId(FF.guard(IA)), RB = FF.regId(FF.guard(IB));
  int64_t DA = FF.lastDefBefore(RA, A), DB = FF.lastDefBefore(RB, B);
  if (RA < 0 || DA < 0 || DB < 0)
    return false;
  if (RA == RB)
    return DA == DB;
  const FlowInst &SA = FF.Insts[size_t(DA)], &SB = FF.Insts[size_t(DB)];
  if (opWord(SA.Head) != "setp" || SA.Head != SB.Head || SA.Guarded || SB.Guarded)
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
    if (I.Op.Kind != OpKind::Branch || !I.Guarded)
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
      return I.Guarded && sameGuard(FF, uint32_t(Guard), Y) ? Y + 1 : 0;
    if (I.Op.Kind != OpKind::Other)
      return 0;
  }
  return 0;
}

} // namespace

// Notes of a store no bulk wait followed (Trigger): the store that may
// still be reading (Victim: the oldest one still pending, often an older
// store of the same ring slot), and where the wait belongs (after the
// trigger's commit).
void CompletionTracker::noteUnwaited(FlowDiag &D, size_t Victim,
                                     size_t Trigger) {
  uint32_t V = T.Sites[Victim].Inst;
  D.note(FF.Insts[V].Range, opName(FF.Insts[V]) + " issued here");
  uint32_t At = T.Sites[Trigger].Inst;
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
}

// Whether a bulk store not reported yet may still be reading in S: pending
// (Loose: or Mixed, some paths) or not waited for since it was issued.
// Most writes and releases meet none, and then skip their address.
bool CompletionTracker::storeActive(const CompState &S, bool Loose) {
  for (uint32_t K : T.OfRole[size_t(Role::BulkGroup)]) {
    uint8_t F = S.F[K];
    if (!T.ReportedUse[K] && (isPending(F) || S.W.holds(K) ||
                            (Loose && F != Absent && F != Done)))
      return true;
  }
  return false;
}

void CompletionTracker::checkWrite(const CompState &S, const FlowInst &W) {
  if (!isSharedSpace(W.Op.Dst) || !storeActive(S, false))
    return;
  AddrKey A = FF.address(FF.operand(W, W.Op.DstOp));
  if (!A.valid())
    return;
  for (size_t K = 0; K < T.Sites.size(); ++K) {
    const Site &St = T.Sites[K];
    if (St.R != Role::BulkGroup || T.ReportedUse[K])
      continue;
    const FlowInst &Cp = FF.Insts[St.Inst];
    if (!Cp.Op.readsSharedAsync())
      continue;
    if (isPending(S.F[K]) &&
        FF.definitelyOverlap(A, W.Op.AccessBytes, St.Src, bytesOf(K))) {
      T.ReportedUse[K] = 1;
      C.diag(rules::FlowWriteInFlightSource, Cp.Range,
             opName(Cp) + " reads shared memory that is overwritten while "
                          "the store may still be reading it")
          .note(W.Range, "source buffer written here before "
                         "cp.async.bulk.wait_group.read covers the " +
                             opName(Cp));
    } else if (S.W.holds(K) &&
               FF.mayOverlap(A, W.Op.AccessBytes, St.Src, bytesOf(K))) {
      // Same buffer, offsets not pinned down (per-thread, swizzled, a
      // ring slot): the rewrite may hit the bytes being read.
      T.ReportedUse[K] = 1;
      size_t Victim = K;
      for (size_t X = 0; X < T.Sites.size(); ++X)
        if (T.Sites[X].R == Role::BulkGroup && isPending(S.F[X]) &&
            FF.mayOverlap(A, W.Op.AccessBytes, T.Sites[X].Src, bytesOf(X)) &&
            (!isPending(S.F[Victim]) || ageOf(S.F[X]) > ageOf(S.F[Victim])))
          Victim = X;
      auto D =
          C.likely(rules::FlowWriteInFlightSource, W.Range,
                   "this write may overwrite the source of a " + opName(Cp) +
                       " that no cp.async.bulk.wait_group.read has "
                       "waited for since it was issued");
      noteUnwaited(D, Victim, K);
      return; // one report per write
    }
  }
}

void CompletionTracker::buildStages() {
  Stages.Built = true;
  Stages.Acquired.assign(T.Sites.size(), AddrKey());
  Stages.Waited.assign(T.Sites.size(), 0);
  const std::vector<uint32_t> &RI = FF.RoleInsts;
  size_t X = 0;
  AddrKey Last; // the last wait's barrier, in program order
  bool Any = false;
  for (size_t K = 0; K < T.Sites.size(); ++K) {
    if (T.Sites[K].R != Role::BulkGroup)
      continue;
    for (; X < RI.size() && RI[X] < T.Sites[K].Inst; ++X) {
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
    if (!isConstant(E))
      continue;
    for (size_t Y = W + 1; Y < RI.size() && Y < W + 64; ++Y) {
      OpKind Kd = FF.Insts[RI[Y]].Op.Kind;
      if (Kd == OpKind::MbarWait)
        break;
      if (Kd != OpKind::MbarArrive)
        continue;
      AddrKey F = FF.localBarrier(RI[Y]);
      if (isConstant(F) && !(F == E))
        Stages.Refill.push_back({E, F});
      break;
    }
  }
}

// Whether a bulk wait between instructions From and To in the text
// covers a store issued at From: "wait_group N" after more than N commits
// since the store. (A persistent loop's states mix this iteration's store
// with the last one's, waited for: the text of the straight-line epilogue
// says which wait covers which store.)
bool CompletionTracker::coveredBetween(uint32_t From, uint32_t To) {
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
}

// A release of a stage whose bulk store may still be reading it: not
// complete on every path, and no wait since the store in the text covers
// it (a wait_group.read with too large an N, or none).
bool CompletionTracker::checkStageRelease(const CompState &S, uint32_t AtK,
                                          const AddrKey &Bar) {
  if (!isConstant(Bar))
    return false;
  if (!Stages.Built)
    buildStages();
  for (size_t K = 0; K < T.Sites.size(); ++K) {
    const Site &St = T.Sites[K];
    if (St.R != Role::BulkGroup || T.ReportedUse[K] || S.F[K] == Absent ||
        S.F[K] == Done || St.Inst >= AtK || St.Inst + 4096 < AtK ||
        !FF.Insts[St.Inst].Op.readsSharedAsync() ||
        !isConstant(Stages.Acquired[K]) || coveredBetween(St.Inst, AtK))
      continue;
    bool Bound = false;
    for (const auto &P : Stages.Refill)
      Bound |= P.first == Bar && P.second == Stages.Acquired[K];
    if (!Bound)
      continue;
    T.ReportedUse[K] = 1;
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
}

// Whether the ring barrier released at AtK (a stage-indexed arrive) is
// one whose waiters -- on its form, or on one of its constant elements (a
// producer unrolled into fixed stages) -- then fill an address on which
// bulk store K's source may lie: CUTLASS 49's epilogue stores from the
// C-load stage buffer it releases (smem + 13312, the fourth of the fills
// at smem + 1024 + 4096*k). A mainloop ring's refills (A and B tiles
// above the staging tile) do not reach an epilogue's tile.
bool CompletionTracker::ringRefills(uint32_t AtK, size_t K) {
  const FlowInst &Rel = FF.Insts[AtK], &Cp = FF.Insts[T.Sites[K].Inst];
  std::optional<Form> R = FF.form(FF.operand(Rel, Rel.Op.MbarOp), AtK);
  std::optional<Form> S = FF.form(FF.operand(Cp, Cp.Op.SrcOp), T.Sites[K].Inst);
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
}

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
bool CompletionTracker::releases(const AddrKey &Bar, size_t K, uint32_t AtK) {
  const Site &St = T.Sites[K];
  if (St.Src.Base != Bar.Base)
    return Rewriters.binds(Bar, St.Src.Base);
  if (!isConstant(Bar))
    return ringRefills(AtK, K);
  if (!Stages.Built)
    buildStages();
  return !Stages.Waited[K] || isConstant(Stages.Acquired[K]);
}

// A release of shared memory to another role (mbarrier.arrive without
// expect_tx: "this slot is free") while a store issued since the last
// bulk wait may still be reading: if the released buffer is its source,
// the next writer races with the store. (Not the exit: shipped kernels,
// TK's B200 GEMM, CUTLASS 70 fp8, exit with a store in flight.)
void CompletionTracker::checkRelease(const CompState &S, uint32_t AtK) {
  if (!storeActive(S, true))
    return;
  AddrKey Bar = FF.localBarrier(AtK);
  if (!Bar.valid())
    return;
  // One report per release, naming the store issued last before it.
  int64_t Pick = -1;
  for (size_t K = 0; K < T.Sites.size(); ++K) {
    const Site &St = T.Sites[K];
    if (St.R != Role::BulkGroup || !S.W.holds(K) || T.ReportedUse[K] ||
        !FF.Insts[St.Inst].Op.readsSharedAsync() || !St.Src.valid() ||
        !releases(Bar, K, AtK))
      continue;
    T.ReportedUse[K] = 1;
    auto Before = [&](int64_t X) { return T.Sites[size_t(X)].Inst < AtK; };
    if (Pick < 0 || (Before(int64_t(K)) &&
                     (!Before(Pick) || T.Sites[size_t(Pick)].Inst < St.Inst)))
      Pick = int64_t(K);
  }
  if (Pick < 0) {
    // Each store has been waited for, some with too large an N.
    checkStageRelease(S, AtK, Bar);
    return;
  }
  const FlowInst &Cp = FF.Insts[T.Sites[size_t(Pick)].Inst];
  auto D = C.likely(rules::FlowWriteInFlightSource, FF.Insts[AtK].Range,
                    "this mbarrier.arrive releases shared memory while a " +
                        opName(Cp) +
                        " may still be reading it: no "
                        "cp.async.bulk.wait_group.read has waited for the "
                        "store since it was issued");
  noteUnwaited(D, size_t(Pick), size_t(Pick));
}

} // namespace flow
} // namespace ptxlint
