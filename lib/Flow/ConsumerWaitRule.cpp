//===- ConsumerWaitRule.cpp - F407 across roles: the consumer's wait ------===//
//
// In a warp-specialized pipeline the producer's TMA load and the consumer's
// read of the buffer it fills run on different warps' paths, so the
// per-path tracking of CompletionRules.cpp never sees them meet. What the
// consumer must do is local to its own path: between taking a slot and
// reading it, wait on the "full" barrier the load signals; after reading,
// release the slot on the "empty" barrier the producer waits for.
//
// Barriers are told apart by the form of their address (FlowFunction's
// value model: base symbol + constant + stride * unknown stage terms):
// CUTLASS and FA3 keep FULL[s] and EMPTY[s] in one dynamic shared array at
// smem + 8*s and smem + C + 8*s, and the producer's and the consumer's
// stage registers differ. A pair
// (empty E, full F) is bound where a wait on E is followed, before the next
// wait, by a copy (or expect_tx) on F: the producer's acquire.
//
// Reported (warning: buffers are not bound to barriers, so the read is not
// proven to touch the copy's bytes): a shared-memory read (ld.shared, a
// generic ld of a shared symbol, ldmatrix, wgmma / tcgen05.mma / tcgen05.cp
// descriptors; not a read of a shared symbol no fill writes) whose own
// classes -- the full classes of the release it reaches first, on some
// path, before a wait on them -- are none waited on since the start or
// their last release: a read inside a consumer's acquire-read-release
// window that skips the acquire. Waits count on every path (must), except
// that a CTA barrier passes on what some path waited for since the
// previous one (FA3: one warp waits, a named barrier releases the
// warpgroup); a release that some threads branch around ("if (pred)
// arrive", the per-CTA arrive of a cluster-wide release) releases on both
// edges.
//
// The other way (runStageAcquireRule, also F407): an MMA warp hands an
// accumulator stage in tensor memory to its readers with tcgen05.commit on
// ACC_FULL[s], and must first have waited on ACC_EMPTY[s], the barrier the
// readers release the stage with (CUTLASS 70's TMEM accumulator pipeline).
// The release classes of a barrier are learnt from its waiters (wait on X,
// then, along the CFG before the next wait on X, a signal of R); a commit
// of X is checked against the releases its own thread waits on elsewhere
// (a ring, or the drain of the stages before exit), and reported when some
// path from the start reaches it with no wait on any of them.
//
//===----------------------------------------------------------------------===//

#include "Flow/Dataflow.h"
#include "Flow/FlowRules.h"

