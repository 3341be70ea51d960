// SourceBuffer's lines and columns against a table of every line start, the
// obvious way, on texts around its 4 KB blocks of newline counts.
#include "ptxlint/SourceBuffer.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>

using namespace ptxlint;

namespace {
/// CountedBefore: offsets a lint passes to countLinesBefore() first, in
/// order (the newlines of some blocks counted before the first request).
void checkAgainstTable(const std::string &Text, const std::vector<uint32_t> &CountedBefore = {}) {
  SourceBuffer B("t.ptx", Text);
  for (uint32_t Offset : CountedBefore)
    B.countLinesBefore(Offset);
  std::vector<uint32_t> Starts{Text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3u : 0u};
  for (size_t K = 0; K < Text.size(); ++K)
    if (Text[K] == '\n')
      Starts.push_back(uint32_t(K + 1));
  for (uint32_t Off = 0; Off <= Text.size() + 2; ++Off) {
    uint32_t O = std::max(std::min<uint32_t>(Off, uint32_t(Text.size())), Starts[0]);
    unsigned Line = unsigned(std::upper_bound(Starts.begin(), Starts.end(), O) - Starts.begin());
    SourceBuffer::LineCol LC = B.lineCol(Off);
    REQUIRE(LC.Line == Line);
    REQUIRE(LC.Column == O - Starts[Line - 1] + 1);
  }
  for (unsigned Line = 0; Line <= Starts.size() + 1; ++Line) {
    bool Valid = Line >= 1 && Line <= Starts.size();
    uint32_t Begin = Valid ? Starts[Line - 1] : uint32_t(Text.size());
    REQUIRE(B.lineStart(Line) == Begin);
    std::string_view Want;
    if (Valid) {
      uint32_t End = Line < Starts.size() ? Starts[Line] : uint32_t(Text.size());
      Want = std::string_view(Text).substr(Begin, End - Begin);
      while (!Want.empty() && (Want.back() == '\n' || Want.back() == '\r'))
        Want.remove_suffix(1);
    }
    REQUIRE(B.lineText(Line) == Want);
  }
}
} // namespace

TEST_CASE("SourceBuffer: lines and columns as a table of line starts gives them") {
  checkAgainstTable("");
  checkAgainstTable("\n");
  checkAgainstTable("ret;");
  checkAgainstTable("\xEF\xBB\xBF.version 8.0\r\n.target sm_90\n");
  checkAgainstTable("\xEF\xBB\xBF");
  std::mt19937 Rng(16);
  for (int Round = 0; Round < 12; ++Round) {
    // Line lengths from none to past a block, so that lines start and end
    // on both sides of the 4 KB boundaries.
    std::string Text = Round % 3 == 0 ? "\xEF\xBB\xBF" : "";
    size_t Size = 4096 * (1 + Round % 4) + Round * 7;
    while (Text.size() < Size) {
      unsigned Len = Rng() % 3 == 0 ? Rng() % 5000 : Rng() % 80;
      for (unsigned K = 0; K < Len; ++K)
        Text += char('a' + Rng() % 26);
      Text += Rng() % 5 == 0 ? "\r\n" : "\n";
    }
    if (Round % 2)
      Text.resize(Size); // not ending at a newline
    checkAgainstTable(Text);
    // Counted in part first, as a lint that found a diagnostic does: up to
    // offsets around the block boundaries, or to the end.
    std::vector<uint32_t> Cuts;
    for (uint32_t Cut = 0; Cut < Text.size(); Cut += uint32_t(Rng() % 9000))
      Cuts.push_back(Cut);
    if (Round % 2)
      Cuts.push_back(uint32_t(Text.size()));
    checkAgainstTable(Text, Cuts);
  }
}
