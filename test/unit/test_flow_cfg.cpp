// Unit tests of lib/Flow: instruction classification, CFG construction and
// register values.
#include "FlowTestUtil.h"

#include <doctest/doctest.h>

#include <memory>

using namespace ptxlint;
using namespace ptxlint::flow;

namespace {

/// A block's successors, to compare with a list.
std::vector<uint32_t> succs(const Block &B) { return {B.Succs.begin(), B.Succs.end()}; }

/// A module's first function, with lookups by instruction head and block.
struct Built : FlowBuilt {
  using FlowBuilt::FlowBuilt;
  /// Index of the first instruction whose head starts with Prefix.
  uint32_t inst(std::string_view Prefix) const {
    for (uint32_t K = 0; K < FF->Insts.size(); ++K)
      if (FF->Insts[K].Head.substr(0, Prefix.size()) == Prefix)
        return K;
    FAIL("no instruction " << Prefix);
    return 0;
  }
  uint32_t blockOf(uint32_t Inst) const {
    for (uint32_t B = 0; B < FF->Blocks.size(); ++B)
      if (FF->Blocks[B].Begin <= Inst && Inst < FF->Blocks[B].End)
        return B;
    FAIL("instruction in no block");
    return 0;
  }
};

AsyncOp classifyHead(std::string_view Head) {
  HeadQualifiers Q(Head);
  return classify(Q.opcode(), Q, 0);
}

} // namespace

TEST_CASE("classifier: descriptor reads of shared memory and CLC responses") {
  // wgmma / tcgen05 read shared memory through descriptors (F407's consumer
  // reads); their fences, commits and waits do not.
  CHECK(classifyHead("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16").Kind ==
        OpKind::DescriptorRead);
  CHECK(classifyHead("tcgen05.mma.cta_group::1.kind::f16").Kind ==
        OpKind::DescriptorRead);
  CHECK(classifyHead("tcgen05.cp.cta_group::1.128x256b").Kind ==
        OpKind::DescriptorRead);
  CHECK(classifyHead("wgmma.fence.sync.aligned").Kind == OpKind::Other);
  CHECK(classifyHead("wgmma.wait_group.sync.aligned").Kind == OpKind::Other);
  CHECK(classifyHead("tcgen05.ld.sync.aligned.32x32b.x2.b32").Kind == OpKind::Other);
  // An MMA warp releases its slot with tcgen05.commit's mbarrier arrive.
  AsyncOp M = classifyHead("tcgen05.commit.cta_group::1.mbarrier::arrive::one."
                           "shared::cluster.b64");
  CHECK(M.Kind == OpKind::MmaCommitArrive);
  CHECK(M.MbarOp == 0);
  // clusterlaunchcontrol.try_cancel fills shared memory and signals an
  // mbarrier, like a bulk load: [response], [mbar].
  AsyncOp C = classifyHead("clusterlaunchcontrol.try_cancel.async.shared::cta."
                           "mbarrier::complete_tx::bytes.b128");
  CHECK(C.Kind == OpKind::ClcTryCancel);
  CHECK(C.Comp == Completion::Mbarrier);
  CHECK(C.DstOp == 0);
  CHECK(C.MbarOp == 1);
  CHECK(classifyHead("clusterlaunchcontrol.query_cancel.is_canceled.pred.b128").Kind ==
        OpKind::Other);
}

