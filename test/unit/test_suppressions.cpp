// "// ptxlint: disable..." comments: parsing, matching, unused reporting.
#include "Suppress/Suppressions.h"

#include "ptxlint/Linter.h"

#include <doctest/doctest.h>

using namespace ptxlint;

TEST_CASE("forms, targets and removal ranges") {
  SourceBuffer B("k.ptx", "// ptxlint: disable-file=M001\n"
                          "ret; // ptxlint: disable=S001,missing-semicolon why\n"
                          "  // ptxlint: disable-next-line=all\n"
                          "ret;\n");
  std::vector<Diagnostic> Invalid;
  SuppressionSet S = SuppressionSet::parse(B, Invalid);
  CHECK(Invalid.empty());
  REQUIRE(S.items().size() == 3);
  const Suppression &File = S.items()[0];
  CHECK(File.Kind == Suppression::File);
  CHECK(File.TargetLine == 0);
  const Suppression &Line = S.items()[1];
  CHECK(Line.Kind == Suppression::Line);
  CHECK(Line.TargetLine == 2);
  REQUIRE(Line.Entries.size() == 2);
  CHECK(Line.Entries[1].Code == "S003"); // names map to codes
  // A trailing comment is removed with the blanks before it.
  CHECK(B.text().substr(Line.RemovalRange.Begin,
                        Line.RemovalRange.End - Line.RemovalRange.Begin) ==
        " // ptxlint: disable=S001,missing-semicolon why");
  const Suppression &Next = S.items()[2];
  CHECK(Next.TargetLine == 4);
  // A comment-only line is removed whole.
  CHECK(B.text().substr(Next.RemovalRange.Begin,
                        Next.RemovalRange.End - Next.RemovalRange.Begin) ==
        "  // ptxlint: disable-next-line=all\n");
}

TEST_CASE("matching marks entries used; the rest are reported with a fix") {
  SourceBuffer B("k.ptx", "ret; // ptxlint: disable=S001,S003\nret;\n");
  std::vector<Diagnostic> Invalid;
  SuppressionSet S = SuppressionSet::parse(B, Invalid);
  Diagnostic D;
  D.Code = "S001";
  D.Range = {0, 3};
  CHECK(S.suppresses(D));
  D.Range = {35, 38}; // line 2
  CHECK_FALSE(S.suppresses(D));
  std::vector<Diagnostic> U = S.unused();
  REQUIRE(U.size() == 1);
  CHECK(U[0].Code == "X001");
  CHECK(U[0].Message == "unused suppression: S003 reported nothing on this line");
  REQUIRE(U[0].Fixes.size() == 1);
  CHECK(U[0].Fixes[0].Replacement == "S001");
}

TEST_CASE("malformed comments become X002, and are not suppressions") {
  SourceBuffer B("k.ptx", "ret; // ptxlint: disable=Nope\n"
                          "// ptxlint: disable=S001\n"
                          "ret; // ptxlint: enable=S001\n"
                          "ret; // ptxlint: disable\n"
                          "ret; // not ptxlint: disable=S001\n");
  std::vector<Diagnostic> Invalid;
  SuppressionSet S = SuppressionSet::parse(B, Invalid);
  CHECK(S.empty());
  REQUIRE(Invalid.size() == 4);
  for (const Diagnostic &D : Invalid)
    CHECK(D.Code == "X002");
}

TEST_CASE("lint(): suppressed diagnostics vanish, -Werror, overrides") {
  SourceBuffer B("k.ptx", ".entry k()\n{\n  ret // ptxlint: disable=S003\n}\n");
  LintResult R = lint(B);
  for (const Diagnostic &D : R.Diagnostics)
    CHECK(D.Code != "S003");
  LintOptions O;
  O.Suppressions = false;
  bool Found = false;
  for (const Diagnostic &D : lint(B, O).Diagnostics)
    Found |= D.Code == "S003";
  CHECK(Found);
  O.WarningsAsErrors = true;
  for (const Diagnostic &D : lint(B, O).Diagnostics)
    CHECK(D.Level >= Severity::Error);
}

TEST_CASE("markers are found at every offset, in any case, among labels") {
  // The search tests 64 bytes at a time and the rest byte by byte: a marker
  // (and the ':' it ends in) at every offset across a block's end, after
  // label colons and near misses ("lint:", "Xtxlint:"), and at the very end.
  for (size_t Pad = 0; Pad < 140; ++Pad) {
    std::string Text = "$L__BB0_1:\n" + std::string(Pad, ' ') + "// Xtxlint: lint: " +
                       "// ptxlint: disable-next-line=S001\n" +
                       "// PTXLINT: disable=S001\n$L__BB0_2:\n// ptxlint:";
    SourceBuffer B("k.ptx", Text);
    std::vector<Diagnostic> Invalid;
    SuppressionSet S = SuppressionSet::parse(B, Invalid);
    REQUIRE(S.items().size() == 1);
    CHECK(S.items()[0].TargetLine == 3);
    REQUIRE(Invalid.size() == 2); // the upper-case one and the last
    CHECK(Invalid[0].Range.Begin == Text.find("PTXLINT:"));
    CHECK(Invalid[1].Range.Begin == Text.rfind("ptxlint:"));
  }
}