#include <algorithm>
#include <deque>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace ptxlint {
namespace flow {
namespace {

/// Barrier addresses are told apart by their form (FlowFunction::form():
/// base + C + G * t): one form is one barrier array's element class.
using Shape = std::optional<Form>;

bool sameShape(const Shape &A, const Form &B) { return A && *A == B; }

/// The barrier arrays of a function (forms with a stride) and their
/// constant elements (a peeled first iteration waits on FULL[0] as smem +
/// 0; CUTLASS 49's producer unrolls its epilogue loads, each on a constant
/// FULL[k], while the consumer waits on FULL[stage]). An array ends where
/// another array of its base starts (FULL[s] at smem + 8*s ends at EMPTY[0]
/// at smem + 64), has at most 64 stages, and a stride of 8 bytes (an
/// mbarrier's size) or 16 (FULL and EMPTY interleaved): a buffer's address
/// (smem + 2048*s) is not a barrier array.
class BarrierArrays {
public:
  void add(const Shape &A) {
    if (A && A->G != 0 && std::find(Arrays.begin(), Arrays.end(), *A) == Arrays.end())
      Arrays.push_back(*A);
  }
  /// Whether Elem is one of Array's constant elements.
  bool isElement(const Form &Elem, const Form &Array) const {
    if (!Elem.elementOf(Array))
      return false;
    // (Only an array on the same residue ends it: FULL and EMPTY
    // interleaved with a stride of 16 are two arrays over one range.)
    for (const Form &Other : Arrays)
      if (Other.Base == Array.Base && Other.C > Array.C && Other.C <= Elem.C &&
          (Other.C - Array.C) % Array.G == 0)
        return false;
    return true;
  }
  /// Whether A and B may be one barrier: one form, or an array and one of
  /// its constant elements.
  bool mayBeSame(const Shape &A, const Form &B) const {
    return A && (*A == B || isElement(*A, B) || isElement(B, *A));
  }

private:
  std::vector<Form> Arrays;
};

/// Of(form): a mask of classes that depends on the form alone, found once
/// per distinct form (a function's waits and signals name a few barriers,
/// each many times).
template <class MaskFn> class MaskByForm {
public:
  explicit MaskByForm(MaskFn Of) : Of(std::move(Of)) {}
  uint64_t operator()(const Shape &A) {
    if (!A)
      return Of(A);
    for (const auto &[F, M] : Seen)
      if (F == *A)
        return M;
    Seen.push_back({*A, Of(A)});
    return Seen.back().second;
  }

private:
  MaskFn Of;
  std::vector<std::pair<Form, uint64_t>> Seen;
};

/// Which of Classes a barrier of a form may be (BarrierArrays::mayBeSame),
/// once per form.
auto classesOf(const BarrierArrays &Arr, const std::vector<Form> &Classes) {
  return MaskByForm([&Arr, &Classes](const Shape &A) {
    uint64_t M = 0;
    for (size_t X = 0; X < Classes.size(); ++X)
      if (Arr.mayBeSame(A, Classes[X]))
        M |= uint64_t(1) << X;
    return M;
  });
}

/// tcgen05.alloc: writes the address of the tensor memory it allocated to
/// the shared-memory word its first operand addresses.
bool isTmemAlloc(const FlowInst &I) {
  return I.Head.substr(0, 13) == "tcgen05.alloc";
}

/// An instruction that fills shared memory asynchronously and signals an
/// mbarrier when done: bulk/tensor loads, cp.async handed to a barrier,
/// clusterlaunchcontrol.try_cancel (its response).
bool fillsOnBarrier(const FlowInst &I) {
  const AsyncOp &Op = I.Op;
  return Op.Kind == OpKind::CpAsyncMbarrierArrive || Op.Kind == OpKind::ClcTryCancel ||
         (Op.Comp == Completion::Mbarrier && Op.writesShared());
}

/// The kinds fillsOnBarrier() can accept.
constexpr KindSet FillKinds =
    CopyKinds | kindSet({OpKind::CpAsyncMbarrierArrive, OpKind::ClcTryCancel});

/// A fill, or an expect_tx that arms a fill's barrier: what a producer
/// does right after acquiring a slot.
bool armsOrFills(const FlowInst &I) {
  return fillsOnBarrier(I) || I.Op.Kind == OpKind::MbarArriveExpectTx ||
         I.Op.Kind == OpKind::MbarExpectTx;
}
/// The kinds armsOrFills() can accept.
constexpr KindSet ArmKinds =
    FillKinds | kindSet({OpKind::MbarArriveExpectTx, OpKind::MbarExpectTx});

constexpr size_t MaxClasses = 64;

/// Per full class, how many of its slots are waited on and not released
/// yet, on every path (0, 1, 2 or more): a consumer may wait ahead (77's
/// MMA warp waits for K and V, then releases K before reading V; a probe
/// of the next stage precedes the release of this one), so one release
/// must not undo two waits. One: count >= 1, Two: count >= 2.
struct AcqState {
  uint64_t One = 0, Two = 0;
  /// Classes waited on, on some path, since the last CTA barrier: FA3 has
  /// one warp of a warpgroup wait, then a named barrier releases the rest.
  uint64_t May = 0;
  void acquire(uint64_t A) {
    Two |= One & A;
    One |= A;
    May |= A;
  }
  void release(uint64_t R) {
    One &= ~(R & ~Two);
    Two &= ~R;
    May &= ~R;
  }
  bool join(const AcqState &O) {
    uint64_t N1 = One & O.One, N2 = Two & O.Two, U = May | O.May;
    bool Changed = N1 != One || N2 != Two || U != May;
    One = N1;
    Two = N2;
    May = U;
    return Changed;
  }
};

/// The first instruction of the block a conditional branch X jumps
/// forward to, or 0 when X is not such a branch.
uint32_t forwardJoin(const FlowFunction &FF, uint32_t X) {
  if (opWord(FF.Insts[X].Head) != "bra" || !FF.Insts[X].Guarded)
    return 0;
  const Block &B = FF.Blocks[FF.blockOf(X)];
  uint32_t Join = 0;
  if (B.End == X + 1)
    for (uint32_t S : B.Succs)
      Join = std::max(Join, FF.Blocks[S].Begin);
  return Join > X ? Join : 0;
}

/// Whether the wait at K blocks: its block ends with a branch on its result
/// (directly, "@P bra DONE", or through "selp r, 1, 0, P; setp p, r, 0")
/// and lies on a cycle (an inline "LAB_WAIT: try_wait P; @P bra DONE; bra
/// LAB_WAIT" spin, a C++ "while (!try_wait()) backoff" loop). A
/// try_wait/test_wait whose result is kept ("selp token, 1, 0, P") is a
/// probe that a later "if (!token) spin" checks: the probe does not
/// acquire, the spin does (and so does the edge that skips it: SkipOf).
bool blocksUntilDone(const FlowFunction &FF, uint32_t K) {
  uint32_t B = FF.blockOf(K);
  const Block &Bl = FF.Blocks[B];
  const Opnd *Res = FF.operand(FF.Insts[K], 0);
  // A scope's ".reg .pred P1" may decode as a symbol: names are enough.
  auto Named = [](const Opnd *O) {
    return O && (O->K == Opnd::Reg || O->K == Opnd::Sym);
  };
  if (!Named(Res) || Bl.End <= K + 1)
    return false;
  std::vector<std::string_view> From(1, Res->Name);
  auto Tainted = [&](std::string_view R) {
    return std::find(From.begin(), From.end(), R) != From.end();
  };
  for (uint32_t X = K + 1; X + 1 < Bl.End; ++X) {
    const FlowInst &I = FF.Insts[X];
    const Opnd *Dst = FF.operand(I, 0);
    if (!Named(Dst))
      continue;
    for (size_t J = 1; J < I.Ops.size(); ++J)
      if (Named(&I.Ops[J]) && Tainted(I.Ops[J].Name)) {
        From.push_back(Dst->Name);
        break;
      }
  }
  const FlowInst &Last = FF.Insts[Bl.End - 1];
  if (Last.Op.Kind != OpKind::Branch || !Tainted(FF.guard(Last)))
    return false;
  // On a cycle through B (the spin's back edge), within a few blocks.
  std::vector<uint32_t> Seen(1, B);
  for (size_t X = 0; X < Seen.size() && Seen.size() < 32; ++X)
    for (uint32_t S : FF.Blocks[Seen[X]].Succs) {
      if (S == B)
        return true;
      if (S + 16 >= B && S <= B + 16 &&
          std::find(Seen.begin(), Seen.end(), S) == Seen.end())
        Seen.push_back(S);
    }
  return false;
}

} // namespace

bool BarrierFacts::blocks(uint32_t K) {
  int8_t &B = Blocking[K];
  if (B < 0)
    B = blocksUntilDone(FF, K);
  return B != 0;
}

namespace {

/// Whether the register Reg that instruction J defines is the address of
/// an mbarrier operation after J and before Limit (nvcc reuses an address
/// register for a later wait on the same barrier, 77's drain).
bool usedAsBarrier(const FlowFunction &FF, uint32_t J, std::string_view Reg,
                   uint32_t Limit = UINT32_MAX) {
  for (uint32_t X : FF.RoleInsts) {
    if (X >= Limit)
      break;
    const FlowInst &I = FF.Insts[X];
    const Opnd *Bar = X > J && I.Op.MbarOp >= 0 ? FF.operand(I, I.Op.MbarOp) : nullptr;
    if (Bar && Bar->K == Opnd::Addr && Bar->BaseIsReg && Bar->Name == Reg)
      return true;
  }
  return false;
}

/// Whether the register Reg that instruction J defines is the address of
/// a probe after J and of no other mbarrier operation.
bool usedByProbeOnly(const FlowFunction &FF, uint32_t J, std::string_view Reg) {
  bool Probe = false;
  for (uint32_t X : FF.RoleInsts) {
    const FlowInst &I = FF.Insts[X];
    const Opnd *Bar = X > J && I.Op.MbarOp >= 0 ? FF.operand(I, I.Op.MbarOp) : nullptr;
    if (!Bar || Bar->K != Opnd::Addr || !Bar->BaseIsReg || Bar->Name != Reg)
      continue;
    if (I.Op.Kind != OpKind::MbarWait || blocksUntilDone(FF, X))
      return false;
    Probe = true;
  }
  return Probe;
}

/// Whether one of the 4096 instructions after J reads register Reg.
bool readAfter(const FlowFunction &FF, uint32_t J, std::string_view Reg) {
  for (uint32_t X = J + 1; X < FF.Insts.size() && X < J + 4096; ++X) {
    const FlowInst &I = FF.Insts[X];
    FF.operand(I, 0); // decodes them all
    for (size_t K = 0; K < I.Ops.size(); ++K) {
      const Opnd &O = I.Ops[K];
      if ((K > 0 && O.K == Opnd::Reg && O.Name == Reg) ||
          (O.K == Opnd::Addr && O.BaseIsReg && O.Name == Reg) ||
          (K > 0 && O.K == Opnd::Vec &&
           std::find(O.Regs.begin(), O.Regs.end(), Reg) != O.Regs.end()))
        return true;
    }
  }
  return false;
}

/// What the instruction J that noteMissingWait() starts from is.
enum class Signal {
  Address,   ///< computes the barrier's address, which no wait uses
  OwnSignal, ///< the thread's own arrive / expect_tx on the barrier
  ProbeTest, ///< tests a probe's result: "if (!token) wait"
  Published, ///< computes the address of a publishing barrier, which no
             ///< wait uses (runPublishRule)
  PrevStep,  ///< the thread's mbarrier operation before the read, where the
             ///< barrier's address is computed nowhere near (runTmemReadRule)
};

/// The notes where a wait is missing: J computes the address of its
/// barrier, and the wait goes at the next instruction before Limit that is
/// not a move -- for a read (BeforeRead), past a forward branch around
/// optional code (CUTLASS 70: "@p bra L; mov; L: wait"), where the paths
/// join; for a stage's acquire, before such a branch (it skips the stage's
/// use: 70's "no k-tiles" branch around the MMA loop). Where J is not an
/// address (What), the read at Limit itself when nothing else is left;
/// after the thread's own signal, also past the computations that only the
/// wait would read, its phase parity (TK's "arrive.expect_tx [b]; shr; and;
/// wait [b], parity").
void noteMissingWait(const FlowFunction &FF, uint32_t J, uint32_t Limit,
                     FlowDiag &D, bool BeforeRead = true,
                     Signal What = Signal::Address) {
  bool Signalled = What == Signal::OwnSignal;
  D.note(FF.Insts[J].Range,
         What == Signal::OwnSignal
             ? "this thread signals that mbarrier here, but does not wait on "
               "it before the read"
         : What == Signal::ProbeTest
             ? "this tests the result of a try_wait probe of that mbarrier, "
               "but where the probe failed nothing waits"
         : What == Signal::PrevStep
             ? "the last mbarrier operation before the read; no wait on "
               "the barrier that hands the data over comes between them"
             : "the address of that mbarrier is computed here, but no "
               "mbarrier.try_wait uses it");
  // Signalled: the run of plain instructions after J whose results
  // nothing reads (but each other): what the missing wait read.
  std::vector<char> Dead;
  if (Signalled) {
    uint32_t E = J + 1;
    while (E < Limit && E < J + 16 && FF.Insts[E].Op.Kind == OpKind::Other)
      ++E;
    Dead.assign(E - J, 0);
    auto Reads = [&](uint32_t Y, std::string_view R) {
      const FlowInst &I = FF.Insts[Y];
      FF.operand(I, 0); // decodes them all
      for (size_t K = 1; K < I.Ops.size(); ++K)
        if (I.Ops[K].K == Opnd::Reg && I.Ops[K].Name == R)
          return true;
      return false;
    };
    for (uint32_t X = E; X-- > J + 1;) {
      const Opnd *Dst = FF.operand(FF.Insts[X], 0);
      if (!Dst || Dst->K != Opnd::Reg || readAfter(FF, E - 1, Dst->Name))
        continue;
      bool Live = false;
      for (uint32_t Y = X + 1; Y < E && !Live; ++Y)
        Live = !Dead[Y - J] && Reads(Y, Dst->Name);
      Dead[X - J] = !Live;
    }
  }
  for (uint32_t X = J + 1; X < Limit || (X == Limit && What != Signal::Address); ++X) {
    if (opWord(FF.Insts[X].Head) == "mov" || (X - J < Dead.size() && Dead[X - J]))
      continue;
    uint32_t Join = BeforeRead ? forwardJoin(FF, X) : 0;
    if (Join > X && Join <= Limit) {
      X = Join - 1;
      continue;
    }
    D.note(FF.Insts[X].Range, BeforeRead
                                  ? "wait on the mbarrier here, before the read"
                                  : "wait on the mbarrier here, before the "
                                    "stage is reused");
    break;
  }
}

/// Where the wait belongs: when the code laid out before the read (its
/// block and the preceding blocks that flow into it) computes the address
/// of a barrier of class Full that no later mbarrier operation uses, the
/// wait that should use it is missing: notes at that computation and at
/// the instruction after it. Else (a loop whose read comes first in
/// program order) the first address of that class that nothing reads.
std::optional<std::pair<uint32_t, uint32_t>>
unusedBarrierAddress(const FlowFunction &FF, const BarrierArrays &Arr,
                     uint32_t Rd, const Form &Full, bool Anywhere) {
  auto OfClass = [&](uint32_t J) -> const Opnd * {
    const Opnd *Dst = FF.operand(FF.Insts[J], 0);
    return Dst && Dst->K == Opnd::Reg && Arr.mayBeSame(FF.form(Dst, J + 1), Full)
               ? Dst
               : nullptr;
  };
  uint32_t B = FF.blockOf(Rd);
  for (uint32_t J = Rd; J-- > 0 && J + 4096 > Rd;) {
    if (J < FF.Blocks[B].Begin) {
      // Into the block laid out before, when control can come from it:
      // also through a join (FA3's "if (warp == 0) wait" skipped by the
      // other warps), since the note only says where the wait belongs.
      if (B == 0)
        break;
      // (Or past a spin loop: "LAB_WAIT: try_wait; @P bra DONE; bra
      // LAB_WAIT; DONE:" enters DONE from the block before the last.)
      auto FlowsIn = [&](uint32_t P) {
        const BlockSuccs &Ss = FF.Blocks[P].Succs;
        return std::find(Ss.begin(), Ss.end(), B) != Ss.end();
      };
      if (!FlowsIn(B - 1) && !(B >= 2 && FlowsIn(B - 2)))
        break;
      --B;
    }
    const Opnd *Dst = OfClass(J);
    if (!Dst)
      continue;
    if (usedByProbeOnly(FF, J, Dst->Name))
      continue; // the next stage's probe: this stage's address is further back
    if (!usedAsBarrier(FF, J, Dst->Name, Rd))
      return std::make_pair(J, Rd);
    return std::nullopt;
  }
  for (uint32_t J = 0; Anywhere && J < FF.Insts.size(); ++J) {
    const Opnd *Dst = OfClass(J);
    if (Dst && FF.defCount(FF.regId(*Dst)) == 1 &&
        !usedAsBarrier(FF, J, Dst->Name) && !readAfter(FF, J, Dst->Name))
      return std::make_pair(J, std::min<uint32_t>(uint32_t(FF.Insts.size()), J + 256));
  }
  return std::nullopt;
}

/// The thread's own signal of a barrier of class Full (an arrive or
/// expect_tx: TK's consumer arms the barrier it then waits on) among the
/// 16 mbarrier operations before the read at Rd in the text, with no
/// wait after it; nullopt if none.
std::optional<uint32_t> ownSignalBefore(const FlowFunction &FF,
                                        const BarrierArrays &Arr, uint32_t Rd,
                                        const Form &Full) {
  const std::vector<uint32_t> &RI = FF.RoleInsts;
  auto It = std::lower_bound(RI.begin(), RI.end(), Rd);
  for (size_t N = 0; It != RI.begin() && N < 16; ++N) {
    uint32_t X = *--It;
    const FlowInst &I = FF.Insts[X];
    if (I.Op.MbarOp < 0)
      continue;
    if (I.Op.Kind == OpKind::MbarWait)
      return std::nullopt;
    if ((I.Op.Kind == OpKind::MbarArrive ||
         I.Op.Kind == OpKind::MbarArriveExpectTx ||
         I.Op.Kind == OpKind::MbarExpectTx) &&
        Arr.mayBeSame(FF.form(FF.operand(I, I.Op.MbarOp), X), Full))
      return X;
  }
  return std::nullopt;
}

/// Whether register Reg holds, through its definitions
/// (selp, setp, moves: at most a few steps), the result of a try_wait probe
/// (one that does not block) on a barrier of class Full.
bool fromProbe(const FlowFunction &FF, const BarrierArrays &Arr,
               std::string_view Reg, const Form &Full) {
  std::vector<std::string_view> Work(1, Reg);
  for (size_t N = 0; N < Work.size() && N < 64; ++N) {
    int32_t R = FF.regId(Work[N]);
    for (uint32_t X = 0; X < FF.defCount(R) && X < 64; ++X) {
      uint32_t K = FF.defInst(R, X);
      const FlowInst &I = FF.Insts[K];
      if (I.Op.Kind == OpKind::MbarWait) {
        if (!blocksUntilDone(FF, K) &&
            Arr.mayBeSame(FF.form(FF.operand(I, I.Op.MbarOp), K), Full))
          return true;
        continue;
      }
      if (I.Op.Kind != OpKind::Other)
        continue;
      FF.operand(I, 0); // decodes them all
      for (size_t J = 1; J < I.Ops.size(); ++J) {
        const Opnd &O = I.Ops[J];
        if ((O.K == Opnd::Reg || O.K == Opnd::Sym) &&
            std::find(Work.begin(), Work.end(), O.Name) == Work.end())
          Work.push_back(O.Name);
      }
    }
  }
  return false;
}

/// The test of a probe's result before the read at Rd: "if (!token)
/// wait" (CUTLASS sm100), where the branch skips the fallback wait when
/// the probe of a barrier of class Full succeeded. With the wait gone, the
/// region it skips is empty: the wait belongs there. The conditional
/// branches of the blocks laid out before the read that flow into it, the
/// nearest first (at most 8).
std::optional<uint32_t> probeTestBefore(const FlowFunction &FF,
                                        const BarrierArrays &Arr, uint32_t Rd,
                                        const Form &Full) {
  uint32_t B = FF.blockOf(Rd);
  for (unsigned N = 0; B > 0 && N < 8; ++N) {
    const BlockSuccs &Ss = FF.Blocks[B - 1].Succs;
    if (std::find(Ss.begin(), Ss.end(), B) == Ss.end())
      break;
    --B;
    const FlowInst &Last = FF.Insts[FF.Blocks[B].End - 1];
    if (Last.Op.Kind == OpKind::Branch && Last.Guarded &&
        fromProbe(FF, Arr, FF.guard(Last), Full))
      return FF.Blocks[B].End - 1;
  }
  return std::nullopt;
}

/// Where the wait that the read at Rd misses goes, found near the read:
/// an unused address of the class, a probe's test, the thread's own
/// signal; with Anywhere, else the first unused address of the class.
struct WaitPlace {
  uint32_t At, Limit;
  Signal What;
};
std::optional<WaitPlace> waitPlace(const FlowFunction &FF,
                                   const BarrierArrays &Arr, uint32_t Rd,
                                   const Form &Full, bool Anywhere) {
  if (auto At = unusedBarrierAddress(FF, Arr, Rd, Full, false))
    return WaitPlace{At->first, At->second, Signal::Address};
  if (auto Test = probeTestBefore(FF, Arr, Rd, Full))
    return WaitPlace{*Test, Rd, Signal::ProbeTest};
  if (auto Sig = ownSignalBefore(FF, Arr, Rd, Full))
    return WaitPlace{*Sig, Rd, Signal::OwnSignal};
  if (auto At = unusedBarrierAddress(FF, Arr, Rd, Full, Anywhere))
    return WaitPlace{At->first, At->second, Signal::Address};
  return std::nullopt;
}

/// Whether some thread stores what the read at Rd may read (the same form,
/// or a ring like the read's: a read through a `selp` of several response
/// rings' bases meets each) and then, with no wait between, signals a
/// barrier of form W: the read is that hand-off's.
template <class FormsFn>
bool storedThenSignalled(const FlowFunction &FF, const BarrierArrays &Arr,
                         uint32_t Rd, const Form &W, FormsFn &BarrierOf) {
  const FlowInst &R = FF.Insts[Rd];
  std::optional<Form> RF = FF.form(FF.operand(R, R.Op.SrcOp), Rd);
  if (!RF || RF->Base < 0)
    return false;
  for (uint32_t K : FF.RoleInsts) {
    const FlowInst &I = FF.Insts[K];
    if (I.Op.Kind != OpKind::MbarArrive || !Arr.mayBeSame(BarrierOf(K), W))
      continue;
    for (uint32_t X = K, N = 0; X-- > 0 && N < 16; ++N) {
      const FlowInst &S = FF.Insts[X];
      if (S.Op.Kind == OpKind::MbarWait)
        break;
      if (S.Op.Kind != OpKind::Store)
        continue;
      std::optional<Form> SF = FF.form(FF.operand(S, S.Op.DstOp), X);
      // The same form, or a ring of the same record size whose bytes it
      // may read (not a constant: a slot ring's lattice runs past its
      // stages, onto the response word beside it).
      if (SF && (*SF == *RF || (SF->G == RF->G && RF->G > 1 &&
                                RF->meets(R.Op.AccessBytes, *SF, S.Op.AccessBytes))))
        return true;
    }
  }
  return false;
}

/// Whether the mbarrier operation nearest before the read at Rd, in the
/// straight-line code that leads to it (its block, then up to 3 times the
/// block's only predecessor), is a blocking wait on a barrier no fill
/// signals, which a thread signals after storing what the read reads: the
/// read is in the acquire window of that hand-off (57's tile scheduler: a
/// wait on its own full barrier, then the read of the response a producer
/// warp stored), not of a fill's.
template <class FormsFn>
bool guardedByOtherPipeline(const FlowFunction &FF, const BarrierArrays &Arr,
                            uint32_t Rd, const std::vector<Form> &Full,
                            FormsFn &BarrierOf) {
  uint32_t B = FF.blockOf(Rd);
  for (unsigned Step = 0; Step < 4; ++Step) {
    const IndexRun &Ev = FF.Blocks[B].Events;
    for (size_t N = Ev.size(); N-- > 0;) {
      uint32_t X = Ev[N];
      const FlowInst &I = FF.Insts[X];
      if (X >= Rd || I.Op.MbarOp < 0)
        continue;
      if (I.Op.Kind != OpKind::MbarWait || !blocksUntilDone(FF, X))
        return false;
      const Shape &W = BarrierOf(X);
      if (!W)
        return false;
      for (const Form &F : Full)
        if (Arr.mayBeSame(W, F))
          return false;
      return storedThenSignalled(FF, Arr, Rd, *W, BarrierOf);
    }
    // The only predecessor (a spin loop's head, entered from the block
    // laid out before it).
    int64_t Pred = -1;
    for (uint32_t P = B >= 64 ? B - 64 : 0; P < FF.Blocks.size() && P < B + 64; ++P)
      for (uint32_t S : FF.Blocks[P].Succs)
        if (S == B && P != B)
          Pred = Pred < 0 ? int64_t(P) : -2;
    if (Pred < 0)
      return false;
    B = uint32_t(Pred);
  }
  return false;
}

/// What a region of code does to the acquired / released class sets
/// (Exact: the stage acquire's element-exact acquisitions).
struct Skip {
  uint64_t Acq = 0, Rel = 0, Exact = 0;
};

/// What the region each skip edge jumps over (SkipRegionMap) does: the
/// edge has the region's effect too.
class SkipRegions {
public:
  /// Effect(K): what event K of Events does.
  template <class EffectFn>
  SkipRegions(const FlowFunction &FF, const SkipRegionMap &Map,
              const EventLists &Events, EffectFn Effect)
      : FF(FF), Of(FF.Blocks.size() * 2) {
    for (uint32_t P = 0; P < FF.Blocks.size(); ++P)
      for (size_t X = 0; X < 2; ++X) {
        Skip &Sk = Of[P * 2 + X];
        for (uint32_t Q : Map.at(P, X))
          for (uint32_t K : Events.of(Q)) {
            Skip E = Effect(K);
            Sk.Acq |= E.Acq;
            Sk.Rel |= E.Rel;
            Sk.Exact |= E.Exact;
          }
      }
  }
  /// The effect of the region that the edge from P to Succs[X] skips.
  const Skip &at(uint32_t P, size_t X) const {
    static const Skip None;
    return FF.Blocks[P].Succs.size() == 2 ? Of[P * 2 + X] : None;
  }
  /// Whether neither edge out of P skips a region that does anything.
  bool none(uint32_t P) const {
    if (FF.Blocks[P].Succs.size() != 2)
      return true;
    for (const Skip &Sk : {Of[P * 2], Of[P * 2 + 1]})
      if (Sk.Acq || Sk.Rel || Sk.Exact)
        return false;
    return true;
  }

private:
  const FlowFunction &FF;
  /// Per block with two successors: the effect of the region at the other
  /// successor, on the edge to Succs[X] (index X).
  std::vector<Skip> Of;
};

} // namespace

void runConsumerWaitRule(const FlowRuleContext &C) {
  const FlowFunction &FF = C.FF;
  if (!(FF.has(OpKind::MbarArrive) || FF.has(OpKind::MmaCommitArrive)))
    return;
  std::vector<uint32_t> Fills = roleInstsOf(FF, FillKinds);
  Fills.erase(std::remove_if(Fills.begin(), Fills.end(),
                             [&](uint32_t K) { return !fillsOnBarrier(FF.Insts[K]); }),
              Fills.end());
  if (Fills.empty())
    return;
  // A wait on a fill's barrier pairs with nothing (below: a full barrier
  // is not also an empty one). A wait that names its barrier as a fill
  // does, the same "[%r + c]" of a register defined once or of a symbol,
  // has the same form (FlowFunction::form() reads such a register at no
  // particular place): where every wait does (a kernel with no empty
  // barriers), no pair binds, and no form is asked for.
  auto SameAddress = [&](const Opnd *A, const Opnd *B) {
    return A && B && A->K == Opnd::Addr && B->K == Opnd::Addr &&
           A->Name == B->Name && A->Value == B->Value &&
           A->BaseIsReg == B->BaseIsReg &&
           (!A->BaseIsReg || FF.defCount(FF.regId(*A)) <= 1);
  };
  bool OnlyFullWaits = true;
  for (size_t X = 0; X < FF.RoleInsts.size() && OnlyFullWaits; ++X) {
    if (FF.RoleTags[X].Kind != OpKind::MbarWait)
      continue;
    const FlowInst &W = FF.Insts[FF.RoleInsts[X]];
    const Opnd *Bar = FF.operand(W, W.Op.MbarOp);
    OnlyFullWaits = std::any_of(Fills.begin(), Fills.end(), [&](uint32_t K) {
      return SameAddress(Bar, FF.operand(FF.Insts[K], FF.Insts[K].Op.MbarOp));
    });
  }
  if (OnlyFullWaits)
    return;
  BarrierFacts &Facts = C.barriers();
  auto BarrierOf = [&](uint32_t K) -> const Shape & { return Facts.form(K); };
  // The full-barrier classes: what fills signal.
  std::vector<Form> Full;
  std::vector<uint32_t> FirstFill;
  auto ClassOf = [&](const Shape &A) -> int {
    for (size_t X = 0; X < Full.size(); ++X)
      if (sameShape(A, Full[X]))
        return int(X);
    return -1;
  };
  for (uint32_t K : Fills) {
    const Shape &A = BarrierOf(K);
    if (!A || ClassOf(A) >= 0)
      continue;
    if (Full.size() == MaxClasses)
      return; // too many to tell apart: silent
    Full.push_back(*A);
    FirstFill.push_back(K);
  }
  // Producer acquires: a wait on E, then (before the next wait) a fill or
  // an expect_tx on full class F binds the release of E to F.
  struct Pair {
    Form Empty;
    uint64_t FullMask;
  };
  std::vector<Pair> Pairs;
  const std::vector<uint32_t> &RI = FF.RoleInsts;
  for (size_t X = 0; X < RI.size(); ++X) {
    if (FF.RoleTags[X].Kind != OpKind::MbarWait)
      continue;
    const Shape &E = BarrierOf(RI[X]);
    if (!E || ClassOf(E) >= 0)
      continue; // a full barrier is not also an empty one
    // The producer refills the slot it acquired first: EMPTY[s] pairs with
    // the first full class filled after the wait, preferring one of the
    // same stride (a ring's FULL[s]); a one-shot load issued in the same
    // window (FA3's Q after the first K slot) is not released by that ring.
    int First = -1, FirstSame = -1;
    for (size_t Y = X + 1; Y < RI.size() && Y < X + 64; ++Y) {
      OpKind Kd = FF.RoleTags[Y].Kind;
      if (Kd == OpKind::MbarWait)
        break;
      if (inSet(ArmKinds, Kd) && armsOrFills(FF.Insts[RI[Y]])) {
        int F = ClassOf(BarrierOf(RI[Y]));
        if (F < 0)
          continue;
        if (First < 0)
          First = F;
        if (FirstSame < 0 && Full[size_t(F)].G == E->G)
          FirstSame = F;
      }
    }
    int Pick = FirstSame >= 0 ? FirstSame : First;
    if (Pick < 0)
      continue;
    uint64_t Mask = uint64_t(1) << Pick;
    auto It = std::find_if(Pairs.begin(), Pairs.end(),
                           [&](const Pair &P) { return P.Empty == *E; });
    if (It == Pairs.end())
      Pairs.push_back({*E, Mask});
    else
      It->FullMask |= Mask;
  }
  if (Pairs.empty())
    return;
  // The barrier arrays, from every mbarrier operation's form (found only
  // now: most functions bind no pair, and the forms of their arrives and
  // inits are not asked for).
  BarrierArrays Arr;
  for (uint32_t K : RI)
    if (FF.Insts[K].Op.MbarOp >= 0)
      Arr.add(BarrierOf(K));
  // Where fills write (cp.async handed to a barrier: the cp.async
  // destinations): a read of another shared symbol (a TMEM address, a
  // scheduler's flag) cannot see a fill's bytes.
  std::vector<int32_t> FillBases;
  bool FillsResolved = true;
  const bool CpAsyncFills = FF.has(OpKind::CpAsyncMbarrierArrive);
  for (uint32_t K : RI) {
    const FlowInst &I = FF.Insts[K];
    if (!(fillsOnBarrier(I) && I.Op.DstOp >= 0) &&
        !(CpAsyncFills && I.Op.Kind == OpKind::CpAsync))
      continue;
    AddrKey D = FF.address(FF.operand(I, I.Op.DstOp));
    FillsResolved &= D.valid();
    if (D.valid() &&
        std::find(FillBases.begin(), FillBases.end(), D.Base) == FillBases.end())
      FillBases.push_back(D.Base);
  }
  auto Unfilled = [&](const FlowInst &I) {
    if (!FillsResolved)
      return false;
    AddrKey A = FF.address(FF.operand(I, I.Op.SrcOp));
    return A.valid() && FF.isSharedBase(A.Base) &&
           std::find(FillBases.begin(), FillBases.end(), A.Base) == FillBases.end();
  };

  // Per role instruction: the classes a wait acquires, a release clears.
  // (Indexed through EvOf: 4 bytes per instruction, not 34.)
  struct EventInfo {
    uint64_t Acquires = 0, Releases = 0;
    uint64_t NotAcquired = 0;   ///< read: classes not surely waited on
    uint64_t ReleasedAfter = 0; ///< read: classes of its nearest release
    bool IsRead = false, Syncs = false;
    /// A read of shared memory that counts only if a fill may write where
    /// it reads (!Unfilled), asked when it is about to be reported: a read
    /// changes no state, so one more in the lists changes no verdict, and
    /// finding every load's address first was ~8 % of the rule on FA3.
    bool IfFilled = false;
  };
  std::vector<EventInfo> Info(RI.size() + 1); // [0]: not an event
  std::vector<uint32_t> EvOf(FF.Insts.size(), 0);
  for (size_t X = 0; X < RI.size(); ++X)
    EvOf[RI[X]] = uint32_t(X + 1);
  auto At = [&](uint32_t K) -> EventInfo & { return Info[EvOf[K]]; };
  auto FullOf = classesOf(Arr, Full);
  for (uint32_t K : RI) {
    const FlowInst &I = FF.Insts[K];
    switch (I.Op.Kind) {
    case OpKind::MbarWait: {
      if (!Facts.blocks(K))
        break; // a probe
      At(K).Acquires |= FullOf(BarrierOf(K));
      break;
    }
    case OpKind::MbarArrive:
    case OpKind::MmaCommitArrive: {
      // A release frees one slot: of its own form's pair, else (a ring
      // whose acquires the producer unrolled into constant stages) of the
      // pairs of its elements. (Not of an array a constant barrier may
      // belong to: 77's TMEM hand-off barriers sit past its rings.)
      const Shape &E = BarrierOf(K);
      for (const Pair &P : Pairs)
        if (sameShape(E, P.Empty))
          At(K).Releases |= P.FullMask;
      if (!At(K).Releases && E)
        for (const Pair &P : Pairs)
          if (Arr.isElement(P.Empty, *E))
            At(K).Releases |= P.FullMask;
      break;
    }
    case OpKind::Barrier:
      // FA3: one warp of a warpgroup waits, a named barrier releases the
      // others (bar.arrive does not wait).
      At(K).Syncs = I.Head.find(".arrive") == std::string_view::npos;
      break;
    case OpKind::Call:
      if (C.callHasEffects(I))
        At(K).Acquires = ~uint64_t(0); // it may wait on our behalf
      break;
    case OpKind::DescriptorRead:
      At(K).IsRead = 1;
      break;
    case OpKind::LdMatrix:
      At(K).IsRead = At(K).IfFilled = true;
      break;
    case OpKind::Load:
      if (I.Op.Src == Space::SharedCta || I.Op.Src == Space::SharedCluster)
        At(K).IsRead = At(K).IfFilled = true;
      else if (I.Op.Src == Space::Generic)
        At(K).IsRead = At(K).IfFilled =
            FF.isSharedBase(FF.address(FF.operand(I, I.Op.SrcOp)).Base);
      break;
    default:
      break;
    }
  }

  // Forward: which full classes are surely waited on since the last
  // release (must; nothing at entry).
  EventLists Events(FF, [&](uint32_t K) {
    return At(K).Acquires || At(K).Releases || At(K).IsRead || At(K).Syncs;
  });
  AcqState Entry;
  auto Transfer = [&](uint32_t B, AcqState &S, bool Report) {
    for (uint32_t K : Events.of(B)) {
      if (Report && At(K).IsRead)
        At(K).NotAcquired = ~S.One;
      if (At(K).Syncs) {
        S.One |= S.May;
        S.May = 0;
      }
      S.acquire(At(K).Acquires);
      S.release(At(K).Releases);
    }
  };
  size_t NB = FF.Blocks.size();
  SkipRegions Skips(FF, C.skipRegions(), Events, [&](uint32_t K) {
    return Skip{At(K).Acquires, At(K).Releases};
  });
  auto SkipAt = [&](uint32_t P, size_t X) -> const Skip & {
    return Skips.at(P, X);
  };
  auto Edge = [&](uint32_t P, size_t X, AcqState &S) {
    const Skip &Sk = SkipAt(P, X);
    // The skipped region's wait is the one some other path ran (a probe
    // that succeeded): at least one slot, not one more.
    S.One |= Sk.Acq;
    S.May |= Sk.Acq;
    S.release(Sk.Rel);
    return true;
  };
  // A block with no event and no skip effect hands its state on as it is.
  auto Quiet = [&](uint32_t B, bool Report) {
    return Events.none(B) && (Report || Skips.none(B));
  };
  if (!solveForward(FF, Entry, Transfer, Edge, Quiet))
    return;

  // Backward: from here, a release of E is reachable before a wait on its
  // full class F (may).
  std::vector<uint64_t> In(NB, 0);
  auto Back = [&](uint32_t B, uint64_t S, bool Record) {
    auto R = Events.of(B);
    for (const uint32_t *P = R.end(); P != R.begin();) {
      uint32_t K = *--P;
      if (Record && At(K).IsRead)
        At(K).ReleasedAfter = S;
      S &= ~At(K).Acquires;
      if (At(K).Releases)
        S = At(K).Releases; // the nearest release decides
    }
    return S;
  };
  auto OutOf = [&](uint32_t B) {
    uint64_t S = 0;
    const BlockSuccs &Ss = FF.Blocks[B].Succs;
    for (size_t X = 0; X < Ss.size(); ++X) {
      const Skip &Sk = SkipAt(B, X);
      S |= Sk.Rel ? Sk.Rel : In[Ss[X]] & ~Sk.Acq;
    }
    return S;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (uint32_t B = uint32_t(NB); B-- > 0;) {
      uint64_t S = Back(B, OutOf(B), false);
      Changed |= S != In[B];
      In[B] = S;
    }
  }
  for (uint32_t B = 0; B < NB; ++B)
    Back(B, OutOf(B), true);

  // One report per full class: its first read in program order, or the
  // first of its next reads near which the missing wait's place shows (a
  // persistent kernel's first read in the text may be reached only around
  // the loop).
  // Where tcgen05.alloc writes the tensor-memory address it allocated (a
  // constant shared address, 74's smem + 384): a read of that word is the
  // allocation's hand-off (a named barrier), not a read of a fill's bytes.
  // Looked up only when such a read would be reported.
  std::optional<std::vector<AddrKey>> AllocDests;
  auto AllocSlot = [&](uint32_t K) {
    const FlowInst &I = FF.Insts[K];
    if (I.Op.Kind != OpKind::Load)
      return false;
    AddrKey A = FF.address(FF.operand(I, I.Op.SrcOp));
    if (!A.valid() || !A.OffKnown)
      return false;
    if (!AllocDests) {
      AllocDests.emplace();
      for (const FlowInst &J : FF.Insts)
        if (isTmemAlloc(J))
          if (AddrKey D = FF.address(FF.operand(J, 0)); D.valid() && D.OffKnown)
            AllocDests->push_back(D);
    }
    return std::find(AllocDests->begin(), AllocDests->end(), A) != AllocDests->end();
  };
  std::vector<std::pair<uint32_t, uint64_t>> Flagged; // read, its classes
  for (uint32_t B = 0; B < NB; ++B)
    for (uint32_t K : Events.of(B)) {
      // The read's own classes: those whose release comes next after it.
      // A read none of whose own classes is waited on; where one is (a
      // thread that skips its own release, then reaches another
      // pipeline's), silent.
      uint64_t Own = At(K).ReleasedAfter;
      uint64_t M = At(K).NotAcquired & Own;
      if (At(K).IsRead && M && !(Own & ~At(K).NotAcquired) &&
          !(At(K).IfFilled && Unfilled(FF.Insts[K])) &&
          !guardedByOtherPipeline(FF, Arr, K, Full, BarrierOf) &&
          !AllocSlot(K))
        Flagged.emplace_back(K, M);
    }
  uint64_t Reported = 0;
  for (size_t X = 0; X < Flagged.size(); ++X) {
    uint64_t M = Flagged[X].second & ~Reported;
    if (!M)
      continue;
    // Of the read's classes, the first whose wait's place shows near one
    // of its next 16 flagged reads; else its first class.
    size_t F = 64, Pick = X;
    std::optional<WaitPlace> Place;
    for (size_t G = 0; G < 64 && !Place; ++G) {
      if (!(M >> G & 1))
        continue;
      F = std::min(F, G);
      for (size_t Y = X, N = 0; Y < Flagged.size() && N < 16 && !Place; ++Y)
        if (Flagged[Y].second >> G & 1) {
          ++N;
          if ((Place = waitPlace(FF, Arr, Flagged[Y].first, Full[G], false))) {
            Pick = Y;
            F = G;
          }
        }
    }
    uint32_t K = Flagged[Pick].first;
    Reported |= Flagged[Pick].second | uint64_t(1) << F;
    if (Flagged[X].second & ~Reported)
      --X; // its other classes next
    if (!Place)
      Place = waitPlace(FF, Arr, K, Full[F], true);
    const FlowInst &Rd = FF.Insts[K];
    auto D = C.likely(rules::FlowReadBeforeComplete, Rd.Range,
                      "this shared-memory read may run before the copy "
                      "that fills the buffer completes: no "
                      "mbarrier.try_wait on the barrier the copy signals "
                      "precedes it since the buffer was last released");
    D.note(FF.Insts[FirstFill[F]].Range,
           "this copy fills shared memory and signals that mbarrier; its "
           "consumer must wait on it before reading");
    if (Place)
      noteMissingWait(FF, Place->At, Place->Limit, D, true, Place->What);
  }
}

} // namespace flow
} // namespace ptxlint

