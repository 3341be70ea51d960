// The lint reads the suppression comments and checks the non-ASCII bytes a
// part of the text at a time, behind the scan (at each ScanLimits::Passed):
// in any steps, each must find what one pass over the whole text finds.
#include "Parse/Scanner.h"
#include "Suppress/Suppressions.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

using namespace ptxlint;

namespace {

/// Random lines of PTX-ish text with non-ASCII bytes (UTF-8, and bytes that
/// are not), suppression comments (well-formed and not) and long lines.
std::string randomText(std::mt19937 &Rng, bool Bom) {
  static const char *const Pieces[] = {
      "  add.s32 %r1, %r2, 3;", "// caf\xC3\xA9", "/* \xF0\x9F\x98\x80 */ ret;",
      "  mov.u32 %r1, 1; // \xE2\x82\xAC\xE2\x82\xAC", "\xC3(", "\xED\xA0\x80 surrogate",
      "\xC0\x80 overlong", "ret; // ptxlint: disable=S001", "// ptxlint: disable-next-line=S003",
      "// ptxlint: disable-file=M001", "// PTXLINT: disable=S001", "// ptxlint: bogus=S001",
      "ret; /* ptxlint: disable=S001 */ ret;", "// ptxlint: disable=", "{", "}", "",
      "  ld.shared.u32 %r3, [%r4];",
      // Only the first non-ASCII byte of a line is reported: more after it.
      "// \xC3\xA9 then \xC3\xA9 \xF0\x9F\x98\x80 and ptxlint: disable=S001 again \xC3\xA9"};
  std::string T = Bom ? "\xEF\xBB\xBF" : "";
  std::uniform_int_distribution<size_t> Pick(0, std::size(Pieces) - 1);
  for (int K = 0; K < 400; ++K) {
    T += Pieces[Pick(Rng)];
    if (K % 37 == 0)
      T += std::string(Rng() % 5000, 'x'); // a line across many steps
    T += '\n';
  }
  return T;
}

/// Step offsets: ascending, anywhere, and just after non-ASCII bytes and
/// inside markers (where a step could part what one pass reads at once); the
/// last the end.
std::vector<uint32_t> randomSteps(std::mt19937 &Rng, std::string_view T) {
  const uint32_t N = uint32_t(T.size());
  std::vector<uint32_t> Steps;
  for (int K = int(Rng() % 40); K > 0; --K)
    Steps.push_back(uint32_t(Rng() % (N + 1)));
  for (int K = int(Rng() % 40); K > 0; --K) {
    size_t At = T.find_first_of("\x80\x9F\xA9\xAC:", Rng() % N);
    if (At != std::string_view::npos)
      Steps.push_back(uint32_t(std::min<size_t>(N, At + Rng() % 4)));
  }
  std::sort(Steps.begin(), Steps.end());
  Steps.push_back(N);
  return Steps;
}

std::vector<std::string> shown(const std::vector<Diagnostic> &Ds) {
  std::vector<std::string> Out;
  for (const Diagnostic &D : Ds)
    Out.push_back(D.Code + " " + std::to_string(D.Range.Begin) + "-" +
                  std::to_string(D.Range.End) + " " + D.Message + " fixes " +
                  std::to_string(D.Fixes.size()));
  return Out;
}

} // namespace

TEST_CASE("NonAsciiCheck: any steps report what one pass reports") {
  std::mt19937 Rng(12);
  for (int Round = 0; Round < 200; ++Round) {
    std::string T = randomText(Rng, Round % 3 == 0);
    uint32_t N = uint32_t(T.size());
    DiagnosticEngine Whole, Stepped;
    NonAsciiCheck(T, Whole).checkBefore(N);
    NonAsciiCheck C(T, Stepped);
    for (uint32_t Step : randomSteps(Rng, T))
      C.checkBefore(Step);
    REQUIRE(!Whole.diagnostics().empty());
    CHECK(shown(Stepped.diagnostics()) == shown(Whole.diagnostics()));
  }
}

TEST_CASE("SuppressionSet: searched in any steps, the set parse() finds") {
  std::mt19937 Rng(13);
  for (int Round = 0; Round < 200; ++Round) {
    SourceBuffer B("t.ptx", randomText(Rng, false));
    std::vector<Diagnostic> WholeInvalid, SteppedInvalid;
    SuppressionSet Whole = SuppressionSet::parse(B, WholeInvalid);
    SuppressionSet Stepped(B);
    for (uint32_t Step : randomSteps(Rng, B.text()))
      Stepped.search(Step, SteppedInvalid);
    Stepped.finish(SteppedInvalid);
    CHECK(shown(SteppedInvalid) == shown(WholeInvalid));
    REQUIRE(Stepped.items().size() == Whole.items().size());
    REQUIRE(!Whole.items().empty());
    for (size_t K = 0; K < Whole.items().size(); ++K) {
      const Suppression &W = Whole.items()[K], &S = Stepped.items()[K];
      CHECK(S.Kind == W.Kind);
      CHECK(S.TargetLine == W.TargetLine);
      CHECK(S.CommentRange.Begin == W.CommentRange.Begin);
      CHECK(S.RemovalRange.Begin == W.RemovalRange.Begin);
      CHECK(S.RemovalRange.End == W.RemovalRange.End);
      CHECK(S.Entries.size() == W.Entries.size());
    }
  }
}
