//===- WaitCountRule.cpp - F403: wait_group N that waits for nothing ------===//
//
// Counts, per kind (cp.async groups, bulk async-groups), the largest number
// of committed groups that can be outstanding at each point over all paths
// (saturating: past Cap the count is "many" and the rule is silent). A
// wait_group N with N at least that count cannot wait for anything: the
// groups the code meant to wait for are not there (typically N is off by
// one, or the commit is missing). Only in kernels (a .func may inherit
// groups from its caller), only after a commit was seen, and not after a
// call that may commit or wait itself.
//
// A no-op wait is not reported when another wait of the same kind and N
// does wait for something: that is the first step of an unrolled pipeline
// ("commit; wait_group.read 1" per subtile, CUTLASS epilogues), where the
// first instance waits for nothing by construction and cannot be removed.
//
//===----------------------------------------------------------------------===//

#include "Flow/Dataflow.h"
#include "Flow/FlowRules.h"

#include <algorithm>

namespace ptxlint {
namespace flow {
namespace {

constexpr uint8_t Cap = 16; ///< counts at Cap mean "many" (pipelines are shallower)

struct Counts {
  /// [0] cp.async groups, [1] bulk groups not known complete, [2] bulk
  /// groups whose source reads are not known complete (.read waits).
  uint8_t N[3] = {0, 0, 0};
  bool AnyCommit[2] = {false, false};
  bool Unknown = false;
  int32_t LastCommit[2] = {-1, -1}; ///< a commit on some path (for the note)
  bool join(const Counts &O) {
    bool Changed = false;
    for (int K = 0; K < 3; ++K)
      if (O.N[K] > N[K]) {
        N[K] = O.N[K];
        Changed = true;
      }
    for (int K = 0; K < 2; ++K) {
      if (O.AnyCommit[K] && !AnyCommit[K]) {
        AnyCommit[K] = true;
        Changed = true;
      }
      if (O.LastCommit[K] > LastCommit[K]) {
        LastCommit[K] = O.LastCommit[K];
        Changed = true;
      }
    }
    if (O.Unknown && !Unknown) {
      Unknown = true;
      Changed = true;
    }
    return Changed;
  }
};

/// A commit missing inside the group that the commit at Last closes: going
/// back from Last to the previous commit or wait of its kind, the group's
/// copies come in two runs separated by an mbarrier wait or a CTA barrier
/// (CUTLASS 77's epilogue stores one half of a tile, commits, waits for the
/// other half, stores it, commits: without the first commit both halves
/// are one group and "wait_group.read 1" waits for neither). The place
/// after the earlier run's last copy, or -1.
int64_t splitGroupAt(const FlowFunction &FF, uint32_t Last, bool Bulk) {
  OpKind Commit = Bulk ? OpKind::BulkCommit : OpKind::CpAsyncCommit;
  OpKind Wait = Bulk ? OpKind::BulkWait : OpKind::CpAsyncWait;
  auto IsCopy = [&](const FlowInst &I) {
    return Bulk ? I.Op.isCopy() && I.Op.Comp == Completion::BulkGroup
                : I.Op.Kind == OpKind::CpAsync;
  };
  bool Copies = false, Synced = false;
  for (uint32_t X = Last, N = 0; X-- > 0 && N < 4096; ++N) {
    const FlowInst &I = FF.Insts[X];
    if (I.Op.Kind == Commit || I.Op.Kind == Wait ||
        I.Op.Kind == OpKind::CpAsyncWaitAll || I.Op.Kind == OpKind::Call)
      return -1;
    if (IsCopy(I)) {
      if (Synced)
        return FF.nextExecuted(X);
      Copies = true;
    } else if (Copies &&
               (I.Op.Kind == OpKind::MbarWait || I.Op.Kind == OpKind::Barrier)) {
      Synced = true;
    }
  }
  return -1;
}

} // namespace

void runWaitCountRule(const FlowRuleContext &C) {
  const FlowFunction &FF = C.FF;
  // A .func may inherit groups from its caller: its count is unknown from
  // the start and stays so (nothing to report).
  if (!FF.F.IsEntry)
    return;
  // The events the transfer below acts on (all of them have a role), and
  // whether any wait can be reported: only a wait_group N with N >= 1 can
  // find N or fewer groups outstanding while one is (a wait_group 0 always
  // waits for one). A function whose waits are all wait_group 0 (most
  // wrappers and single-stage kernels) costs one pass over its role
  // instructions. A negative N is the checker's (O209): here it only stops
  // the count.
  constexpr KindSet Waits = kindSet({OpKind::CpAsyncWait, OpKind::BulkWait});
  bool CanReport = false;
  for (uint32_t K : roleInstsOf(FF, Waits)) {
    const FlowInst &I = FF.Insts[K];
    if (auto N = FF.constant(FF.operand(I, I.Op.WaitNOp)); N && *N >= 1) {
      CanReport = true;
      break;
    }
  }
  if (!CanReport)
    return;
  Counts Entry;
  EventLists Events;
  Events.assign(FF, roleInstsOf(FF, Waits | kindSet({OpKind::CpAsyncCommit,
                                                     OpKind::BulkCommit,
                                                     OpKind::CpAsyncWaitAll,
                                                     OpKind::Call})));
  struct NoOp {
    uint32_t Inst;
    int Slot;
    int64_t N;
    uint8_t Outstanding;
    int32_t LastCommit;
  };
  std::vector<NoOp> NoOps;
  // (slot, N) of the waits that do wait on some path (at most one entry a
  // wait, each block being reported once: one allocation, not one per
  // doubling).
  std::vector<std::pair<int, int64_t>> Effective;
  Effective.reserve(FF.count(OpKind::CpAsyncWait) + FF.count(OpKind::BulkWait));
  auto Transfer = [&](uint32_t B, Counts &S, bool Report) {
    for (uint32_t K : Events.of(B)) {
      const FlowInst &I = FF.Insts[K];
      bool G = I.Guarded;
      switch (I.Op.Kind) {
      case OpKind::CpAsyncCommit:
      case OpKind::BulkCommit: {
        int X = I.Op.Kind == OpKind::BulkCommit;
        if (S.N[X] < Cap)
          S.N[X]++;
        if (X && S.N[2] < Cap)
          S.N[2]++;
        S.AnyCommit[X] = true;
        S.LastCommit[X] = int32_t(K);
        break;
      }
      case OpKind::CpAsyncWait:
      case OpKind::BulkWait: {
        int X = I.Op.Kind == OpKind::BulkWait;
        int Slot = X && I.Op.ReadOnly ? 2 : X;
        auto N = FF.constant(FF.operand(I, I.Op.WaitNOp));
        if (!N || *N < 0)
          break;
        if (Report && !S.Unknown && S.AnyCommit[X] && S.N[Slot] >= 1 &&
            S.N[Slot] < Cap && int64_t(S.N[Slot]) <= *N)
          NoOps.push_back({K, Slot, *N, S.N[Slot], S.LastCommit[X]});
        else if (Report)
          Effective.push_back({Slot, *N});
        if (!G) {
          if (Slot != 2 && *N < S.N[X])
            S.N[X] = uint8_t(*N);
          if (X && *N < S.N[2])
            S.N[2] = uint8_t(*N);
        }
        break;
      }
      case OpKind::CpAsyncWaitAll:
        if (!G)
          S.N[0] = 0;
        break;
      case OpKind::Call:
        if (C.callHasEffects(I))
          S.Unknown = true;
        break;
      default:
        break;
      }
    }
  };
  solveForward(FF, Entry, Transfer, AnyEdge(),
               [&](uint32_t B, bool) { return Events.none(B); });
  for (const NoOp &W : NoOps) {
    if (std::find(Effective.begin(), Effective.end(),
                  std::make_pair(W.Slot, W.N)) != Effective.end())
      continue;
    const FlowInst &I = FF.Insts[W.Inst];
    auto D = C.diag(rules::FlowWaitGroupNoop, I.Range,
                    std::string(I.Head) + " " + std::to_string(W.N) +
                        " waits for nothing: at most " +
                        std::to_string(W.Outstanding) +
                        (W.Outstanding == 1 ? " group is" : " groups are") +
                        " outstanding here on any path, so no group "
                        "has to complete");
    if (W.LastCommit < 0)
      continue;
    D.note(FF.Insts[size_t(W.LastCommit)].Range,
           "most recent commit_group before the wait");
    int64_t Split = splitGroupAt(FF, uint32_t(W.LastCommit), W.Slot != 0);
    if (Split >= 0 && size_t(Split) < FF.Insts.size())
      D.note(FF.Insts[size_t(Split)].Range,
             "or a commit_group is missing here: the copies before and after "
             "this point, across a wait, are one group");
  }
}

} // namespace flow
} // namespace ptxlint
