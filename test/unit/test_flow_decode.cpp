// Unit tests of lib/Flow's operand decoder for statements read from text
// (shared loads are not parsed): the fast path for simple operand lists and
// the general splitter it falls back to must agree.
#include "FlowTestModule.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>

using namespace ptxlint;
using namespace ptxlint::flow;

namespace {
/// One operand decoded two ways comes out the same.
void checkSameOperand(const Opnd &A, const Opnd &B) {
  CHECK(A.K == B.K);
  CHECK(A.Name == B.Name);
  CHECK(A.BaseIsReg == B.BaseIsReg);
  CHECK(A.HasValue == B.HasValue);
  CHECK(A.Value == B.Value);
  CHECK(A.Negated == B.Negated);
  CHECK(A.Range.Begin == B.Range.Begin);
  CHECK(A.Range.End == B.Range.End);
  CHECK(std::equal(A.Regs.begin(), A.Regs.end(), B.Regs.begin(), B.Regs.end()));
}
} // namespace

TEST_CASE("decode: text operands of shared loads") {
  FlowTestModule T(".version 8.6\n.target sm_100a\n.address_size 64\n"
                      ".shared .align 4 .b8 smem[64];\n.entry k()\n{\n"
                      ".reg .b32 %r<4>;\n.reg .f32 %f<16>;\n"
                      "ld.shared.f32 %f1, [%r1+16];\n"
                      "ld.shared.f32 %f2, [ %r1 - 8 ] ;\n"
                      "ld.shared.f32 %f3, [%r1+010];\n"
                      "ld.shared.f32 %f4, [%r1+0x10];\n"
                      "ld.shared.v2.f32 {%f5, %f6}, [%r2];\n"
                      "ld.shared.f32 %f7, [smem+4];\n"
                      "ret;\n}\n");
  const FlowFunction &FF = T.FF;
  const Module &M = T.M;
  std::vector<const FlowInst *> Loads;
  for (const FlowInst &I : FF.Insts)
    if (I.Op.Kind == OpKind::Load)
      Loads.push_back(&I);
  REQUIRE(Loads.size() == 6);
  auto Text = [&](const Opnd &O) {
    return M.Text.substr(O.Range.Begin, O.Range.End - O.Range.Begin);
  };
  struct Want {
    std::string_view Dst, Base, Addr;
    bool Reg;
    int64_t Off;
  } W[] = {{"%f1", "%r1", "[%r1+16]", true, 16},
           {"%f2", "%r1", "[ %r1 - 8 ]", true, -8},
           {"%f3", "%r1", "[%r1+010]", true, 8},
           {"%f4", "%r1", "[%r1+0x10]", true, 16},
           {"{%f5, %f6}", "%r2", "[%r2]", true, 0},
           {"%f7", "smem", "[smem+4]", false, 4}};
  for (size_t K = 0; K < 6; ++K) {
    CAPTURE(K);
    const FlowInst &I = *Loads[K];
    // Loads are decoded when a rule first asks for an operand.
    CHECK(I.Partial);
    CHECK(I.Ops.empty()); // nothing decoded yet
    REQUIRE(FF.operand(I, 1) != nullptr);
    CHECK_FALSE(I.Partial);
    REQUIRE(I.Ops.size() == 2);
    CHECK(Text(I.Ops[0]) == W[K].Dst);
    const Opnd &A = I.Ops[1];
    CHECK(A.K == Opnd::Addr);
    CHECK(A.Name == W[K].Base);
    CHECK(A.BaseIsReg == W[K].Reg);
    CHECK(A.HasValue);
    CHECK(A.Value == W[K].Off);
    CHECK(Text(A) == W[K].Addr);
  }
  CHECK(Loads[0]->Ops[0].K == Opnd::Reg);
  CHECK(Loads[0]->Ops[0].Name == "%f1");
  REQUIRE(Loads[4]->Ops[0].K == Opnd::Vec);
  const NameRun &Regs = Loads[4]->Ops[0].Regs;
  CHECK(std::vector<std::string_view>(Regs.begin(), Regs.end()) ==
        std::vector<std::string_view>{"%f5", "%f6"});
}

