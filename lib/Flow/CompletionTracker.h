//===- CompletionTracker.h - The tracking F401, F402, F406, F407 share ----===//
//
// One forward dataflow tracks, per copy instruction ("site"), whether its
// most recent execution is uncommitted, committed (and how many commits of
// its kind followed), or complete, along every path (CompletionRules.cpp).
// The rules read that state at the instructions they judge, each in its own
// file:
//   * F401/F402 (CommitRules.cpp): a copy not committed before the wait
//     meant for it or before the exit; a wait of the wrong kind;
//   * F406 (WriteInFlightRule.cpp): shared memory a bulk store may still be
//     reading, rewritten or released to another role;
//   * F407 (ReadBeforeCompleteRule.cpp): a copy's destination read before
//     the copy is known to be complete.
// One solve serves the four: their facts are the same per-site states, and a
// solve per rule would repeat the fixpoint (the flow pass's largest cost).
// Where no check could report even without the path conditions (a cheaper
// solve, the probe: run()), that one is all.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_FLOW_COMPLETIONTRACKER_H
#define PTXLINT_FLOW_COMPLETIONTRACKER_H

#include "Flow/Dataflow.h"
#include "Flow/FlowRules.h"
#include "Flow/PathConditions.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxlint {
namespace flow {

enum class Role : uint8_t { CpAsync, BulkGroup, MbarLoad };

struct Site {
  uint32_t Inst;
  Role R;
  AddrKey Dst, Src, Mbar;
  uint64_t Bytes = 0;      ///< CompletionTracker::bytesOf()
  bool BytesKnown = false; ///< Bytes found (most sites are never asked)
};

constexpr size_t MaxSites = 64;

/// One may-fact condition per committed site. Live marks the sites whose
/// condition holds (at most MaxSites = 64); only their entries of V are
/// read, so that a state holding a fact or two (a store between its issue
/// and its commit) copies those alone: states are copied on every visit,
/// and most hold no fact (a main loop's, an epilogue's after its commits and
/// waits). V is sized for every site once, when a fact is first set, and
/// keeps its buffer when the facts go (no refill, no reallocation). The path
/// events and edges, which only ever weaken a condition, visit the live
/// conditions alone.
struct MayConds {
  std::vector<Cond> V; ///< per site; V[K] meaningful only where Live has K
  size_t N = 0;        ///< number of sites
  uint64_t Live = 0;   ///< bit K: V[K] holds
  MayConds() = default;
  MayConds(const MayConds &O) : N(O.N) { *this = O; }
  MayConds &operator=(const MayConds &O) {
    N = O.N;
    Live = O.Live;
    if (Live) {
      size_t Need = O.V.size();
      if (V.size() < Need)
        V.resize(Need);
      for (uint64_t M = Live; M; M &= M - 1) {
        size_t K = size_t(__builtin_ctzll(M));
        V[K] = O.V[K];
      }
    }
    return *this;
  }
  bool holds(size_t K) const { return K < 64 && (Live >> K & 1); }
  void set(size_t K, const PathLits &P) {
    if (V.size() < N)
      V.resize(N);
    V[K].assignFrom(P);
    mark(K);
  }
  void clear() { Live = 0; }
  /// Drops the facts of the sites Pred names.
  template <class PredFn> void drop(PredFn &&Pred) {
    for (uint64_t M = Live; M; M &= M - 1) {
      size_t K = size_t(__builtin_ctzll(M));
      if (Pred(K))
        Live &= ~(uint64_t(1) << K);
    }
  }
  bool join(const MayConds &O) {
    bool Changed = false;
    for (uint64_t M = O.Live; M; M &= M - 1) { // joinMay(none) changes nothing
      size_t K = size_t(__builtin_ctzll(M));
      uint64_t Bit = uint64_t(1) << K;
      if (!(Live & Bit)) { // none here: O's condition as it is
        if (V.size() < O.V.size())
          V.resize(O.V.size());
        V[K] = O.V[K];
        Live |= Bit;
        Changed = true;
      } else {
        Changed |= V[K].joinMay(O.V[K]); // (holds after: an intersection)
      }
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

inline bool isSharedSpace(Space S) {
  return S == Space::SharedCta || S == Space::SharedCluster ||
         S == Space::Generic;
}

/// "cp.async", "bulk store", "tensor load" ...: the copy as messages name it.
std::string opName(const FlowInst &I);

/// The writers of shared memory whose waiters make an arrive a release
/// (CheckRelease): the object a generic or async write to shared memory
/// writes, or -1.
struct RewrittenObject {
  const FlowFunction *FF;
  int32_t operator()(const FlowInst &I) const;
};

class CompletionTracker {
  struct Candidate {
    uint32_t Site, Wait;
    bool BulkWait;
  };

public:
  explicit CompletionTracker(const FlowRuleContext &C);
  ~CompletionTracker() { KeptTables<Tables>::keep(T, FF.Insts.size()); }
  /// Solves the tracking and reports what the rules find.
  void run();

private:
  const FlowRuleContext &C;
  const FlowFunction &FF;
  /// The function's tables (a small function's kept: Dataflow.h); the
  /// constructor resets them.
  struct Tables {
    std::vector<Site> Sites;
    std::vector<uint32_t> Loads;     ///< (the constructor's MbarLoads)
    std::vector<int32_t> SiteOf;     ///< per instruction: its site, or -1
    std::vector<char> ReportedSite;  ///< F401/F402
    std::vector<char> ReportedUse;   ///< F406/F407
    std::vector<uint32_t> OfRole[3]; ///< per Role: its sites, in order
    uint64_t RoleSites[3];           ///< per Role: its sites (bit K: site K)
    /// Per base: the sites whose destination, source or barrier is in it
    /// (bit K: site K), forgotten where an instruction redefines the base.
    std::vector<uint64_t> SitesIn;
    /// Per instruction: waitedSites(), once known.
    std::vector<uint64_t> WaitedBy;
    std::vector<char> WaitKnown;
    std::vector<char> PathEvent; ///< per instruction: a PathConditions event
    std::vector<char> Reports;   ///< per block: an instruction checkedAt()
    /// The events the transfer acts on: when reporting, and in the fixpoint.
    EventLists ReportEvents, FixEvents;
    /// A wait of the other kind, judged after the solve (emitWrongKind) for
    /// copies still pending at the exits.
    std::vector<Candidate> WrongKind;
    CompState Entry;  ///< the state at the function's entry
    CompState AtExit; ///< the join of the states at the exits
  };
  Tables T;
  bool Complete = true; ///< every copy has a site (none past MaxSites)
  /// The committed sites come first; only they have commit conditions (U)
  /// and, for bulk stores, "no wait since" facts (W): the states stay small
  /// in kernels whose many TMA loads fill the rest of the sites.
  size_t NC = 0;
  bool HasCommit = false, HasBulkCommit = false, HasArriveHandOver = false;

  // --- the tracking (CompletionRules.cpp) ---
  /// Fn(fact, site) for each site of role R.
  template <class Fn> void forRole(CompState &S, Role R, Fn &&F) {
    for (uint32_t K : T.OfRole[size_t(R)])
      F(S.F[K], T.Sites[K]);
  }
  /// Fn(fact, site) for each site of role R whose fact is pending (a
  /// commit or wait visits those alone).
  template <class Fn> void forPending(CompState &S, Role R, Fn &&F) {
    for (uint64_t M = S.F.above(Mixed) & T.RoleSites[size_t(R)]; M;
         M &= M - 1) {
      size_t K = size_t(__builtin_ctzll(M));
      F(S.F[K], T.Sites[K]);
    }
  }
  bool covers(const FlowInst &Op, const Site &St);
  uint64_t waitedSites(uint32_t K);
  /// The bytes site K's copy moves, 0 when unknown.
  uint64_t bytesOf(size_t K);
  void committed(CompState &S, Role R, const FlowInst *Op);
  bool checkedAt(uint32_t K);
  bool changes(uint32_t K);
  void buildEvents();
  bool settledInBlock();
  bool acts(uint32_t K);
  bool onlyCompletes(uint32_t B);
  bool mayReport(const CompState &S, uint32_t K);
  bool probe();
  /// In probe(); MayReport: a check could report, and the probe stops.
  bool Probing = false, MayReport = false;
  void transfer(uint32_t B, CompState &S, bool Report);
  bool edge(uint32_t B, size_t X, CompState &S);
  bool quiet(uint32_t B, bool Report);
  // Branch correlation matters to the commit checks only.
  std::optional<PathConditions> PC;

  // --- F401/F402 (CommitRules.cpp) ---
  void noteCommitPlace(FlowDiag &D, const CompState &S, Role R,
                       uint32_t Before);
  void checkUncommitted(const CompState &S, Role R, uint32_t WaitK);
  void checkWrongKind(const CompState &S, bool BulkWait, uint32_t WaitK);
  void emitWrongKind(uint32_t SiteK, uint32_t WaitK, bool BulkWait);
  void checkExit(const CompState &S, SourceRange ExitAt, uint32_t ExitK);

  // --- F406 (WriteInFlightRule.cpp) ---
  void noteUnwaited(FlowDiag &D, size_t Victim, size_t Trigger);
  bool storeActive(const CompState &S, bool Loose);
  void checkWrite(const CompState &S, const FlowInst &W);
  void buildStages();
  bool coveredBetween(uint32_t From, uint32_t To);
  bool checkStageRelease(const CompState &S, uint32_t AtK, const AddrKey &Bar);
  bool ringRefills(uint32_t AtK, size_t K);
  bool releases(const AddrKey &Bar, size_t K, uint32_t AtK);
  void checkRelease(const CompState &S, uint32_t AtK);
  /// Barriers whose waiters then write shared memory: a waiter that
  /// rewrites object O after its try_wait on barrier X makes an arrive on X
  /// a release of O (hand-written kernels keep barriers apart from their
  /// buffers).
  BarrierBinding<RewrittenObject> Rewriters;
  /// Stage bindings (CUTLASS 77's epilogue: wait FULL[0]; store half 0;
  /// commit; wait FULL[1]; store half 1; commit; wait_group.read 1; arrive
  /// EMPTY[0]; wait_group.read 0; arrive EMPTY[1]; the correction warps
  /// wait EMPTY[k] and then arrive on FULL[k]). A bulk store belongs to the
  /// stage whose full barrier the nearest wait before it (in program order)
  /// waited on; the stage of a release E is the barrier that E's waiters
  /// signal first after waiting on it. Constant addresses only.
  struct StageBinding {
    bool Built = false;
    std::vector<AddrKey> Acquired; ///< per site (any wait's)
    std::vector<char> Waited;      ///< per site: a wait before it
    std::vector<std::pair<AddrKey, AddrKey>> Refill; ///< (E, F)
  } Stages;

  // --- F407 (ReadBeforeCompleteRule.cpp) ---
  bool watched(const CompState &S, size_t K);
  size_t firstWatched(const CompState &S);
  void checkReadAt(const CompState &S, const FlowInst &Rd, size_t First,
                   const AddrKey &A, uint64_t Bytes, const Opnd *RdAddr);
  bool checkRead(const CompState &S, const FlowInst &Rd);
  void checkDescriptorRead(const CompState &S, const FlowInst &Rd);
};

} // namespace flow
} // namespace ptxlint
#endif
