// Unit tests of the statement parser: AST shape, source ranges, symbols,
// and that the shape cache gives the same AST as a fresh parse.
#include "Parse/StatementParser.h"
#include "ptxlint/Linter.h"
#include "ptxlint/SymbolTable.h"

#include <doctest/doctest.h>

using namespace ptxlint;

namespace {
struct Parsed {
  SourceBuffer Buf;
  DiagnosticEngine Diags;
  Module M;
  explicit Parsed(std::string Text)
      : Buf("t.ptx", std::move(Text)), M(parseModule(Buf, Diags)) {}
  std::string_view text(SourceRange R) const {
    return Buf.text().substr(R.Begin, R.End - R.Begin);
  }
};
const char *Header = ".version 8.6\n.target sm_100a\n.address_size 64\n";
} // namespace

TEST_CASE("directives are recorded") {
  Parsed P{std::string(Header)};
  CHECK(P.M.Directives.HasVersion);
  CHECK(P.M.Directives.VersionMajor == 8);
  CHECK(P.M.Directives.VersionMinor == 6);
  REQUIRE(P.M.Directives.Targets.size() == 1);
  CHECK(P.M.Directives.Targets[0] == "sm_100a");
  CHECK(P.M.Directives.AddressSize == 64);
  CHECK(P.text(P.M.Directives.VersionRange) == "8.6");
}

TEST_CASE("a tensor copy: opcode, qualifiers and operands with ranges") {
  std::string Src = std::string(Header) +
                    ".visible .entry k()\n{\n"
                    "@!%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                    ".mbarrier::complete_tx::bytes [%r1+16], [%rd1, {%r2, -3}], [%r3], 0xffffU;\n}\n";
  Parsed P(Src);
  CHECK(P.Diags.diagnostics().empty());
  REQUIRE(P.M.Instructions.size() == 1);
  const Instruction &I = P.M.Instructions[0];
  REQUIRE(I.Guard);
  CHECK(I.Guard->Negated);
  CHECK(I.Guard->Name == "%p1");
  CHECK(I.Opcode == "cp");
  REQUIRE(I.Modifiers.size() == 8);
  CHECK(I.Modifiers[0].Text == ".async");
  CHECK(I.Modifiers[4].Text == ".shared::cluster");
  CHECK(I.Modifiers[7].Text == ".mbarrier::complete_tx::bytes");
  CHECK(P.text(I.Modifiers[4].Range) == ".shared::cluster");
  REQUIRE(I.Operands.size() == 4);
  const Operand &Dst = I.Operands[0];
  CHECK(Dst.Kind == OperandKind::Address);
  CHECK(Dst.HasOffset);
  CHECK(Dst.Offset == 16);
  CHECK(P.text(Dst.OffsetRange) == "16");
  REQUIRE(Dst.Elements.size() == 1);
  CHECK(Dst.Elements[0].Name == "%r1");
  const Operand &Tensor = I.Operands[1];
  REQUIRE(Tensor.Elements.size() == 2);
  CHECK(Tensor.Elements[0].Name == "%rd1");
  CHECK(Tensor.Elements[1].Kind == OperandKind::Vector);
  REQUIRE(Tensor.Elements[1].Elements.size() == 2);
  CHECK(Tensor.Elements[1].Elements[1].Kind == OperandKind::Immediate);
  CHECK(Tensor.Elements[1].Elements[1].Value == -3);
  CHECK(I.Operands[3].Kind == OperandKind::Immediate);
  CHECK(I.Operands[3].Value == 0xffff);
  CHECK(P.text(I.Operands[3].Range) == "0xffffU");
}

TEST_CASE("negative address offsets and immediates") {
  Parsed P(std::string(Header) +
           ".visible .entry k()\n{\nst.shared.u32 [%r1+-8], 7;\nst.shared.u32 [buf+-4], -1;\n}\n");
  REQUIRE(P.M.Instructions.size() == 2);
  CHECK(P.M.Instructions[0].Operands[0].Offset == -8);
  CHECK(P.M.Instructions[1].Operands[0].Offset == -4);
  CHECK(P.M.Instructions[1].Operands[0].Elements[0].Kind == OperandKind::Symbol);
  CHECK(P.M.Instructions[1].Operands[1].Value == -1);
}

TEST_CASE("address offsets are constant expressions after '+', as ptxas reads them") {
  Parsed P(std::string(Header) +
           ".visible .entry k()\n{\nst.shared.u32 [%r1++16], 7;\n"
           "st.shared.u32 [%r1+8+8*2], 1+2<<3;\nst.shared.u32 [%r1+~3], ~0;\n}\n");
  CHECK(P.Diags.diagnostics().empty());
  REQUIRE(P.M.Instructions.size() == 3);
  CHECK(P.M.Instructions[0].Operands[0].Offset == 16);
  CHECK(P.M.Instructions[1].Operands[0].Offset == 24);
  CHECK(P.M.Instructions[1].Operands[1].Value == 24);
  CHECK(P.M.Instructions[2].Operands[0].Offset == -4);
  CHECK(P.M.Instructions[2].Operands[1].Value == -1);
}

