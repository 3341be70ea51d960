// Unit tests of lib/Flow's dataflow framework and of the flow rules' "stay
// silent when unsure" behaviour, through the public lint() entry point.
#include "Flow/Dataflow.h"
#include "ptxlint/Linter.h"
#include "ptxlint/SymbolTable.h"

#include <doctest/doctest.h>

#include <memory>

using namespace ptxlint;
using namespace ptxlint::flow;

namespace {

std::string kernel(std::string Body, std::string Decls = "") {
  return ".version 8.6\n.target sm_100a\n.address_size 64\n" + Decls +
         ".visible .entry k(.param .u64 k_p)\n{\n"
         " .reg .pred %p<8>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<16>;\n"
         " .reg .b16 %rs<4>;\n .reg .f32 %f<4>;\n" +
         Body + "}\n";
}

std::vector<std::string> codes(const std::string &Src, LintOptions Opts = {}) {
  SourceBuffer B("t.ptx", Src);
  LintResult R = lint(B, Opts);
  std::vector<std::string> Out;
  for (const Diagnostic &D : R.Diagnostics)
    if (!D.Code.empty() && D.Code[0] == 'F')
      Out.push_back(D.Code);
  return Out;
}

using Codes = std::vector<std::string>;

/// The first function of kernel(Body), built for the solver's tests.
struct BuiltKernel {
  SourceBuffer Buf;
  DiagnosticEngine Diags;
  Module M;
  SymbolTable ST;
  FlowFunction FF;
  explicit BuiltKernel(const std::string &Body)
      : Buf("t.ptx", kernel(Body)), M(parseModule(Buf, Diags)), ST(M),
        FF(M, ST, 0) {}
};

/// A count of events joined by its maximum.
struct MaxCount {
  unsigned N = 0;
  bool join(const MaxCount &O) {
    if (O.N <= N)
      return false;
    N = O.N;
    return true;
  }
};

} // namespace

TEST_CASE("fact lattice: Absent is neutral, disagreement is Mixed") {
  CHECK(joinFact(Absent, pending(0)) == pending(0));
  CHECK(joinFact(pending(2), Absent) == pending(2));
  CHECK(joinFact(pending(1), pending(1)) == pending(1));
  CHECK(joinFact(pending(1), pending(2)) == Mixed);
  CHECK(joinFact(pending(0), Done) == Mixed);
  CHECK(joinFact(Done, Done) == Done);
  CHECK(joinFact(Mixed, Absent) == Mixed);
  CHECK(pending(100) == pending(MaxAge)); // ages saturate
  CHECK(killMaybe(pending(0), false) == Done);
  CHECK(killMaybe(pending(0), true) == Mixed); // a predicated wait
  CHECK(killMaybe(Absent, false) == Absent);
  CHECK(ageOf(pending(3)) == 3);
}

TEST_CASE("fact vectors join fact by fact, and say whether anything changed") {
  // Every pair of lattice values at every position of every size up to 64
  // (FactVector::join works on 16 facts at a time).
  const uint8_t Values[] = {Absent, Done, Mixed, pending(0), pending(1), pending(MaxAge)};
  const size_t NV = sizeof(Values);
  for (size_t N = 1; N <= FactBytes::Max; ++N)
    for (size_t Shift = 0; Shift < NV * NV; Shift += 5) {
      FactVector A, B;
      A.F.assign(N, Absent);
      B.F.assign(N, Absent);
      for (size_t K = 0; K < N; ++K) {
        A.F[K] = Values[(K + Shift) % NV];
        B.F[K] = Values[(K / NV + K + Shift) % NV];
      }
      FactVector Want = A;
      bool WantChanged = false;
      for (size_t K = 0; K < N; ++K) {
        Want.F[K] = joinFact(A.F[K], B.F[K]);
        WantChanged |= Want.F[K] != A.F[K];
      }
      bool Changed = A.join(B);
      CHECK(Changed == WantChanged);
      CHECK(A.F == Want.F);
      CHECK(!A.join(B)); // joined: nothing more to learn
    }
}

