//===- PrefetchRule.cpp - F409: a prefetch that no later copy reads -------===//
//
// A performance hint. cp.async.bulk.prefetch(.tensor) warms L2 for a later
// read; if every copy from global memory that follows it on every path reads
// a provably different range, the prefetch only costs bandwidth. "Provably
// different": for bulk prefetches, the same base with disjoint constant
// ranges, or distinct .global symbols; for tensor prefetches, a different
// tensor-map symbol. Any other later global read (ld, atom, tex, an
// unresolvable copy, a call into module code) counts as reading it, and a
// kernel whose only work after the prefetch is not a copy (a prefetch for a
// later kernel) is left alone: the rule needs at least one later copy.
//
//===----------------------------------------------------------------------===//

#include "Flow/Dataflow.h"
#include "Flow/FlowRules.h"

namespace ptxlint {
namespace flow {
namespace {

// Per-prefetch states.
enum : uint8_t { PAbsent = 0, PUnread = 1, PUnreadSaw = 2, PRead = 3, PMixed = 4 };

uint8_t joinP(uint8_t A, uint8_t B) {
  if (A == B || B == PAbsent)
    return A;
  if (A == PAbsent)
    return B;
  if ((A == PUnread || A == PUnreadSaw) && (B == PUnread || B == PUnreadSaw))
    return PUnread;
  return PMixed;
}

struct PState {
  std::vector<uint8_t> F;
  bool join(const PState &O) {
    bool Changed = false;
    for (size_t K = 0; K < F.size(); ++K) {
      uint8_t J = joinP(F[K], O.F[K]);
      if (J != F[K]) {
        F[K] = J;
        Changed = true;
      }
    }
    return Changed;
  }
};

constexpr size_t MaxPrefetches = 16;

} // namespace

void runPrefetchRule(const FlowRuleContext &C) {
  const FlowFunction &FF = C.FF;
  std::vector<uint32_t> Sites;
  std::vector<int32_t> SiteOf(FF.Insts.size(), -1);
  for (size_t RK = 0; RK < FF.RoleInsts.size() && Sites.size() < MaxPrefetches; ++RK)
    if (uint32_t K = FF.RoleInsts[RK]; FF.Insts[K].Op.isPrefetch()) {
      SiteOf[K] = int32_t(Sites.size());
      Sites.push_back(K);
    }

  auto Disjoint = [&](const FlowInst &P, const FlowInst &Cp) {
    if (P.Op.Kind == OpKind::TensorPrefetch) {
      if (Cp.Op.Kind != OpKind::TensorCopy)
        return false;
      const Opnd *A = FF.operand(P, P.Op.TensorOp), *B = FF.operand(Cp, Cp.Op.TensorOp);
      AddrKey KA = FF.address(A), KB = FF.address(B);
      if (!KA.valid() || !KB.valid() || KA.Base == KB.Base)
        return false;
      auto Named = [&](int32_t Bs) {
        auto K = FF.Bases[size_t(Bs)].K;
        return K == BaseInfo::ParamSym || K == BaseInfo::GlobalSym;
      };
      // Two tensor maps from different kernel parameters or globals.
      return Named(KA.Base) && Named(KB.Base) && KA.OffKnown && KB.OffKnown;
    }
    if (Cp.Op.Kind == OpKind::TensorCopy)
      return false;
    AddrKey A = FF.address(FF.operand(P, P.Op.SrcOp)), B = FF.address(FF.operand(Cp, Cp.Op.SrcOp));
    if (!A.valid() || !B.valid())
      return false;
    if (A.Base != B.Base)
      return FF.Bases[size_t(A.Base)].K == BaseInfo::GlobalSym &&
             FF.Bases[size_t(B.Base)].K == BaseInfo::GlobalSym;
    auto SA = C.copyBytes(P), SB = C.copyBytes(Cp);
    if (!A.OffKnown || !B.OffKnown || !SA || !SB)
      return false;
    return A.Off + int64_t(*SA) <= B.Off || B.Off + int64_t(*SB) <= A.Off;
  };

  std::vector<int32_t> Witness(Sites.size(), -1); // a disjoint later copy
  PState Entry, AtExit;
  Entry.F.assign(Sites.size(), PAbsent);
  AtExit.F.assign(Sites.size(), PAbsent);
  auto ReadAll = [](PState &S) {
    for (uint8_t &F : S.F)
      if (F != PAbsent)
        F = PRead;
  };
  auto Transfer = [&](uint32_t B, PState &S, bool Report) {
    const Block &Bl = FF.Blocks[B];
    for (uint32_t K : Bl.Events) {
      const FlowInst &I = FF.Insts[K];
      const AsyncOp &Op = I.Op;
      if (Op.readsGlobal()) {
        for (size_t X = 0; X < Sites.size(); ++X) {
          uint8_t &F = S.F[X];
          if (F != PUnread && F != PUnreadSaw)
            continue;
          bool D = Disjoint(FF.Insts[Sites[X]], I);
          F = D ? PUnreadSaw : PRead;
          if (D && Report && Witness[X] < 0)
            Witness[X] = int32_t(K);
        }
      } else if ((Op.Kind == OpKind::Load &&
                  (Op.Src == Space::Global || Op.Src == Space::Generic)) ||
                 (Op.Kind == OpKind::AtomRed &&
                  (Op.Dst == Space::Global || Op.Dst == Space::Generic)) ||
                 Op.Kind == OpKind::GlobalReadOther ||
                 (Op.isCopy() && Op.Src != Space::SharedCta) ||
                 (Op.Kind == OpKind::Call && C.callHasEffects(I))) {
        ReadAll(S);
      }
      if (SiteOf[K] >= 0)
        S.F[size_t(SiteOf[K])] = PUnread;
      if ((Op.Kind == OpKind::Ret || Op.Kind == OpKind::Exit) && Report)
        AtExit.join(S);
    }
    if (Report && Bl.FallsOffEnd)
      AtExit.join(S);
  };
  if (!solveForward(FF, Entry, Transfer, AnyEdge(),
                    [&](uint32_t B, bool Report) {
                      const Block &Bl = FF.Blocks[B];
                      return Bl.Events.size() == 0 && !(Report && Bl.FallsOffEnd);
                    }))
    return;
  for (size_t X = 0; X < Sites.size(); ++X) {
    if (AtExit.F[X] != PUnreadSaw)
      continue;
    const FlowInst &P = FF.Insts[Sites[X]];
    auto D = C.diag(rules::FlowDeadPrefetch, P.Range,
                    "no later copy in this function reads the prefetched "
                    "range; the prefetch only costs memory bandwidth");
    if (Witness[X] >= 0)
      D.note(FF.Insts[size_t(Witness[X])].Range,
             "later copies read other ranges, such as this one");
  }
}

} // namespace flow
} // namespace ptxlint
