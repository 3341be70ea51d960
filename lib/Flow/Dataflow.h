//===- Dataflow.h - A small forward dataflow solver over a FlowFunction --===//
//
// States are finite-height lattices with join(); the solver visits blocks in
// index order (close to reverse post-order for compiler output) from a
// priority worklist. Work is bounded: a state that keeps changing past the
// budget makes solve() return false and the rule reports nothing more (the
// blocks reported by then had their final states; no input has come near
// the budget).
//
// A rule's transfer function is called on a block during the fixpoint
// (Report = false) and once on its final in-state (Report = true), where it
// emits diagnostics; blocks are reported in order, each exactly once. A
// block outside every loop has one visit, and it is its report.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_FLOW_DATAFLOW_H
#define PTXLINT_FLOW_DATAFLOW_H

#include "Flow/FlowFunction.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ptxlint {
namespace flow {

/// Per-block sub-lists of Block::Events: the events a rule's transfer
/// function acts on (the others, mostly loads, leave its state alone), so
/// the fixpoint does not walk them again and again.
class EventLists {
public:
  EventLists() = default;
  template <class KeepFn>
  EventLists(const FlowFunction &FF, KeepFn &&Keep,
             const std::vector<uint32_t> *Extra = nullptr) {
    build(FF, Keep, Extra);
  }
  template <class KeepFn> EventLists(const EventLists &From, KeepFn &&Keep) {
    narrow(From, Keep);
  }
  /// The events of every block that Keep keeps. Extra: more instructions to
  /// keep (sorted; e.g. PathConditions::events), merged in program order.
  /// (build() and narrow() fill the lists in place: kept tables reuse their
  /// buffers.)
  template <class KeepFn>
  void build(const FlowFunction &FF, KeepFn &&Keep,
             const std::vector<uint32_t> *Extra = nullptr) {
    Start.clear();
    Ev.clear();
    Start.reserve(FF.Blocks.size() + 1);
    // Most events are instructions with a role: one allocation, not one per
    // doubling.
    Ev.reserve(FF.RoleInsts.size() + (Extra ? Extra->size() : 0));
    size_t X = 0;
    for (const Block &Bl : FF.Blocks) {
      Start.push_back(uint32_t(Ev.size()));
      auto Flush = [&](uint32_t Before) {
        for (; Extra && X < Extra->size() && (*Extra)[X] < Before; ++X)
          if ((*Extra)[X] >= Bl.Begin)
            Ev.push_back((*Extra)[X]);
      };
      for (uint32_t K : Bl.Events)
        if (Keep(K)) {
          Flush(K);
          Ev.push_back(K);
          while (Extra && X < Extra->size() && (*Extra)[X] == K)
            ++X; // already in
        }
      Flush(Bl.End);
    }
    Start.push_back(uint32_t(Ev.size()));
  }
  /// The events of From that Keep keeps, in order (a rule's narrower list
  /// from its wider one, without walking every block's events again).
  template <class KeepFn> void narrow(const EventLists &From, KeepFn &&Keep) {
    Start.clear();
    Ev.clear();
    Start.reserve(From.Start.size());
    Ev.reserve(From.Ev.size());
    for (size_t B = 0; B + 1 < From.Start.size(); ++B) {
      Start.push_back(uint32_t(Ev.size()));
      for (uint32_t X = From.Start[B]; X < From.Start[B + 1]; ++X)
        if (Keep(From.Ev[X]))
          Ev.push_back(From.Ev[X]);
    }
    Start.push_back(uint32_t(Ev.size()));
  }
  /// The events Kept (some of the function's events, in order): a rule
  /// that picks its events from FlowFunction::RoleInsts, not from every
  /// block's list (blocks are in order and together cover the function).
  void assign(const FlowFunction &FF, const std::vector<uint32_t> &Kept) {
    Start.clear();
    Ev.assign(Kept.begin(), Kept.end());
    Start.reserve(FF.Blocks.size() + 1);
    size_t X = 0;
    for (const Block &Bl : FF.Blocks) {
      Start.push_back(uint32_t(X));
      while (X < Kept.size() && Kept[X] < Bl.End)
        ++X;
    }
    Start.push_back(uint32_t(X));
  }
  using Range = IndexRun;
  Range of(uint32_t Block) const {
    return {Ev.data() + Start[Block], Ev.data() + Start[Block + 1]};
  }
  /// Whether Block has none of the events.
  bool none(uint32_t Block) const { return Start[Block] == Start[Block + 1]; }

private:
  std::vector<uint32_t> Start, Ev;
};

/// The regions that some threads branch around: "if (pred) arrive" (the
/// per-CTA arrive of a cluster-wide release), "if (warp == 0) wait" before
/// a named barrier, "if (!token) wait" after a successful try_wait probe.
/// For each block P with two successors and each X, the blocks of the
/// region at the other successor that the edge to Succs[X] skips: entered
/// only from P (or from inside: a spin loop's head is its back edge's
/// target), left only to Succs[X], no exit inside, at most 16 blocks. CFG
/// structure only, found once per function (FlowRuleContext::skipRegions());
/// each rule folds its own effect over the blocks.
class SkipRegionMap {
public:
  explicit SkipRegionMap(const FlowFunction &FF);
  using Range = IndexRun;
  /// The blocks of the region that the edge from P to Succs[X] skips (none:
  /// empty).
  Range at(uint32_t P, size_t X) const {
    size_t K = size_t(P) * 2 + X;
    return {Blocks.data() + Start[K], Blocks.data() + Start[K + 1]};
  }

private:
  std::vector<uint32_t> Start; ///< per P * 2 + X: offsets into Blocks
  std::vector<uint32_t> Blocks;
};

/// The blocks waiting for a visit, lowest index first, each at most once:
/// a bit per block and the lowest word that may hold one. Pops in the order
/// a min-heap of the queued blocks would, without its sifting (a solve
/// visits each block about once, and a heap step cost more than a visit).
class BlockQueue {
public:
  explicit BlockQueue(size_t NB = 0) : Bits((NB + 63) / 64, 0) {}
  /// Empties the queue for a function of NB blocks (keeping the buffer).
  void reset(size_t NB) {
    Bits.assign((NB + 63) / 64, 0);
    Low = 0;
  }
  /// Queues B unless it is queued already.
  void push(uint32_t B) {
    Bits[B >> 6] |= uint64_t(1) << (B & 63);
    if (B >> 6 < Low)
      Low = B >> 6;
  }
  /// Takes the lowest queued block into B; false when none is left.
  bool pop(uint32_t &B) {
    for (; Low < Bits.size(); ++Low)
      if (uint64_t W = Bits[Low]) {
        unsigned Bit = unsigned(__builtin_ctzll(W));
        Bits[Low] = W & (W - 1);
        B = uint32_t(Low * 64 + Bit);
        return true;
      }
    return false;
  }

private:
  std::vector<uint64_t> Bits;
  size_t Low = 0;
};

/// Functions of at most this many instructions leave their tables to the
/// next (KeptTables).
constexpr size_t KeptTableInsts = 4096;

/// The tables (vectors) an analysis of one function works in, kept by its
/// thread from one small function to the next: allocating and freeing a
/// score of vectors per function was much of a small function's cost
/// (async-dense's 840). A large function's are freed after it (kept, a large
/// kernel's would add to the peak). The analysis holds its tables by value
/// (take() moves the kept ones in; a member read through a reference costs
/// a load after every byte stored) and resets what it reads: they hold the
/// last function's. A second analysis while the first holds them takes
/// empty ones.
template <class Tables> struct KeptTables {
  static Tables take() { return std::move(slot()); }
  static void keep(Tables &T, size_t Insts) {
    if (Insts <= KeptTableInsts)
      slot() = std::move(T);
  }

private:
  static Tables &slot() {
    static thread_local Tables Kept;
    return Kept;
  }
};

/// A solve whose block states take at most this many bytes (a small
/// function's) works in buffers its thread keeps from one function to the
/// next (solveForward).
constexpr size_t KeptStateBytes = 16384;

/// Solves forward from block 0 with Entry and replays every reached block
/// with Report = true, in block order, on its final in-state.
/// Transfer(BlockIndex, State &, bool Report), where Report changes only
/// what is reported, never the state (a block outside every loop is
/// visited once, in report mode: see below);
/// Edge(BlockIndex, SuccIndex, State &) refines the state a block passes to
/// its successor Succs[SuccIndex] and returns false where that edge cannot
/// be taken (PathConditions::takeEdge).
/// Quiet(BlockIndex, false): Transfer(B, S, false) leaves S alone, and so
/// does Edge(B, X, S) (a block with none of the rule's events and no edge
/// literal: most blocks of a large kernel); such a block hands its in-state
/// to its successors as it is, with no copy. Quiet(BlockIndex, true):
/// Transfer(B, S, true) reports nothing there (what it does to S is not
/// read); such a block is not replayed.
template <class State, class TransferFn, class EdgeFn, class QuietFn>
bool solveForward(const FlowFunction &FF, const State &Entry,
                  TransferFn &&Transfer, EdgeFn &&Edge, QuietFn &&Quiet) {
  size_t NB = FF.Blocks.size();
  if (NB == 0)
    return true;
  // Only reached blocks' states are read (Reached guards the join: a block
  // is assigned its first state), so the others are left as they are. The
  // states, S and Copy are reused across visits: assignment keeps their
  // buffers, where fresh ones per visit were most of the rules' time in
  // large kernels (malloc/free). A small function's are the thread's, kept
  // from the last small function the rule analysed: allocating them was
  // much of a small function's cost (async-dense's 840). A large kernel's
  // are its own (kept, every rule's would add to the peak).
  struct Scratch {
    std::vector<State> In;
    State S, Copy;
    std::vector<char> Reached;
    BlockQueue Work;
  };
  static thread_local Scratch Kept;
  Scratch Own;
  Scratch &W = NB * sizeof(State) <= KeptStateBytes ? Kept : Own;
  std::vector<State> &In = W.In;
  State &S = W.S, &Copy = W.Copy;
  std::vector<char> &Reached = W.Reached;
  BlockQueue &Work = W.Work;
  if (In.size() < NB)
    In.resize(NB);
  In[0] = Entry;
  Reached.assign(NB, 0);
  Work.reset(NB);
  // A block that no loop spans (Block::InLoopSpan) is final when first
  // popped: the worklist pops the lowest block, so every block below it
  // has had its last visit, and no later visit reaches back to it. It is
  // reported then, after the blocks before it: the fixpoint's one visit is
  // its report (a quarter of all visits on async-dense's functions).
  uint32_t Unreported = 0; // blocks below it are reported
  auto ReportUpTo = [&](uint32_t End) {
    for (; Unreported < End; ++Unreported)
      if (Reached[Unreported] && !Quiet(Unreported, true)) {
        S = In[Unreported];
        Transfer(Unreported, S, true);
      }
  };
  Reached[0] = 1;
  Work.push(0);
  size_t Steps = 0, Budget = 64 * NB + 4096;
  auto Pass = [&](uint32_t Succ, const State &ES) {
    bool Changed;
    if (!Reached[Succ]) {
      In[Succ] = ES;
      Reached[Succ] = 1;
      Changed = true;
    } else {
      Changed = In[Succ].join(ES);
    }
    if (Changed)
      Work.push(Succ);
  };
  for (uint32_t B; Work.pop(B);) {
    if (++Steps > Budget)
      return false;
    const BlockSuccs &Succs = FF.Blocks[B].Succs;
    bool Final = !FF.Blocks[B].InLoopSpan;
    if (Final) {
      assert(B >= Unreported);
      ReportUpTo(B);
      ++Unreported; // B itself, below
    }
    if (Quiet(B, false)) {
      if (Final && !Quiet(B, true)) {
        S = In[B];
        Transfer(B, S, true);
      }
      for (uint32_t Succ : Succs)
        Pass(Succ, In[B]);
      continue;
    }
    S = In[B];
    Transfer(B, S, Final);
    for (size_t X = 0; X < Succs.size(); ++X) {
      // The last edge takes S itself: one copy fewer per visit.
      if (X + 1 < Succs.size())
        Copy = S;
      State &ES = X + 1 < Succs.size() ? Copy : S;
      if (Edge(B, X, ES))
        Pass(Succs[X], ES);
    }
  }
  ReportUpTo(uint32_t(NB));
  return true;
}

/// Every edge taken as it is.
struct AnyEdge {
  template <class State> bool operator()(uint32_t, size_t, State &) const {
    return true;
  }
};
/// No block is known to be quiet.
struct NoQuiet {
  bool operator()(uint32_t, bool) const { return false; }
};

template <class State, class TransferFn, class EdgeFn>
bool solveForward(const FlowFunction &FF, const State &Entry,
                  TransferFn &&Transfer, EdgeFn &&Edge) {
  return solveForward(FF, Entry, Transfer, Edge, NoQuiet());
}

template <class State, class TransferFn>
bool solveForward(const FlowFunction &FF, const State &Entry,
                  TransferFn &&Transfer) {
  return solveForward(FF, Entry, Transfer, AnyEdge(), NoQuiet());
}

/// The per-fact lattice most flow rules use. Absent (the fact's instruction
/// has not run on this path) is neutral, so a path that never issued a copy
/// does not hide one that did; Pending and Done on different paths give
/// Mixed, where rules stay silent (a correlated branch may make one of the
/// paths impossible).
enum FactState : uint8_t { Absent = 0, Done = 1, Mixed = 2, PendingBase = 3 };
constexpr uint8_t MaxAge = 8;
inline uint8_t pending(unsigned Age) {
  return uint8_t(PendingBase + (Age > MaxAge ? MaxAge : Age));
}
inline bool isPending(uint8_t S) { return S >= PendingBase; }
inline unsigned ageOf(uint8_t S) { return unsigned(S - PendingBase); }
inline uint8_t joinFact(uint8_t A, uint8_t B) {
  if (A == B || B == Absent)
    return A;
  if (A == Absent)
    return B;
  return Mixed;
}

/// The facts of at most 64 sites (the rules that use FactVector cap their
/// sites there), inline: states are copied on every block visit, and a
/// vector allocated for each block's first in-state.
struct FactBytes {
  static constexpr size_t Max = 64;
  uint8_t V[Max] = {};
  uint32_t N = 0;
  void assign(size_t Count, uint8_t X) {
    assert(Count <= Max);
    N = uint32_t(Count);
    std::memset(V, X, Count);
  }
  size_t size() const { return N; }
  uint8_t &operator[](size_t K) { return V[K]; }
  uint8_t operator[](size_t K) const { return V[K]; }
  uint8_t *begin() { return V; }
  uint8_t *end() { return V + N; }
  const uint8_t *begin() const { return V; }
  const uint8_t *end() const { return V + N; }
  bool operator==(const FactBytes &O) const {
    return N == O.N && std::memcmp(V, O.V, N) == 0;
  }
  /// Bit K: fact K is above X in FactState's order (above(Done): Mixed or
  /// pending; above(Mixed): pending).
  uint64_t above(uint8_t X) const {
    uint64_t M = 0;
#if defined(__SSE2__)
    // 16 facts a compare (the bytes past N are masked off below).
    const __m128i D = _mm_set1_epi8(char(X));
    for (uint32_t K = 0; K < N; K += 16) {
      __m128i A = _mm_loadu_si128(reinterpret_cast<const __m128i *>(V + K));
      M |= uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpgt_epi8(A, D)))) << K;
    }
