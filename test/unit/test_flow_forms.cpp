// Unit tests of the forms of lib/Flow's value model (base + C + G * t): a
// barrier array's element class, however the stage's offset is spelled.
#include "FlowTestModule.h"

#include <doctest/doctest.h>

#include <vector>

using namespace ptxlint;
using namespace ptxlint::flow;

TEST_CASE("forms: barrier array elements by stage") {
  FlowTestModule T(
      ".version 8.6\n.target sm_90a\n.address_size 64\n"
      ".shared .align 8 .b8 smem[1024];\n.entry k()\n{\n"
      ".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\n"
      "mov.u32 %r1, smem;\n"
      "mov.u32 %r2, 0;\n"                   // the stage: defined twice
      "$L_loop:\n"
      "shl.b32 %r3, %r2, 3;\n"
      "add.s32 %r4, %r1, %r3;\n"            // FULL[s] = smem + 8*s
      "add.s32 %r5, %r4, 64;\n"             // EMPTY[s] = smem + 64 + 8*s
      "mad.lo.s32 %r6, %r2, 8, %r1;\n"      // FULL[s], spelled with mad
      "mbarrier.arrive.shared::cta.b64 %rd1, [%r4];\n"
      "mbarrier.arrive.shared::cta.b64 %rd2, [%r5];\n"
      "mbarrier.arrive.shared::cta.b64 %rd3, [%r6+64];\n"
      "{\n.reg .b32 ra;\nmov.u32 ra, %r4;\n"
      "mbarrier.arrive.shared::cta.b64 %rd4, [ra];\n}\n"
      "{\n.reg .b32 ra;\nmov.u32 ra, %r5;\n"
      "mbarrier.arrive.shared::cta.b64 %rd5, [ra];\n}\n"
      "mbarrier.arrive.shared::cta.b64 %rd6, [smem+64];\n"
      "add.s32 %r2, %r2, 1;\n"
      "setp.lt.u32 %p1, %r2, 4;\n"
      "@%p1 bra $L_loop;\n"
      "ret;\n}\n");
  const FlowFunction &FF = T.FF;
  REQUIRE(FF.Analyzable);
  std::vector<std::optional<Form>> Bars;
  const Opnd *FullOp = nullptr;
  uint32_t Inc = 0;
  for (uint32_t K = 0; K < FF.Insts.size(); ++K) {
    const FlowInst &I = FF.Insts[K];
    if (I.Op.Kind == OpKind::MbarArrive) {
      Bars.push_back(FF.form(FF.operand(I, I.Op.MbarOp), K));
      FullOp = FullOp ? FullOp : FF.operand(I, I.Op.MbarOp);
    }
    if (I.Head == "add.s32" && FF.operand(I, 2) && FF.operand(I, 2)->K == Opnd::Imm &&
        FF.operand(I, 2)->Value == 1)
      Inc = K;
  }
  REQUIRE(Bars.size() == 6);
  for (const auto &B : Bars)
    REQUIRE(B.has_value());
  const Form Full = *Bars[0], Empty = *Bars[1];
  CHECK(Full.Base >= 0);
  CHECK(FF.Bases[size_t(Full.Base)].Name == "smem");
  CHECK(Full.C == 0);
  CHECK(Full.G == 8);
  CHECK(Empty.Base == Full.Base);
  CHECK(Empty.C == 64);
  CHECK(Empty.G == 8);
  CHECK(*Bars[2] == Empty); // mad + the address's offset
  CHECK(*Bars[3] == Full);  // ra: its definition in this block
  CHECK(*Bars[4] == Empty);
  CHECK(*Bars[5] == Form::sum(Form::symbol(Full.Base), Form::constant(64), false));
  CHECK(Bars[5]->G == 0);   // EMPTY[1], a constant element
  // The stage itself, read where its definitions are in other blocks: an
  // unknown value.
  REQUIRE(Inc != 0);
  std::optional<Form> Stage = FF.form(FF.operand(FF.Insts[Inc], 1), Inc);
  REQUIRE(Stage);
  CHECK(*Stage == Form());
  // The value itself: somewhere in smem, offset not known.
  AddrKey A = FF.address(FullOp);
  CHECK(A.Base == Full.Base);
  CHECK_FALSE(A.OffKnown);
}
