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
  if (!FF.ClusterOps)
    return; // no copy it checks (every function runs this rule)
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
  // Notes point at the .reqnctapercluster directive in the header (found
  // for a report: most functions have none).
  auto HeaderAt = [&] {
    SourceRange Where = F.NameRange;
    if (F.HeaderStatement >= FF.M.Statements.size())
      return Where;
    SourceRange H = FF.M.Statements[F.HeaderStatement].Range;
    std::string_view Text = FF.M.Text.substr(H.Begin, H.End - H.Begin);
    size_t P = Text.find(".reqnctapercluster");
    auto InComment = [&](size_t At) {
      size_t LineStart = Text.rfind('\n', At);
      LineStart = LineStart == std::string_view::npos ? 0 : LineStart + 1;
      return Text.substr(LineStart, At - LineStart).find("//") !=
             std::string_view::npos;
    };
    while (P != std::string_view::npos && InComment(P))
      P = Text.find(".reqnctapercluster", P + 1);
    if (P != std::string_view::npos) {
      size_t E = P + 18;
      while (E < Text.size() && Text[E] != '\n' && Text[E] != '{')
        ++E;
      while (E > P && (Text[E - 1] == ' ' || Text[E - 1] == '\t' || Text[E - 1] == '\r'))
        --E;
      Where = {H.Begin + uint32_t(P), H.Begin + uint32_t(E)};
    }
    return Where;
  };
  for (uint32_t RK : roleInstsOf(FF, CopyKinds | PrefetchKinds)) {
    const FlowInst &I = FF.Insts[RK];
    const AsyncOp &Op = I.Op;
    if (Op.Multicast && Op.CtaMaskOp >= 0) {
      size_t Expected = size_t(Op.CtaMaskOp) + 1 + (Op.HasCacheHint ? 1 : 0);
      const Opnd *Mask = FF.operand(I, Op.CtaMaskOp);
      auto V = Expected == I.Ops.size() ? FF.constant(Mask) : std::nullopt;
      if (V) {
        uint64_t M = uint64_t(*V);
        SourceRange At = Mask->Range.empty() ? I.Range : Mask->Range;
        if (M > 0xFFFF) {
          // Does not fit the 16-bit operand: the checker's O208 says so.
        } else if (M == 0) {
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
              .note(HeaderAt(), ".reqnctapercluster " + Shape() +
                                  " declared here");
        }
      }
    }
    if (Op.CtaGroup2 && Declared && Size < 2) {
      C.diag(rules::FlowClusterShape, I.Range,
             ".cta_group::2 needs a pair of CTAs in the cluster, but this "
             "kernel's cluster has 1 CTA")
          .note(HeaderAt(), ".reqnctapercluster " + Shape() + " declared here");
    }
  }
}

} // namespace flow
} // namespace ptxlint
