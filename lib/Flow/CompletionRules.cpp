//===- CompletionRules.cpp - The tracking F401, F402, F406, F407 share ----===//
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
// The rules themselves are in CommitRules.cpp (F401/F402),
// WriteInFlightRule.cpp (F406) and ReadBeforeCompleteRule.cpp (F407).
//
//===----------------------------------------------------------------------===//

#include "Flow/CompletionTracker.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace ptxlint {
namespace flow {

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

int32_t RewrittenObject::operator()(const FlowInst &I) const {
  bool Generic = (I.Op.Kind == OpKind::Store || I.Op.Kind == OpKind::StMatrix ||
                  I.Op.Kind == OpKind::AtomRed) &&
                 isSharedSpace(I.Op.Dst);
  if (!Generic && !I.Op.writesShared())
    return -1;
  return FF->address(FF->operand(I, I.Op.DstOp)).Base;
}

CompletionTracker::CompletionTracker(const FlowRuleContext &C)
    : C(C), FF(C.FF), T(KeptTables<Tables>::take()),
      Rewriters(C.FF, RewrittenObject{&C.FF}) {
  // Kept tables hold the last function's; those not assigned whole below
  // start empty.
  T.Sites.clear();
  for (std::vector<uint32_t> &Of : T.OfRole)
    Of.clear();
  T.WaitKnown.clear(); // (waitedSites() sizes them when first asked)
  T.WaitedBy.clear();
  T.WrongKind.clear();
  T.SiteOf.assign(FF.Insts.size(), -1);
  T.Sites.reserve(std::min(FF.RoleInsts.size(), MaxSites));
  // Copies that are committed first, then the mbarrier-completed loads
  // (listed on the way): a kernel's many TMA loads must not crowd its
  // epilogue's stores out of the site cap.
  auto Add = [&](uint32_t K, Role R) {
    if (T.Sites.size() >= MaxSites) {
      Complete = false;
      return;
    }
    const FlowInst &I = FF.Insts[K];
    Site S{K,
           R,
           FF.address(FF.operand(I, I.Op.DstOp)),
           FF.address(FF.operand(I, I.Op.SrcOp)),
           FF.address(FF.operand(I, I.Op.MbarOp))};
    T.SiteOf[K] = int32_t(T.Sites.size());
    T.Sites.push_back(S);
  };
  T.Loads.clear();
  for (uint32_t K : FF.RoleInsts) {
    const AsyncOp &Op = FF.Insts[K].Op;
    if (Op.Kind == OpKind::CpAsync)
      Add(K, Role::CpAsync);
    else if (Op.isCopy() && Op.Comp == Completion::BulkGroup)
      Add(K, Role::BulkGroup);
    else if (Op.isCopy() && Op.Comp == Completion::Mbarrier &&
             Op.writesShared())
      T.Loads.push_back(K);
  }
  for (uint32_t K : T.Loads)
    Add(K, Role::MbarLoad);
  NC = 0;
  while (NC < T.Sites.size() && T.Sites[NC].R != Role::MbarLoad)
    ++NC;
  T.SitesIn.assign(FF.Bases.size(), 0);
  for (std::vector<uint32_t> &Of : T.OfRole)
    Of.reserve(T.Sites.size());
  for (uint64_t &M : T.RoleSites)
    M = 0;
  for (uint32_t X = 0; X < T.Sites.size(); ++X) {
    const Site &St = T.Sites[X];
    T.OfRole[size_t(St.R)].push_back(X);
    T.RoleSites[size_t(St.R)] |= uint64_t(1) << X;
    for (int32_t B : {St.Dst.Base, St.Src.Base, St.Mbar.Base})
      if (B >= 0 && size_t(B) < T.SitesIn.size())
        T.SitesIn[size_t(B)] |= uint64_t(1) << X;
  }
  HasCommit = FF.has(OpKind::CpAsyncCommit);
  HasBulkCommit = FF.has(OpKind::BulkCommit);
  HasArriveHandOver = FF.has(OpKind::CpAsyncMbarrierArrive);
  T.ReportedSite.assign(T.Sites.size(), 0);
  T.ReportedUse.assign(T.Sites.size(), 0);
  T.AtExit.F.assign(T.Sites.size(), Absent);
  T.AtExit.U.clear();
  T.AtExit.W.clear();
  T.AtExit.W.N = T.AtExit.U.N = NC;
  T.AtExit.P.setNone();
}

uint64_t CompletionTracker::bytesOf(size_t K) {
  Site &St = T.Sites[K];
  if (!St.BytesKnown) {
    St.Bytes = C.copyBytes(FF.Insts[St.Inst]).value_or(0);
    St.BytesKnown = true;
  }
  return St.Bytes;
}

// The loads a wait on instruction K's barrier completes (its barrier, or
// any when either side's is not known), found once per wait.
uint64_t CompletionTracker::waitedSites(uint32_t K) {
  if (T.WaitKnown.empty()) {
    T.WaitKnown.assign(FF.Insts.size(), 0);
    T.WaitedBy.assign(FF.Insts.size(), 0);
  }
  if (!T.WaitKnown[K]) {
    const FlowInst &I = FF.Insts[K];
    AddrKey Bar = FF.address(FF.operand(I, I.Op.MbarOp));
    for (uint32_t X : T.OfRole[size_t(Role::MbarLoad)]) {
      const Site &St = T.Sites[X];
      if (!Bar.valid() || !St.Mbar.valid() || Bar == St.Mbar)
        T.WaitedBy[K] |= uint64_t(1) << X;
    }
    T.WaitKnown[K] = 1;
  }
  return T.WaitedBy[K];
}

// Whether a predicated commit/wait surely covers a site: it runs under
// the same predicate as the copy ("@p cp...; @p commit").
bool CompletionTracker::covers(const FlowInst &Op, const Site &St) {
  if (!Op.Guarded)
    return true;
  const FlowInst &Cp = FF.Insts[St.Inst];
  return Cp.GuardNeg == Op.GuardNeg && FF.guard(Cp) == FF.guard(Op);
}

// A commit (or wait_all, or mbarrier hand-over). A predicated one counts
// as committing too: the uncommitted-copy checks rather miss a bug than
// guess that two different predicates disagree.
void CompletionTracker::committed(CompState &S, Role R, const FlowInst *Op) {
  S.U.drop([&](size_t K) {
    return T.Sites[K].R == R && (!Op || covers(*Op, T.Sites[K]));
  });
}

// The instructions the rules judge (transfer() with Report). A new check
// goes here and in mayReport() too: the probe (run()) skips the tracking
// where mayReport() says no check could report.
bool CompletionTracker::checkedAt(uint32_t K) {
  switch (FF.Insts[K].Op.Kind) {
  case OpKind::CpAsyncWait:
  case OpKind::CpAsyncWaitAll:
  case OpKind::BulkWait:
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
    return false;
  }
}

// What the transfer acts on when reporting.
bool CompletionTracker::acts(uint32_t K) { return checkedAt(K) || changes(K); }

namespace {
/// The kinds whose every instruction changes the tracking's state.
constexpr KindSet StepKinds =
    kindSet({OpKind::CpAsyncCommit, OpKind::BulkCommit, OpKind::CpAsyncWait,
             OpKind::CpAsyncWaitAll, OpKind::CpAsyncMbarrierArrive,
             OpKind::BulkWait, OpKind::MbarWait, OpKind::Call});
} // namespace

bool CompletionTracker::changes(uint32_t K) {
  if (inSet(StepKinds, FF.Insts[K].Op.Kind))
    return true;
  int32_t KB = FF.Insts[K].KillsBase;
  return T.SiteOf[K] >= 0 ||
         (KB >= 0 && (size_t(KB) >= T.SitesIn.size() || T.SitesIn[size_t(KB)]));
}

// Whether block B's transfer (its reporting list) only completes copies:
// mbarrier waits and redefinitions of a site's base, no check. Such a
// transfer is idempotent and distributes over the join, so a self-loop's
// back edge (a spin loop around try_wait) brings the block nothing that its
// first visit did not pass on.
bool CompletionTracker::onlyCompletes(uint32_t B) {
  if (FF.Blocks[B].FallsOffEnd)
    return false;
  for (uint32_t K : T.ReportEvents.of(B)) {
    OpKind Kd = FF.Insts[K].Op.Kind;
    if (Kd != OpKind::MbarWait &&
        (checkedAt(K) || inSet(StepKinds, Kd) || T.SiteOf[K] >= 0))
      return false;
  }
  return true;
}

// Whether the check at instruction K (checkedAt) could report in S or in
// any state above it: what each check needs before it looks further (a
// copy uncommitted, pending or mixed: pending on some path; a store not
// waited for).
bool CompletionTracker::mayReport(const CompState &S, uint32_t K) {
  const FlowInst &I = FF.Insts[K];
  uint64_t Unsettled = S.F.above(Done); // Mixed or pending
  auto Of = [&](Role R) { return T.RoleSites[size_t(R)]; };
  uint64_t Stores = (Unsettled | S.W.Live) & Of(Role::BulkGroup);
  uint64_t Reads = Unsettled & (Of(Role::CpAsync) | Of(Role::MbarLoad));
  switch (I.Op.Kind) {
  case OpKind::CpAsyncWait: // checkUncommitted, checkWrongKind
    return ((S.U.Live & Of(Role::CpAsync)) |
            (Unsettled & Of(Role::BulkGroup))) != 0;
  case OpKind::CpAsyncWaitAll:
    return (Unsettled & Of(Role::BulkGroup)) != 0;
  case OpKind::BulkWait:
    return ((S.U.Live & Of(Role::BulkGroup)) |
            (Unsettled & Of(Role::CpAsync))) != 0;
  case OpKind::Ret: // checkExit
  case OpKind::Exit:
    return S.U.Live != 0;
  case OpKind::MbarArrive: // checkRelease
    return Stores != 0;
  case OpKind::Store: // checkWrite
  case OpKind::AtomRed:
  case OpKind::StMatrix:
    return isSharedSpace(I.Op.Dst) && Stores != 0;
  case OpKind::Load: // checkRead
  case OpKind::LdMatrix:
    return isSharedSpace(I.Op.Src) && Reads != 0;
  case OpKind::DescriptorRead: // checkDescriptorRead
    return Reads != 0;
  default:
    return false;
  }
}

void CompletionTracker::transfer(uint32_t B, CompState &S, bool Report) {
  // Every visit of a probe (probe()) asks each check whether it could
  // report there, and reports nothing.
  bool Probe = Probing;
  if (Probe && MayReport)
    return; // the probe is over
  const Block &Bl = FF.Blocks[B];
  // Reads come in long runs (unrolled tiles) that leave the state alone:
  // once one finds no pending copy it could hit, the rest of the run skip
  // the search.
  bool NoneWatched = false;
  for (uint32_t K : (Report || Probe ? T.ReportEvents : T.FixEvents).of(B)) {
    if (Probe && checkedAt(K) && mayReport(S, K)) {
      MayReport = true;
      return;
    }
    const FlowInst &I = FF.Insts[K];
    if (PC && T.PathEvent[K])
      PC->apply(K, S.P, [&](auto &&Fn) { S.eachCond(Fn); });
    bool IsRead = I.Op.Kind == OpKind::Load || I.Op.Kind == OpKind::LdMatrix;
    if (!IsRead || I.KillsBase >= 0 || T.SiteOf[K] >= 0)
      NoneWatched = false; // the state may change here
    bool G = I.Guarded;
    auto Commit = [&](Role R) {
      forPending(S, R, [&](uint8_t &F, const Site &St) {
        uint8_t Aged = pending(ageOf(F) + 1);
        F = covers(I, St) ? Aged : joinFact(F, Aged);
      });
    };
    auto Wait = [&](Role R, std::optional<int64_t> N) {
      forPending(S, R, [&](uint8_t &F, const Site &St) {
        if (!N)
          F = Mixed;
        else if (int64_t(ageOf(F)) > *N)
          F = killMaybe(F, !covers(I, St));
      });
    };
    // Every cp.async of the thread completes (wait_all) or is handed to an
    // mbarrier (cp.async.mbarrier.arrive): committed and done.
    auto CompleteAll = [&] {
      forRole(S, Role::CpAsync, [&](uint8_t &F, const Site &St) {
        F = killMaybe(F, !covers(I, St));
      });
      committed(S, Role::CpAsync, nullptr);
    };
    switch (I.Op.Kind) {
    case OpKind::CpAsyncCommit:
      Commit(Role::CpAsync);
      committed(S, Role::CpAsync, nullptr);
      break;
    case OpKind::BulkCommit:
      Commit(Role::BulkGroup);
      committed(S, Role::BulkGroup, nullptr);
      break;
    case OpKind::CpAsyncWait:
      if (Report) {
        checkUncommitted(S, Role::CpAsync, K);
        checkWrongKind(S, false, K);
      }
      Wait(Role::CpAsync, FF.constant(FF.operand(I, I.Op.WaitNOp)));
      break;
    case OpKind::CpAsyncWaitAll:
      if (Report)
        checkWrongKind(S, false, K);
      CompleteAll();
      break;
    case OpKind::CpAsyncMbarrierArrive:
      CompleteAll();
      break;
    case OpKind::BulkWait:
      if (Report) {
        checkUncommitted(S, Role::BulkGroup, K);
        checkWrongKind(S, true, K);
      }
      Wait(Role::BulkGroup, FF.constant(FF.operand(I, I.Op.WaitNOp)));
      S.W.drop([&](size_t X) { return covers(I, T.Sites[X]); });
      break;
    case OpKind::MbarWait:
      for (uint64_t M = waitedSites(K); M; M &= M - 1) {
        size_t X = size_t(__builtin_ctzll(M));
        S.F[X] = killMaybe(S.F[X], G);
      }
      break;
    case OpKind::Call:
      if (C.callHasEffects(I)) {
        for (uint8_t &F : S.F)
          F = killMaybe(F, false);
        S.W.clear();
        committed(S, Role::CpAsync, nullptr);
        committed(S, Role::BulkGroup, nullptr);
      }
      break;
    case OpKind::Ret:
    case OpKind::Exit:
      if (Report)
        checkExit(S, I.Range, K);
      break;
    case OpKind::MbarArrive:
      if (Report)
        checkRelease(S, K);
      break;
    case OpKind::Store:
    case OpKind::AtomRed:
    case OpKind::StMatrix:
      if (Report)
        checkWrite(S, I);
      break;
    case OpKind::Load:
    case OpKind::LdMatrix:
      if (Report && !NoneWatched)
        NoneWatched = !checkRead(S, I);
      break;
    case OpKind::DescriptorRead:
      if (Report)
        checkDescriptorRead(S, I);
      break;
    default:
      break;
    }
    if (T.SiteOf[K] >= 0) {
      size_t X = size_t(T.SiteOf[K]);
      S.F[X] = pending(0);
      if (X < NC) {
        S.U.set(X, S.P);
        if (T.Sites[X].R == Role::BulkGroup)
          S.W.set(X, S.P);
      }
    }
    if (I.KillsBase >= 0 && size_t(I.KillsBase) < T.SitesIn.size())
      for (uint64_t M = T.SitesIn[size_t(I.KillsBase)]; M; M &= M - 1) {
        size_t X = size_t(__builtin_ctzll(M));
        S.F[X] = killMaybe(S.F[X], false);
      }
  }
  if (Probe && Bl.FallsOffEnd && S.U.Live != 0)
    MayReport = true;
  if (Report && Bl.FallsOffEnd) {
    SourceRange End{FF.M.Statements[FF.F.EndStatement - 1].Range};
    checkExit(S, End, uint32_t(FF.Insts.size()));
  }
}

bool CompletionTracker::edge(uint32_t B, size_t X, CompState &S) {
  return !PC || PC->takeEdge(B, X, S.P, [&](auto &&Fn) { S.eachCond(Fn); });
}

bool CompletionTracker::quiet(uint32_t B, bool Report) {
  if (Report)
    return !T.Reports[B];
  return T.FixEvents.none(B) &&
         (!PC || (PC->edge(B, 0).size() == 0 && PC->edge(B, 1).size() == 0));
}

// A solve without the path conditions whose every visit asks each check
// whether it could report there (transfer()): a visit's state is below the
// block's final one, so the probe stops at the first check that could.
// Whether one could.
bool CompletionTracker::probe() {
  // Its visits walk the reporting list (without the path events).
  T.ReportEvents.build(FF, [this](uint32_t K) { return acts(K); });
  auto Transfer = [this](uint32_t B, CompState &S, bool) {
    transfer(B, S, false);
  };
  // (Without the path conditions a state's joins do not depend on their
  // order: a spin loop's back edge can be left out.)
  auto Edge = [this](uint32_t B, size_t X, CompState &) {
    return !MayReport && !(FF.Blocks[B].Succs[X] == B && onlyCompletes(B));
  };
  // A block with a check is visited whenever its state grows (no replays).
  auto Quiet = [this](uint32_t B, bool Report) {
    return Report || (T.ReportEvents.none(B) && !FF.Blocks[B].FallsOffEnd);
  };
  Probing = true;
  bool Solved = solveForward(FF, T.Entry, Transfer, Edge, Quiet);
  Probing = false;
  return !Solved || std::exchange(MayReport, false);
}

// Whether every copy that is committed (cp.async, bulk-group) is
// committed and waited for in its own block ("store; commit_group;
// wait_group.read 0"): the commit checks, and the checks of a store's
// source, then mostly have nothing to find.
bool CompletionTracker::settledInBlock() {
  for (size_t X = 0; X < NC; ++X) {
    const Site &St = T.Sites[X];
    bool Bulk = St.R == Role::BulkGroup;
    IndexRun Ev = FF.Blocks[FF.blockOf(St.Inst)].Events;
    const uint32_t *K = std::lower_bound(Ev.begin(), Ev.end(), St.Inst);
    bool Committed = false, Waited = false;
    for (++K; K < Ev.end() && !Waited; ++K)
      switch (FF.Insts[*K].Op.Kind) {
      case OpKind::CpAsyncCommit:
        Committed = Committed || !Bulk;
        break;
      case OpKind::BulkCommit:
        Committed = Committed || Bulk;
        break;
      case OpKind::CpAsyncWait:
        Waited = Committed && !Bulk;
        break;
      case OpKind::CpAsyncWaitAll:
      case OpKind::CpAsyncMbarrierArrive:
        Waited = !Bulk;
        break;
      case OpKind::BulkWait:
        Waited = Committed && Bulk;
        break;
      default:
        break;
      }
    if (!Waited)
      return false;
  }
  return true;
}

// The events the transfer acts on: when reporting, those that change the
// state and the accesses and exits; during the fixpoint, the first alone
// (read off the reporting list). With the path conditions, their events
// too.
void CompletionTracker::buildEvents() {
  T.ReportEvents.build(
      FF, [this](uint32_t K) { return acts(K); }, PC ? &PC->events() : nullptr);
  // A block whose report visit checks nothing is not replayed (a spin
  // loop around try_wait: a third of async-dense's visits).
  T.Reports.assign(FF.Blocks.size(), 0);
  for (uint32_t B = 0; B < FF.Blocks.size(); ++B) {
    bool Checks = FF.Blocks[B].FallsOffEnd;
    for (uint32_t K : T.ReportEvents.of(B))
      Checks = Checks || checkedAt(K);
    T.Reports[B] = Checks;
  }
  T.FixEvents.narrow(T.ReportEvents, [this](uint32_t K) {
    return (PC && T.PathEvent[K]) || changes(K);
  });
}

void CompletionTracker::run() {
  if (T.Sites.empty())
    return;
  CompState &Entry = T.Entry;
  Entry.F.assign(T.Sites.size(), Absent);
  Entry.U.clear();
  Entry.W.clear();
  Entry.W.N = Entry.U.N = NC;
  Entry.P.setTrue();
  bool Commits = false;
  for (const Site &St : T.Sites)
    Commits |= St.R != Role::MbarLoad;
  auto Transfer = [this](uint32_t B, CompState &S, bool Report) {
    transfer(B, S, Report);
  };
  auto Edge = [this](uint32_t B, size_t X, CompState &S) {
    return edge(B, X, S);
  };
  auto Quiet = [this](uint32_t B, bool Report) { return quiet(B, Report); };
  if (Commits && (HasCommit || HasBulkCommit)) {
    // The path conditions only take away: an edge that cannot be taken, a
    // commit condition contradicted. Without them every fact holds on at
    // least the paths it holds on with them (a pending copy is pending or
    // mixed, an uncommitted one uncommitted), so where no check could
    // report in a solve without them, none can with them, and they are
    // neither built nor carried (their set-up and literals were half the
    // tracking's cost on async-dense's functions). That probe is tried
    // where each copy is committed and waited for in its own block:
    // elsewhere (a store and its commit behind two tests of one register)
    // a check finds something to look at without them, late in the
    // function, and the probe would be a second solve.
    if (settledInBlock() && !probe())
      return;
    PC.emplace(FF);
    T.PathEvent.assign(FF.Insts.size(), 0);
    for (uint32_t K : PC->events())
      T.PathEvent[K] = 1;
  }
  buildEvents();
  if (!solveForward(FF, Entry, Transfer, Edge, Quiet))
    return;
  for (const Candidate &Cd : T.WrongKind)
    emitWrongKind(Cd.Site, Cd.Wait, Cd.BulkWait);
}

void runCompletionRules(const FlowRuleContext &C) {
  CompletionTracker T(C);
  T.run();
}

} // namespace flow
} // namespace ptxlint