TEST_CASE("decode: one operand alone agrees with the full decode") {
  // FlowFunction::operandFromText (tensor-memory rules read a tcgen05.ld's
  // address past its destination vector) and operand() share the decoder:
  // the same kind, base, offset and range, also past a vector the splitter
  // skips and past one with a comment inside.
  FlowTestModule T(".version 8.6\n.target sm_100a\n.address_size 64\n"
                   ".shared .align 4 .b8 smem[64];\n.entry k()\n{\n"
                   ".reg .b32 %r<40>;\n.reg .f32 %f<16>;\n"
                   "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r1-8];\n"
                   "ld.shared.v2.f32 {%f5, /* } */ %f6}, [%r2+0x10];\n"
                   "ld.shared.f32 %f7, [smem+4];\n"
                   "ret;\n}\n");
  const FlowFunction &FF = T.FF;
  int Seen = 0;
  for (const FlowInst &I : FF.Insts) {
    if (I.Op.Kind != OpKind::Load)
      continue;
    ++Seen;
    std::optional<Opnd> Alone = FF.operandFromText(I, 1);
    CHECK_FALSE(FF.operandFromText(I, 2).has_value()); // two operands only
    const Opnd *Full = FF.operand(I, 1);
    REQUIRE(Alone.has_value());
    REQUIRE(Full != nullptr);
    CHECK(Alone->K == Opnd::Addr);
    checkSameOperand(*Alone, *Full);
  }
  CHECK(Seen == 3);
}

TEST_CASE("decode: the fast path agrees with the general splitter") {
  // decodeOperandText() takes a fast path for the operand lists nvcc writes
  // (names, decimals, [name+-dec], register vectors); operandFromText()
  // always splits in general. Every operand of every unparsed instruction
  // must come out the same both ways: symbols and inline-asm .reg names
  // (a lookup decides Reg or Sym), negative numbers, and the shapes the
  // fast path leaves to the splitter.
  FlowTestModule T(".version 8.6\n.target sm_100a\n.address_size 64\n"
                   ".shared .align 8 .b8 smem[64];\n.entry k()\n{\n"
                   ".reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n.reg .pred %p<4>;\n"
                   ".reg .f32 %f<4>;\n.param .b64 param0;\n.param .b32 retval0;\n"
                   "{\n.reg .b32 remAddr32;\n"
                   "mapa.shared::cluster.u32 remAddr32, %r1, %r2;\n}\n"
                   "st.param.b64 [param0], %rd1;\n"
                   "st.param.b64 [param0+8], 12;\n"
                   "st.param.b32 [ param0 - 4 ], -3;\n"
                   "ld.param.b32 %r3, [retval0];\n"
                   "mov.u32 %r4, smem;\n"
                   "add.s32 %r5, %r4, -16;\n"
                   "add.s32 %r6, %r4, - 16;\n"
                   "mov.pred %p1, -1;\n"
                   "mov.u32 %r7, %tid.x;\n"
                   "add.s32 %r8, %r4, 0x10;\n"
                   "add.s32 %r9, %r4, 010;\n"
                   "add.s32 %r10, %r4, -0;\n"
                   "setp.eq.f32 %p2, %f1, 0f3F800000;\n"
                   "setp.ne.s32 %p3|%p2, %r1, 0;\n"
                   "ld.shared.v2.u32 {%r11, %r12}, [%r4+-8];\n"
                   "st.param.b32 [param0+8], $x;\n"
                   "ret;\n}\n");
  const FlowFunction &FF = T.FF;
  int Compared = 0;
  for (const FlowInst &I : FF.Insts) {
    if (T.M.Statements[I.Stmt].ParsedIndex >= 0)
      continue; // from the AST, not from text
    for (uint32_t K = 0;; ++K) {
      std::optional<Opnd> Alone = FF.operandFromText(I, K);
      const Opnd *Full = FF.operand(I, int8_t(K));
      CAPTURE(I.Head);
      CAPTURE(K);
      REQUIRE(Alone.has_value() == (Full != nullptr));
      if (!Full)
        break;
      ++Compared;
      checkSameOperand(*Alone, *Full);
    }
  }
  CHECK(Compared >= 40);
  // The names the fast path reads: a symbol, an inline-asm .reg.
  const FlowInst *Mapa = nullptr, *StParam = nullptr;
  for (const FlowInst &I : FF.Insts) {
    if (I.Head.substr(0, 4) == "mapa")
      Mapa = &I;
    if (!StParam && I.Head == "st.param.b64")
      StParam = &I;
  }
  REQUIRE(Mapa);
  REQUIRE(StParam);
  CHECK(FF.operand(*Mapa, 0)->K == Opnd::Reg);
  const Opnd *P = FF.operand(*StParam, 0);
  CHECK(P->K == Opnd::Addr);
  CHECK(P->Name == "param0");
  CHECK_FALSE(P->BaseIsReg);
}

