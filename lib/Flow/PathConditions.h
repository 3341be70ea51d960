//===- PathConditions.h - Branch predicates as atoms; correlated paths ----===//
//
// Elected-thread code recomputes its guards: the store is skipped by
// "setp.ne.s32 %p548, %rW, 0; @%p548 bra", the commit that belongs to it by
// "setp.ne.s32 %p552, %rW, 0; @%p552 bra" further down. A dataflow that
// joins both sides of the first branch cannot tell that "store ran, commit
// skipped" is impossible. This file gives each branch edge the literals that
// hold on it, over canonical atoms:
//   * an integer comparison of a register with an immediate or register,
//     "(a == b)", "(a <s b)", "(a <=u b)": eq/ne, lt/ge, gt/le (and the
//     unsigned lo/hs/hi/ls) of one register share an atom, negated or not;
//   * otherwise the predicate register itself (an opaque atom: elect.sync,
//     float compares, a path flag set by mov.pred).
// not.pred, and.pred (true side), or.pred (false side), mov.pred copies and
// "setp p|q" are followed to the comparisons they combine; mov.pred of a
// constant makes a branch edge infeasible.
//
// A literal speaks about the *current* value of its registers: every
// definition of an atom's register is an event (killsAt) that forgets it.
// A literal is derived only when the registers it reads cannot have been
// redefined between the comparison and the branch (stable()).
//
// Rules carry PathLits (what surely holds on every path here, intersected at
// joins) and, per fact, a Cond (the literals under which a may-fact holds);
// a branch edge whose literal contradicts PathLits is not taken, and a fact
// whose Cond it contradicts is dropped on that edge.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_FLOW_PATHCONDITIONS_H
#define PTXLINT_FLOW_PATHCONDITIONS_H

#include "Flow/Dataflow.h"
#include "Flow/FlowFunction.h"

#include <algorithm>
#include <array>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cstdint>
#include <vector>

