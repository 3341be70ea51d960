// Unit tests of the statement scanner: kinds, ranges, recovery.
#include "Parse/Scanner.h"

#include <doctest/doctest.h>

using namespace ptxlint;

namespace {
struct Scanned {
  Module M;
  DiagnosticEngine Diags;
  explicit Scanned(std::string_view Text) { scanModule(Text, M, Diags); }
  std::vector<StatementKind> kinds() const {
    std::vector<StatementKind> K;
    for (const Statement &S : M.Statements)
      K.push_back(S.Kind);
    return K;
  }
};
} // namespace

TEST_CASE("directives, functions, labels and instructions") {
  std::string Src = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                    ".visible .entry k(\n .param .u64 p\n)\n.maxntid 128, 1, 1\n{\n"
                    " .reg .b32 %r<4>;\n$L1:\n @%p1 bra $L1;\n ret;\n}\n";
  Scanned S(Src);
  using K = StatementKind;
  CHECK(S.kinds() == std::vector<K>{K::Directive, K::Directive, K::Directive,
                                    K::FunctionHeader, K::BlockOpen,
                                    K::Declaration, K::Label, K::Instruction,
                                    K::Instruction, K::BlockClose});
  CHECK(S.Diags.diagnostics().empty());
  REQUIRE(S.M.Functions.size() == 1);
  CHECK(S.M.Statements[7].head(S.M.Text) == "bra");
  FunctionCursor Functions(S.M);
  CHECK(Functions.at(0) == -1);
  CHECK(Functions.at(3) == -1); // the header
  CHECK(Functions.at(5) == 0);  // the first statement inside the braces
  CHECK(Functions.at(9) == 0);  // the closing brace
  CHECK(Functions.at(7) == 0);  // asked out of order
}

TEST_CASE("qualifiers with '::' are not labels") {
  Scanned S("cp.async.bulk.shared::cluster.global [a], [b], 16, [m];");
  REQUIRE(S.M.Statements.size() == 1);
  CHECK(S.M.Statements[0].Kind == StatementKind::Instruction);
  CHECK(S.M.Statements[0].head(S.M.Text) == "cp.async.bulk.shared::cluster.global");
}

TEST_CASE("vector operands and initialisers keep braces inside the statement") {
  Scanned S(".global .b8 d[3] = {1, 2, 3};\nmov.b64 {%r1, %r2}, %rd1;");
  CHECK(S.kinds() == std::vector<StatementKind>{StatementKind::Declaration,
                                                StatementKind::Instruction});
}

TEST_CASE("a missing ';' is reported where the statement ends") {
  Scanned S("{\n ret\n}\n");
  REQUIRE(S.Diags.diagnostics().size() == 1);
  const Diagnostic &D = S.Diags.diagnostics()[0];
  CHECK(D.Code == "S003");
  CHECK(D.Range.Begin == 6); // just after "ret"
  REQUIRE(D.Fixes.size() == 1);
  CHECK(D.Fixes[0].Replacement == ";");
}

TEST_CASE("unbalanced braces") {
  Scanned Open("{ {\n");
  REQUIRE(!Open.Diags.diagnostics().empty());
  CHECK(Open.Diags.diagnostics()[0].Code == "S002");
  Scanned Close("}\n");
  REQUIRE(Close.Diags.diagnostics().size() == 1);
  CHECK(Close.Diags.diagnostics()[0].Code == "S002");
}

TEST_CASE("comments and strings hide ';' and braces") {
  Scanned S("/* { ; */ // }\n.pragma \"a;b}\";\nret; // ;\n");
  CHECK(S.kinds() == std::vector<StatementKind>{StatementKind::Directive,
                                                StatementKind::Instruction});
  CHECK(S.Diags.diagnostics().empty());
}

TEST_CASE("DWARF sections are line-terminated data") {
  Scanned S(".section .debug_info\n{\n.b8 1\n$L__x:\n.b32 .debug_abbrev\n}\n");
  CHECK(S.kinds() == std::vector<StatementKind>{
                         StatementKind::Directive, StatementKind::BlockOpen,
                         StatementKind::SectionData, StatementKind::SectionData,
                         StatementKind::SectionData, StatementKind::BlockClose});
  CHECK(S.Diags.diagnostics().empty());
}

TEST_CASE("binary garbage gives a bounded number of errors, no crash") {
  std::string Junk;
  for (int K = 0; K < 100000; ++K)
    Junk += char((K * 7919) & 0xff);
  Scanned S(Junk);
  CHECK(S.Diags.errorCount() >= 1);
  CHECK(S.Diags.diagnostics().size() <= 60);
}

TEST_CASE("deep nesting does not recurse") {
  std::string Deep(100000, '{');
  Scanned S(Deep);
  CHECK(S.Diags.errorCount() >= 1);
  std::string DeepInStatement = "mov.b32 " + std::string(100000, '{') + ";";
  Scanned T(DeepInStatement);
  CHECK(T.Diags.errorCount() >= 1);
}
