//===- CommitRules.cpp - F401, F402: copies committed and waited right ----===//
//
// Read from the completion tracking (CompletionTracker.h) at each wait and
// exit: a copy not committed before the wait meant for it, or before the
// kernel exits (F401 for cp.async, F402 for .bulk_group operations), and a
// copy waited for with the other kind's wait (F402).
//
//===----------------------------------------------------------------------===//

#include "Flow/CompletionTracker.h"

#include <algorithm>
#include <optional>

namespace ptxlint {
namespace flow {

// Where the missing commit goes: after the last copy of kind R that is
// still uncommitted in S, before instruction Before in the text if one
// is (the group's last store), on its own path (through an if-else's
// "bra.uni JOIN").
void CompletionTracker::noteCommitPlace(FlowDiag &D, const CompState &S, Role R,
                                        uint32_t Before) {
  int64_t Last = -1, LastAny = -1;
  for (size_t K = 0; K < NC; ++K) {
    if (T.Sites[K].R != R || !S.U.holds(K))
      continue;
    int64_t I = T.Sites[K].Inst;
    LastAny = std::max(LastAny, I);
    if (I < int64_t(Before))
      Last = std::max(Last, I);
  }
  if (Last < 0)
    Last = LastAny;
  uint32_t X =
      Last < 0 ? uint32_t(FF.Insts.size()) : FF.nextExecuted(uint32_t(Last));
  if (X < FF.Insts.size())
    D.note(FF.Insts[X].Range, R == Role::BulkGroup
                                  ? "add cp.async.bulk.commit_group here, "
                                    "after the group's last bulk operation"
                                  : "add cp.async.commit_group here, after "
                                    "the group's last cp.async");
}

// A wait of kind R: copies of that kind that are still uncommitted.
// "cp.async.wait_group N" with N > 0 may deliberately leave the newest,
// not yet committed copies in flight ("issue next stage, wait for the
// older one, then commit"), so only wait_group 0 is judged, unless the
// function never commits cp.async at all. Bulk stores are committed right
// after they are issued (the source must not be rewritten before a .read
// wait covers them), so every bulk wait is judged: the store, its commit
// and the wait are often guarded by separate tests of one register, which
// the path conditions correlate.
void CompletionTracker::checkUncommitted(const CompState &S, Role R,
                                         uint32_t WaitK) {
  const FlowInst &W = FF.Insts[WaitK];
  auto N = FF.constant(FF.operand(W, W.Op.WaitNOp));
  bool NeverCommits =
      R == Role::CpAsync ? !HasCommit && !HasArriveHandOver : !HasBulkCommit;
  if (!N || (R == Role::CpAsync && *N != 0 && !NeverCommits))
    return;
  for (size_t K = 0; K < NC; ++K) {
    if (T.Sites[K].R != R || !S.U.holds(K) || T.ReportedSite[K])
      continue;
    T.ReportedSite[K] = 1;
    const FlowInst &Cp = FF.Insts[T.Sites[K].Inst];
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
    noteCommitPlace(D, S, R, WaitK);
  }
}

void CompletionTracker::checkWrongKind(const CompState &S, bool BulkWait,
                                       uint32_t WaitK) {
  if (!Complete || !FF.F.IsEntry)
    return;
  Role Own = BulkWait ? Role::BulkGroup : Role::CpAsync;
  Role Other = BulkWait ? Role::CpAsync : Role::BulkGroup;
  int32_t Witness = -1;
  for (size_t K = 0; K < T.Sites.size(); ++K) {
    if (T.Sites[K].R == Own && S.F[K] != Absent && S.F[K] != Done)
      return;
    if (T.Sites[K].R == Other && isPending(S.F[K]) && Witness < 0 &&
        !T.ReportedSite[K])
      Witness = int32_t(K);
  }
  if (Witness < 0)
    return;
  T.WrongKind.push_back({uint32_t(Witness), WaitK, BulkWait});
}

// Emitted after the solve, for copies still pending at the exits: a
// later wait of the right kind means the wrong one was incidental.
void CompletionTracker::emitWrongKind(uint32_t SiteK, uint32_t WaitK,
                                      bool BulkWait) {
  if (T.ReportedSite[SiteK] || !isPending(T.AtExit.F[SiteK]))
    return;
  T.ReportedSite[SiteK] = 1;
  const FlowInst &Cp = FF.Insts[T.Sites[SiteK].Inst];
  const FlowInst &W = FF.Insts[WaitK];
  if (BulkWait)
    C.diag(rules::FlowBulkGroupProtocol, Cp.Range,
           "cp.async is waited for with cp.async.bulk.wait_group, which "
           "covers bulk async-groups only")
        .note(W.Range, "this bulk wait does not wait for cp.async; use "
                       "cp.async.commit_group and cp.async.wait_group");
  else
    C.diag(rules::FlowBulkGroupProtocol, Cp.Range,
           opName(Cp) +
               " is a bulk async-group operation, but it is waited "
               "for with " +
               std::string(W.Head) + ", which covers cp.async only")
        .note(W.Range, "this wait does not cover bulk async-groups; use "
                       "cp.async.bulk.commit_group and "
                       "cp.async.bulk.wait_group");
}

void CompletionTracker::checkExit(const CompState &S, SourceRange ExitAt,
                                  uint32_t ExitK) {
  T.AtExit.join(S);
  if (!FF.F.IsEntry)
    return; // a .func may leave commits to its caller
  for (size_t K = 0; K < NC; ++K) {
    Role R = T.Sites[K].R;
    if (!S.U.holds(K) || T.ReportedSite[K])
      continue;
    if (!((R == Role::CpAsync && HasCommit) ||
          (R == Role::BulkGroup && HasBulkCommit)))
      continue;
    T.ReportedSite[K] = 1;
    const FlowInst &Cp = FF.Insts[T.Sites[K].Inst];
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
    noteCommitPlace(D, S, R, ExitK);
  }
}

} // namespace flow
} // namespace ptxlint