namespace ptxlint {
namespace flow {

/// A literal: atom << 1 | negated. FalseLit holds on no path.
using Lit = uint32_t;
constexpr Lit FalseLit = 0xfffffffeu;
inline Lit negLit(Lit L) { return L ^ 1u; }
inline uint32_t atomOf(Lit L) { return L >> 1; }

/// The atoms an event kills, and a bit per atom (its number mod 64) that
/// answers most "is this one killed?" questions without a search: an event
/// kills a few of the function's hundreds of atoms.
struct AtomSet {
  IndexRun Atoms;
  uint64_t Bits = 0;
  bool contains(uint32_t A) const {
    if (!(Bits >> (A & 63) & 1))
      return false;
    for (uint32_t X : Atoms)
      if (X == A)
        return true;
    return false;
  }
};

/// A conjunction of at most Max literals; None: the fact does not hold.
template <unsigned Max> struct LitSet {
  static constexpr uint8_t NoneN = 0xff;
  uint8_t N = NoneN;
  Lit L[Max] = {};
  bool none() const { return N == NoneN; }
  bool holds() const { return N != NoneN; }
  void setNone() { N = NoneN; }
  void setTrue() { N = 0; }
  bool has(Lit X) const {
    if (none())
      return false;
#if defined(__SSE2__)
    // Every slot at once, four to a compare, the slots past N masked off
    // (they keep literals a shrink left there): a search with a branch per
    // literal was a tenth of async-dense's completion solve.
    static_assert(Max % 4 == 0, "whole compares");
    const __m128i V = _mm_set1_epi32(int(X));
    unsigned Bits = 0;
    for (unsigned K = 0; K < Max; K += 4) {
      __m128i W = _mm_loadu_si128(reinterpret_cast<const __m128i *>(L + K));
      Bits |= unsigned(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(W, V)))) << K;
    }
    return (Bits & ((1u << N) - 1)) != 0;
#else
    for (unsigned K = 0, End = N; K < End; ++K)
      if (L[K] == X)
        return true;
    return false;
#endif
  }
  /// Adds X. When full, the oldest literal makes room (Evict: a path
  /// condition, where the newest literals guard what follows) or X is not
  /// added (a fact's condition, whose oldest literals are the guard of the
  /// instruction that made it); dropping a literal only weakens.
  void add(Lit X, bool Evict) {
    if (none() || (N == Max && !Evict) || has(X))
      return;
    if (N == Max) {
      for (unsigned K = 1; K < Max; ++K)
        L[K - 1] = L[K];
      --N;
    }
    L[N++] = X;
  }
  /// Keeps the literals also in O (the join of two must-conditions).
  bool intersect(const LitSet &O) {
    if (none() || O.none())
      return false;
    if (N == O.N && std::equal(L, L + N, O.L))
      return false; // the common case at a join: one compare per literal
    // Two paths' sets mostly hold their common literals in the same order
    // (perhaps shifted by the newest ones): look where the last one was
    // found first, and search O only when it is not there.
    uint8_t W = 0;
    for (unsigned K = 0, G = 0; K < N; ++K) {
      bool In = G < O.N && O.L[G] == L[K];
      for (unsigned Y = 0; !In && Y < O.N; ++Y)
        if (O.L[Y] == L[K]) {
          In = true;
          G = Y;
        }
      if (In) {
        L[W++] = L[K];
        ++G;
      }
    }
    bool Changed = W != N;
    N = W;
    return Changed;
  }
  /// Join of may-facts: holds where either holds.
  bool joinMay(const LitSet &O) {
    if (O.none())
      return false;
    if (none()) {
      *this = O;
      return true;
    }
    return intersect(O);
  }
  /// Drops the literals whose atom is in Atoms (their registers changed).
  void forget(const AtomSet &Atoms) {
    if (none())
      return;
    auto Killed = [&](Lit X) { return Atoms.contains(atomOf(X)); };
    // Most events kill no literal of the set: find the first that goes
    // before moving any.
    unsigned K = 0;
    while (K < N && !Killed(L[K]))
      ++K;
    if (K == N)
      return;
    uint8_t W = uint8_t(K);
    for (++K; K < N; ++K)
      if (!Killed(L[K]))
        L[W++] = L[K];
    N = W;
  }
  /// The newest Max literals of O (a set holds no literal twice: add()
  /// is the only way in).
  template <unsigned M> void assignFrom(const LitSet<M> &O) {
    if (O.none()) {
      setNone();
      return;
    }
    unsigned From = O.N > Max ? O.N - Max : 0;
    N = uint8_t(O.N - From);
    std::copy(O.L + From, O.L + O.N, L);
  }
};

using PathLits = LitSet<12>; ///< what holds on every path reaching a point
using Cond = LitSet<8>;      ///< under which a may-fact holds

class PathConditions {
public:
  explicit PathConditions(const FlowFunction &FF);
  ~PathConditions() { KeptTables<Tables>::keep(T, FF.Insts.size()); }

