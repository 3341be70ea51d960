//===- ReadBeforeCompleteRule.cpp - F407: a copy's bytes read too early ---===//
//
// Read from the completion tracking (CompletionTracker.h): a shared-memory
// read (ld, ldmatrix, a wgmma/tcgen05.mma descriptor's start) of bytes a
// cp.async or an mbarrier-completed load writes, before the copy is known to
// be complete. (The consumer-window and stage checks of F407 are in
// ConsumerWaitRule.cpp.)
//
//===----------------------------------------------------------------------===//

#include "Flow/CompletionTracker.h"

#include <algorithm>
#include <optional>

namespace ptxlint {
namespace flow {

// Copies whose destination a read may hit: not bulk-group operations
// (which read shared memory), pending, not reported yet, resolved.
bool CompletionTracker::watched(const CompState &S, size_t K) {
  const Site &St = T.Sites[K];
  return St.R != Role::BulkGroup && isPending(S.F[K]) && !T.ReportedUse[K] &&
         St.Dst.valid();
}

// Most reads happen with no copy pending: the read's address (a deferred
// operand) is then never decoded or evaluated. The first watched site,
// or T.Sites.size().
size_t CompletionTracker::firstWatched(const CompState &S) {
  size_t First = 0;
  while (First < T.Sites.size() && !watched(S, First))
    ++First;
  return First;
}

// A read of shared memory at A (Bytes: 0 when unknown, at least one)
// through address operand RdAddr (null: a descriptor).
void CompletionTracker::checkReadAt(const CompState &S, const FlowInst &Rd,
                                    size_t First, const AddrKey &A,
                                    uint64_t Bytes, const Opnd *RdAddr) {
  for (size_t K = First; K < T.Sites.size(); ++K) {
    const Site &St = T.Sites[K];
    if (!watched(S, K))
      continue;
    // The bytes the copy writes, read back: overlapping known ranges, or
    // the very address the copy wrote through (a per-thread "base +
    // tid*16" in one register).
    const FlowInst &Cp = FF.Insts[St.Inst];
    if (!FF.definitelyOverlap(A, Bytes, St.Dst, bytesOf(K)) &&
        !FF.sameAddress(RdAddr, FF.operand(Cp, Cp.Op.DstOp)))
      continue;
    T.ReportedUse[K] = 1;
    C.diag(rules::FlowReadBeforeComplete, Cp.Range,
           "the destination of this " + opName(Cp) +
               " is read before the copy is known to be complete")
        .note(Rd.Range, St.R == Role::CpAsync
                            ? "read here before cp.async.wait_group or "
                              "cp.async.wait_all covers the copy"
                            : "read here before mbarrier.try_wait or "
                              "test_wait on the copy's mbarrier");
  }
}

// False when no pending copy could be hit by any read in state S.
bool CompletionTracker::checkRead(const CompState &S, const FlowInst &Rd) {
  if (!isSharedSpace(Rd.Op.Src))
    return true;
  size_t First = firstWatched(S);
  if (First == T.Sites.size())
    return false;
  const Opnd *RdAddr = FF.operand(Rd, Rd.Op.SrcOp);
  AddrKey A = FF.address(RdAddr);
  if (A.valid())
    checkReadAt(S, Rd, First, A, Rd.Op.AccessBytes, RdAddr);
  return true;
}

// wgmma / tcgen05.mma: the shared memory their matrix descriptors start
// at (FlowFunction::descriptorAddress), read before the copy completes.
void CompletionTracker::checkDescriptorRead(const CompState &S,
                                            const FlowInst &Rd) {
  size_t First = firstWatched(S);
  if (First == T.Sites.size())
    return;
  FF.operand(Rd, 0); // decodes them all
  for (const Opnd &O : Rd.Ops)
    if (O.K == Opnd::Reg)
      if (AddrKey A = FF.descriptorAddress(&O); A.valid())
        checkReadAt(S, Rd, First, A, 0, nullptr);
}

} // namespace flow
} // namespace ptxlint