TEST_CASE("solver: a loop converges and visits every reached block once in "
          "the report pass") {
  BuiltKernel Built(" mov.u32 %r1, 0;\n"
                    "$L:\n"
                    " cp.async.commit_group;\n"
                    " add.s32 %r1, %r1, 1;\n"
                    " setp.lt.u32 %p1, %r1, 4;\n"
                    " @%p1 bra $L;\n"
                    " ret;\n"
                    " ret;\n");
  const FlowFunction &FF = Built.FF;
  REQUIRE(FF.Analyzable);
  // A saturating counter of commits: it grows around the loop until the cap.
  std::vector<unsigned> Reported(FF.Blocks.size(), 0);
  std::vector<unsigned> Seen(FF.Blocks.size(), 0);
  bool Ok = solveForward(FF, MaxCount{}, [&](uint32_t B, MaxCount &S, bool Report) {
    for (uint32_t K = FF.Blocks[B].Begin; K < FF.Blocks[B].End; ++K)
      if (FF.Insts[K].Op.Kind == OpKind::CpAsyncCommit && S.N < 5)
        ++S.N;
    if (Report) {
      Reported[B]++;
      Seen[B] = S.N;
    }
  });
  REQUIRE(Ok);
  REQUIRE(FF.Blocks.size() == 4); // [mov] [loop] [ret] [ret: unreachable]
  CHECK(Reported == std::vector<unsigned>{1, 1, 1, 0});
  CHECK(Seen[2] == 5); // the exit sees the saturated count
}

TEST_CASE("solver: a block outside every loop is visited once, its report; "
          "blocks are reported in order") {
  BuiltKernel Built(" mov.u32 %r1, 0;\n"
                    " setp.eq.u32 %p2, %r1, 0;\n"
                    " @%p2 bra $M;\n"
                    " cp.async.commit_group;\n"
                    "$M:\n"
                    " cp.async.commit_group;\n"
                    "$L:\n"
                    " add.s32 %r1, %r1, 1;\n"
                    " setp.lt.u32 %p1, %r1, 4;\n"
                    " @%p1 bra $L;\n"
                    " cp.async.commit_group;\n"
                    " ret;\n");
  const FlowFunction &FF = Built.FF;
  REQUIRE(FF.Analyzable);
  // [mov setp bra] [commit] [$M: commit] [$L: loop] [commit ret]
  REQUIRE(FF.Blocks.size() == 5);
  std::vector<bool> Spanned;
  for (const Block &Bl : FF.Blocks)
    Spanned.push_back(Bl.InLoopSpan);
  CHECK(Spanned == std::vector<bool>{false, false, false, true, false});
  std::vector<unsigned> Visits(FF.Blocks.size(), 0);
  std::vector<uint32_t> Order;
  std::vector<unsigned> Seen(FF.Blocks.size(), 0);
  bool Ok = solveForward(FF, MaxCount{}, [&](uint32_t B, MaxCount &S, bool Report) {
    ++Visits[B];
    for (uint32_t K = FF.Blocks[B].Begin; K < FF.Blocks[B].End; ++K)
      if (FF.Insts[K].Op.Kind == OpKind::CpAsyncCommit)
        ++S.N;
    if (Report) {
      Order.push_back(B);
      Seen[B] = S.N;
    }
  });
  REQUIRE(Ok);
  // Outside the loop: one visit each, in report mode; the loop's block is
  // visited until its state settles and then reported.
  CHECK(Visits[0] == 1);
  CHECK(Visits[1] == 1);
  CHECK(Visits[2] == 1);
  CHECK(Visits[3] >= 2);
  CHECK(Visits[4] == 1);
  CHECK(Order == std::vector<uint32_t>{0, 1, 2, 3, 4});
  CHECK(Seen[4] == 3); // two commits on the longer path, then the last
}

TEST_CASE("rules stay silent on unresolvable addresses") {
  // The read goes through a pointer loaded from memory: it may or may not
  // alias the copy's destination.
  std::string Src = kernel(" ld.param.u64 %rd1, [k_p];\n"
                           " mov.u32 %r1, buf;\n"
                           " cp.async.ca.shared.global [%r1], [%rd1], 16;\n"
                           " cp.async.commit_group;\n"
                           " ld.shared.u32 %r2, [buf];\n"
                           " ld.shared.u32 %r3, [%r2];\n"
                           " cp.async.wait_group 0;\n"
                           " ret;\n",
                           ".shared .align 16 .b8 buf[16];\n");
  // [buf] is the destination itself: reported once; [%r2] is unknown.
  CHECK(codes(Src) == Codes{"F407"});
}