  /// A run of literals in the pool.
  using Lits = IndexRun;
  /// Literals that hold when control takes Succs[S] of block B.
  Lits edge(uint32_t B, size_t S) const {
    // (Inline: the solve asks for both edges of every block it visits.)
    if (S >= 2 || size_t(B) * 2 + 2 >= T.EdgeStart.size())
      return Lits{};
    const Lit *Base = T.EdgeLits.data();
    return Lits{Base + T.EdgeStart[2 * B + S],
                Base + T.EdgeStart[2 * B + S + 1]};
  }
  /// Instructions that redefine an atom's register or set a path flag, in
  /// program order: rules add them to their events.
  const std::vector<uint32_t> &events() const { return T.Events; }
  /// Applies event K to the path condition and to the facts' conditions.
  template <class ForEachCond> void apply(uint32_t K, PathLits &P, ForEachCond &&Each) const {
    if (K >= T.EventOf.size() || T.EventOf[K] < 0)
      return;
    size_t E = size_t(T.EventOf[K]);
    Lit Sets = T.EventSets[E];
    const uint32_t *Atoms = T.KillAtoms.data();
    AtomSet Kills{{Atoms + T.KillStart[E], Atoms + T.KillStart[E + 1]},
                  T.KillBits[E]};
    P.forget(Kills);
    Each([&](auto &C) {
      C.forget(Kills);
      if (Sets != NoLit)
        C.add(Sets, false); // a fact that holds here holds with the flag set
    });
    if (Sets != NoLit)
      P.add(Sets, true);
  }
  /// Takes edge S of block B: false when the edge cannot be taken on this
  /// path; else P and the facts' conditions learn the edge's literals.
  template <class ForEachCond>
  bool takeEdge(uint32_t B, size_t S, PathLits &P, ForEachCond &&Each) const {
    Lits E = edge(B, S);
    for (Lit X : E)
      if (X == FalseLit || P.has(negLit(X)))
        return false;
    for (Lit X : E) {
      P.add(X, true);
      Each([&](auto &C) {
        if (C.has(negLit(X)))
          C.setNone(); // the fact's paths do not take this edge
        else
          C.add(X, false); // those that do, learn X
      });
    }
    return true;
  }
  size_t atomCount() const { return T.AtomRegs.size(); }

private:
  static constexpr Lit NoLit = 0xffffffffu;
  struct AtomSlot {
    uint64_t KeyA = 0;
    int64_t KeyB = 0;
    int32_t Id = -1;
  };
  /// Where lits() appends: [0] the literals that hold when the register is
  /// true, [1] when it is false; a null side is not collected.
  using Sides = std::array<std::vector<Lit> *, 2>;
  /// Literals implied by register P's truth value just before instruction
  /// At, valid at Pos (the branch), for both sides in one walk.
  void lits(int32_t P, uint32_t At, uint32_t Pos, int Depth, Sides Out);
  /// The definition of R that reaches At: in At's block, else R's only one.
  int64_t reachingDef(int32_t R, uint32_t At) const;
  /// No definition of R can run between instruction From and Pos.
  bool stable(int32_t R, uint32_t From, uint32_t Pos);
  bool inCycle(uint32_t Block);
  /// The atom of key (KeyA, KeyB), made with registers RA and RB (-1: none)
  /// when new.
  uint32_t atomFor(uint64_t KeyA, int64_t KeyB, int32_t RA, int32_t RB);
  /// The atom of predicate register P itself.
  uint32_t opaqueAtom(int32_t P);

  const FlowFunction &FF;
  /// The function's tables (a small function's kept: Dataflow.h); the
  /// constructor resets them.
  struct Tables {
    /// Edge literals, flat: those of Succs[S] of block B are
    /// EdgeLits[EdgeStart[2B + S] .. EdgeStart[2B + S + 1]).
    std::vector<uint32_t> EdgeStart;
    std::vector<Lit> EdgeLits;
    std::vector<Lit> IfTrue, IfFalse; ///< a branch's two sides, while built
    /// Per atom: its registers (-1: none), and whether it is a predicate
    /// register's own.
    std::vector<std::array<int32_t, 2>> AtomRegs;
    std::vector<char> AtomOpaque;
    /// Atoms by key: open addressing (an atom is looked up per literal).
    std::vector<AtomSlot> AtomTable;
    /// The events, and per event its killed atoms (KillAtoms[KillStart[E] ..
    /// KillStart[E + 1])) and the literal it sets (NoLit: none).
    std::vector<uint32_t> Events;
    std::vector<int32_t> EventOf; ///< per instruction: its event, or -1
    std::vector<uint32_t> KillStart, KillAtoms;
    std::vector<uint64_t> KillBits; ///< per event: AtomSet::Bits of its atoms
    std::vector<Lit> EventSets;
    std::vector<int8_t> Cyclic; ///< per block: -1 unknown, 0/1
    // While built: (instruction, atom) and (instruction, literal) pairs,
    // per event where its next killed atom goes; inCycle()'s search.
    std::vector<std::pair<uint32_t, uint32_t>> Kills;
    std::vector<uint32_t> Fill;
    std::vector<std::pair<uint32_t, Lit>> Sets;
    std::vector<int32_t> Index, Low;
    std::vector<uint32_t> Stack;
    std::vector<std::pair<uint32_t, uint32_t>> Call; // (block, next successor)
  };
  Tables T;
};

} // namespace flow
} // namespace ptxlint
#endif