TEST_CASE("classifier: copies, completion mechanisms and operand roles") {
  AsyncOp A = classifyHead("cp.async.cg.shared.global");
  CHECK(A.Kind == OpKind::CpAsync);
  CHECK(A.DstOp == 0);
  CHECK(A.SizeOp == 2);

  A = classifyHead("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint");
  CHECK(A.Kind == OpKind::BulkCopy);
  CHECK(A.Comp == Completion::BulkGroup);
  CHECK(A.Dst == Space::Global);
  CHECK(A.Src == Space::SharedCta);
  CHECK(A.readsSharedAsync());
  CHECK(A.MbarOp == -1);

  // Qualifier order is free; the first state space is the destination.
  A = classifyHead("cp.async.bulk.mbarrier::complete_tx::bytes.shared::cluster.global.multicast::cluster");
  CHECK(A.Kind == OpKind::BulkCopy);
  CHECK(A.Comp == Completion::Mbarrier);
  CHECK(A.Dst == Space::SharedCluster);
  CHECK(A.MbarOp == 3);
  CHECK(A.CtaMaskOp == 4);
  CHECK(A.writesShared());

  A = classifyHead("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster");
  CHECK(A.Kind == OpKind::TensorCopy);
  CHECK(bool(A.HasIm2colInfo)); // (a bit-field: CHECK binds a reference)
  CHECK(A.CtaMaskOp == 4); // after im2colInfo
  CHECK(A.TensorOp == 1);

  A = classifyHead("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group");
  CHECK(A.Kind == OpKind::TensorReduce);
  CHECK(A.Comp == Completion::BulkGroup);
  CHECK(A.SrcOp == 1);

  A = classifyHead("cp.async.bulk.wait_group.read");
  CHECK(A.Kind == OpKind::BulkWait);
  CHECK(bool(A.ReadOnly));
  CHECK(classifyHead("cp.async.bulk.wait_group").ReadOnly == false);
  CHECK(classifyHead("cp.async.bulk.commit_group").Kind == OpKind::BulkCommit);
  CHECK(classifyHead("cp.async.commit_group").Kind == OpKind::CpAsyncCommit);
  CHECK(classifyHead("cp.async.wait_all").Kind == OpKind::CpAsyncWaitAll);
  CHECK(classifyHead("cp.async.mbarrier.arrive.noinc.shared.b64").Kind ==
        OpKind::CpAsyncMbarrierArrive);
  CHECK(classifyHead("cp.async.bulk.prefetch.L2.global").Kind == OpKind::BulkPrefetch);
  CHECK(classifyHead("cp.async.bulk.prefetch.tensor.2d.L2.global").Kind ==
        OpKind::TensorPrefetch);
  // A prefetch has no completion mechanism: it is never in a bulk group.
  CHECK(classifyHead("cp.async.bulk.prefetch.L2.global").Comp == Completion::None);
}

TEST_CASE("classifier: mbarrier, fences and memory accesses") {
  AsyncOp A = classifyHead("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64");
  CHECK(A.Kind == OpKind::MbarArriveExpectTx);
  CHECK(A.MbarOp == 1);
  CHECK(A.BytesOp == 2);
  CHECK(classifyHead("mbarrier.expect_tx.relaxed.cta.shared::cta.b64").BytesOp == 1);
  CHECK(classifyHead("mbarrier.try_wait.parity.shared::cta.b64").Kind == OpKind::MbarWait);
  CHECK(classifyHead("mbarrier.init.shared.b64").Kind == OpKind::MbarInit);
  CHECK(classifyHead("fence.proxy.async.shared::cta").CoversShared);
  CHECK(classifyHead("fence.proxy.async").CoversShared);
  CHECK_FALSE(classifyHead("fence.proxy.async.global").CoversShared);
  CHECK(classifyHead("fence.mbarrier_init.release.cluster").Kind == OpKind::FenceMbarrierInit);
  A = classifyHead("st.shared.v4.f32");
  CHECK(A.Kind == OpKind::Store);
  CHECK(A.Dst == Space::SharedCta);
  CHECK(A.AccessBytes == 16);
  CHECK(classifyHead("st.u32").Dst == Space::Generic);
  CHECK(classifyHead("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32").Kind ==
        OpKind::AsyncStore);
  A = classifyHead("ld.shared.b64");
  CHECK(A.Kind == OpKind::Load);
  CHECK(A.Src == Space::SharedCta);
  CHECK(A.AccessBytes == 8);
  CHECK(classifyHead("ld.param.u64").Src == Space::Param);
}

