//===- PathConditions.cpp - Branch predicates as atoms; correlated paths --===//

#include "Flow/PathConditions.h"

#include <algorithm>

namespace ptxlint {
namespace flow {
namespace {

enum AtomKind : uint64_t { KOpaque = 1, KEq = 2, KLt = 3, KLe = 4 };

/// What lits() follows through a predicate's definition, read from its
/// head once: an integer comparison "setp.CMP.TYPE" (eq/ne share an atom,
/// lt/ge, le/gt), or not/mov/and/or.pred; anything else is Other (only the
/// predicate itself). (Parsed in place: splitting the head into words and
/// searching a table of comparisons was 40 % of lits()' own instructions.)
struct DefShape {
  enum OpK : uint8_t { Other, IntCompare, Not, Mov, And, Or } Op = Other;
  uint64_t Kind = 0; ///< IntCompare: the atom kind
  bool Neg = false;  ///< IntCompare: the comparison negates the atom
  uint8_t Cls = 0;   ///< IntCompare: 1 signed, 2 unsigned/bits
};

/// A word of at most 8 bytes as an integer (first byte lowest), 0 when
/// longer: the tests below switch over constant words (std::string_view's
/// == is a call to compare() here).
constexpr uint64_t pack(std::string_view W) {
  if (W.size() > 8)
    return 0;
  uint64_t V = 0;
  for (size_t K = 0; K < W.size(); ++K)
    V |= uint64_t(uint8_t(W[K])) << (8 * K);
  return V;
}

/// The comparison of a two-letter code as (atom kind, negated).
bool comparison(std::string_view C, uint64_t &Kind, bool &Neg) {
  switch (pack(C)) {
  case pack("eq"): Kind = KEq, Neg = false; return true;
  case pack("ne"): Kind = KEq, Neg = true; return true;
  case pack("lt"): case pack("lo"): Kind = KLt, Neg = false; return true;
  case pack("ge"): case pack("hs"): Kind = KLt, Neg = true; return true;
  case pack("le"): case pack("ls"): Kind = KLe, Neg = false; return true;
  case pack("gt"): case pack("hi"): Kind = KLe, Neg = true; return true;
  }
  return false;
}

/// Integer type class: 1 signed, 2 unsigned/bits, 0 not an integer.
uint8_t intClass(std::string_view T) {
  switch (pack(T)) {
  case pack("s8"): case pack("s16"): case pack("s32"): case pack("s64"):
    return 1;
  }
  if (T.size() >= 2 && T.size() <= 3 && (T[0] == 'u' || T[0] == 'b') &&
      T[1] >= '0' && T[1] <= '9')
    return 2;
  return 0;
}

DefShape defShape(std::string_view Head) {
  DefShape S;
  switch (pack(Head)) { // "OP.pred", of which four are followed
  case pack("not.pred"): S.Op = DefShape::Not; return S;
  case pack("mov.pred"): S.Op = DefShape::Mov; return S;
  case pack("and.pred"): S.Op = DefShape::And; return S;
  case pack("or.pred"): S.Op = DefShape::Or; return S;
  }
  // "setp.CC.TYPE", three words, at least "setp.eq.s8": every comparison
  // code has two letters; "setp.ne.and.s32", "setp.eq.ftz.f32" are Other.
  if (Head.size() < 10 || pack(Head.substr(0, 5)) != pack("setp.") ||
      Head[7] != '.')
    return S;
  std::string_view Type = Head.substr(8);
  if (Type.find('.') != std::string_view::npos)
    return S;
  S.Cls = intClass(Type);
  if (S.Cls && comparison(Head.substr(5, 2), S.Kind, S.Neg))
    S.Op = DefShape::IntCompare;
  return S;
}

size_t hashKey(uint64_t KeyA, int64_t KeyB) {
  uint64_t H = (KeyA ^ (uint64_t(KeyB) * 0x9E3779B97F4A7C15ull)) * 0xFF51AFD7ED558CCDull;
  return size_t(H ^ (H >> 32));
}

constexpr int MaxDepth = 4;
constexpr uint32_t MaxScan = 512; ///< instructions scanned within a block

} // namespace

PathConditions::PathConditions(const FlowFunction &FF)
    : FF(FF), T(KeptTables<Tables>::take()) {
  // Kept tables hold the last function's: the ones filled by push_back
  // start empty (the others are assigned whole).
  for (std::vector<uint32_t> *V :
       {&T.EdgeStart, &T.EdgeLits, &T.Events})
    V->clear();
  T.AtomRegs.clear();
  T.AtomOpaque.clear();
  size_t NB = FF.Blocks.size();
  T.Cyclic.assign(NB, -1);
  T.EdgeStart.reserve(2 * NB + 1);
  // Room for about two atoms per conditional branch (a comparison and its
  // predicate) before the table grows: a small function's is small.
  size_t Branches = 0;
  for (const Block &Bl : FF.Blocks)
    Branches += Bl.Succs.size() == 2;
  size_t Slots = 16;
  while (Slots < 4 * Branches && Slots < 256)
    Slots *= 2;
  T.AtomTable.assign(Slots, AtomSlot{});
  // (Growth by doublings is a copy and an allocation each, per function.)
  T.EdgeLits.reserve(4 * Branches);
  T.AtomRegs.reserve(2 * Branches);
  T.AtomOpaque.reserve(2 * Branches);
  for (uint32_t B = 0; B < NB; ++B) {
    const Block &Bl = FF.Blocks[B];
    T.EdgeStart.push_back(uint32_t(T.EdgeLits.size()));
    uint32_t Pos = Bl.End - 1;
    int32_t P = -1;
    if (Bl.Begin != Bl.End && Bl.Succs.size() == 2) {
      const FlowInst &Br = FF.Insts[Pos];
      if (Br.Op.Kind == OpKind::Branch && Br.Guarded)
        P = FF.regId(FF.guard(Br));
    }
    if (P < 0) {
      T.EdgeStart.push_back(uint32_t(T.EdgeLits.size()));
      continue;
    }
    // FlowFunction::build(): Succs[0] is the target, Succs[1] the fall-through.
    // Both edges in one walk of the definitions behind the guard.
    std::vector<Lit> &Taken = FF.Insts[Pos].GuardNeg ? T.IfFalse : T.IfTrue;
    std::vector<Lit> &NotTaken = FF.Insts[Pos].GuardNeg ? T.IfTrue : T.IfFalse;
    T.IfTrue.clear();
    T.IfFalse.clear();
    lits(P, Pos, Pos, 0, {&T.IfTrue, &T.IfFalse});
    T.EdgeLits.insert(T.EdgeLits.end(), Taken.begin(), Taken.end());
    T.EdgeStart.push_back(uint32_t(T.EdgeLits.size()));
    T.EdgeLits.insert(T.EdgeLits.end(), NotTaken.begin(), NotTaken.end());
  }
  T.EdgeStart.push_back(uint32_t(T.EdgeLits.size()));
  // Every definition of an atom's register forgets the atom (a mov.pred
  // that sets a path flag is one of them); "mov.pred %p, 0/-1" also makes
  // the flag's atom known. As (instruction, atom) and (instruction,
  // literal) pairs, then grouped per instruction.
  std::vector<std::pair<uint32_t, uint32_t>> &Kills = T.Kills;
  std::vector<std::pair<uint32_t, Lit>> &Sets = T.Sets;
  Kills.clear();
  Sets.clear();
  Kills.reserve(4 * T.AtomRegs.size());
  // EventOf: first -1 - the instruction's kills, then its event (-1: none).
  std::vector<int32_t> &EventOf = T.EventOf;
  EventOf.assign(FF.Insts.size(), -1);
  T.Events.clear();
  for (uint32_t A = 0; A < T.AtomRegs.size(); ++A)
    for (int32_t R : T.AtomRegs[A])
      for (uint32_t X = 0; R >= 0 && X < FF.defCount(R); ++X) {
        uint32_t K = FF.defInst(R, X);
        Kills.push_back({K, A});
        if (EventOf[K]-- == -1)
          T.Events.push_back(K);
      }
  for (uint32_t A = 0; A < T.AtomRegs.size(); ++A) {
    if (!T.AtomOpaque[A])
      continue;
    int32_t P = T.AtomRegs[A][0];
    for (uint32_t X = 0; X < FF.defCount(P); ++X) {
      uint32_t K = FF.defInst(P, X);
      const FlowInst &I = FF.Insts[K];
      if (I.Head != "mov.pred")
        continue;
      const Opnd *Src = FF.operand(I, 1);
      if (Src && Src->K == Opnd::Imm && Src->HasValue)
        Sets.push_back({K, Lit(A) << 1 | (Src->Value == 0 ? 1u : 0u)});
    }
  }
  // The events in program order, each with room for its kills; the kills
  // go to their event's run in the order made, so that each event's atoms
  // are in order (a counting sort: sorting the pairs cost more than all the
  // rest of the grouping).
  std::sort(T.Events.begin(), T.Events.end());
  size_t NE = T.Events.size();
  T.KillStart.resize(NE + 1);
  std::vector<uint32_t> &Fill = T.Fill; // per event: where its next atom goes
  Fill.resize(NE);
  uint32_t Room = 0;
  for (size_t E = 0; E < NE; ++E) {
    int32_t &Of = EventOf[T.Events[E]];
    T.KillStart[E] = Fill[E] = Room;
    Room += uint32_t(-1 - Of);
    Of = int32_t(E);
  }
  T.KillStart[NE] = Room;
  T.KillAtoms.resize(Room);
  T.KillBits.assign(NE, 0);
  bool Twice = false;
  for (const auto &[K, A] : Kills) {
    size_t E = size_t(EventOf[K]);
    // (An atom's two registers defined by one instruction: the atom once.)
    if (Fill[E] > T.KillStart[E] && T.KillAtoms[Fill[E] - 1] == A) {
      Twice = true;
      continue;
    }
    T.KillAtoms[Fill[E]++] = A;
    T.KillBits[E] |= uint64_t(1) << (A & 63);
  }
  if (Twice) { // close the runs' gaps
    uint32_t To = 0;
    for (size_t E = 0; E < NE; ++E) {
      uint32_t From = T.KillStart[E];
      T.KillStart[E] = To;
      for (; From < Fill[E]; ++From)
        T.KillAtoms[To++] = T.KillAtoms[From];
    }
    T.KillStart[NE] = To;
    T.KillAtoms.resize(To);
  }
  std::sort(Sets.begin(), Sets.end());
  T.EventSets.assign(NE, NoLit);
  for (const auto &[K, L] : Sets) // (a definition of the flag: an event)
    T.EventSets[size_t(EventOf[K])] = L; // one flag per mov.pred
}

uint32_t PathConditions::atomFor(uint64_t KeyA, int64_t KeyB, int32_t RA,
                                 int32_t RB) {
  if ((T.AtomRegs.size() + 1) * 2 > T.AtomTable.size()) {
    std::vector<AtomSlot> Old(T.AtomTable.size() * 2);
    Old.swap(T.AtomTable);
    size_t Mask = T.AtomTable.size() - 1;
    for (const AtomSlot &Sl : Old)
      if (Sl.Id >= 0) {
        size_t P = hashKey(Sl.KeyA, Sl.KeyB) & Mask;
        while (T.AtomTable[P].Id >= 0)
          P = (P + 1) & Mask;
        T.AtomTable[P] = Sl;
      }
  }
  size_t Mask = T.AtomTable.size() - 1;
  for (size_t P = hashKey(KeyA, KeyB) & Mask;; P = (P + 1) & Mask) {
    AtomSlot &Sl = T.AtomTable[P];
    if (Sl.Id >= 0) {
      if (Sl.KeyA == KeyA && Sl.KeyB == KeyB)
        return uint32_t(Sl.Id);
      continue;
    }
    Sl = AtomSlot{KeyA, KeyB, int32_t(T.AtomRegs.size())};
    T.AtomRegs.push_back({RA, RB});
    T.AtomOpaque.push_back((KeyA >> 40) == KOpaque);
    return uint32_t(Sl.Id);
  }
}

uint32_t PathConditions::opaqueAtom(int32_t P) {
  return atomFor(KOpaque << 40 | uint32_t(P), 0, P, -1);
}

int64_t PathConditions::reachingDef(int32_t R, uint32_t At) const {
  const Block &Bl = FF.Blocks[FF.blockOf(At)];
  // A definition in At's block within MaxScan instructions before At; past
  // MaxScan without one, unknown.
  int64_t K = FF.lastDefBefore(R, At);
  if (K >= int64_t(Bl.Begin))
    return At - K <= MaxScan ? K : -1;
  if (At - Bl.Begin > MaxScan)
    return -1;
  if (FF.defCount(R) == 1)
    return FF.defInst(R, 0);
  return -1;
}

bool PathConditions::stable(int32_t R, uint32_t From, uint32_t Pos) {
  if (R < 0)
    return true; // never defined here: %tid.x, a parameter name
  if (From < Pos && FF.blockOf(From) == FF.blockOf(Pos)) {
    if (Pos - From > MaxScan)
      return false;
    return FF.lastDefBefore(R, Pos) <= int64_t(From); // none in (From, Pos)
  }
  uint32_t N = FF.defCount(R);
  if (N == 0)
    return true;
  if (N > 1)
    return false;
  // One definition D: if it runs at most once, or always just before From
  // within From's block, no run of D lies between the last From and Pos.
  uint32_t D = FF.defInst(R, 0);
  uint32_t BD = FF.blockOf(D);
  return !inCycle(BD) || (BD == FF.blockOf(From) && D < From);
}

bool PathConditions::inCycle(uint32_t B) {
  // A cycle through B leaves it and comes back: some edge of it goes from
  // a block at or after B to one at or before B, and spans B.
  if (!FF.Blocks[B].InLoopSpan)
    return false;
  if (T.Cyclic[B] >= 0)
    return T.Cyclic[B] != 0;
  // Tarjan's strongly connected components, iteratively, for every block.
  // A block is on the stack while it has an index and no component yet
  // (Cyclic still -1). The stacks are arrays of NB with a top (each block
  // is on each at most once): push_back's capacity test and its call
  // were a third of the search.
  size_t NB = FF.Blocks.size();
  std::vector<int32_t> &Index = T.Index, &Low = T.Low;
  Index.assign(NB, -1);
  Low.resize(NB);
  T.Stack.resize(NB);
  T.Call.resize(NB);
  uint32_t *Stack = T.Stack.data();
  std::pair<uint32_t, uint32_t> *Call = T.Call.data();
  size_t Top = 0, Depth = 0; // sizes of Stack and Call
  int32_t Next = 0;
  for (uint32_t Root = 0; Root < NB; ++Root) {
    if (Index[Root] >= 0)
      continue;
    Call[Depth++] = {Root, 0};
    Index[Root] = Low[Root] = Next++;
    Stack[Top++] = Root;
    while (Depth) {
      auto &[V, I] = Call[Depth - 1];
      const BlockSuccs &Succs = FF.Blocks[V].Succs;
      if (I < Succs.size()) {
        uint32_t W = Succs[I++];
        if (Index[W] < 0) {
          Index[W] = Low[W] = Next++;
          Stack[Top++] = W;
          Call[Depth++] = {W, 0};
        } else if (T.Cyclic[W] < 0) { // on the stack
          Low[V] = std::min(Low[V], Index[W]);
        }
        continue;
      }
      uint32_t Done = V;
      --Depth;
      if (Depth)
        Low[Call[Depth - 1].first] = std::min(Low[Call[Depth - 1].first], Low[Done]);
      if (Low[Done] != Index[Done])
        continue;
      // The component is the top of Stack down to Done (read in place: a
      // vector per component cost more than the search itself).
      size_t From = Top;
      do
        --From;
      while (Stack[From] != Done);
      bool Self = false;
      for (uint32_t S : FF.Blocks[Done].Succs)
        Self |= S == Done;
      int8_t InCycle = Top - From > 1 || Self;
      for (size_t X = From; X < Top; ++X)
        T.Cyclic[Stack[X]] = InCycle;
      Top = From;
    }
  }
  return T.Cyclic[B] != 0;
}

void PathConditions::lits(int32_t P, uint32_t At, uint32_t Pos, int Depth,
                          Sides Out) {
  // The literal of each side, for the sides being collected.
  auto Push = [&](auto &&LitIf) {
    for (int V = 1; V >= 0; --V)
      if (std::vector<Lit> *O = Out[V ? 0 : 1])
        O->push_back(LitIf(V != 0));
  };
  // The predicate itself, when its value at At is its value at Pos.
  auto Opaque = [&] {
    if (!(At == Pos || stable(P, At, Pos)) || (!Out[0] && !Out[1]))
      return;
    uint32_t A = opaqueAtom(P); // (one look-up for both sides)
    Push([&](bool Want) { return Lit(A) << 1 | (Want ? 0u : 1u); });
  };
  int64_t S = Depth > MaxDepth ? -1 : reachingDef(P, At);
  if (S < 0)
    return Opaque();
  const FlowInst &I = FF.Insts[uint32_t(S)];
  DefShape Def = defShape(I.Head);
  const Opnd *D = FF.operand(I, 0);
  // A predicate operand ("%p", "!%p") read by instruction S, for sides
  // Sub (what the operand's truth implies on each side).
  auto Sub = [&](int8_t K, Sides Sub) {
    const Opnd *O = FF.operand(I, K);
    if (!O || O->K != Opnd::Reg)
      return;
    if (O->Negated)
      std::swap(Sub[0], Sub[1]);
    lits(FF.regId(*O), uint32_t(S), Pos, Depth + 1, Sub);
  };
  if (Def.Op == DefShape::IntCompare && D) {
    bool Second = false; // "setp p|q": q is the negated comparison
    if (D->K == Opnd::Vec && D->Regs.size() == 2 && FF.regId(D->Regs[1]) == P)
      Second = true;
    const Opnd *A = FF.operand(I, 1), *B = FF.operand(I, 2);
    if (A && B && A->K == Opnd::Reg &&
        !A->Negated && (B->K == Opnd::Reg || (B->K == Opnd::Imm && B->HasValue))) {
      int32_t RA = FF.regId(*A);
      int32_t RB = B->K == Opnd::Reg ? FF.regId(*B) : -1;
      bool BReg = B->K == Opnd::Reg;
      if (RA >= 0 && (!BReg || RB >= 0) && stable(RA, uint32_t(S), Pos) &&
          (!BReg || stable(RB, uint32_t(S), Pos))) {
        uint64_t Sign = Def.Kind == KEq ? 0 : uint64_t(Def.Cls);
        uint64_t KeyA = Def.Kind << 40 | Sign << 36 | uint64_t(BReg) << 35 | uint32_t(RA);
        // The atom is made before either side's literal, as when each side
        // walked alone (the true side first).
        uint32_t At2 = atomFor(KeyA, BReg ? RB : B->Value, RA, BReg ? RB : -1);
        Push([&](bool Want) {
          bool Truth = Want != Second;
          return Lit(At2) << 1 | (Truth == !Def.Neg ? 0u : 1u);
        });
      }
    }
    // Also the register itself: a later branch on it may not see the
    // comparison (its operand redefined elsewhere) and still be correlated.
    return Opaque();
  }
  switch (Def.Op) {
  case DefShape::Not:
    Sub(1, {Out[1], Out[0]});
    break;
  case DefShape::Mov: {
    const Opnd *Src = FF.operand(I, 1);
    if (Src && Src->K == Opnd::Imm && Src->HasValue) {
      // The side that needs the flag to differ cannot be taken.
      if (std::vector<Lit> *O = Out[Src->Value != 0 ? 1 : 0])
        O->push_back(FalseLit);
    } else {
      Sub(1, Out);
    }
    break;
  }
  // and.pred true: both operands true; or.pred false: both false. The
  // other sides imply nothing about the operands.
  case DefShape::And:
  case DefShape::Or: {
    Sides Both = Def.Op == DefShape::And ? Sides{Out[0], nullptr}
                                         : Sides{nullptr, Out[1]};
    if (Both[0] || Both[1]) {
      Sub(1, Both);
      Sub(2, Both);
    }
    break;
  }
  case DefShape::Other:
  case DefShape::IntCompare: // (without a destination operand)
    break;
  }
  return Opaque();
}

} // namespace flow
} // namespace ptxlint
