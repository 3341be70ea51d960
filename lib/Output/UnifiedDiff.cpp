//===- UnifiedDiff.cpp - Unified diffs of --fix results -------------------===//
//
// Fix-its are small, local edits, so the diff re-synchronises greedily: at a
// difference it looks for the nearest pair of equal lines (within a window)
// and emits the lines in between as removed/added (without one nearby, it
// replaces a single line and tries again). Any edit script is a
// correct unified diff; this one is minimal for local edits and linear in
// the file size.
//
//===----------------------------------------------------------------------===//

#include "ptxlint/Output.h"

#include <algorithm>

namespace ptxlint {
namespace {

std::vector<std::string_view> splitLines(std::string_view T) {
  std::vector<std::string_view> L;
  size_t Pos = 0;
  while (Pos < T.size()) {
    size_t NL = T.find('\n', Pos);
    size_t End = NL == std::string_view::npos ? T.size() : NL + 1;
    L.push_back(T.substr(Pos, End - Pos));
    Pos = End;
  }
  return L;
}

enum Op : char { Equal = ' ', Del = '-', Ins = '+' };

} // namespace

std::string unifiedDiff(std::string_view Name, std::string_view Before,
                        std::string_view After) {
  if (Before == After)
    return {};
  std::vector<std::string_view> A = splitLines(Before), B = splitLines(After);
  std::vector<std::pair<Op, std::string_view>> Ops;
  size_t I = 0, J = 0;
  constexpr size_t Window = 400;
  while (I < A.size() || J < B.size()) {
    if (I < A.size() && J < B.size() && A[I] == B[J]) {
      Ops.push_back({Equal, A[I]});
      ++I, ++J;
      continue;
    }
    // Smallest DI + DJ with A[I+DI] == B[J+DJ].
    size_t BestI = A.size(), BestJ = B.size();
    bool Found = false;
    for (size_t D = 1; D <= 2 * Window && !Found; ++D)
      for (size_t DI = 0; DI <= D; ++DI) {
        size_t DJ = D - DI;
        if (I + DI < A.size() && J + DJ < B.size() && A[I + DI] == B[J + DJ]) {
          BestI = I + DI, BestJ = J + DJ;
          Found = true;
          break;
        }
      }
    if (!Found) { // no resync nearby: replace one line and look again
      BestI = std::min(I + 1, A.size());
      BestJ = std::min(J + 1, B.size());
    }
    for (; I < BestI; ++I)
      Ops.push_back({Del, A[I]});
    for (; J < BestJ; ++J)
      Ops.push_back({Ins, B[J]});
  }

  bool Abs = !Name.empty() && Name.front() == '/';
  std::string Out = (Abs ? "--- " : "--- a/") + std::string(Name) +
                    (Abs ? "\n+++ " : "\n+++ b/") + std::string(Name) + "\n";
  constexpr size_t Context = 3;
  size_t K = 0;
  // Line numbers (1-based) at each op.
  std::vector<std::pair<size_t, size_t>> Pos(Ops.size() + 1);
  for (size_t X = 0, LA = 1, LB = 1; X <= Ops.size(); ++X) {
    Pos[X] = {LA, LB};
    if (X < Ops.size()) {
      LA += Ops[X].first != Ins;
      LB += Ops[X].first != Del;
    }
  }
  while (K < Ops.size()) {
    while (K < Ops.size() && Ops[K].first == Equal)
      ++K;
    if (K == Ops.size())
      break;
    size_t Start = K >= Context ? K - Context : 0;
    // Extend while the next change is within 2*Context equal lines.
    size_t End = K;
    while (true) {
      while (End < Ops.size() && Ops[End].first != Equal)
        ++End;
      size_t NextChange = End;
      while (NextChange < Ops.size() && Ops[NextChange].first == Equal)
        ++NextChange;
      if (NextChange < Ops.size() && NextChange - End <= 2 * Context) {
        End = NextChange;
        continue;
      }
      End = std::min(Ops.size(), End + Context);
      break;
    }
    size_t CountA = 0, CountB = 0;
    for (size_t X = Start; X < End; ++X) {
      CountA += Ops[X].first != Ins;
      CountB += Ops[X].first != Del;
    }
    size_t StartA = CountA ? Pos[Start].first : Pos[Start].first - 1;
    size_t StartB = CountB ? Pos[Start].second : Pos[Start].second - 1;
    Out += "@@ -" + std::to_string(StartA) + "," + std::to_string(CountA) +
           " +" + std::to_string(StartB) + "," + std::to_string(CountB) +
           " @@\n";
    for (size_t X = Start; X < End; ++X) {
      Out += char(Ops[X].first);
      Out += Ops[X].second;
      if (Ops[X].second.empty() || Ops[X].second.back() != '\n')
        Out += "\n\\ No newline at end of file\n";
    }
    K = End;
  }
  return Out;
}

} // namespace ptxlint
