//===- AsyncOpClassifier.cpp - Instruction roles for the flow rules -------===//
//
// A small table keyed on opcode + qualifiers. PTX qualifier order is free
// (ptxas accepts every permutation; of two state spaces the first is the
// destination), so membership tests are used rather than positions.
//
//===----------------------------------------------------------------------===//

#include "Flow/AsyncOpClassifier.h"

namespace ptxlint {
namespace flow {

HeadQualifiers::HeadQualifiers(std::string_view Head) {
  size_t Dot = Head.find('.');
  Opcode = Head.substr(0, Dot);
  while (Dot != std::string_view::npos && N < 24) {
    size_t Next = Head.find('.', Dot + 1);
    Words[N++] = Head.substr(Dot + 1, Next == std::string_view::npos
                                          ? std::string_view::npos
                                          : Next - Dot - 1);
    Dot = Next;
  }
}

namespace {

bool startsWith(std::string_view S, std::string_view P) {
  return S.size() >= P.size() && S.compare(0, P.size(), P) == 0;
}

Space spaceOf(std::string_view Q) {
  if (Q == "global")
    return Space::Global;
  if (Q == "shared" || Q == "shared::cta")
    return Space::SharedCta;
  if (Q == "shared::cluster")
    return Space::SharedCluster;
  if (Q == "param" || startsWith(Q, "param::"))
    return Space::Param;
  if (Q == "local")
    return Space::Local;
  if (Q == "const")
    return Space::Const;
  return Space::None;
}

/// Bytes of one element of a scalar type qualifier, 0 if not a type.
uint32_t typeBytes(std::string_view Q) {
  if (Q.size() < 2)
    return 0;
  char C = Q[0];
  if (C != 'b' && C != 'u' && C != 's' && C != 'f' && C != 'e')
    return 0;
  if (Q == "f16x2" || Q == "bf16x2")
    return 4;
  if (Q == "bf16")
    return 2;
  std::string_view Digits = Q.substr(1);
  if (Digits == "8")
    return 1;
  if (Digits == "16")
    return 2;
  if (Digits == "32")
    return 4;
  if (Digits == "64")
    return 8;
  if (Digits == "128")
    return 16;
  return 0;
}

struct View {
  const QualifierList &Q;
  bool has(std::string_view W) const {
    for (size_t K = 0; K < Q.size(); ++K)
      if (Q.at(K) == W)
        return true;
    return false;
  }
  bool hasPrefix(std::string_view P) const {
    for (size_t K = 0; K < Q.size(); ++K)
      if (startsWith(Q.at(K), P))
        return true;
    return false;
  }
  std::string_view first() const { return Q.size() ? Q.at(0) : ""; }
  void spaces(Space &A, Space &B) const {
    A = B = Space::None;
    for (size_t K = 0; K < Q.size(); ++K) {
      Space S = spaceOf(Q.at(K));
      if (S == Space::None)
        continue;
      if (A == Space::None)
        A = S;
      else if (B == Space::None)
        B = S;
    }
  }
  uint32_t accessBytes() const {
    uint32_t Elem = 0, Vec = 1;
    for (size_t K = 0; K < Q.size(); ++K) {
      std::string_view W = Q.at(K);
      if (W == "v2")
        Vec = 2;
      else if (W == "v4")
        Vec = 4;
      else if (W == "v8")
        Vec = 8;
      else if (uint32_t B = typeBytes(W))
        Elem = B;
    }
    return Elem * Vec;
  }
};

void classifyBulk(const View &V, AsyncOp &A, bool Reduce) {
  bool Tensor = V.has("tensor");
  V.spaces(A.Dst, A.Src);
  A.Comp = V.has("bulk_group")       ? Completion::BulkGroup
           : V.hasPrefix("mbarrier::") ? Completion::Mbarrier
                                       : Completion::None;
  A.Multicast = V.has("multicast::cluster");
  A.CtaGroup2 = V.has("cta_group::2");
  A.HasCacheHint = V.has("L2::cache_hint");
  if (Reduce) {
    A.Kind = Tensor ? OpKind::TensorReduce : OpKind::BulkReduce;
  } else {
    A.Kind = Tensor ? OpKind::TensorCopy : OpKind::BulkCopy;
  }
  if (!Tensor) {
    A.DstOp = 0;
    A.SrcOp = 1;
    A.SizeOp = 2;
    if (A.Comp == Completion::Mbarrier)
      A.MbarOp = 3;
    if (A.Multicast)
      A.CtaMaskOp = 4;
    return;
  }
  if (A.Dst == Space::Global) { // store or reduce: [tensorMap, coords], [src]
    A.TensorOp = 0;
    A.SrcOp = 1;
    return;
  }
  A.DstOp = 0;
  A.TensorOp = 1;
  A.MbarOp = 2;
  A.HasIm2colInfo = V.has("im2col") || V.has("im2col::w") ||
                    V.has("im2col::w::128");
  if (A.Multicast)
    A.CtaMaskOp = int8_t(3 + (A.HasIm2colInfo ? 1 : 0));
}

} // namespace

AsyncOp classify(std::string_view Op, const QualifierList &Q,
                 unsigned NumOperands) {
  View V{Q};
  AsyncOp A;
  if (Op == "cp") {
    std::string_view F = V.first();
    if (F == "async") {
      if (V.has("bulk")) {
        if (V.has("commit_group")) {
          A.Kind = OpKind::BulkCommit;
        } else if (V.has("wait_group")) {
          A.Kind = OpKind::BulkWait;
          A.ReadOnly = V.has("read");
          A.WaitNOp = 0;
        } else if (V.has("prefetch")) {
          A.Src = Space::Global;
          A.HasCacheHint = V.has("L2::cache_hint");
          if (V.has("tensor")) {
            A.Kind = OpKind::TensorPrefetch;
            A.TensorOp = 0;
          } else {
            A.Kind = OpKind::BulkPrefetch;
            A.SrcOp = 0;
            A.SizeOp = 1;
          }
        } else {
          classifyBulk(V, A, /*Reduce=*/false);
        }
      } else if (V.has("commit_group")) {
        A.Kind = OpKind::CpAsyncCommit;
      } else if (V.has("wait_group")) {
        A.Kind = OpKind::CpAsyncWait;
        A.WaitNOp = 0;
      } else if (V.has("wait_all")) {
        A.Kind = OpKind::CpAsyncWaitAll;
      } else if (V.has("mbarrier") && V.has("arrive")) {
        A.Kind = OpKind::CpAsyncMbarrierArrive;
        A.MbarOp = 0;
      } else if (V.has("ca") || V.has("cg")) {
        A.Kind = OpKind::CpAsync;
        A.Dst = Space::SharedCta;
        A.Src = Space::Global;
        A.DstOp = 0;
        A.SrcOp = 1;
        A.SizeOp = 2;
      }
    } else if (F == "reduce" && V.has("async") && V.has("bulk")) {
      classifyBulk(V, A, /*Reduce=*/true);
    }
    return A;
  }
  if (Op == "mbarrier") {
    std::string_view F = V.first();
    if (F == "init") {
      A.Kind = OpKind::MbarInit;
      A.MbarOp = 0;
    } else if (F == "arrive" || F == "arrive_drop") {
      A.Kind = V.has("expect_tx") ? OpKind::MbarArriveExpectTx
                                  : OpKind::MbarArrive;
      A.MbarOp = 1;
      if (A.Kind == OpKind::MbarArriveExpectTx)
        A.BytesOp = 2;
    } else if (F == "expect_tx" || F == "complete_tx") {
      A.Kind = F == "expect_tx" ? OpKind::MbarExpectTx : OpKind::MbarCompleteTx;
      A.MbarOp = 0;
      A.BytesOp = 1;
    } else if (F == "try_wait" || F == "test_wait") {
      A.Kind = OpKind::MbarWait;
      A.MbarOp = 1;
    } else {
      A.Kind = OpKind::MbarOther;
      if (F == "inval")
        A.MbarOp = 0;
    }
    V.spaces(A.Dst, A.Src);
    return A;
  }
  if (Op == "fence") {
    if (V.first() == "proxy" && Q.size() >= 2 && startsWith(Q.at(1), "async")) {
      A.Kind = OpKind::FenceProxyAsync;
      bool GlobalOnly = V.has("global") && !V.has("shared::cta") &&
                        !V.has("shared::cluster") && !V.has("shared");
      A.CoversShared = !GlobalOnly;
    } else if (V.first() == "mbarrier_init") {
      A.Kind = OpKind::FenceMbarrierInit;
    }
    return A;
  }
  if (Op == "bar" || Op == "barrier") {
    A.Kind = OpKind::Barrier;
    return A;
  }
  if (Op == "st" || Op == "red") {
    if (V.has("async")) {
      A.Kind = OpKind::AsyncStore;
      A.DstOp = 0;
      A.MbarOp = 2;
      return A;
    }
    A.Kind = Op == "st" ? OpKind::Store : OpKind::AtomRed;
    V.spaces(A.Dst, A.Src);
    if (A.Dst == Space::None)
      A.Dst = Space::Generic;
    A.DstOp = 0;
    A.AccessBytes = V.accessBytes();
    return A;
  }
  if (Op == "atom") {
    A.Kind = OpKind::AtomRed;
    V.spaces(A.Dst, A.Src);
    if (A.Dst == Space::None)
      A.Dst = Space::Generic;
    A.DstOp = 1;
    A.AccessBytes = V.accessBytes();
    return A;
  }
  if (Op == "stmatrix") {
    A.Kind = OpKind::StMatrix;
    A.Dst = Space::SharedCta;
    A.DstOp = 0;
    return A;
  }
  if (Op == "ld" || Op == "ldu") {
    A.Kind = OpKind::Load;
    V.spaces(A.Src, A.Dst);
    if (A.Src == Space::None)
      A.Src = Space::Generic;
    A.SrcOp = 1;
    A.AccessBytes = V.accessBytes();
    return A;
  }
  if (Op == "ldmatrix") {
    A.Kind = OpKind::LdMatrix;
    A.Src = Space::SharedCta;
    A.SrcOp = 1;
    return A;
  }
  if (Op == "wgmma" ? V.first() == "mma_async"
                    : Op == "tcgen05" &&
                          (V.first() == "mma" || V.first() == "cp")) {
    A.Kind = OpKind::DescriptorRead;
    A.Src = Space::SharedCta;
    return A;
  }
  if (Op == "tcgen05" && V.first() == "commit" && V.hasPrefix("mbarrier::")) {
    A.Kind = OpKind::MmaCommitArrive;
    A.MbarOp = 0;
    A.Multicast = V.has("multicast::cluster");
    return A;
  }
  if (Op == "clusterlaunchcontrol" && V.first() == "try_cancel") {
    A.Kind = OpKind::ClcTryCancel;
    A.Comp = Completion::Mbarrier;
    A.Dst = Space::SharedCta;
    A.DstOp = 0;
    A.MbarOp = 1;
    return A;
  }
  if (Op == "tex" || Op == "tld4" || Op == "suld" || Op == "multimem") {
    A.Kind = OpKind::GlobalReadOther;
    return A;
  }
  if (Op == "bra")
    A.Kind = OpKind::Branch;
  else if (Op == "brx")
    A.Kind = OpKind::BranchIndirect;
  else if (Op == "ret")
    A.Kind = OpKind::Ret;
  else if (Op == "exit")
    A.Kind = OpKind::Exit;
  else if (Op == "trap")
    A.Kind = OpKind::Trap;
  else if (Op == "call")
    A.Kind = OpKind::Call;
  (void)NumOperands;
  return A;
}

} // namespace flow
} // namespace ptxlint
