// Unit tests of the statement parser: AST shape, source ranges, symbols,
// that the shape cache gives the same AST as a fresh parse, and that the
// direct builder gives the same AST as the CST walk.
#include "Parse/Scanner.h"
#include "Parse/StatementFilter.h"
#include "Parse/StatementParser.h"
#include "ptxlint/Linter.h"
#include "ptxlint/SymbolTable.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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
  CHECK(P.text(I.rangeOf(I.Modifiers[4])) == ".shared::cluster");
  REQUIRE(I.Operands.size() == 4);
  const Operand &Dst = I.Operands[0];
  CHECK(Dst.Kind == OperandKind::Address);
  CHECK(Dst.HasOffset);
  CHECK(Dst.Offset == 16);
  CHECK(P.text(I.offsetRangeOf(Dst)) == "16");
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
  CHECK(P.text(I.rangeOf(I.Operands[3])) == "0xffffU");
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
  CHECK(P.text(B.rangeOf(B.Operands[0])) == "[sym+0x20]");
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

namespace {
/// Every field of two operands, of instructions AI and BI, their elements
/// too; "" if equal, else what differs.
std::string differs(const Instruction &AI, const Operand &A, const Instruction &BI,
                    const Operand &B) {
  auto Same = [](SourceRange X, SourceRange Y) { return X.Begin == Y.Begin && X.End == Y.End; };
  // The same place too, each in its own statement (a copied instruction
  // shares its template's lists, whose views are into a copy of the text):
  // the ranges, and where the name and component are in the operand's text.
  auto At = [](const Operand &O, std::string_view V) {
    return V.data() ? V.data() - O.Text.data() : -1;
  };
  if (A.Kind != B.Kind || A.Negated != B.Negated || A.HasValue != B.HasValue ||
      A.Overflow != B.Overflow || A.HasOffset != B.HasOffset ||
      !Same(AI.rangeOf(A), BI.rangeOf(B)) || A.Text != B.Text || A.Name != B.Name ||
      A.component() != B.component() || At(A, A.Name) != At(B, B.Name) ||
      At(A, A.component()) != At(B, B.component()) || A.Value != B.Value ||
      A.Offset != B.Offset || !Same(AI.offsetRangeOf(A), BI.offsetRangeOf(B)) ||
      A.Elements.size() != B.Elements.size())
    return "operand '" + std::string(A.Text) + "'";
  for (size_t K = 0; K < A.Elements.size(); ++K)
    if (std::string D = differs(AI, A.Elements[K], BI, B.Elements[K]); !D.empty())
      return D;
  return "";
}

std::string differs(const Instruction &A, const Instruction &B) {
  if (A.Opcode != B.Opcode || A.OpcodeRange.Begin != B.OpcodeRange.Begin ||
      A.Range.Begin != B.Range.Begin || A.Range.End != B.Range.End ||
      !A.Guard != !B.Guard || A.WordsContiguous != B.WordsContiguous ||
      A.Modifiers.size() != B.Modifiers.size() || A.Operands.size() != B.Operands.size())
    return "instruction";
  if (A.Guard)
    if (std::string D = differs(A, *A.Guard, B, *B.Guard); !D.empty())
      return "guard: " + D;
  if (A.Opcode.data() != B.Opcode.data() || A.OpcodeRange.End != B.OpcodeRange.End)
    return "opcode";
  for (size_t K = 0; K < A.Modifiers.size(); ++K)
    if (A.Modifiers[K].Text != B.Modifiers[K].Text ||
        A.rangeOf(A.Modifiers[K]).Begin != B.rangeOf(B.Modifiers[K]).Begin ||
        A.rangeOf(A.Modifiers[K]).End != B.rangeOf(B.Modifiers[K]).End)
      return "modifier";
  for (size_t K = 0; K < A.Operands.size(); ++K)
    if (std::string D = differs(A, A.Operands[K], B, B.Operands[K]); !D.empty())
      return D;
  return "";
}

std::string shown(const std::vector<Diagnostic> &Ds) {
  std::string Out;
  for (const Diagnostic &D : Ds)
    Out += D.Code + " " + std::to_string(D.Range.Begin) + "-" +
           std::to_string(D.Range.End) + " " + D.Message + "\n";
  return Out;
}

/// Parses every instruction the filter selects in Text twice, straight from
/// the tokens where the parser can and through the CST always; returns how
/// many were built directly, after checking both ways agree.
size_t compareBuilders(const std::string &Text, const std::string &Name) {
  SourceBuffer Buf(Name, Text);
  DiagnosticEngine ScanDiags, DirectDiags, CstDiags;
  Module Direct, ViaCst;
  scanModule(Buf.text(), Direct, ScanDiags);
  scanModule(Buf.text(), ViaCst, ScanDiags);
  Direct.Instructions.reserve(Direct.Statements.size());
  ViaCst.Instructions.reserve(ViaCst.Statements.size());
  StatementParser DirectParser(Direct, DirectDiags), CstParser(ViaCst, CstDiags, false);
  auto SameSymbols = [&](size_t Before) {
    REQUIRE(Direct.Symbols.size() == ViaCst.Symbols.size());
    for (size_t X = Before; X < Direct.Symbols.size(); ++X) {
      const Symbol &A = Direct.Symbols[X], &B = ViaCst.Symbols[X];
      CAPTURE(A.Name);
      CHECK((A.Name == B.Name && A.Type == B.Type && A.ArraySize == B.ArraySize &&
             A.Name.data() == B.Name.data() && A.Type.data() == B.Type.data() &&
             A.Range.Begin == B.Range.Begin && A.Range.End == B.Range.End &&
             A.Function == B.Function && A.RangeCount == B.RangeCount &&
             A.Align == B.Align && A.Space == B.Space && A.VectorWidth == B.VectorWidth &&
             A.IsArray == B.IsArray && A.Extern == B.Extern));
    }
  };
  // The headers first, as the lint parses them before the instructions.
  for (uint32_t K = 0; K < Direct.Statements.size(); ++K) {
    if (Direct.Statements[K].Kind != StatementKind::FunctionHeader)
      continue;
    size_t Before = Direct.Symbols.size();
    CHECK(DirectParser.parse(K) == CstParser.parse(K));
    SameSymbols(Before);
    REQUIRE(shown(DirectDiags.take()) == shown(CstDiags.take()));
    REQUIRE(Direct.Statements[K].ParsedIndex == ViaCst.Statements[K].ParsedIndex);
  }
  REQUIRE(Direct.Functions.size() == ViaCst.Functions.size());
  for (size_t F = 0; F < Direct.Functions.size(); ++F) {
    const Function &A = Direct.Functions[F], &B = ViaCst.Functions[F];
    CAPTURE(B.Name);
    CHECK((A.Name == B.Name && A.IsEntry == B.IsEntry && A.IsPrototype == B.IsPrototype &&
           A.NameRange.Begin == B.NameRange.Begin && A.NameRange.End == B.NameRange.End &&
           A.ClusterDims[0] == B.ClusterDims[0] && A.ClusterDims[1] == B.ClusterDims[1] &&
           A.ClusterDims[2] == B.ClusterDims[2] && A.ExplicitCluster == B.ExplicitCluster));
  }
  for (uint32_t K : selectForParse(Direct)) {
    if (Direct.Statements[K].Kind == StatementKind::Declaration) {
      size_t Before = Direct.Symbols.size();
      CHECK(DirectParser.parse(K) == CstParser.parse(K));
      SameSymbols(Before);
      REQUIRE(shown(DirectDiags.take()) == shown(CstDiags.take()));
      continue;
    }
    if (Direct.Statements[K].Kind != StatementKind::Instruction)
      continue;
    bool A = DirectParser.parse(K), B = CstParser.parse(K);
    std::string_view St = Buf.text().substr(Direct.Statements[K].Range.Begin,
                                            Direct.Statements[K].Range.End -
                                                Direct.Statements[K].Range.Begin);
    CAPTURE(Name);
    CAPTURE(St);
    REQUIRE(A == B);
    REQUIRE(shown(DirectDiags.take()) == shown(CstDiags.take()));
    REQUIRE(Direct.Statements[K].ParsedIndex == ViaCst.Statements[K].ParsedIndex);
    if (A)
      REQUIRE(differs(Direct.Instructions.back(), ViaCst.Instructions.back()) == "");
  }
  return DirectParser.directlyBuilt();
}

std::string slurp(const std::filesystem::path &P) {
  std::ifstream F(P, std::ios::binary);
  std::stringstream SS;
  SS << F.rdbuf();
  return SS.str();
}
} // namespace