namespace ptxlint {
namespace flow {
namespace {

/// An instruction that signals an mbarrier: an arrive (with expect_tx
/// too), tcgen05.commit's arrive, a fill that completes on it.
bool signalsBarrier(const FlowInst &I) {
  return I.Op.Kind == OpKind::MbarArrive ||
         I.Op.Kind == OpKind::MbarArriveExpectTx ||
         I.Op.Kind == OpKind::MmaCommitArrive || fillsOnBarrier(I);
}

/// A signal that can release a stage its thread was handed: an arrive
/// without a transaction count, or tcgen05.commit's. An arrive.expect_tx
/// arms the next fill, and a fill completes one: a thread that waits on a
/// commit's barrier and then refills shared memory is a producer, and that
/// commit released the MMA's shared-memory operands to it (CUTLASS's
/// mainloop, the low-latency GQA kernel's K/V ring), not a tensor-memory
/// stage to its readers.
bool releasesStage(const FlowInst &I) {
  return I.Op.Kind == OpKind::MbarArrive || I.Op.Kind == OpKind::MmaCommitArrive;
}

} // namespace

void runStageAcquireRule(const FlowRuleContext &C) {
  const FlowFunction &FF = C.FF;
  // Only tcgen05.commit is checked, and only a committed class has
  // releases (Windows, below): without one there is nothing to find.
  if (!FF.has(OpKind::MmaCommitArrive))
    return;
  const std::vector<uint32_t> &RI = FF.RoleInsts;
  BarrierFacts &Facts = C.barriers();
  auto BarrierOf = [&](uint32_t K) -> const Shape & { return Facts.form(K); };
  BarrierArrays Arr;
  std::vector<Form> Cls; // the barrier classes waited on or signalled
  auto ClassOf = [&](const Shape &A) -> int {
    for (size_t X = 0; X < Cls.size(); ++X)
      if (sameShape(A, Cls[X]))
        return int(X);
    return -1;
  };
  // Per role instruction: the classes a blocking wait acquires, the class
  // a signal signals (-1: none).
  // And what else the solve and the walks ask of it (Call: a call that
  // may wait on our behalf; Syncs: a CTA barrier that waits; Commit:
  // tcgen05.commit; Releases: releasesStage), so that they read these
  // tables alone, not the instructions (most events are register
  // definitions of no role).
  enum : uint8_t { Call = 1, Syncs = 2, Commit = 4, Releases = 8 };
  std::vector<uint64_t> AcqOf(RI.size() + 1, 0); // [0]: not a role instruction
  std::vector<uint64_t> ExactOf(RI.size() + 1, 0);
  std::vector<int8_t> SigOf(RI.size() + 1, -1);
  std::vector<uint8_t> FlagsOf(RI.size() + 1, 0);
  std::vector<uint32_t> EvOf(FF.Insts.size(), 0);
  // One pass over the instructions (each read once): the classes, the
  // flags, and the blocking waits and the signals, whose masks are found
  // once every class is known (with the class the pass found: -2, none
  // found, look it up).
  auto BlockingWait = [&](uint32_t K) {
    return FF.Insts[K].Op.Kind == OpKind::MbarWait && Facts.blocks(K);
  };
  std::vector<std::pair<uint32_t, int>> WaitOrSignal;
  for (size_t X = 0; X < RI.size(); ++X) {
    uint32_t K = RI[X];
    EvOf[K] = uint32_t(X + 1);
    const FlowInst &I = FF.Insts[K];
    if (I.Op.Kind == OpKind::Call && C.callHasEffects(I))
      FlagsOf[X + 1] = Call;
    else if (I.Op.Kind == OpKind::Barrier &&
             I.Head.find(".arrive") == std::string_view::npos)
      FlagsOf[X + 1] = Syncs;
    else if (I.Op.Kind == OpKind::MmaCommitArrive)
      FlagsOf[X + 1] = Commit;
    if (releasesStage(I))
      FlagsOf[X + 1] |= Releases;
    bool Signals = signalsBarrier(I);
    int Own = -2;
    if (I.Op.MbarOp >= 0) {
      const Shape &A = BarrierOf(K);
      Arr.add(A);
      // Only addresses in a known shared symbol: one barrier spelled from
      // an opaque register ("%r775 + 24") would be a class of its own.
      if (A && A->Base >= 0 && (I.Op.Kind == OpKind::MbarWait || Signals)) {
        Own = ClassOf(A);
        if (Own < 0) {
          if (Cls.size() == MaxClasses)
            return; // too many to tell apart: silent
          Own = int(Cls.size());
          Cls.push_back(*A);
        }
      }
    }
    if (BlockingWait(K) || Signals)
      WaitOrSignal.push_back({uint32_t(X), Own});
  }
  auto Mask = classesOf(Arr, Cls);
  std::vector<uint64_t> MaskOfClass(Cls.size(), 0); // 0: not found yet
  for (auto [X, Own] : WaitOrSignal) {
    uint32_t K = RI[X];
    const Shape &W = BarrierOf(K);
    int Class = Own != -2 ? Own : ClassOf(W);
    if (BlockingWait(K)) {
      if (Class < 0)
        AcqOf[X + 1] = Mask(W);
      else if (!(AcqOf[X + 1] = MaskOfClass[size_t(Class)]))
        AcqOf[X + 1] = MaskOfClass[size_t(Class)] = Mask(W);
      // A wait on one constant barrier acquires that element only.
      int E = W && W->G == 0 ? Class : -1;
      ExactOf[X + 1] = E >= 0 ? uint64_t(1) << E : AcqOf[X + 1];
    } else {
      SigOf[X + 1] = int8_t(Class);
    }
  }
  auto Is = [&](uint32_t K, uint8_t Flag) { return (FlagsOf[EvOf[K]] & Flag) != 0; };
  auto Acq = [&](uint32_t K) {
    return Is(K, Call) ? ~uint64_t(0) : AcqOf[EvOf[K]];
  };
  auto SignalClass = [&](uint32_t K) { return int(SigOf[EvOf[K]]); };
  // The events: the role instructions that acquire, wait at a CTA
  // barrier or signal (from the tables: most of a block's events are not).
  EventLists Events;
  {
    std::vector<uint32_t> Kept;
    for (size_t X = 0; X < RI.size(); ++X)
      if ((FlagsOf[X + 1] & (Call | Syncs)) || AcqOf[X + 1] || SigOf[X + 1] >= 0)
        Kept.push_back(RI[X]);
    Events.assign(FF, Kept);
  }
  // Visits the events after each instruction of From along the CFG (at
  // most 512 blocks; program order would cross from one role's code into
  // the next), until Visit returns false on a path.
  std::vector<uint32_t> Seen(FF.Blocks.size(), 0); // per walk: its number
  std::vector<uint32_t> Work;
  uint32_t WalkNo = 0;
  auto WalkFrom = [&](const std::vector<uint32_t> &From, auto &&Visit) {
    ++WalkNo;
    auto Block = [&](uint32_t B, uint32_t First) {
      for (uint32_t K : Events.of(B))
        if (K >= First && !Visit(K))
          return false;
      return true;
    };
    Work.clear();
    for (uint32_t K : From) {
      uint32_t B0 = FF.blockOf(K);
      if (Block(B0, K + 1))
        Work.push_back(B0);
    }
    for (size_t N = 0; N < Work.size() && N < 512; ++N)
      for (uint32_t S : FF.Blocks[Work[N]].Succs) {
        if (Seen[S] == WalkNo)
          continue;
        Seen[S] = WalkNo;
        if (Block(S, 0))
          Work.push_back(S);
      }
  };
  // Releases: a thread that waits (blocking) on class X, then signals R on
  // some path before it waits on X again, releases with R what X handed it.
  std::vector<uint64_t> Rel(Cls.size(), 0);
  std::vector<uint32_t> RelAt(Cls.size() * Cls.size(), 0); // a release's place
  // Per class X, the classes waited on somewhere after a tcgen05.commit
  // signals X (the MMA warp's drain of its accumulator stages).
  std::vector<uint64_t> WaitedAfter(Cls.size(), 0);
  // And the classes the committing thread signals itself after the commit:
  // a barrier it both arrives on and waits on is a rendezvous (77's and the
  // GQA kernel's TMEM allocation/deallocation hand-shake, 32 MMA + 128
  // epilogue arrivals), not the readers' release of a stage.
  std::vector<uint64_t> SignalledAfter(Cls.size(), 0);
  // The windows that matter: after waits on a class that a tcgen05.commit
  // signals (its readers' releases), then after waits on those releases
  // (whether they close a ring); the rest are not walked.
  // The commits per class, the blocking waits per set of classes they
  // acquire (the waits on one barrier array, or on one constant barrier):
  // one walk each.
  std::vector<std::vector<uint32_t>> CommitsOf(Cls.size());
  std::vector<std::pair<uint64_t, std::vector<uint32_t>>> WaitsOn;
  for (size_t X = 0; X < RI.size(); ++X) {
    if (uint64_t WM = AcqOf[X + 1]) {
      auto It = std::find_if(WaitsOn.begin(), WaitsOn.end(),
                             [&](const auto &W) { return W.first == WM; });
      if (It == WaitsOn.end())
        It = WaitsOn.insert(WaitsOn.end(), {WM, {}});
      It->second.push_back(RI[X]);
    } else if (SigOf[X + 1] >= 0 && (FlagsOf[X + 1] & Commit)) {
      CommitsOf[size_t(SigOf[X + 1])].push_back(RI[X]);
    }
  }
  uint64_t Committed = 0;
  for (size_t C0 = 0; C0 < Cls.size(); ++C0)
    if (!CommitsOf[C0].empty())
      Committed |= uint64_t(1) << C0;
  auto Windows = [&](uint64_t Of) {
    for (const auto &[WM, Waits] : WaitsOn) {
      if (!(WM & Of))
        continue;
      WalkFrom(Waits, [&, WM = WM](uint32_t K) {
        if (Acq(K) & WM)
          return false;
        int R = SignalClass(K);
        if (R >= 0 && !Is(K, Releases))
          R = -1;
        if (R < 0 || (WM >> R & 1))
          return true;
        for (size_t F = 0; F < Cls.size(); ++F)
          if (WM >> F & 1) {
            Rel[F] |= uint64_t(1) << R;
            uint32_t &At = RelAt[F * Cls.size() + size_t(R)];
            if (!At)
              At = K;
          }
        return true;
      });
    }
  };
  Windows(Committed);
  uint64_t Released = 0;
  for (size_t F = 0; F < Cls.size(); ++F)
    if (Committed >> F & 1)
      Released |= Rel[F];
  Windows(Released & ~Committed);
  // A signal of X must be preceded by a wait on a class R that X's
  // waiters release with, when the signalling thread acquires R: R's
  // waiters signal X again (a ring: the producer's acquire of the stage),
  // or the thread waits on R after signalling X (an MMA warp that drains
  // its accumulator stages before it exits) without signalling R itself (a
  // rendezvous: tcgen05-rendezvous-ok.ptx). One-shot barriers ("TMEM
  // allocated") and stages the signaller never waits for are not checked.
  // (The walk after F's commits only where a release of F closes no
  // ring: 77's rings are half of its committed classes.)
  std::vector<uint64_t> Need(Cls.size(), 0);
  bool Any = false;
  for (size_t F = 0; F < Cls.size(); ++F) {
    bool Walked = false;
    for (size_t R = 0; R < Cls.size(); ++R) {
      if (!(Rel[F] >> R & 1))
        continue;
      if (!(Rel[R] >> F & 1) && !Walked) {
        Walked = true;
        WalkFrom(CommitsOf[F], [&](uint32_t K) {
          WaitedAfter[F] |= Acq(K);
          if (int S = SignalClass(K); S >= 0)
            SignalledAfter[F] |= uint64_t(1) << S;
          return true;
        });
      }
      if ((Rel[R] >> F & 1) ||
          ((WaitedAfter[F] & ~SignalledAfter[F]) >> R & 1)) {
        Need[F] |= uint64_t(1) << R;
        Any = true;
      }
    }
  }
  if (!Any)
    return;
  // A commit of one constant barrier X, element t of an array A whose
  // waiters release with array R, needs element t of R (77's MMA commits
  // S1 and must have waited on FREE1, not FREE0), or a wait on R itself
  // (a stage register); ExactNeed holds those where such an A is known
  // (ByElement).
  auto Exact = [&](uint32_t K) {
    return Is(K, Call) ? ~uint64_t(0) : ExactOf[EvOf[K]];
  };
  std::vector<uint64_t> ExactNeed(Cls.size(), 0);
  std::vector<char> ByElement(Cls.size(), 0);
  for (size_t X = 0; X < Cls.size(); ++X) {
    if (!Need[X] || Cls[X].G != 0)
      continue;
    for (size_t R = 0; R < Cls.size(); ++R) {
      if (!(Need[X] >> R & 1))
        continue;
      if (Cls[R].G == 0) {
        ExactNeed[X] |= uint64_t(1) << R;
        continue;
      }
      for (size_t A = 0; A < Cls.size(); ++A) {
        if (Cls[A].G != Cls[R].G || !(Rel[A] >> R & 1) ||
            !Arr.isElement(Cls[X], Cls[A]))
          continue;
        Form Elem = Cls[X];
        Elem.C = Cls[R].C + (Cls[X].C - Cls[A].C) / Cls[A].G * Cls[R].G;
        int E = ClassOf(Elem); // none: nothing waits on that element
        ExactNeed[X] |= uint64_t(1) << R | (E >= 0 ? uint64_t(1) << E : 0);
        ByElement[X] = 1;
      }
    }
  }
  // The solve's events: those that change its state, and the commits it
  // checks (signals only mattered to the walks): more blocks are quiet.
  EventLists Solved(Events, [&](uint32_t K) {
    int X = Is(K, Commit) ? SignalClass(K) : -1;
    return Acq(K) || Is(K, Syncs) || (X >= 0 && Need[size_t(X)]);
  });
  // Only the blocks from which a checked commit can be reached matter (a
  // state reaches a commit along these alone): the solve does not enter
  // the others, in a warp-specialized kernel the code of the roles that
  // do not commit (most of 77's blocks).
  size_t NB = FF.Blocks.size();
  std::vector<char> Leads(NB, 0); // a checked commit is reachable from it
  for (uint32_t B = 0; B < NB; ++B)
    for (uint32_t K : Solved.of(B))
      if (Is(K, Commit))
        Leads[B] = 1; // (the solve's commits are the checked ones)
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t B = NB; B-- > 0;) {
      if (Leads[B])
        continue;
      for (uint32_t S : FF.Blocks[B].Succs)
        if (Leads[S])
          Leads[B] = Changed = true;
    }
  }
  if (NB == 0 || !Leads[0])
    return;
  SkipRegions Skips(FF, C.skipRegions(), Solved, [&](uint32_t K) {
    return Skip{Acq(K), 0, Exact(K)};
  });
  struct State {
    AcqState Loose, Exact;
    bool join(const State &O) {
      bool Changed = Loose.join(O.Loose);
      return Exact.join(O.Exact) || Changed;
    }
  };
  uint64_t Reported = 0;
  auto Transfer = [&](uint32_t B, State &St, bool Report) {
    AcqState &S = St.Loose;
    for (uint32_t K : Solved.of(B)) {
      // Checked: tcgen05.commit, the MMA warp handing an accumulator (or
      // S/P) stage in tensor memory to the threads that read it. (An
      // arrive releasing a consumed stage may legitimately follow no wait
      // on paths where nothing was loaded: CUTLASS's epilogue with beta 0.)
      int X = Report && Is(K, Commit) ? SignalClass(K) : -1;
      bool Acquired =
          X >= 0 && (ByElement[size_t(X)]
                         ? (St.Exact.One & ExactNeed[size_t(X)]) != 0
                         : (S.One & Need[size_t(X)]) != 0);
      if (X >= 0 && Need[size_t(X)] && !Acquired && !(Reported >> X & 1)) {
        Reported |= uint64_t(1) << X;
        // The release class whose address the thread computes, unused,
        // before the signal: where its wait was meant to be.
        // (The exact elements first: 77's FREE1, not any FREE.)
        size_t R = Cls.size();
        std::optional<std::pair<uint32_t, uint32_t>> At;
        uint64_t Try = ExactNeed[size_t(X)] & ~Need[size_t(X)];
        for (uint64_t M : {Try, Need[size_t(X)]})
          for (size_t Y = 0; Y < Cls.size() && !At; ++Y)
            if (M >> Y & 1)
              At = unusedBarrierAddress(FF, Arr, K, Cls[Y], false);
        for (size_t Y = 0; Y < Cls.size() && R == Cls.size(); ++Y)
          if (Need[size_t(X)] >> Y & 1)
            R = Y; // the release to name
        auto D = C.likely(rules::FlowReadBeforeComplete, FF.Insts[K].Range,
                          "this tcgen05.commit hands a tensor-memory stage to "
                          "the waiters of its mbarrier, but on some path no "
                          "wait on the barrier they release the stage with "
                          "precedes it: the MMA may overwrite the stage while "
                          "they still read it");
        D.note(FF.Insts[RelAt[size_t(X) * Cls.size() + R]].Range,
               "its waiters release the stage with this signal; wait on that "
               "mbarrier before reusing the stage");
        if (At)
          noteMissingWait(FF, At->first, At->second, D, false);
      }
      if (Is(K, Syncs))
        for (AcqState *A : {&St.Loose, &St.Exact}) {
          A->One |= A->May;
          A->May = 0;
        }
      St.Loose.acquire(Acq(K));
      St.Exact.acquire(Exact(K));
    }
  };
  auto Edge = [&](uint32_t P, size_t X, State &St) {
    const Skip &Sk = Skips.at(P, X);
    St.Loose.One |= Sk.Acq;
    St.Loose.May |= Sk.Acq;
    St.Exact.One |= Sk.Exact;
    St.Exact.May |= Sk.Exact;
    return Leads[FF.Blocks[P].Succs[X]] != 0;
  };
  // (A block quiet in the fixpoint hands its state to every successor
  // without Edge: not one with a successor that leads nowhere.)
  auto Quiet = [&](uint32_t B, bool Report) {
    if (!Solved.none(B))
      return false;
    if (Report)
      return true;
    if (!Skips.none(B))
      return false;
    for (uint32_t S : FF.Blocks[B].Succs)
      if (!Leads[S])
        return false;
    return true;
  };
  solveForward(FF, State(), Transfer, Edge, Quiet);
}

} // namespace flow
} // namespace ptxlint