TEST_CASE("rules stay silent when paths disagree (correlated branches)") {
  // The copy and its wait are both under "tid == 0"; the CFG also has the
  // impossible path copy -> no wait, which meets the waited path: Mixed.
  std::string Src = kernel(" ld.param.u64 %rd1, [k_p];\n"
                           " mov.u32 %r1, %tid.x;\n"
                           " setp.ne.s32 %p1, %r1, 0;\n"
                           " @%p1 bra $A;\n"
                           " cp.async.ca.shared.global [buf], [%rd1], 16;\n"
                           " cp.async.commit_group;\n"
                           "$A:\n"
                           " @%p1 bra $B;\n"
                           " cp.async.wait_group 0;\n"
                           "$B:\n"
                           " bar.sync 0;\n"
                           " ld.shared.u32 %r2, [buf];\n"
                           " ret;\n",
                           ".shared .align 16 .b8 buf[16];\n");
  CHECK(codes(Src).empty());
}

TEST_CASE("mbarrier accounting is silent for loops with unknown trip counts") {
  // One expect_tx for the whole tile, copies issued in a loop: the byte sum
  // differs per iteration count, so the rule cannot decide.
  std::string Src = kernel(" ld.param.u64 %rd1, [k_p];\n"
                           " mov.u32 %r1, bar;\n"
                           " mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r1], 4096;\n"
                           " mov.u32 %r2, 0;\n"
                           "$L:\n"
                           " cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [tile], [%rd1], 1024, [%r1];\n"
                           " add.s32 %r2, %r2, 1;\n"
                           " setp.lt.u32 %p1, %r2, %r9;\n"
                           " @%p1 bra $L;\n"
                           "$W:\n"
                           " mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r1], 0;\n"
                           " @!%p2 bra $W;\n"
                           " ret;\n",
                           ".shared .align 8 .b64 bar;\n.shared .align 128 .b8 tile[4096];\n");
  CHECK(codes(Src).empty());
}

TEST_CASE("tensor copies count as unknown unless a box size is given") {
  std::string Src = kernel(" ld.param.u64 %rd1, [k_p];\n"
                           " mov.u32 %r1, bar;\n"
                           " mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r1], 4096;\n"
                           " cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [tile], [%rd1, {0, 0}], [%r1];\n"
                           "$W:\n"
                           " mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r1], 0;\n"
                           " @!%p2 bra $W;\n"
                           " ret;\n",
                           ".shared .align 8 .b64 bar;\n.shared .align 128 .b8 tile[8192];\n");
  CHECK(codes(Src).empty());
  LintOptions Opts;
  Opts.TensorBoxBytes = 8192; // LintOptions::TensorBoxBytes
  CHECK(codes(Src, Opts) == Codes{"F404"});
  Opts.TensorBoxBytes = 4096;
  CHECK(codes(Src, Opts).empty());
}

TEST_CASE("a .func may leave commits and groups to its caller") {
  std::string Src = ".version 8.6\n.target sm_100a\n.address_size 64\n"
                    ".shared .align 16 .b8 buf[16];\n"
                    ".func issue(.param .u64 p)\n{\n .reg .b64 %rd<2>;\n"
                    " ld.param.u64 %rd1, [p];\n"
                    " cp.async.ca.shared.global [buf], [%rd1], 16;\n"
                    " cp.async.wait_group 1;\n"
                    " ret;\n}\n";
  // The uncommitted copy at the wait is still reported; the exit and the
  // group count are the caller's business.
  CHECK(codes(Src) == Codes{"F401"});
}

TEST_CASE("block queue: pops the lowest queued block, each once") {
  BlockQueue Q(200);
  for (uint32_t B : {130u, 5u, 64u, 5u, 199u, 63u})
    Q.push(B);
  std::vector<uint32_t> Out;
  uint32_t B;
  while (Q.pop(B)) {
    Out.push_back(B);
    if (B == 64)
      Q.push(7); // a back edge: lower than what was popped
  }
  CHECK(Out == std::vector<uint32_t>{5, 63, 64, 7, 130, 199});
}
