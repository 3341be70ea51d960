// StatementTable: a streaming lint drops the statements of the batches it
// has run (dropBefore), and the statements after them keep their indices
// and reuse the dropped ones' room.
#include "ptxlint/AST.h"

#include <doctest/doctest.h>

using namespace ptxlint;

namespace {
void add(StatementTable &T, uint32_t Begin) {
  Statement &S = T.emplace_back();
  S.Kind = StatementKind::Instruction;
  S.HeadSize = 1;
  S.Range = {Begin, Begin + 1};
  S.HeadBegin = Begin;
}
} // namespace

TEST_CASE("StatementTable: indices stay, dropped statements' room is reused") {
  StatementTable T;
  T.reserve(8);
  for (uint32_t K = 0; K < 6; ++K)
    add(T, 10 * K);
  const Statement *Room = T.begin();
  T.dropBefore(4);
  CHECK(T.size() == 6);
  CHECK(T.firstKept() == 4);
  CHECK(T[4].Range.Begin == 40);
  CHECK(T[5].Range.Begin == 50);
  CHECK(T.indexOf(T[5]) == 5);
  CHECK(T.end() - T.begin() == 2);
  // Six more fit where the first six were: no new room.
  for (uint32_t K = 6; K < 12; ++K)
    add(T, 10 * K);
  CHECK(T.begin() == Room);
  CHECK(T.capacity() == 8);
  CHECK(T.size() == 12);
  CHECK(T.back().Range.Begin == 110);
  CHECK(T[11].Range.Begin == 110);
  // Dropping before the first kept, or past the end, is no error.
  T.dropBefore(2);
  CHECK(T.firstKept() == 4);
  T.dropBefore(20);
  CHECK(T.firstKept() == 12);
  CHECK(T.size() == 12);
  add(T, 120);
  CHECK(T[12].Range.Begin == 120);
  CHECK(T.indexOf(T.back()) == 12);
}