namespace ptxlint {
namespace flow {
namespace {

/// A shared variable one thread writes and then publishes with an arrive
/// on a barrier: TK's "tcgen05.alloc [tmem_addr]; mbarrier.arrive
/// [tmem_provisioned]", after which every warp waits on tmem_provisioned
/// and reads tmem_addr.
struct Publish {
  int32_t Var;       ///< the variable's shared symbol
  AddrKey Bar;       ///< the barrier (a constant address)
  uint32_t Write, Arrive;
  /// The CTA/cluster barriers the writer reaches after its write (sorted),
  /// and the mbarriers it signals after it (the publishing one first): a
  /// reader that passes one of those barriers, or waits on one of those
  /// mbarriers, is ordered after the write.
  std::vector<uint32_t> BarsAfter;
  std::vector<AddrKey> SignalledAfter;
};

/// The write of a whole shared symbol among the 16 instructions before the
/// arrive at K (no mbarrier wait between): a generic store or
/// tcgen05.alloc, which writes the allocated address to shared memory.
std::optional<std::pair<uint32_t, int32_t>>
publishedWrite(const FlowFunction &FF, uint32_t K, int32_t BarBase) {
  for (uint32_t X = K, N = 0; X-- > 0 && N < 16; ++N) {
    const FlowInst &I = FF.Insts[X];
    if (I.Op.Kind == OpKind::MbarWait)
      break;
    int8_t Dst = I.Op.Kind == OpKind::Store ? I.Op.DstOp : isTmemAlloc(I) ? 0 : -1;
    if (Dst < 0)
      continue;
    AddrKey A = FF.address(FF.operand(I, Dst));
    // A symbol of its own (a dynamic shared array holds buffers that the
    // consumer windows bind), not the barrier's.
    if (FF.isSharedBase(A.Base) && A.Base != BarBase &&
        FF.Bases[size_t(A.Base)].Bytes != 0 && FF.Bases[size_t(A.Base)].Bytes <= 16)
      return std::make_pair(X, A.Base);
  }
  return std::nullopt;
}

/// A must-state of up to 64 things surely acquired on every path (a bit
/// each: the publishes of runPublishRule, the hand-over classes of
/// runTmemReadRule), joined by intersection.
struct MustBits {
  uint64_t Acq = 0;
  bool join(const MustBits &O) {
    uint64_t N = Acq & O.Acq;
    bool Changed = N != Acq;
    Acq = N;
    return Changed;
  }
};

} // namespace

void runPublishRule(const FlowRuleContext &C) {
  const FlowFunction &FF = C.FF;
  std::vector<Publish> Pubs;
  for (uint32_t K : roleInstsOf(FF, kindSet({OpKind::MbarArrive}))) {
    const FlowInst &I = FF.Insts[K];
    if (Pubs.size() == 64)
      break;
    AddrKey Bar = FF.address(FF.operand(I, I.Op.MbarOp));
    if (!FF.isSharedBase(Bar.Base) || !Bar.OffKnown)
      continue;
    auto W = publishedWrite(FF, K, Bar.Base);
    if (!W)
      continue;
    bool Dup = false;
    for (const Publish &P : Pubs)
      Dup |= P.Var == W->second && P.Bar == Bar;
    if (!Dup)
      Pubs.push_back({W->second, Bar, W->first, K, {}, {Bar}});
  }
  if (Pubs.empty())
    return;
  // The CTA and cluster barriers the writer reaches after its write, and
  // the mbarriers it signals after it, order the write before the reads
  // of the threads that pass or wait on them too (not a barrier before
  // the write: a kernel's setup bar.sync).
  std::vector<char> Seen(FF.Blocks.size(), 0);
  for (Publish &P : Pubs) {
    std::fill(Seen.begin(), Seen.end(), 0);
    std::vector<uint32_t> Work(1, FF.blockOf(P.Write));
    for (size_t N = 0; N < Work.size() && N < 4096; ++N) {
      const Block &Bl = FF.Blocks[Work[N]];
      for (uint32_t K : Bl.Events) {
        const FlowInst &I = FF.Insts[K];
        if (N == 0 && K <= P.Write)
          continue;
        if (I.Op.Kind == OpKind::Barrier)
          P.BarsAfter.push_back(K);
        if ((I.Op.Kind == OpKind::MbarArrive ||
             I.Op.Kind == OpKind::MbarArriveExpectTx ||
             I.Op.Kind == OpKind::MmaCommitArrive) &&
            P.SignalledAfter.size() < 64)
          if (AddrKey A = FF.localBarrier(K); A.valid() &&
              std::find(P.SignalledAfter.begin(), P.SignalledAfter.end(), A) ==
                  P.SignalledAfter.end())
            P.SignalledAfter.push_back(A);
      }
      for (uint32_t S : Bl.Succs)
        if (!Seen[S]) {
          Seen[S] = 1;
          Work.push_back(S);
        }
    }
    std::sort(P.BarsAfter.begin(), P.BarsAfter.end());
  }
  auto ReadOf = [&](const FlowInst &I) -> int32_t {
    if (I.Op.Kind != OpKind::Load ||
        !(I.Op.Src == Space::SharedCta || I.Op.Src == Space::SharedCluster ||
          I.Op.Src == Space::Generic))
      return -1;
    return FF.address(FF.operand(I, I.Op.SrcOp)).Base;
  };
  auto Effect = [&](uint32_t K) {
    const FlowInst &I = FF.Insts[K];
    uint64_t M = 0;
    if (I.Op.Kind == OpKind::Call && C.callHasEffects(I))
      return ~uint64_t(0);
    for (size_t X = 0; X < Pubs.size(); ++X) {
      const Publish &P = Pubs[X];
      if (K == P.Write ||
          (I.Op.Kind == OpKind::MbarWait && C.barriers().blocks(K) &&
           std::find(P.SignalledAfter.begin(), P.SignalledAfter.end(),
                     FF.address(FF.operand(I, I.Op.MbarOp))) !=
               P.SignalledAfter.end()) ||
          (I.Op.Kind == OpKind::Barrier &&
           std::binary_search(P.BarsAfter.begin(), P.BarsAfter.end(), K)))
        M |= uint64_t(1) << X;
    }
    return M;
  };
  // (The writes as extra events: tcgen05.alloc has no role of its own.)
  std::vector<uint32_t> Writes;
  for (const Publish &P : Pubs)
    Writes.push_back(P.Write);
  std::sort(Writes.begin(), Writes.end());
  Writes.erase(std::unique(Writes.begin(), Writes.end()), Writes.end());
  EventLists Events(
      FF,
      [&](uint32_t K) {
        const FlowInst &I = FF.Insts[K];
        if (I.Op.Kind == OpKind::MbarWait || I.Op.Kind == OpKind::Barrier ||
            I.Op.Kind == OpKind::Call)
          return true;
        if (int32_t B = ReadOf(I); B >= 0)
          for (const Publish &P : Pubs)
            if (P.Var == B)
              return true;
        return false;
      },
      &Writes);
  std::vector<char> ReportedVar(FF.Bases.size(), 0);
  auto Transfer = [&](uint32_t B, MustBits &S, bool Report) {
    for (uint32_t K : Events.of(B)) {
      const FlowInst &I = FF.Insts[K];
      int32_t V = ReadOf(I);
      if (Report && V >= 0 && !ReportedVar[size_t(V)]) {
        int Missing = -1;
        bool Acquired = false;
        for (size_t X = 0; X < Pubs.size(); ++X)
          if (Pubs[X].Var == V) {
            Acquired |= (S.Acq >> X & 1) != 0;
            if (Missing < 0)
              Missing = int(X);
          }
        if (Missing >= 0 && !Acquired) {
          ReportedVar[size_t(V)] = 1;
          const Publish &P = Pubs[size_t(Missing)];
          auto D = C.likely(rules::FlowReadBeforeComplete, I.Range,
                            "this read of a shared variable may run before "
                            "the thread that writes it publishes it: no "
                            "mbarrier.try_wait on the barrier it arrives on "
                            "precedes it");
          D.note(FF.Insts[P.Write].Range, "the variable is written here");
          D.note(FF.Insts[P.Arrive].Range,
                 "and published with this arrive; wait on that mbarrier "
                 "before reading it");
          BarrierArrays NoArrays;
          Form Bar = Form::symbol(P.Bar.Base);
          Bar.C = P.Bar.Off;
          if (auto At = unusedBarrierAddress(FF, NoArrays, K, Bar, false))
            noteMissingWait(FF, At->first, K, D, true, Signal::Published);
        }
      }
      S.Acq |= Effect(K);
    }
  };
  solveForward(FF, MustBits(), Transfer);
}

} // namespace flow
} // namespace ptxlint

