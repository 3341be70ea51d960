// Renderers (JSON, SARIF, GitHub), fingerprints, URIs, diffs and fixes.
#include "ptxlint/Driver.h"
#include "ptxlint/Output.h"

#include "llvm/Support/JSON.h"

#include <doctest/doctest.h>

using namespace ptxlint;

namespace {
Diagnostic diag(std::string Code, Severity S, uint32_t B, uint32_t E,
                std::string Msg) {
  Diagnostic D;
  D.Code = std::move(Code);
  D.Level = S;
  D.Range = {B, E};
  D.Message = std::move(Msg);
  return D;
}

llvm::json::Value render(OutputFormat F, const SourceBuffer &B,
                         const std::vector<Diagnostic> &Diags) {
  std::string Out;
  auto Sink = createSink(F, Out);
  Sink->begin();
  Sink->file(B, Diags);
  RunSummary S;
  S.Files = 1;
  S.Errors = 1;
  Sink->end(S);
  auto V = llvm::json::parse(Out);
  REQUIRE_MESSAGE(bool(V), Out);
  return std::move(*V);
}
} // namespace

TEST_CASE("JSON: documented keys, 1-based columns, exclusive end") {
  SourceBuffer B("k.ptx", "ret\n  bad;\n");
  Diagnostic D = diag("S003", Severity::Error, 6, 9, "m \"quoted\"\n");
  D.Fixes.push_back({{3, 3}, ";"});
  D.Notes.push_back({"n", SourceRange{0, 3}});
  llvm::json::Value V = render(OutputFormat::Json, B, {D});
  const llvm::json::Object &Root = *V.getAsObject();
  CHECK(*Root.getInteger("version") == 1);
  const llvm::json::Object &Diag0 =
      *(*Root.getArray("diagnostics"))[0].getAsObject();
  CHECK(*Diag0.getString("file") == "k.ptx");
  CHECK(*Diag0.getString("rule") == "missing-semicolon");
  CHECK(*Diag0.getString("message") == "m \"quoted\"\n");
  const llvm::json::Object &Start = *Diag0.getObject("range")->getObject("start");
  CHECK(*Start.getInteger("line") == 2);
  CHECK(*Start.getInteger("column") == 3);
  CHECK(*Diag0.getObject("range")->getObject("end")->getInteger("column") == 6);
  CHECK(*(*Diag0.getArray("fixes"))[0].getAsObject()->getString("replacement") == ";");
  CHECK(*Root.getObject("summary")->getInteger("errors") == 1);
}

TEST_CASE("SARIF: rules from the registry, ruleIndex, fixes, fingerprints") {
  SourceBuffer B("dir/k.ptx", "ret\n");
  Diagnostic D = diag("S003", Severity::Error, 3, 3, "missing ';'");
  D.Fixes.push_back({{3, 3}, ";"});
  llvm::json::Value V = render(OutputFormat::Sarif, B, {D, D});
  const llvm::json::Object &Run =
      *(*V.getAsObject()->getArray("runs"))[0].getAsObject();
  const llvm::json::Array &Rules =
      *Run.getObject("tool")->getObject("driver")->getArray("rules");
  CHECK(Rules.size() == allRules().size());
  const llvm::json::Array &Results = *Run.getArray("results");
  REQUIRE(Results.size() == 2);
  const llvm::json::Object &R0 = *Results[0].getAsObject();
  int64_t Index = *R0.getInteger("ruleIndex");
  CHECK(*Rules[size_t(Index)].getAsObject()->getString("id") == "S003");
  const llvm::json::Object &Region = *(*R0.getArray("locations"))[0]
                                          .getAsObject()
                                          ->getObject("physicalLocation")
                                          ->getObject("region");
  CHECK(*Region.getInteger("startColumn") == 4);
  CHECK(*Region.getInteger("endColumn") == 5); // an empty range shows one column
  const llvm::json::Object &Loc = *(*R0.getArray("locations"))[0]
                                       .getAsObject()
                                       ->getObject("physicalLocation")
                                       ->getObject("artifactLocation");
  CHECK(*Loc.getString("uri") == "dir/k.ptx");
  CHECK(*Loc.getString("uriBaseId") == "%SRCROOT%");
  // The same diagnostic twice on one line gets two fingerprints.
  auto FP = [&](size_t K) {
    return Results[K].getAsObject()->getObject("partialFingerprints")->getString(
        "ptxlintFingerprint/v1")->str();
  };
  CHECK(FP(0) != FP(1));
  CHECK(R0.getArray("fixes")->size() == 1);
}

