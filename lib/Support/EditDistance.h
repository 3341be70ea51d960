//===- EditDistance.h - Optimal string alignment distance -------*- C++ -*-===//
//
// For "did you mean": the fewest single-character insertions, deletions,
// substitutions and swaps of two adjacent characters that turn A into B
// (".glboal" is one edit from ".global", "selcet" one from "select"). The
// callers choose their own thresholds.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_SUPPORT_EDITDISTANCE_H
#define PTXLINT_SUPPORT_EDITDISTANCE_H

#include <algorithm>
#include <string_view>
#include <vector>

namespace ptxlint {

inline size_t editDistance(std::string_view A, std::string_view B) {
  std::vector<std::vector<size_t>> D(A.size() + 1, std::vector<size_t>(B.size() + 1));
  for (size_t I = 0; I <= A.size(); ++I)
    D[I][0] = I;
  for (size_t J = 0; J <= B.size(); ++J)
    D[0][J] = J;
  for (size_t I = 1; I <= A.size(); ++I)
    for (size_t J = 1; J <= B.size(); ++J) {
      D[I][J] = std::min({D[I - 1][J] + 1, D[I][J - 1] + 1,
                          D[I - 1][J - 1] + (A[I - 1] != B[J - 1])});
      if (I > 1 && J > 1 && A[I - 1] == B[J - 2] && A[I - 2] == B[J - 1])
        D[I][J] = std::min(D[I][J], D[I - 2][J - 2] + 1);
    }
  return D[A.size()][B.size()];
}

} // namespace ptxlint
#endif