namespace ptxlint {
namespace flow {
namespace {

bool headStarts(const FlowInst &I, std::string_view P) {
  return I.Head.substr(0, P.size()) == P;
}

/// A read of tensor memory: tcgen05.ld, or a tcgen05.mma whose A operand is
/// a tensor-memory address ("[%r]": 77's P) rather than a descriptor.
bool readsTmem(const FlowFunction &FF, const FlowInst &I) {
  if (headStarts(I, "tcgen05.ld"))
    return true;
  if (I.Op.Kind != OpKind::DescriptorRead || !headStarts(I, "tcgen05.mma"))
    return false;
  // The second operand alone ("[d], [a], ..." against "[d], adesc, ..."):
  // decoding every MMA's operands costs more than the rule.
  std::optional<Opnd> A = FF.operandFromText(I, 1);
  return A && A->K == Opnd::Addr;
}

/// The column field (bits 0-15; the lane is in bits 16-31) of
/// tensor-memory addresses, as forms without a base: the softmax warps of
/// CUTLASS 77 store P at "shfl.idx(selp(32, 160, wg) + (tid << 16 &
/// 0x600000))", columns 32 + 128 * t; the MMA reads it at [32]. Registers
/// defined once, followed through moves, `shfl.sync` (another lane's value
/// of the same computation: the same form), add, `or` with a value whose
/// column is 0, `and` and `shl` that keep only lane bits, selp, mul and mad
/// by constants; anything else is unknown (G = 1). Memoized per register.
class TmemColumns {
public:
  explicit TmemColumns(const FlowFunction &FF) : FF(FF) {}
  /// Of operand K of I, decoded alone (FlowFunction::operandFromText):
  /// decoding a tcgen05.ld's 32 destination registers, or an MMA's
  /// operands, costs more than the rule.
  Form ofOperand(const FlowInst &I, uint32_t K) {
    std::optional<Opnd> O = FF.operandFromText(I, K);
    return O ? of(&*O) : Form();
  }