TEST_CASE("fingerprints survive edits elsewhere in the file") {
  SourceBuffer A("k.ptx", "  ret\n");
  SourceBuffer B("k.ptx", "// new line\n\n  ret   \n");
  Diagnostic DA = diag("S003", Severity::Error, 5, 5, "x");
  Diagnostic DB = diag("S003", Severity::Error, 18, 18, "x");
  CHECK(diagnosticFingerprint(A, DA, 0) == diagnosticFingerprint(B, DB, 0));
  CHECK(diagnosticFingerprint(A, DA, 0) != diagnosticFingerprint(A, DA, 1));
}

TEST_CASE("GitHub annotations escape data and properties") {
  CHECK(escapeGithubData("50% a\nb\r") == "50%25 a%0Ab%0D");
  CHECK(escapeGithubProperty("a:b,c") == "a%3Ab%2Cc");
  SourceBuffer B("a,b.ptx", "ret\n");
  std::string Out;
  auto Sink = createSink(OutputFormat::Github, Out);
  Sink->file(B, {diag("M001", Severity::Warning, 0, 3, "two\nlines")});
  CHECK(Out == "::warning file=a%2Cb.ptx,line=1,col=1,endLine=1,endColumn=4,"
               "title=ptxlint M001 (missing-version)::two%0Alines\n");
}

TEST_CASE("URIs and UTF-16 columns") {
  CHECK(pathToUri("a b/c.ptx") == "a%20b/c.ptx");
  CHECK(pathToUri("/abs/k.ptx") == "file:///abs/k.ptx");
  CHECK(pathToUri("c:x.ptx") == "c%3Ax.ptx");
  CHECK(utf16Column("abc", 3) == 3);
  CHECK(utf16Column("\xc3\xa9x", 3) == 2);         // é is 2 bytes, 1 unit
  CHECK(utf16Column("\xf0\x9f\x98\x80x", 5) == 3); // 😀 is 4 bytes, 2 units
}

TEST_CASE("unified diffs") {
  CHECK(unifiedDiff("f", "a\n", "a\n").empty());
  CHECK(unifiedDiff("f", "a\nb\nc\n", "a\nB\nc\n") ==
        "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
  // Two changes far apart make two hunks.
  std::string Before, After;
  for (int K = 0; K < 20; ++K) {
    Before += "l" + std::to_string(K) + "\n";
    After += (K == 1 || K == 18 ? "X" : "l") + std::to_string(K) + "\n";
  }
  std::string D = unifiedDiff("f", Before, After);
  CHECK(D.find("@@ -1,5 +1,5 @@") != std::string::npos);
  CHECK(D.find("@@ -16,5 +16,5 @@") != std::string::npos);
  // A missing final newline is marked.
  CHECK(unifiedDiff("f", "a", "b").find("\\ No newline at end of file") !=
        std::string::npos);
  // Deleted line.
  CHECK(unifiedDiff("f", "a\nb\n", "a\n") == "--- a/f\n+++ b/f\n@@ -1,2 +1,1 @@\n a\n-b\n");
}

TEST_CASE("applyFixes: certain fixes only, no overlaps") {
  SourceBuffer B("k.ptx", "abcdef");
  std::vector<Diagnostic> Ds;
  Ds.push_back(diag("S003", Severity::Error, 1, 2, ""));
  Ds.back().Fixes.push_back({{1, 2}, "B"});
  Ds.push_back(diag("S003", Severity::Error, 1, 3, "")); // overlaps: skipped
  Ds.back().Fixes.push_back({{1, 3}, "ZZ"});
  Ds.push_back(diag("S003", Severity::Error, 6, 6, ""));
  Ds.back().Fixes.push_back({{6, 6}, ";"});
  Ds.push_back(diag("S001", Severity::Error, 0, 1, "")); // rule has no fix
  Ds.back().Fixes.push_back({{0, 1}, "!"});
  std::vector<AppliedFix> Applied;
  CHECK(applyFixes(B, Ds, Applied) == "aBcdef;");
  CHECK(Applied.size() == 2);
}
