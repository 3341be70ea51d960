//===- MbarrierTxRule.cpp - F404: mbarrier transaction byte accounting ----===//
//
// For each mbarrier (an address resolved to a shared symbol + offset, or to
// one register's value), sums along each path, within one phase, the bytes
// it is told to expect (expect_tx, arrive.expect_tx) and the bytes signalled
// to it (complete_tx of bulk copies with an immediate or constant size,
// tensor copies with a known box size, mbarrier.complete_tx). A phase ends
// where the code waits on the barrier (try_wait/test_wait); there both sums
// must agree. Paths that disagree, unknown sizes, multicast and
// .cta_group::2 signals (they reach other CTAs' barriers), predicates that
// differ between contributions, or any unresolvable barrier make the barrier
// Unknown, and the rule is silent for that phase.
//
//===----------------------------------------------------------------------===//

#include "Flow/Dataflow.h"
#include "Flow/FlowRules.h"

#include <algorithm>

namespace ptxlint {
namespace flow {
namespace {

/// A barrier's sums in the current phase. No member initializers: the
/// states' arrays of entries are not constructed (fresh() is the start).
struct Entry { // 32 bytes: states copy these per block visit
  int64_t Expected, Signalled;
  int32_t Guard;
  int32_t ExpectAt, SignalAt; ///< first contributions (notes); -1: none
  enum Kind : uint8_t { Absent, Known, Unknown } K;
  bool HasExpect, HasSignal;
  static Entry fresh() { return {0, 0, 0, -1, -1, Absent, false, false}; }
  bool sameFacts(const Entry &O) const {
    return Expected == O.Expected && Signalled == O.Signalled &&
           HasExpect == O.HasExpect && HasSignal == O.HasSignal &&
           Guard == O.Guard;
  }
};

constexpr size_t MaxBarriers = 16;

/// One entry per tracked barrier, inline (states are copied on every block
/// visit); only the first N are constructed, copied and read. Cap: most
/// functions track at most 4 barriers (CUTLASS 77: 2 or 4, async-dense 4),
/// and a solve's states are an array of one per block, so a state sized for
/// MaxBarriers was mostly unread bytes (and cache misses) in a large kernel.
template <size_t Cap> struct TxState {
  Entry E[Cap];
  uint32_t N = 0;
  TxState() {} // (user-provided: the entries stay unset, not zeroed)
  TxState(const TxState &O) : N(O.N) { std::copy(O.E, O.E + N, E); }
  TxState &operator=(const TxState &O) {
    N = O.N;
    std::copy(O.E, O.E + N, E);
    return *this;
  }
  void assign(size_t Count, const Entry &X) {
    N = uint32_t(Count);
    std::fill(E, E + Count, X);
  }
  Entry *begin() { return E; }
  Entry *end() { return E + N; }
  bool join(const TxState &O) {
    bool Changed = false;
    for (size_t K = 0; K < N; ++K) {
      Entry &A = E[K];
      const Entry &B = O.E[K];
      if (B.K == Entry::Absent || A.K == Entry::Unknown)
        continue;
      if (A.K == Entry::Absent) {
        A = B;
        Changed = true;
        continue;
      }
      if (B.K == Entry::Unknown || !A.sameFacts(B)) {
        A.K = Entry::Unknown;
        Changed = true;
        continue;
      }
      // Same sums: keep the earliest witnesses so the result is stable.
      if (B.ExpectAt >= 0 && (A.ExpectAt < 0 || B.ExpectAt < A.ExpectAt)) {
        A.ExpectAt = B.ExpectAt;
        Changed = true;
      }
      if (B.SignalAt >= 0 && (A.SignalAt < 0 || B.SignalAt < A.SignalAt)) {
        A.SignalAt = B.SignalAt;
        Changed = true;
      }
    }
    return Changed;
  }
};

} // namespace

void runMbarrierTxRule(const FlowRuleContext &C) {
  const FlowFunction &FF = C.FF;
  // The barriers: every resolved mbarrier operand, in order of appearance
  // (the first MaxBarriers; an operation on any other is an unknown one).
  std::vector<AddrKey> Keys;
  auto KeyIndex = [&](const AddrKey &A) -> int32_t {
    if (!A.valid() || !A.OffKnown)
      return -1;
    for (size_t K = 0; K < Keys.size(); ++K)
      if (Keys[K] == A)
        return int32_t(K);
    return -1;
  };
  // What the transfer below does at an mbarrier operation (None: nothing).
  enum Act : uint8_t { None, Expect, Signal, Remote, Wait, Init };
  auto ActOf = [](const AsyncOp &Op) {
    if (Op.Kind == OpKind::MbarExpectTx || Op.Kind == OpKind::MbarArriveExpectTx)
      return Expect;
    if (Op.Kind == OpKind::AsyncStore) // (its barrier is another CTA's)
      return Remote;
    if (Op.Kind == OpKind::MbarCompleteTx ||
        (Op.isCopy() && Op.Comp == Completion::Mbarrier))
      return Signal;
    if (Op.Kind == OpKind::MbarWait)
      return Wait;
    if (Op.Kind == OpKind::MbarInit)
      return Init;
    return None;
  };
  struct Use {
    uint32_t Inst;
    int32_t Key; ///< index in Keys; -1: unresolved or past MaxBarriers
  };
  std::vector<Use> Ops; // the mbarrier operations the transfer acts on
  std::vector<uint32_t> Calls;
  Keys.reserve(MaxBarriers);
  uint8_t Seen[MaxBarriers] = {}; // per key: the Acts met, one bit each
  std::vector<uint32_t> Mine = roleInstsOf(FF, kindSet({OpKind::Call}), true);
  Ops.reserve(Mine.size()); // (one allocation, not a dozen)
  for (uint32_t RK : Mine) {
    const FlowInst &I = FF.Insts[RK];
    if (I.Op.Kind == OpKind::Call)
      Calls.push_back(RK);
    if (I.Op.MbarOp < 0)
      continue;
    AddrKey Addr = FF.address(FF.operand(I, I.Op.MbarOp));
    int32_t X = KeyIndex(Addr);
    if (X < 0 && Addr.valid() && Addr.OffKnown && Keys.size() < MaxBarriers) {
      X = int32_t(Keys.size()); // (every operation's barrier counts here)
      Keys.push_back(Addr);
    }
    Act A = ActOf(I.Op);
    if (A == None)
      continue;
    Ops.push_back({RK, X});
    if (X >= 0)
      Seen[X] |= uint8_t(1u << A);
  }
  // The bytes a contribution adds to its phase's sum (A: Expect or Signal),
  // when known.
  auto BytesOf = [&](const FlowInst &I, Act A) -> std::optional<int64_t> {
    const AsyncOp &Op = I.Op;
    if (A == Expect || Op.Kind == OpKind::MbarCompleteTx)
      return FF.constant(FF.operand(I, Op.BytesOp));
    if (A == Signal && !Op.Multicast && !Op.CtaGroup2)
      if (auto V = C.copyBytes(I))
        return int64_t(*V);
    return std::nullopt;
  };
  // Only a barrier that is told to expect bytes, signalled and waited for
  // here can be reported, and only if some expect and some signal of it
  // have a known byte count (a phase with an unknown one is Unknown: the
  // tensor copies' boxes, unless annotated). Nor can one whose expects and
  // signals pair up: in program order, each expect (signal) followed by a
  // signal (expect) of the same known count in its block, with no wait or
  // init of the barrier between ("arrive.expect_tx; copy" per stage). A
  // phase starts only at a wait, an init or the entry, so every path takes
  // whole pairs in it, and its sums agree. The others' sums are never
  // compared, so they are not tracked and their operations are no events
  // (CUTLASS's empty and tensor-memory barriers; most of a kernel's).
  // Tracked[X]: the barrier's index in the state, -1 if not tracked.
  const uint8_t Reportable = (1u << Expect) | (1u << Signal) | (1u << Wait);
  struct Sums {
    bool Known[2] = {false, false}; ///< an expect, a signal of known count
    bool Paired = true;             ///< so far
    bool Open = false;              ///< a contribution waits for its pair:
    bool OpenSignal = false;        ///< a signal (else an expect),
    uint32_t OpenBlock = 0;         ///< in this block,
    int64_t OpenBytes = 0;          ///< of this count
  };
  Sums Of[MaxBarriers];
  for (const Use &U : Ops) {
    if (U.Key < 0 || (Seen[U.Key] & Reportable) != Reportable)
      continue;
    const FlowInst &I = FF.Insts[U.Inst];
    Act A = ActOf(I.Op);
    Sums &S = Of[U.Key];
    if (A == Wait || A == Init) {
      S.Paired &= !S.Open;
      continue;
    }
    std::optional<int64_t> B = BytesOf(I, A);
    if (A != Expect && A != Signal) {
      S.Paired = false; // (Remote)
    } else if (B) {
      S.Known[A == Signal] = true;
      uint32_t Bl = FF.blockOf(U.Inst);
      if (!S.Open) {
        S.Open = true;
        S.OpenSignal = A == Signal;
        S.OpenBlock = Bl;
        S.OpenBytes = *B;
      } else {
        S.Paired &= S.OpenSignal != (A == Signal) && S.OpenBlock == Bl &&
                    S.OpenBytes == *B;
        S.Open = false;
      }
    } else {
      S.Paired = false;
    }
  }
  int8_t Tracked[MaxBarriers];
  std::vector<AddrKey> Live; // the tracked barriers
  for (size_t X = 0; X < Keys.size(); ++X) {
    const Sums &S = Of[X];
    Tracked[X] = -1;
    if ((Seen[X] & Reportable) == Reportable && S.Known[0] && S.Known[1] &&
        !(S.Paired && !S.Open)) {
      Tracked[X] = int8_t(Live.size());
      Live.push_back(Keys[X]);
    }
  }
  if (Live.empty())
    return;
  // Per instruction, what the transfer does there: a tracked barrier's
  // operation (its index in the state), an operation on a barrier we
  // cannot name (Unnamed: it may be any tracked one), nothing (Skip), or
  // Look: a call or a base redefinition, read from the instruction (and
  // those without a role: the events hold them for their redefinitions).
  // Asked on every visit.
  constexpr int8_t Unnamed = -1, Skip = -2, Look = -3;
  std::vector<int8_t> KeyOf(FF.Insts.size(), Look);
  for (const Use &U : Ops)
    if (U.Key < 0 || Tracked[U.Key] >= 0)
      KeyOf[U.Inst] = U.Key < 0 ? Unnamed : Tracked[U.Key];
  // The guards of contributions, numbered as met (0: unguarded); few.
  std::vector<std::pair<std::string_view, bool>> Guards;
  auto GuardId = [&](const FlowInst &I) -> int32_t {
    if (!I.Guarded)
      return 0;
    std::pair<std::string_view, bool> G(FF.guard(I), I.GuardNeg);
    auto It = std::find(Guards.begin(), Guards.end(), G);
    if (It == Guards.end())
      It = Guards.insert(It, G);
    return int32_t(It - Guards.begin()) + 1;
  };

  auto AllUnknown = [](auto &S) {
    for (Entry &E : S)
      E.K = Entry::Unknown;
  };
  // The events the transfer below acts on: the operations on a tracked
  // barrier or on one we cannot name, the calls, and the redefinitions of a
  // tracked barrier's base. Only a register base is redefined (KillsBase):
  // where every tracked barrier is a shared symbol's (nearly all), the
  // events are the operations and the calls, merged in order from Ops and
  // Calls, not picked from every block's events.
  bool RegisterBase = false;
  for (const AddrKey &A : Live)
    RegisterBase |= size_t(A.Base) >= FF.Bases.size() ||
                    FF.Bases[size_t(A.Base)].K == BaseInfo::Register;
  EventLists Events;
  if (!RegisterBase) {
    std::vector<uint32_t> Kept;
    Kept.reserve(Ops.size() + Calls.size());
    size_t Y = 0;
    for (const Use &U : Ops) {
      for (; Y < Calls.size() && Calls[Y] < U.Inst; ++Y)
        Kept.push_back(Calls[Y]);
      if (KeyOf[U.Inst] >= Unnamed)
        Kept.push_back(U.Inst);
    }
    Kept.insert(Kept.end(), Calls.begin() + Y, Calls.end());
    Events.assign(FF, Kept);
  } else {
    // (Skip: a role instruction that neither calls nor redefines a base.)
    for (uint32_t RK : FF.RoleInsts) {
      const FlowInst &I = FF.Insts[RK];
      if (KeyOf[RK] == Look && I.Op.Kind != OpKind::Call && I.KillsBase < 0)
        KeyOf[RK] = Skip;
    }
    std::vector<char> KeyBase(FF.Bases.size(), 0);
    for (const AddrKey &A : Live)
      if (size_t(A.Base) < KeyBase.size())
        KeyBase[size_t(A.Base)] = 1;
    Events.build(FF, [&](uint32_t K) {
      if (KeyOf[K] != Look)
        return KeyOf[K] != Skip;
      const FlowInst &I = FF.Insts[K];
      return I.Op.Kind == OpKind::Call ||
             (I.KillsBase >= 0 && (size_t(I.KillsBase) >= KeyBase.size() ||
                                   KeyBase[size_t(I.KillsBase)]));
    });
  }
  auto Transfer = [&](uint32_t B, auto &S, bool Report) {
    for (uint32_t K : Events.of(B)) {
      const FlowInst &I = FF.Insts[K];
      const AsyncOp &Op = I.Op;
      if (Op.Kind == OpKind::Call) {
        if (C.callHasEffects(I))
          AllUnknown(S);
        continue;
      }
      if (I.KillsBase >= 0)
        for (size_t X = 0; X < Live.size(); ++X)
          if (Live[X].Base == I.KillsBase)
            S.E[X].K = Entry::Unknown;
      int32_t X = KeyOf[K];
      if (X < Unnamed)
        continue;
      Act A = ActOf(Op);
      if (X == Unnamed) {
        // A barrier we cannot name may be any of ours.
        if (A != Init)
          AllUnknown(S);
        continue;
      }
      Entry &E = S.E[size_t(X)];
      if (A == Init) {
        E = Entry::fresh();
        continue;
      }
      if (A == Wait) {
        // (Each block is reported once: a wait reports at most once.)
        if (Report && E.K == Entry::Known && E.HasExpect && E.HasSignal &&
            E.Expected != E.Signalled && E.ExpectAt >= 0) {
          const FlowInst &Ex = FF.Insts[size_t(E.ExpectAt)];
          bool Over = E.Expected > E.Signalled;
          auto D = C.diag(
              rules::FlowMbarrierTxMismatch, Ex.Range,
              "mbarrier is told to expect " + std::to_string(E.Expected) +
                  " transaction bytes in this phase, but the copies signal " +
                  std::to_string(E.Signalled) +
                  (Over ? " (over-count: the phase never completes and the "
                          "wait hangs)"
                        : " (under-count: the phase can complete before every "
                          "copy has landed)"));
          if (E.SignalAt >= 0)
            D.note(FF.Insts[size_t(E.SignalAt)].Range,
                   "first copy that signals this mbarrier in the phase");
          D.note(I.Range, "the phase is waited for here");
        }
        E = Entry::fresh(); // a new phase
        continue;
      }
      if (E.K == Entry::Unknown)
        continue;
      std::optional<int64_t> Bytes = BytesOf(I, A);
      int32_t Gd = GuardId(I);
      bool First = !E.HasExpect && !E.HasSignal;
      if (!Bytes || A == Remote || (!First && Gd != E.Guard)) {
        E.K = Entry::Unknown;
        continue;
      }
      E.K = Entry::Known;
      E.Guard = Gd;
      if (A == Expect) {
        E.Expected += *Bytes;
        E.HasExpect = true;
        if (E.ExpectAt < 0)
          E.ExpectAt = int32_t(K);
      } else {
        E.Signalled += *Bytes;
        E.HasSignal = true;
        if (E.SignalAt < 0)
          E.SignalAt = int32_t(K);
      }
    }
  };
  auto Solve = [&](auto Entry0) {
    Entry0.assign(Live.size(), Entry::fresh());
    solveForward(FF, Entry0, Transfer, AnyEdge(),
                 [&](uint32_t B, bool) { return Events.none(B); });
  };
  if (Live.size() <= 4)
    Solve(TxState<4>());
  else
    Solve(TxState<MaxBarriers>());
}

} // namespace flow
} // namespace ptxlint