  /// Of an operand: an immediate, a register, an address [r + off].
  Form of(const Opnd *O) {
    if (!O || O->Negated)
      return Form();
    if (O->K == Opnd::Imm && O->HasValue)
      return norm(Form::constant(O->Value));
    if (O->K == Opnd::Reg)
      return ofReg(FF.regId(*O), 0);
    if (O->K != Opnd::Addr || !O->HasValue)
      return Form();
    if (!O->BaseIsReg)
      return O->Name.empty() ? norm(Form::constant(O->Value)) : Form();
    return norm(Form::sum(ofReg(FF.regId(O->Name), 0), Form::constant(O->Value), false));
  }

private:
  static Form norm(Form F) {
    if (F.Base >= 0 || F.G == 1)
      return Form();
    if (F.G == 0) {
      F.C &= 0xFFFF;
    } else {
      F.G = int32_t(std::gcd(int64_t(F.G), int64_t(0x10000)));
      F.C = ((F.C % F.G) + F.G) % F.G;
    }
    return F;
  }
  Form ofReg(int32_t R, unsigned Depth) {
    if (R < 0 || FF.defCount(R) != 1 || Depth > 12)
      return Form();
    auto It = Memo.find(R);
    if (It != Memo.end())
      return It->second;
    Form F = norm(ofDef(FF.Insts[FF.defInst(R, 0)], Depth));
    Memo.emplace(R, F);
    return F;
  }
  Form ofDef(const FlowInst &D, unsigned Depth) {
    if (D.Guarded)
      return Form();
    std::string_view Op = opWord(D.Head);
    auto Src = [&](int8_t K) {
      const Opnd *A = FF.operand(D, K);
      if (A && A->K == Opnd::Reg && !A->Negated)
        return ofReg(FF.regId(*A), Depth + 1);
      return A && A->K == Opnd::Imm ? of(A) : Form();
    };
    auto Imm = [&](int8_t K) -> std::optional<int64_t> {
      const Opnd *A = FF.operand(D, K);
      if (A && A->K == Opnd::Imm && A->HasValue)
        return A->Value;
      return std::nullopt;
    };
    auto IsZero = [](const Form &F) { return F.G == 0 && F.C == 0; };
    if (Op == "shfl" || ((Op == "mov" || Op == "cvt") && !FF.operand(D, 2)))
      return Src(1);
    if (Op == "add")
      return Form::sum(Src(1), Src(2), false);
    if (Op == "or") {
      Form A = Src(1), B = Src(2);
      return IsZero(A) ? B : IsZero(B) ? A : Form();
    }
    if (Op == "and") {
      std::optional<int64_t> M = Imm(2);
      return M && (*M & 0xFFFF) == 0 ? Form::constant(0) : Form();
    }
    if (Op == "shl") {
      std::optional<int64_t> S = Imm(2);
      if (!S || *S < 0 || *S >= 32)
        return Form();
      return *S >= 16 ? Form::constant(0) : Form::scale(Src(1), int64_t(1) << *S);
    }
    if (Op == "mul" || Op == "mad") {
      std::optional<int64_t> M = Imm(2);
      if (!M)
        return Form();
      Form P = norm(Form::scale(Src(1), *M));
      return Op == "mul" ? P : Form::sum(P, Src(3), false);
    }
    if (Op == "selp")
      return Form::either(Src(1), Src(2));
    return Form();
  }

