//===- ClusterRule.cpp - F408: multicast masks and CTA pairs vs the cluster ===//
//
// Local checks against the function's declared cluster shape
// (.reqnctapercluster X, Y, Z; see Function::ClusterDims):
//  * .multicast::cluster with a ctaMask that is the constant 0 copies to no
//    CTA (and signals no mbarrier): the waiting CTAs hang;
//  * a constant ctaMask with bits at or above the declared cluster size
//    names CTAs that do not exist;
//  * .cta_group::2 needs a CTA pair, which a cluster of one CTA lacks.
// Without .reqnctapercluster the cluster shape is chosen at launch and only
// the zero mask is reported.
//
//===----------------------------------------------------------------------===//

#include "Flow/FlowRules.h"

namespace ptxlint {
namespace flow {

void runClusterRule(const FlowRuleContext &C) {
  const FlowFunction &FF = C.FF;
  const Function &F = FF.F;
  bool Declared = F.ClusterDims[0] || F.ClusterDims[1] || F.ClusterDims[2];
  uint64_t Size = 1;
  for (unsigned D : F.ClusterDims)
    Size *= D ? D : 1;
  auto Shape = [&] {
    std::string S;
    for (int K = 0; K < 3; ++K) {
      if (K)
        S += ", ";
      S += std::to_string(F.ClusterDims[K] ? F.ClusterDims[K] : 1);
    }
    return S;
  };
  SourceRange HeaderAt = F.NameRange;
  for (const FlowInst &I : FF.Insts) {
    const AsyncOp &Op = I.Op;
    if (!Op.isCopy() && !Op.isPrefetch())
      continue;
    if (Op.Multicast && Op.CtaMaskOp >= 0) {
      size_t Expected = size_t(Op.CtaMaskOp) + 1 + (Op.HasCacheHint ? 1 : 0);
      const Opnd *Mask = I.op(Op.CtaMaskOp);
      auto V = Expected == I.Ops.size() ? FF.constant(Mask) : std::nullopt;
      if (V) {
        uint64_t M = uint64_t(*V) & 0xFFFF;
        SourceRange At = Mask->Range.empty() ? I.Range : Mask->Range;
        if (M == 0) {
          C.diag(rules::FlowClusterShape, At,
                 "multicast ctaMask is 0: the copy writes to no CTA and "
                 "signals no mbarrier, so the waiting CTAs hang")
              .note(I.Range, "in this .multicast::cluster copy");
        } else if (Declared && Size < 16 && (M >> Size) != 0) {
          char Buf[32];
          std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)M);
          C.diag(rules::FlowClusterShape, At,
                 std::string("multicast ctaMask ") + Buf +
                     " names CTAs beyond the cluster of " +
                     std::to_string(Size) + " CTA" + (Size == 1 ? "" : "s") +
                     " declared for this kernel")
              .note(HeaderAt, ".reqnctapercluster " + Shape() +
                                  " declared here");
        }
      }
    }
    if (Op.CtaGroup2 && Declared && Size < 2) {
      C.diag(rules::FlowClusterShape, I.Range,
             ".cta_group::2 needs a pair of CTAs in the cluster, but this "
             "kernel's cluster has 1 CTA")
          .note(HeaderAt, ".reqnctapercluster " + Shape() + " declared here");
    }
  }
}

} // namespace flow
} // namespace ptxlint
