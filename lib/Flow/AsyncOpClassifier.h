//===- AsyncOpClassifier.h - What an instruction means to the flow rules -===//
//
// The one place that maps an instruction (opcode + dotted qualifiers, as the
// scanner/parser found them) to the role it plays in the async-copy protocol:
// which copies are tracked by bulk async-groups, which by an mbarrier, which
// by the non-bulk cp.async groups; commits and waits of each kind; mbarrier
// transaction operations; proxy fences; shared-memory reads and writes.
//
// Operand roles are given as indices into the instruction's operand list, so
// the rules never hard-code an operand position. Which instruction plays which
// role comes from the spec tables (flow_role in spec-tables/*.yaml) where
// they name it.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_FLOW_ASYNCOPCLASSIFIER_H
#define PTXLINT_FLOW_ASYNCOPCLASSIFIER_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace ptxlint {
namespace flow {

enum class OpKind : uint8_t {
  Other,
  // Non-bulk cp.async (9.7.9.25.3)
  CpAsync,               ///< cp.async.ca/.cg: async-group or mbarrier tracked
  CpAsyncCommit,         ///< cp.async.commit_group
  CpAsyncWait,           ///< cp.async.wait_group N
  CpAsyncWaitAll,        ///< cp.async.wait_all (= commit + wait_group 0)
  CpAsyncMbarrierArrive, ///< cp.async.mbarrier.arrive{.noinc}
  // Bulk and tensor copies (9.7.9.25.4, 9.7.9.25.5)
  BulkCopy,       ///< cp.async.bulk (non-tensor)
  BulkReduce,     ///< cp.reduce.async.bulk (non-tensor)
  TensorCopy,     ///< cp.async.bulk.tensor
  TensorReduce,   ///< cp.reduce.async.bulk.tensor
  BulkPrefetch,   ///< cp.async.bulk.prefetch.L2
  TensorPrefetch, ///< cp.async.bulk.prefetch.tensor
  BulkCommit,     ///< cp.async.bulk.commit_group
  BulkWait,       ///< cp.async.bulk.wait_group{.read} N
  // mbarrier
  MbarInit,
  MbarArrive,         ///< arrive / arrive_drop without expect_tx
  MbarArriveExpectTx, ///< arrive{_drop}.expect_tx
  MbarExpectTx,
  MbarCompleteTx,
  MbarWait,  ///< try_wait / test_wait (phase completion observed)
  MbarOther, ///< inval, pending_count
  // Fences and barriers
  FenceProxyAsync,   ///< fence.proxy.async{.shared::cta|.shared::cluster|.global}
  FenceMbarrierInit, ///< fence.mbarrier_init.release.cluster
  Barrier,           ///< bar / barrier (CTA or cluster execution barrier)
  // Memory accesses by the generic proxy
  Store,    ///< st (any space; the space decides shared or not)
  AtomRed,  ///< atom / red (any space)
  StMatrix, ///< stmatrix (shared)
  Load,     ///< ld / ldu (any space)
  LdMatrix, ///< ldmatrix (shared)
  AsyncStore, ///< st.async / red.async (remote, mbarrier complete_tx)
  /// wgmma.mma_async, tcgen05.mma, tcgen05.cp: read shared memory through
  /// matrix descriptors (the async proxy); the operands are not decoded
  DescriptorRead,
  /// clusterlaunchcontrol.try_cancel: writes its response into shared
  /// memory and signals an mbarrier (complete_tx), like a bulk load
  ClcTryCancel,
  /// tcgen05.commit.mbarrier::arrive::one [mbar]: arrives on the barrier
  /// once the issued tcgen05 operations (their shared-memory reads) are done:
  /// how an MMA warp releases a pipeline slot
  MmaCommitArrive,
  GlobalReadOther, ///< tex, tld4, suld, multimem.ld_reduce, prefetch: reads
                   ///< global memory in ways the flow rules do not model
  // Control flow
  Branch,
  BranchIndirect, ///< brx.idx
  Ret,
  Exit,
  Trap,
  Call,
};

/// A set of instruction kinds, a bit each.
using KindSet = uint64_t;
static_assert(size_t(OpKind::Call) < 64, "every OpKind has a bit in a KindSet");
constexpr KindSet kindSet(std::initializer_list<OpKind> Kinds) {
  KindSet S = 0;
  for (OpKind K : Kinds)
    S |= KindSet(1) << unsigned(K);
  return S;
}
/// The copies (AsyncOp::isCopy()).
constexpr KindSet CopyKinds =
    kindSet({OpKind::CpAsync, OpKind::BulkCopy, OpKind::BulkReduce,
             OpKind::TensorCopy, OpKind::TensorReduce});
/// The prefetches (AsyncOp::isPrefetch()).
constexpr KindSet PrefetchKinds = kindSet({OpKind::BulkPrefetch, OpKind::TensorPrefetch});
constexpr bool inSet(KindSet S, OpKind K) { return (S >> unsigned(K)) & 1; }

enum class Completion : uint8_t { None, BulkGroup, Mbarrier };

/// State space of a copy operand as its qualifier names it.
enum class Space : uint8_t { None, Global, SharedCta, SharedCluster, Generic,
                             Param, Local, Const };

struct AsyncOp {
  OpKind Kind = OpKind::Other;
  Completion Comp = Completion::None;
  Space Dst = Space::None, Src = Space::None; ///< copies; Dst for st/ld space
  // Operand indices (-1: absent).
  int8_t DstOp = -1;    ///< destination address
  int8_t SrcOp = -1;    ///< source address
  int8_t SizeOp = -1;   ///< byte count
  int8_t MbarOp = -1;   ///< mbarrier address (copies, mbarrier.* ops)
  int8_t BytesOp = -1;  ///< expect_tx / complete_tx transaction count
  int8_t TensorOp = -1; ///< [tensorMap, {coords}]
  int8_t CtaMaskOp = -1;
  int8_t WaitNOp = -1;  ///< N of wait_group
  // The flags a bit each, the byte count in two bytes: an AsyncOp is in
  // every instruction's FlowInst, whose size is time (FlowFunction.h).
  // (C++17 has no initializer for a bit-field: the constructor sets them.)
  bool Multicast : 1;
  bool CtaGroup2 : 1;
  bool ReadOnly : 1;     ///< cp.async.bulk.wait_group.read
  bool HasIm2colInfo : 1;
  bool HasCacheHint : 1;
  bool CoversShared : 1; ///< fence.proxy.async covers shared memory
  /// Bytes each element of a vector st/ld/st.async moves (type x vector:
  /// at most 8 x 16).
  uint16_t AccessBytes = 0;
  AsyncOp()
      : Multicast(false), CtaGroup2(false), ReadOnly(false), HasIm2colInfo(false),
        HasCacheHint(false), CoversShared(false) {}

