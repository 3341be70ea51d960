// Which instructions the scanner lists for a full parse (StatementFilter).
#include "Parse/StatementFilter.h"

#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>

using namespace ptxlint;

namespace {

/// Head's answer with the text ending right after it (fewer than 16 bytes
/// readable from a short head's start: the rows' loops answer) or with 64
/// more bytes after it (the 16-byte look and the hash answer).
bool askedAt(const std::string &Head, bool AtTextEnd) {
  const size_t Size = Head.size() + (AtTextEnd ? 0 : 64);
  std::unique_ptr<char[]> Text(new char[Size]);
  std::memset(Text.get(), ' ', Size);
  std::memcpy(Text.get(), Head.data(), Head.size());
  return headNeedsFullParse(StatementKind::Instruction, std::string_view(Text.get(), Head.size()),
                            Text.get() + Size);
}

bool asked(const std::string &Head) {
  bool Far = askedAt(Head, false);
  if (Head.size() < 16)
    CHECK_MESSAGE(askedAt(Head, true) == Far, Head);
  return Far;
}

} // namespace

TEST_CASE("parsed opcodes, their needles and near misses") {
  CHECK(asked("cp.async.bulk.tensor.2d.shared::cluster.global"));
  CHECK(asked("cp"));
  CHECK_FALSE(asked("cpx.async"));
  CHECK(asked("mbarrier.try_wait.parity.shared::cta.b64"));
  CHECK_FALSE(asked("mbarrierx.arrive"));
  CHECK(asked("stmatrix.sync.aligned.m8n8.x4.shared.b16"));
  CHECK(asked("createpolicy.fractional.L2::evict_last.b64"));
  CHECK_FALSE(asked("createpolicyx.fractional"));
  CHECK(asked("bra.uni"));
  CHECK(asked("ret"));
  CHECK_FALSE(asked("re"));
  CHECK_FALSE(asked("rem.u32"));
  CHECK_FALSE(asked("ex2.approx.f32"));
  // Needles: a qualifier that contains one, anywhere after the opcode word.
  CHECK(asked("st.shared.u32"));
  CHECK(asked("st.sharedx.u32"));
  CHECK(asked("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32"));
  CHECK(asked("st.global.shared"));
  CHECK_FALSE(asked("st.global.u32"));
  CHECK_FALSE(asked("st.shar"));
  CHECK_FALSE(asked("st"));
  CHECK_FALSE(asked("st.param.b64"));
  CHECK(asked("red.async.relaxed.cluster.shared::cluster.add.u32"));
  CHECK(asked("atom.shared::cta.add.u32"));
  CHECK_FALSE(asked("atom.global.add.u32"));
  CHECK_FALSE(asked("atom.async"));
  CHECK_FALSE(asked(""));
  CHECK_FALSE(asked(".shared"));
}

TEST_CASE("short heads get the same answer in the text's last 16 bytes as elsewhere") {
  const char *Words[] = {"cp",   "cpx",      "st",       "sts",      "stmatrix", "bar",
                         "bra",  "brx",      "brev",     "barrier",  "red",      "ret",
                         "rem",  "atom",     "exit",     "ex2",      "fence",    "call",
                         "mbarrier", "mbarrie", "mbarrierx", "createpo", "",      "ld"};
  const char *Quals[] = {".shared", ".async", ".sharedx", ".shar", ".u32", ".",
                         "::cta",   ":",      ".asyn",    "s",     ".global"};
  std::mt19937 R(7);
  for (int K = 0; K < 20000; ++K) {
    std::string Head = Words[R() % std::size(Words)];
    for (unsigned Q = R() % 3; Q > 0; --Q)
      Head += Quals[R() % std::size(Quals)];
    if (Head.size() < 16)
      asked(Head);
  }
}