  const FlowFunction &FF;
  std::unordered_map<int32_t, Form> Memo;
};

/// The columns a tcgen05.ld/st moves per thread, from its shape: .32x32b
/// and .16x64b .xN move N 32-bit columns, .16x128b 2N, .16x256b 4N,
/// .16x32bx2 N; 0 when not known.
uint32_t tmemColumns(std::string_view Head) {
  auto Has = [&](std::string_view P) { return Head.find(P) != Head.npos; };
  uint32_t Factor = Has(".16x256b") ? 4 : Has(".16x128b") ? 2 : 1;
  size_t X = Head.find(".x");
  for (; X != Head.npos; X = Head.find(".x", X + 1)) {
    uint32_t N = 0;
    size_t Y = X + 2;
    while (Y < Head.size() && Head[Y] >= '0' && Head[Y] <= '9')
      N = N * 10 + uint32_t(Head[Y++] - '0');
    if (N && (Y == Head.size() || Head[Y] == '.'))
      return N * Factor;
  }
  return 0;
}

} // namespace

/// Tensor memory is handed from thread to thread through mbarriers: the MMA
/// thread's tcgen05.commit hands over what its tcgen05.mma wrote (CUTLASS
/// 70's accumulator, read by the epilogue's tcgen05.ld), a warp's arrive
/// after its tcgen05.st what it stored. A thread's tensor-memory read needs,
/// on every path from the start, a wait on a hand-over barrier whose
/// writers may have stored the columns it reads (or its own tcgen05.st /
/// tcgen05.cp): 77's MMA warp waits for the corrected O (columns 256+)
/// and then for P (columns 32 + 128 * t) before it reads P, and the first
/// wait does not hand P over. A commit's barrier, or a writer whose columns
/// are not known, hands over every column. Waits count from the start: a
/// later iteration's missing wait is covered by the earlier ones.
void runTmemReadRule(const FlowRuleContext &C) {
  const FlowFunction &FF = C.FF;
  // The hand-over classes: barriers a tcgen05.commit signals, or an arrive
  // after tcgen05.st / tcgen05.wait::st with no mbarrier wait between,
  // minus those whose waiters then fill shared memory (an MMA warp's
  // commit that releases a load stage).
  std::vector<uint32_t> Extra; // the tensor-memory reads and writes
  std::vector<uint32_t> Stores; // tcgen05.st, tcgen05.wait::st
  for (uint32_t K : FF.TmemInsts) {
    const FlowInst &I = FF.Insts[K];
    if (headStarts(I, "tcgen05.wait::st") || headStarts(I, "tcgen05.st"))
      Stores.push_back(K);
    if (headStarts(I, "tcgen05.ld") || headStarts(I, "tcgen05.st") ||
        headStarts(I, "tcgen05.cp"))
      Extra.push_back(K);
  }
  BarrierFacts &Facts = C.barriers();
  auto BarrierOf = [&](uint32_t K) -> const Shape & { return Facts.form(K); };
  BarrierArrays Arr;
  // A hand-over class and the columns its writers store (start, count);
  // All: any column.
  struct Hand {
    Form Bar;
    bool All = false;
    std::vector<std::pair<Form, uint32_t>> Cols;
    std::vector<Form> Gates; // what the writers wait on before they store
  };
  std::vector<Hand> Hands;
  std::vector<std::pair<Form, uint32_t>> StoreCols(Stores.size()); // memo
  TmemColumns Columns(FF);
  auto Add = [&](const Shape &A) -> Hand * {
    if (!A || A->Base < 0)
      return nullptr;
    for (Hand &H : Hands)
      if (H.Bar == *A)
        return &H;
    Hands.push_back(Hand{*A, false, {}, {}});
    return &Hands.back();
  };
  const std::vector<uint32_t> &RI = FF.RoleInsts;
  for (uint32_t K : RI) {
    const FlowInst &I = FF.Insts[K];
    if (I.Op.MbarOp >= 0)
      Arr.add(BarrierOf(K));
    if (I.Op.Kind == OpKind::MmaCommitArrive) {
      if (Hand *H = Add(BarrierOf(K)))
        H->All = true;
    } else if (I.Op.Kind == OpKind::MbarArrive) {
      // The tcgen05.st before it in the text, at most 4096 instructions
      // back, after the last mbarrier wait: its writes.
      auto It = std::lower_bound(Stores.begin(), Stores.end(), K);
      if (It == Stores.begin() || *(It - 1) + 4096 <= K)
        continue;
      auto R = std::lower_bound(RI.begin(), RI.end(), K);
      uint32_t LastWait = 0;
      while (R != RI.begin() && !LastWait)
        if (FF.Insts[*--R].Op.Kind == OpKind::MbarWait)
          LastWait = *R + 1;
      if (*(It - 1) < LastWait)
        continue;
      Hand *H = Add(BarrierOf(K));
      if (!H)
        continue;
      // Its columns: the stores on the arrive's own path in the text, back
      // to the wait or an unconditional branch (the end of another role's
      // code laid out before it).
      // (Over the role instructions, which branches, ret and exit are: not
      // every instruction of up to 4096.)
      uint32_t From = LastWait;
      for (auto J = std::lower_bound(RI.begin(), RI.end(), K); J != RI.begin();) {
        uint32_t X = *--J;
        if (X < From || X + 4096 <= K)
          break;
        const FlowInst &Br = FF.Insts[X];
        if (!Br.Guarded && (Br.Op.Kind == OpKind::Branch || Br.Op.Kind == OpKind::Ret ||
                            Br.Op.Kind == OpKind::Exit)) {
          From = X + 1;
          break;
        }
      }
      bool Stored = false;
      for (auto S = It; S != Stores.begin() && *(S - 1) >= From &&
                        *(S - 1) + 4096 > K;) {
        --S;
        const FlowInst &St = FF.Insts[*S];
        if (!headStarts(St, "tcgen05.st"))
          continue;
        Stored = true;
        std::pair<Form, uint32_t> &Col = StoreCols[size_t(S - Stores.begin())];
        if (!Col.second) // (not computed yet: a count is never 0 once it is)
          Col = {Columns.ofOperand(St, 0), std::max(tmemColumns(St.Head), 1u)};
        if (Col.first.G == 1 || tmemColumns(St.Head) == 0)
          H->All = true;
        else if (std::find(H->Cols.begin(), H->Cols.end(), Col) == H->Cols.end())
          H->Cols.push_back(Col);
      }
      if (!Stored) // only a wait::st: the stores are earlier
        H->All = true;
      // The gates: the waits before the stores, back to the previous
      // signal of this barrier (the writer's previous hand-over) or 64
      // mbarrier steps: among them, the wait for the data the writer
      // turns into what it stores (77's softmax: "S ready").
      auto G = std::lower_bound(RI.begin(), RI.end(), K);
      for (unsigned N = 0; G != RI.begin() && N < 64; ++N) {
        const FlowInst &W = FF.Insts[*--G];
        if (W.Op.Kind == OpKind::MbarArrive && sameShape(BarrierOf(*G), H->Bar))
          break;
        if (W.Op.Kind != OpKind::MbarWait)
          continue;
        if (const Shape &B = BarrierOf(*G))
          if (std::find(H->Gates.begin(), H->Gates.end(), *B) == H->Gates.end())
            H->Gates.push_back(*B);
      }
    }
  }
  for (size_t X = 0; X < RI.size(); ++X) {
    if (FF.Insts[RI[X]].Op.Kind != OpKind::MbarWait)
      continue;
    for (size_t Y = X + 1; Y < RI.size() && Y < X + 64; ++Y) {
      const FlowInst &I = FF.Insts[RI[Y]];
      if (I.Op.Kind == OpKind::MbarWait)
        break;
      if (armsOrFills(I)) {
        const Shape &E = BarrierOf(RI[X]);
        Hands.erase(std::remove_if(Hands.begin(), Hands.end(),
                                   [&](const Hand &H) { return sameShape(E, H.Bar); }),
                    Hands.end());
        break;
      }
    }
  }
  if (Hands.empty())
    return;
  const uint64_t Every = ~uint64_t(0);
  // Classes past the 64th share the last bit: they hand over every column.
  auto Bit = [&](size_t X) { return uint64_t(1) << std::min<size_t>(X, 63); };
  if (Hands.size() > 64)
    Hands[63].All = true;
  MaskByForm HandBits([&](const Shape &A) {
    uint64_t M = 0;
    for (size_t X = 0; X < Hands.size(); ++X)
      if (Arr.mayBeSame(A, Hands[X].Bar))
        M |= Bit(X);
    return M;
  });
  // The classes that may hand over the columns a read at K reads: a
  // tcgen05.ld's (its shape's count), a tcgen05.mma's A operand (its K
  // dimension is 32 bytes a row in every kind: 8 columns).
  auto Covering = [&](uint32_t K) {
    const FlowInst &I = FF.Insts[K];
    // "tcgen05.ld ... {regs}, [a]", "tcgen05.mma ... [d], [a], ...".
    // The tensor-memory address: tcgen05.ld's after its destinations, an
    // MMA's A ("[d], [a], ...").
    Form Col = Columns.ofOperand(I, 1);
    uint32_t N = headStarts(I, "tcgen05.ld") ? tmemColumns(I.Head) : 8;
    uint64_t M = 0;
    for (size_t X = 0; X < Hands.size(); ++X) {
      bool Meets = Hands[X].All || Col.G == 1 || !N;
      for (size_t Y = 0; Y < Hands[X].Cols.size() && !Meets; ++Y)
        Meets = Col.meets(N, Hands[X].Cols[Y].first, Hands[X].Cols[Y].second);
      if (Meets)
        M |= Bit(X);
    }
    // Columns no writer is known to store: any hand-over counts.
    return M ? M : Every;
  };
  // Per event: the classes it acquires, or (Read) those its read needs.
  // A thread that signals what the writers of H wait on before storing
  // (77's MMA warp commits "S ready", then the softmax warps overwrite P)
  // has to wait on H again before reading what they store: Kill.
  // Per instruction a byte (Read, or Masked: an entry in Effects); the
  // masks only per event, looked up by binary search.
  enum : uint8_t { None, Read, Masked };
  std::vector<uint8_t> Code(FF.Insts.size(), None);
  struct Effect {
    uint32_t K;
    uint64_t Acq, Kill;
    bool operator<(const Effect &O) const { return K < O.K; }
  };
  std::vector<Effect> Effects;
  MaskByForm GateBits([&](const Shape &A) {
    uint64_t M = 0;
    for (size_t X = 0; X < Hands.size(); ++X)
      for (const Form &G : Hands[X].Gates)
        if (Arr.mayBeSame(A, G))
          M |= Bit(X);
    return M;
  });
  auto Set = [&](uint32_t K, uint64_t A, uint64_t Kl) {
    if (A || Kl) {
      Code[K] = Masked;
      Effects.push_back({K, A, Kl});
    }
  };
  bool Probes = false; // a probe of a hand-over barrier: skip regions matter
  for (uint32_t K : Extra)
    if (headStarts(FF.Insts[K], "tcgen05.ld"))
      Code[K] = Read;
    else
      Set(K, Every, 0); // own st/cp
  for (uint32_t K : RI) {
    const FlowInst &I = FF.Insts[K];
    if (I.Op.Kind == OpKind::Call && C.callHasEffects(I)) {
      Set(K, Every, 0);
    } else if (I.Op.Kind == OpKind::MmaCommitArrive || I.Op.Kind == OpKind::MbarArrive) {
      Set(K, 0, GateBits(BarrierOf(K)));
    } else if (I.Op.Kind == OpKind::MbarWait) {
      if (uint64_t M = HandBits(BarrierOf(K))) {
        if (Facts.blocks(K))
          Set(K, M, 0);
        else
          Probes = true;
      }
    } else if (I.Op.Kind == OpKind::DescriptorRead && readsTmem(FF, I)) {
      Code[K] = Read;
    }
  }
  std::sort(Effects.begin(), Effects.end());
  auto EffectOf = [&](uint32_t K) -> const Effect & {
    return *std::lower_bound(Effects.begin(), Effects.end(), Effect{K, 0, 0});
  };
  EventLists Events(
      FF, [&](uint32_t K) { return Code[K] != None; }, &Extra);
  // "if (!token) wait" after a probe: the edge that skips the wait has its
  // effect (built only where such a probe is).
  std::optional<SkipRegions> Skips;
  if (Probes)
    Skips.emplace(FF, C.skipRegions(), Events, [&](uint32_t K) {
      return Skip{Code[K] == Masked ? EffectOf(K).Acq : 0, 0};
    });
  std::unordered_map<uint32_t, uint64_t> Needs; // read -> covering classes
  // The classes that hand over every column are in every read's cover: a
  // read after a wait on one of them is covered without finding its
  // columns (most reads: a column cover decodes the read's operand).
  uint64_t HandsAll = 0;
  for (size_t X = 0; X < Hands.size(); ++X)
    if (Hands[X].All)
      HandsAll |= Bit(X);
  using State = MustBits;
  bool Reported = false;
  auto Transfer = [&](uint32_t B, State &S, bool Report) {
    for (uint32_t K : Events.of(B)) {
      if (Code[K] == Masked) {
        const Effect &E = EffectOf(K);
        S.Acq = (S.Acq & ~E.Kill) | E.Acq;
        continue;
      }
      if (Report && !Reported && Code[K] == Read && !(S.Acq & HandsAll)) {
        uint64_t &Need = Needs[K];
        if (!Need)
          Need = Covering(K);
        if (!(S.Acq & Need)) {
          Reported = true;
          auto D = C.likely(rules::FlowReadBeforeComplete, FF.Insts[K].Range,
                            "this tensor-memory read may run before the data "
                            "is handed over: no wait on a barrier that "
                            "tcgen05.commit or a tcgen05.st writer signals "
                            "precedes it");
          bool Placed = false;
          for (size_t X = 0; X < Hands.size() && !Placed; ++X)
            if (Need & Bit(X))
              if (auto P = waitPlace(FF, Arr, K, Hands[X].Bar, false)) {
                noteMissingWait(FF, P->At, P->Limit, D, true, P->What);
                Placed = true;
              }
          // Else after the thread's previous mbarrier step in the text (77's
          // MMA warp reuses the barrier's address register from its setup).
          for (uint32_t J = K; !Placed && J-- > 0 && J + 4096 > K;)
            if (FF.Insts[J].Op.Kind == OpKind::MbarWait ||
                FF.Insts[J].Op.Kind == OpKind::MbarArrive ||
                FF.Insts[J].Op.Kind == OpKind::MmaCommitArrive) {
              noteMissingWait(FF, J, K, D, true, Signal::PrevStep);
              Placed = true;
            }
        }
      }
    }
  };
  auto Edge = [&](uint32_t P, size_t X, State &S) {
    if (Skips)
      S.Acq |= Skips->at(P, X).Acq;
    return true;
  };
  auto Quiet = [&](uint32_t B, bool Report) {
    return Events.none(B) && (Report || !Skips || Skips->none(B));
  };
  solveForward(FF, State(), Transfer, Edge, Quiet);
}

} // namespace flow
} // namespace ptxlint