  bool isCopy() const { return inSet(CopyKinds, Kind); }
  bool isPrefetch() const { return inSet(PrefetchKinds, Kind); }
  /// A bulk/tensor operation tracked by bulk async-groups (bulk_group).
  bool isBulkGroupOp() const { return Comp == Completion::BulkGroup; }
  /// The copy reads shared::cta through the async proxy.
  bool readsSharedAsync() const {
    return (Kind == OpKind::BulkCopy || Kind == OpKind::BulkReduce ||
            Kind == OpKind::TensorCopy || Kind == OpKind::TensorReduce) &&
           Src == Space::SharedCta;
  }
  /// The copy writes this CTA's shared memory (completion makes it readable).
  bool writesShared() const {
    return isCopy() && (Dst == Space::SharedCta || Dst == Space::SharedCluster);
  }
  bool readsGlobal() const { return isCopy() && Src == Space::Global; }
};

/// Classifies an instruction from its opcode ("cp") and dotted qualifiers in
/// source order (".async", ".bulk", ...), given with their leading dots, and
/// its operand count.
class QualifierList {
public:
  virtual ~QualifierList() = default;
  virtual size_t size() const = 0;
  virtual std::string_view at(size_t K) const = 0; ///< without the '.'
};

AsyncOp classify(std::string_view Opcode, const QualifierList &Quals,
                 unsigned NumOperands);

/// Splits a dotted head ("cp.async.bulk.shared::cta") without the opcode.
class HeadQualifiers : public QualifierList {
public:
  explicit HeadQualifiers(std::string_view Head);
  std::string_view opcode() const { return Opcode; }
  size_t size() const override { return N; }
  std::string_view at(size_t K) const override { return Words[K]; }

private:
  std::string_view Opcode;
  std::string_view Words[24];
  size_t N = 0;
};

} // namespace flow
} // namespace ptxlint
#endif
