//===- AsyncOpClassifier.cpp - Instruction roles for the flow rules -------===//
//
// Which instruction it is comes from the spec tables where they name it
// (each instruction's flow_role in spec-tables/*.yaml, generated into
// FlowRoles.inc): the longest table name that starts the instruction, as the
// checker finds it. The operand roles of each kind, and the instructions
// outside the tables (ld, st, bar, ...), are decided here; the qualifier
// words it tests come from the tables too (BuilderEnums.inc's spellings). PTX
// qualifier order after the name is free (ptxas accepts every permutation;
// of two state spaces the first is the destination), so membership tests are
// used rather than positions.
//
//===----------------------------------------------------------------------===//

#include "Flow/AsyncOpClassifier.h"

#include <array>

namespace ptxlint {
namespace build { // the spellings only: the flow library links no builder
#include "ptxlint/BuilderEnums.inc"
} // namespace build
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

/// An instruction the spec tables name: its opcode, the words of its name
/// after the opcode (unused slots empty) and its role.
struct TableRole {
  std::string_view Opcode;
  std::array<std::string_view, 4> Words;
  OpKind Kind;
};
const TableRole TableRoles[] = {
#include "FlowRoles.inc"
};

/// The role of the longest table name that starts Opcode + Q; Other if none.
OpKind tableKind(std::string_view Opcode, const QualifierList &Q) {
  OpKind Best = OpKind::Other;
  size_t BestLen = 0;
  for (const TableRole &R : TableRoles) {
    if (R.Opcode != Opcode)
      continue;
    size_t N = 0;
    while (N < R.Words.size() && !R.Words[N].empty())
      ++N;
    if (N > Q.size() || (Best != OpKind::Other && N <= BestLen))
      continue;
    bool Match = true;
    for (size_t K = 0; K < N && Match; ++K)
      Match = Q.at(K) == R.Words[K];
    if (Match) {
      Best = R.Kind;
      BestLen = N;
    }
  }
  return Best;
}

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

/// A qualifier as HeadQualifiers holds it: the table spelling without its dot.
template <typename E> std::string_view word(E V) {
  std::string_view S = build::spelling(V);
  return S.empty() ? S : S.substr(1);
}
/// The word of a direction's completion mechanism (".bulk_group").
template <typename E> std::string_view completionWord(E V) {
  return std::string_view(build::completion(V)).substr(1);
}

struct View {
  const QualifierList &Q;
  bool has(std::string_view W) const {
    for (size_t K = 0; K < Q.size(); ++K)
      if (Q.at(K) == W)
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

void classifyBulk(const View &V, AsyncOp &A) {
  bool Tensor = A.Kind == OpKind::TensorCopy || A.Kind == OpKind::TensorReduce;
  V.spaces(A.Dst, A.Src);
  A.Comp = V.has(completionWord(build::BulkDir::SharedCtaToGlobal)) ? Completion::BulkGroup
           : V.has(completionWord(build::BulkDir::GlobalToSharedCta)) ? Completion::Mbarrier
                                                                       : Completion::None;
  A.Multicast = V.has(word(build::Flag::Multicast));
  A.CtaGroup2 = V.has(word(build::CtaGroup::Two));
  A.HasCacheHint = V.has(word(build::Flag::CacheHint));
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
  A.HasIm2colInfo = V.has(word(build::LoadMode::Im2col)) ||
                    V.has(word(build::LoadMode::Im2colW)) ||
                    V.has(word(build::LoadMode::Im2colW128));
  if (A.Multicast)
    A.CtaMaskOp = int8_t(3 + (A.HasIm2colInfo ? 1 : 0));
}

/// Operand roles of the mbarrier operations; A.Kind is set.
void mbarrierOperands(std::string_view F, AsyncOp &A) {
  switch (A.Kind) {
  case OpKind::MbarInit:
    A.MbarOp = 0;
    break;
  case OpKind::MbarArriveExpectTx:
    A.BytesOp = 2;
    [[fallthrough]];
  case OpKind::MbarArrive:
  case OpKind::MbarWait:
    A.MbarOp = 1;
    break;
  case OpKind::MbarExpectTx:
  case OpKind::MbarCompleteTx:
    A.MbarOp = 0;
    A.BytesOp = 1;
    break;
  default:
    if (F == "inval")
      A.MbarOp = 0;
    break;
  }
}

/// Operand roles of the async-copy family; A.Kind is set.
void classifyCopy(const View &V, AsyncOp &A) {
  switch (A.Kind) {
  case OpKind::BulkWait:
    A.ReadOnly = V.has(word(build::Flag::Read));
    A.WaitNOp = 0;
    break;
  case OpKind::CpAsyncWait:
    A.WaitNOp = 0;
    break;
  case OpKind::CpAsyncMbarrierArrive:
    A.MbarOp = 0;
    break;
  case OpKind::BulkPrefetch:
  case OpKind::TensorPrefetch:
    A.Src = Space::Global;
    A.HasCacheHint = V.has(word(build::Flag::CacheHint));
    if (A.Kind == OpKind::TensorPrefetch) {
      A.TensorOp = 0;
    } else {
      A.SrcOp = 0;
      A.SizeOp = 1;
    }
    break;
  case OpKind::BulkCopy:
  case OpKind::BulkReduce:
  case OpKind::TensorCopy:
  case OpKind::TensorReduce:
    classifyBulk(V, A);
    break;
  case OpKind::CpAsync:
    A.Dst = Space::SharedCta;
    A.Src = Space::Global;
    A.DstOp = 0;
    A.SrcOp = 1;
    A.SizeOp = 2;
    break;
  default: // commits, wait_all: no operands
    break;
  }
}

} // namespace

AsyncOp classify(std::string_view Op, const QualifierList &Q,
                 unsigned NumOperands) {
  View V{Q};
  AsyncOp A;
  OpKind Known = tableKind(Op, Q);
  if (Op == "cp") { // the async-copy family: all of it is in the tables
    A.Kind = Known;
    classifyCopy(V, A);
    return A;
  }
  if (Op == "mbarrier") {
    // The roles are classify_only.yaml's; one it does not name is MbarOther.
    A.Kind = Known != OpKind::Other ? Known : OpKind::MbarOther;
    mbarrierOperands(V.first(), A);
    V.spaces(A.Dst, A.Src);
    return A;
  }
  if (Op == "fence") {
    A.Kind = Known; // fence.proxy.async{::generic}, fence.mbarrier_init
    if (A.Kind == OpKind::FenceProxyAsync) {
      bool GlobalOnly = V.has("global") && !V.has("shared::cta") &&
                        !V.has("shared::cluster") && !V.has("shared");
      A.CoversShared = !GlobalOnly;
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
    A.AccessBytes = uint16_t(V.accessBytes());
    return A;
  }
  if (Op == "atom") {
    A.Kind = OpKind::AtomRed;
    V.spaces(A.Dst, A.Src);
    if (A.Dst == Space::None)
      A.Dst = Space::Generic;
    A.DstOp = 1;
    A.AccessBytes = uint16_t(V.accessBytes());
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
    A.AccessBytes = uint16_t(V.accessBytes());
    return A;
  }
  if (Op == "ldmatrix") {
    A.Kind = OpKind::LdMatrix;
    A.Src = Space::SharedCta;
    A.SrcOp = 1;
    return A;
  }
  // Roles of classify_only.yaml (wgmma.mma_async, tcgen05.*, clusterlaunchcontrol).
  if (Known == OpKind::DescriptorRead) {
    A.Kind = Known;
    A.Src = Space::SharedCta;
    return A;
  }
  if (Known == OpKind::MmaCommitArrive) {
    A.Kind = Known;
    A.MbarOp = 0;
    A.Multicast = V.has(word(build::Flag::Multicast));
    return A;
  }
  if (Known == OpKind::ClcTryCancel) {
    A.Kind = Known;
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