TEST_CASE("cfg: blocks split at labels and after branches") {
  Built B(" .reg .pred %p<2>;\n"
          " .reg .b32 %r<4>;\n"
          " mov.u32 %r1, 0;\n"
          "$L1:\n"
          " add.s32 %r1, %r1, 1;\n"
          " setp.lt.u32 %p1, %r1, 8;\n"
          " @%p1 bra $L1;\n"
          " bra.uni $L2;\n"
          " mov.u32 %r2, 1;\n"
          "$L2:\n"
          " @%p1 ret;\n"
          " exit;\n");
  const FlowFunction &FF = *B.FF;
  REQUIRE(FF.Analyzable);
  // [mov] [add setp @bra] [bra.uni] [mov] [@ret] [exit]
  REQUIRE(FF.Blocks.size() == 6);
  uint32_t Loop = B.blockOf(B.inst("add"));
  CHECK(Loop == 1);
  CHECK(succs(FF.Blocks[0]) == std::vector<uint32_t>{1});
  // A predicated branch keeps its fall-through edge.
  CHECK(succs(FF.Blocks[1]) == std::vector<uint32_t>{1, 2});
  // An unconditional branch does not fall through; the dead block after it
  // still exists but has no predecessor.
  CHECK(succs(FF.Blocks[2]) == std::vector<uint32_t>{4});
  CHECK(succs(FF.Blocks[3]) == std::vector<uint32_t>{4});
  // A predicated ret falls through; exit ends the function.
  CHECK(succs(FF.Blocks[4]) == std::vector<uint32_t>{5});
  CHECK(FF.Blocks[5].Succs.empty());
  CHECK_FALSE(FF.Blocks[5].FallsOffEnd);
}

TEST_CASE("cfg: falling off the end, a label at the end, calls fall through") {
  Built B(" .reg .pred %p<2>;\n"
          " @%p1 bra $END;\n"
          " call.uni foo;\n"
          " cp.async.commit_group;\n"
          "$END:\n",
          ".func foo()\n;\n.entry k()");
  // The prototype "foo" is function 0 in this module; the kernel is 1.
  FlowFunction FF(B.M, *B.ST, 1);
  REQUIRE(FF.Analyzable);
  REQUIRE(FF.Blocks.size() == 3);
  CHECK(succs(FF.Blocks[0]) == std::vector<uint32_t>{2, 1});
  CHECK(succs(FF.Blocks[1]) == std::vector<uint32_t>{2});
  CHECK(FF.Blocks[2].Begin == FF.Blocks[2].End);
  CHECK(FF.Blocks[2].FallsOffEnd);
  // A call to a function without a body in this module has no effect on
  // the caller's groups.
  CHECK_FALSE(FF.callHasEffects(FF.Insts[1]));
}

TEST_CASE("cfg: indirect branches and unknown labels are not analysed") {
  Built A(" bra $NOWHERE;\n");
  CHECK_FALSE(A.FF->Analyzable);
  Built B(" .reg .b32 %r<2>;\n"
          " ts: .branchtargets $L1;\n"
          " brx.idx %r1, ts;\n"
          "$L1:\n ret;\n");
  CHECK_FALSE(B.FF->Analyzable);
}

TEST_CASE("values: registers resolved to shared symbols and constants") {
  Built B(" .reg .b32 %r<16>;\n"
          " .reg .b16 %rs<2>;\n"
          " .reg .b64 %rd<4>;\n"
          " .shared .align 16 .b8 buf[256];\n"
          " .shared .align 8 .b64 bar;\n"
          " mov.u32 %r1, buf;\n"
          " add.s32 %r2, %r1, 64;\n"
          " mov.u32 %r3, %tid.x;\n"
          " shl.b32 %r4, %r3, 4;\n"
          " add.s32 %r5, %r1, %r4;\n"
          " mov.u16 %rs1, 3;\n"
          " cvta.shared.u64 %rd1, %r2;\n"
          // a register with two conflicting definitions
          " mov.u32 %r6, buf;\n"
          " mov.u32 %r6, bar;\n"
          " st.shared.u32 [%r2+4], %r3;\n"
          " st.shared.u32 [%r5], %r3;\n"
          " st.u32 [%rd1], %r3;\n"
          " st.shared.u32 [%r6], %r3;\n"
          " st.shared.u32 [bar], %r3;\n"
          " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd2], 256, [bar], %rs1;\n");
  const FlowFunction &FF = *B.FF;
  REQUIRE(FF.ValuesValid);
  std::vector<AddrKey> St;
  for (const FlowInst &I : FF.Insts)
    if (I.Op.Kind == OpKind::Store)
      St.push_back(FF.address(FF.operand(I, I.Op.DstOp)));
  REQUIRE(St.size() == 5);
  CHECK(St[0].valid());
  CHECK(FF.isSharedBase(St[0].Base));
  CHECK(FF.Bases[size_t(St[0].Base)].Name == "buf");
  CHECK(FF.Bases[size_t(St[0].Base)].Bytes == 256);
  CHECK(St[0].OffKnown);
  CHECK(St[0].Off == 68);
  CHECK(St[1].Base == St[0].Base); // buf + tid*16: same buffer,
  CHECK_FALSE(St[1].OffKnown);     // unknown offset
  CHECK(St[2] == AddrKey{St[0].Base, true, 64}); // through cvta.shared
  CHECK_FALSE(St[3].valid());                    // conflicting definitions
  CHECK(FF.Bases[size_t(St[4].Base)].Name == "bar");
  const FlowInst &Cp = FF.Insts[B.inst("cp.async.bulk")];
  CHECK(FF.constant(FF.operand(Cp, Cp.Op.CtaMaskOp)) == 3);
  CHECK(FF.constant(FF.operand(Cp, Cp.Op.SizeOp)) == 256);
  // Overlap: a 256-byte access at buf+0 covers every byte of buf.
  AddrKey Whole{St[0].Base, true, 0};
  CHECK(FF.definitelyOverlap(Whole, 256, St[1], 4));
  CHECK_FALSE(FF.definitelyOverlap(Whole, 128, St[1], 4));
  CHECK(FF.definitelyOverlap(Whole, 128, St[0], 4));
  CHECK_FALSE(FF.definitelyOverlap(AddrKey{St[0].Base, true, 0}, 64,
                                   AddrKey{St[0].Base, true, 64}, 4));
  CHECK_FALSE(FF.definitelyOverlap(Whole, 256, St[4], 8)); // other symbol
}