TEST_CASE("the direct builder and the CST walk make the same instructions") {
  // Tricky shapes first: prefixes, flat expressions, bad addresses, vectors,
  // literals ptxas rejects or wraps, and what only the CST way takes.
  std::string Src = std::string(Header) + ".visible .entry k()\n{\n" +
                    ".reg .b32 %r<12>, %q, x<2>[3][4]; .shared .align 8 .b8 buf[], s2[0x10];\n"
                    ".reg .v4 .b32 v; .global .align 99999999999999999999 .u32 g[8] = {1};\n"
                    ".reg .b32 %bad<99999999999999999999>; .extern .shared .b8 ext[];\n"
                    ".reg .b32 r<;\n" +
                    "@!%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                    ".mbarrier::complete_tx::bytes [%r1+16], [%rd1, {%r2, -3}], [%r3], 0xffffU;\n"
                    "st.shared.u32 [x+4*2-1], -~!0; st.shared.v2.u32 [%r1+-16], {%r2, _};\n"
                    "st.shared.u32 [%r1-16], 1; st.shared.u32 [16+%r1], %tid.x;\n"
                    "st.shared.u32 [%r1+%r2], 1.5; st.shared.u32 [%r1+1.0], -1.5;\n"
                    "st.shared.u32 [8*2], 18446744073709551616; st.shared.u32 [%r1*2], 0x1ffffffffffffffffU;\n"
                    "st.shared.u32 [%r1+(4)], (1); st.shared.u32 [a], !%p1; st.shared.u32 [a], {};\n"
                    "st.shared.u32 [a], 1 << 70, 7 / 0, -8 % 3, 3|4&6^1, 1+2<<3>>1;\n"
                    "call.uni (retval0), f, (p0, p1); st.shared.u32 [a] 1; st.shared.u32 [a],;\n"
                    "call.uni f, (); call.uni (r), f, (p0, p1.x); call.uni (r), f, ((p0));\n"
                    "st.shared.u32 [a], (x); st.shared.u32 [a], (x)+1; st.shared.u32 [a], (x, y);\n"
                    "bar.sync 0; ret; exit;\n}\n" +
                    // Headers: return parameters, arrays, ranges, vectors, attributes,
                    // prototypes, and shapes only the CST way takes (or rejects).
                    ".visible .func (.param .b32 r) f(.param .u64 .ptr .align 8 p[4][2], "
                    ".reg .b32 x<2>, .param .v2 .f32 v)\n.reqnctapercluster 2, 99999999999, 3 "
                    ".explicitcluster .maxntid 128, 1, 1\n{\nret;\n}\n"
                    ".extern .func g(.param .b32 a);\n.weak .func (.reg .b32 q) h()\n{\nret;\n}\n"
                    ".entry e2(.param .b32)\n{\nret;\n}\n.entry e3(.param .b32 a,)\n{\nret;\n}\n"
                    ".entry e4(.param .b32 a) .reqnctapercluster\n{\nret;\n}\n"
                    ".entry e5(.param .b32 a) .maxntid 1,\n{\nret;\n}\n"
                    ".visible .entry e6 .maxnreg 32\n{\nret;\n}\n";
  CHECK(compareBuilders(Src, "tricky.ptx") == 24); // the rest go the CST way

  // Statements of one text: from the third on, copies of the second's
  // instruction (its views and ranges moved); one that reported is built
  // each time, its diagnostics each time too.
  std::string Repeated;
  for (int K = 0; K < 4; ++K)
    Repeated += "@!%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                ".mbarrier::complete_tx::bytes [%r1+16], [%rd1, {%r2, -3}], [%r3], 0xffffU;\n"
                "  st.shared.v2.u32 [x+4*2-1], {%r2, _};   mov.u32 %r1, %tid.x;\n"
                "st.shared.u32 [8*2], 18446744073709551616;\n";
  // Declarations of one text: from the second on, copies of the first's
  // symbols, in their own function.
  std::string Decls = ".reg .b32 %r<12>, x<2>[3]; .shared .align 8 .b8 buf[16], s2[0x10];\n"
                      ".global .u32 g[2] = {1, 2};\n";
  Src = std::string(Header) + ".visible .entry k()\n{\n" + Decls + Decls + Repeated +
        "}\n.visible .entry k2()\n{\n" + Decls + Repeated + "}\n";
  CHECK(compareBuilders(Src, "repeated.ptx") == 24); // the filter leaves the mov

  // Every test module and the corpus (or its committed slice).
  size_t Direct = 0, Files = 0;
  for (std::filesystem::path Root :
       {std::filesystem::path(PTXLINT_SOURCE_DIR) / "test", std::filesystem::path(PTXLINT_CORPUS_DIR)})
    for (auto &E : std::filesystem::recursive_directory_iterator(Root))
      if (E.path().extension() == ".ptx") {
        ++Files;
        Direct += compareBuilders(slurp(E.path()), E.path().string());
      }
  MESSAGE("built " << Direct << " instructions directly, in " << Files << " files");
  CHECK(Direct > 1000);
}