#else
    for (uint32_t K = 0; K < N; ++K)
      M |= uint64_t(V[K] > X) << K;
#endif
    return N < Max ? M & ((uint64_t(1) << N) - 1) : M;
  }
};

/// A vector of facts, joined element-wise.
struct FactVector {
  FactBytes F;
  bool join(const FactVector &O) {
#if defined(__SSE2__)
    // joinFact() on 16 facts at a time (the array holds 64, so a last
    // partial run reads and writes inside it; facts past N are not read).
    // A byte loop with a memcmp call first (for the joins that change
    // nothing) was 12 % of async-dense's completion solve.
    const __m128i Zero = _mm_setzero_si128(), Mix = _mm_set1_epi8(char(Mixed));
    bool Changed = false;
    for (uint32_t K = 0; K < F.N; K += 16) {
      __m128i A = _mm_loadu_si128(reinterpret_cast<const __m128i *>(F.V + K));
      __m128i B = _mm_loadu_si128(reinterpret_cast<const __m128i *>(O.F.V + K));
      // A stays where A == B or B is Absent; B where A is Absent; else Mixed.
      __m128i Keep = _mm_or_si128(_mm_cmpeq_epi8(A, B), _mm_cmpeq_epi8(B, Zero));
      __m128i Take = _mm_andnot_si128(Keep, _mm_cmpeq_epi8(A, Zero));
      __m128i R = _mm_or_si128(
          _mm_or_si128(_mm_and_si128(Keep, A), _mm_and_si128(Take, B)),
          _mm_andnot_si128(_mm_or_si128(Keep, Take), Mix));
      unsigned Diff = ~unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(R, A))) & 0xffffu;
      if (F.N - K < 16)
        Diff &= (1u << (F.N - K)) - 1;
      if (Diff) {
        _mm_storeu_si128(reinterpret_cast<__m128i *>(F.V + K), R);
        Changed = true;
      }
    }
    return Changed;
#else
    if (F == O.F)
      return false; // the common case at a fixpoint: one compare of bytes
    bool Changed = false;
    for (size_t K = 0; K < F.size(); ++K) {
      uint8_t J = joinFact(F[K], O.F[K]);
      if (J != F[K]) {
        F[K] = J;
        Changed = true;
      }
    }
    return Changed;
#endif
  }
};

/// Applies a kill (Done) that may not run: a predicated fence or wait.
inline uint8_t killMaybe(uint8_t S, bool Guarded) {
  if (S == Absent)
    return Absent;
  return Guarded ? joinFact(S, uint8_t(Done)) : uint8_t(Done);
}

} // namespace flow
} // namespace ptxlint
#endif