TEST_CASE("addresses ptxas does not parse are syntax errors, and not built") {
  for (const char *Addr : {"[%r1-16]", "[%r3+%r3]", "[-16+%r1]", "[%r1*2]",
                           "[(%r1)]", "[%r1+1.0]", "[buf-4]", "[16+buf]"}) {
    Parsed P(std::string(Header) + ".visible .entry k()\n{\nst.shared.u32 " +
             Addr + ", 7;\n}\n");
    CAPTURE(Addr);
    CHECK(P.M.Instructions.empty());
    REQUIRE(P.Diags.diagnostics().size() == 1);
    CHECK(P.Diags.diagnostics()[0].Code == "S001");
  }
}

TEST_CASE("declarations fill the symbol table, function scope first") {
  Parsed P(std::string(Header) +
           ".shared .align 16 .b8 buf[256];\n"
           ".visible .entry k(.param .u64 k_p0, .param .align 64 .b8 k_p1[128])\n"
           ".reqnctapercluster 2, 1, 1\n{\n"
           ".reg .b32 %r<10>;\n.reg .v4 .b32 %v;\n.shared .b64 buf;\nret;\n}\n");
  CHECK(P.Diags.diagnostics().empty());
  SymbolTable T(P.M);
  const Symbol *R7 = T.lookup("%r7", 0);
  REQUIRE(R7);
  CHECK(R7->Space == StateSpace::Reg);
  CHECK(R7->Type == ".b32");
  CHECK(T.lookup("%r10", 0) == nullptr);
  CHECK(T.lookup("%r07", 0) == nullptr);
  const Symbol *V = T.lookup("%v", 0);
  REQUIRE(V);
  CHECK(V->VectorWidth == 4);
  const Symbol *Local = T.lookup("buf", 0);
  REQUIRE(Local);
  CHECK(Local->Type == ".b64"); // the function's own 'buf' hides the module's
  const Symbol *Global = T.lookup("buf", -1);
  REQUIRE(Global);
  CHECK(Global->Align == 16);
  CHECK(Global->ArraySize == 256);
  const Symbol *Param = T.lookup("k_p1", 0);
  REQUIRE(Param);
  CHECK(Param->Space == StateSpace::Param);
  CHECK(Param->ArraySize == 128);
  REQUIRE(P.M.Functions.size() == 1);
  CHECK(P.M.Functions[0].Name == "k");
  CHECK(P.M.Functions[0].IsEntry);
  CHECK(P.M.Functions[0].ClusterDims[0] == 2);
}

TEST_CASE("the shape cache builds the same AST as a first parse") {
  // Two statements with the same token types: the second comes from the
  // cache and must carry its own texts, values and ranges.
  Parsed P(std::string(Header) + ".visible .entry k()\n{\n"
                                 "st.shared.u32 [%r4+16], %r5;\n"
                                 "st.shared.b32 [sym+0x20], %r9;\n}\n");
  REQUIRE(P.M.Instructions.size() == 2);
  const Instruction &A = P.M.Instructions[0], &B = P.M.Instructions[1];
  CHECK(A.Modifiers[1].Text == ".u32");
  CHECK(B.Modifiers[1].Text == ".b32");
  CHECK(A.Operands[1].Name == "%r5");
  CHECK(B.Operands[1].Name == "%r9");
  CHECK(A.Operands[0].Offset == 16);
  CHECK(B.Operands[0].Offset == 32);
  CHECK(B.Operands[0].Elements[0].Kind == OperandKind::Symbol);
  CHECK(P.text(B.Operands[0].Range) == "[sym+0x20]");
}

TEST_CASE("syntax errors carry a compiler-style message and a column") {
  Parsed P(std::string(Header) + ".visible .entry k()\n{\n"
                                 "cp.async.bulk.commit_group [%r1;\n}\n");
  REQUIRE(P.Diags.diagnostics().size() == 1);
  const Diagnostic &D = P.Diags.diagnostics()[0];
  CHECK(D.Code == "S001");
  CHECK(D.Message.find("expected ']' after address") == 0);
  CHECK(P.text(D.Range) == ";");
}

TEST_CASE("integer literals") {
  uint64_t V;
  bool Overflow;
  CHECK(parseIntegerLiteral("0x10", V, Overflow));
  CHECK(V == 16);
  CHECK(parseIntegerLiteral("010", V, Overflow));
  CHECK(V == 8);
  CHECK(parseIntegerLiteral("0b101U", V, Overflow));
  CHECK(V == 5);
  // ptxas 13.0 reads literals modulo 2^64 and overflows only once a prefix
  // has its top bit set before another digit (2^66 passes, 2^70 does not).
  bool Wrapped;
  CHECK(parseIntegerLiteral("18446744073709551632", V, Overflow, &Wrapped));
  CHECK(V == 16);
  CHECK(Wrapped);
  CHECK_FALSE(Overflow);
  CHECK(parseIntegerLiteral("73786976294838206464", V, Overflow, &Wrapped));
  CHECK_FALSE(Overflow);
  CHECK(parseIntegerLiteral("1180591620717411303424", V, Overflow, &Wrapped));
  CHECK(Overflow);
  CHECK(parseIntegerLiteral("0x100000000000000000000000000000010", V, Overflow, &Wrapped));
  CHECK(V == 16);
  CHECK_FALSE(Overflow);
  CHECK(parseIntegerLiteral("0x80000000000000000", V, Overflow, &Wrapped));
  CHECK(Overflow);
  CHECK(parseIntegerLiteral("18446744073709551615", V, Overflow, &Wrapped));
  CHECK_FALSE(Wrapped);
  CHECK_FALSE(parseIntegerLiteral("09", V, Overflow));
}