TEST_CASE("values: loop-carried pointers keep their symbol") {
  Built B(" .reg .pred %p<2>;\n"
          " .reg .b32 %r<8>;\n"
          " .shared .align 16 .b8 ring[1024];\n"
          " mov.u32 %r1, ring;\n"
          "$L:\n"
          " st.shared.u32 [%r1], %r2;\n"
          " add.s32 %r1, %r1, 16;\n"
          " @%p1 bra $L;\n");
  const FlowFunction &FF = *B.FF;
  REQUIRE(FF.ValuesValid);
  AddrKey A = FF.address(FF.operand(FF.Insts[B.inst("st.")], 0));
  REQUIRE(A.valid());
  CHECK(FF.Bases[size_t(A.Base)].Name == "ring");
  CHECK_FALSE(A.OffKnown);
}

TEST_CASE("header parser fills the cluster shape") {
  Built B(" ret;\n", ".visible .entry k(\n .param .u64 p\n)\n.maxntid 128, 1, 1\n"
                     ".reqnctapercluster 2, 1, 1\n.explicitcluster");
  const Function &F = B.M.Functions[0];
  CHECK(F.ClusterDims[0] == 2);
  CHECK(F.ClusterDims[1] == 1);
  CHECK(F.ClusterDims[2] == 1);
  CHECK(F.ExplicitCluster);
  Built C(" ret;\n", ".entry k()");
  CHECK(C.M.Functions[0].ClusterDims[0] == 0);
  CHECK_FALSE(C.M.Functions[0].ExplicitCluster);
}

TEST_CASE("cfg: labels are scoped by blocks (inlined asm with the same label)") {
  Built B(" .reg .b32 %r<4>;\n"
          " {\n .reg .pred P1;\n"
          "LAB_WAIT:\n"
          " mbarrier.try_wait.parity.shared::cta.b64 P1, [%r1], 0;\n"
          " @!P1 bra LAB_WAIT;\n }\n"
          " {\n .reg .pred P1;\n"
          "LAB_WAIT:\n"
          " mbarrier.try_wait.parity.shared::cta.b64 P1, [%r2], 1;\n"
          " @!P1 bra LAB_WAIT;\n }\n"
          " bra.uni $DONE;\n"
          "$DONE:\n"
          " ret;\n");
  const FlowFunction &FF = *B.FF;
  REQUIRE(FF.Analyzable);
  // [wait1 bra] [wait2 bra] [bra.uni] [ret]
  REQUIRE(FF.Blocks.size() == 4);
  CHECK(succs(FF.Blocks[0]) == std::vector<uint32_t>{0, 1}); // its own LAB_WAIT
  CHECK(succs(FF.Blocks[1]) == std::vector<uint32_t>{1, 2}); // the second one
  CHECK(succs(FF.Blocks[2]) == std::vector<uint32_t>{3});
  // A label of a nested block is not visible outside it.
  Built C(" {\nINNER:\n ret;\n }\n bra INNER;\n");
  CHECK_FALSE(C.FF->Analyzable);
}