TEST_CASE("decode: the registers a vector destination defines") {
  // scanDest() reads a plain list of names in one pass and leaves the rest
  // (a comment, an empty element) to the splitter: both define the same
  // registers.
  FlowTestModule T(".version 8.6\n.target sm_100a\n.address_size 64\n"
                   ".entry k()\n{\n"
                   ".reg .b32 %r<40>;\n.reg .b64 %rd<8>;\n"
                   "mov.b64 {%r1,%r2}, %rd1;\n"
                   "mov.b64 { %r3 , %r4 }, %rd1;\n"
                   "mov.b64 {%r5, /* hi */ %r6}, %rd1;\n"
                   "mov.b64 {%r7, _}, %rd1;\n"
                   "ret;\n}\n");
  const FlowFunction &FF = T.FF;
  // (%r6 is not: the splitter reads "/* hi */ %r6" as no name.)
  for (std::string R : {"%r1", "%r2", "%r3", "%r4", "%r5", "%r7", "_"}) {
    CAPTURE(R);
    CHECK(FF.defCount(FF.regId(R)) == 1);
  }
  CHECK(FF.regId("%r8") < 0);
}

TEST_CASE("decode: names not starting with '%' are registers only if declared so") {
  // isRegName() asks the symbol table only about names whose first byte
  // starts some .reg symbol's name: a label is a symbol either way, a .reg
  // named "$v" or "r" + digits (a range) is a register.
  FlowTestModule T(".version 8.6\n.target sm_100a\n.address_size 64\n"
                   ".entry k()\n{\n"
                   ".reg .b32 %r<4>;\n.reg .b32 $v;\n.reg .b32 q<4>;\n"
                   ".reg .pred %p<2>;\n"
                   "mov.u32 $v, 1;\n"
                   "add.s32 %r1, $v, q2;\n"
                   "setp.ne.s32 %p1, %r1, 0;\n"
                   "@%p1 bra $L_end;\n"
                   "mov.u32 %r2, sym;\n"
                   "$L_end:\n"
                   "ret;\n}\n");
  const FlowFunction &FF = T.FF;
  const FlowInst *Add = nullptr, *Bra = nullptr, *Mov = nullptr;
  for (const FlowInst &I : FF.Insts) {
    if (I.Head == "add.s32")
      Add = &I;
    if (I.Head == "bra")
      Bra = &I;
    if (I.Head == "mov.u32" && FF.operand(I, 0)->Name == "%r2")
      Mov = &I;
  }
  REQUIRE(Add);
  REQUIRE(Bra);
  REQUIRE(Mov);
  CHECK(FF.operand(*Add, 1)->K == Opnd::Reg); // $v
  CHECK(FF.operand(*Add, 2)->K == Opnd::Reg); // q2 of q<4>
  CHECK(FF.operand(*Bra, 0)->K == Opnd::Sym); // the label
  CHECK(FF.operand(*Mov, 1)->K == Opnd::Sym); // no .reg starts with 's'
  CHECK(FF.defCount(FF.regId("$v")) == 1);
}

TEST_CASE("registers: ids by prefix and number agree with a table of names") {
  // Names of nvcc's shape and others (leading zeros, a prefix ending in a
  // digit, no '%', past the limit), inserted and looked up at random: the
  // arrays and the NameTable together must act as one table of names.
  const char *Prefixes[] = {"%r", "%rd", "%f", "%p", "%", "%r1x", "remAddr", "%rx", "p"};
  std::mt19937 Rng(16);
  for (uint32_t Limit : {0u, 100u, 5000u}) {
    RegisterIndex Index;
    if (Limit)
      Index.useArrays(Limit);
    std::map<std::string, int32_t> Want;
    std::deque<std::string> Names; // the index keeps views of them
    unsigned Inserted = 0;
    for (int K = 0; K < 20000; ++K) {
      std::string Name = Prefixes[Rng() % std::size(Prefixes)];
      unsigned Digits = Rng() % 6;
      if (Digits > 1 && Rng() % 8 == 0)
        Name += '0';
      for (unsigned D = 0; D < Digits; ++D)
        Name += char('0' + Rng() % 10);
      std::string_view View = Names.emplace_back(Name);
      auto It = Want.find(Name);
      int32_t Known = It == Want.end() ? -1 : It->second;
      if (Rng() % 3 == 0) {
        CHECK(Index.find(View) == Known);
        continue;
      }
      auto [Id, New] = Index.insert(View, int32_t(Want.size()));
      CHECK(New == (Known < 0));
      CHECK(Id == (Known < 0 ? int32_t(Want.size()) : Known));
      if (Known < 0)
        Want.emplace(Name, Id);
      Inserted += New;
    }
    CHECK(Inserted > 1000);
  }
}
