// The hand-written lexer must produce exactly the token stream of the ANTLR
// lexer generated from grammar/PtxStatement.g4: the grammar file stays the
// specification, FastLexer is only its fast implementation.
#include "Parse/FastLexer.h"
#include "Parse/Scanner.h"
#include "Parse/StatementFilter.h"

#include "PtxStatementLexer.h"

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ptxlint;

namespace {

std::vector<std::tuple<size_t, size_t, size_t>> antlrTokens(const std::string &S) {
  antlr4::ANTLRInputStream In(S);
  ptxlint_grammar::PtxStatementLexer L(&In);
  L.removeErrorListeners();
  std::vector<std::tuple<size_t, size_t, size_t>> Out;
  for (auto T = L.nextToken(); T->getType() != antlr4::Token::EOF; T = L.nextToken())
    Out.emplace_back(T->getType(), T->getStartIndex(), T->getStopIndex());
  return Out;
}

std::vector<std::tuple<size_t, size_t, size_t>> fastTokens(const std::string &S) {
  FastLexer L;
  L.reset(S);
  std::vector<std::tuple<size_t, size_t, size_t>> Out;
  for (auto T = L.nextToken(); T->getType() != antlr4::Token::EOF; T = L.nextToken())
    Out.emplace_back(T->getType(), T->getStartIndex(), T->getStopIndex());
  return Out;
}

/// A file's text and the module the scanner finds in it (M.Text views Text).
struct Scanned {
  std::string Text;
  Module M;
  explicit Scanned(const std::filesystem::path &P) {
    std::ifstream F(P, std::ios::binary);
    std::stringstream SS;
    SS << F.rdbuf();
    Text = SS.str();
    DiagnosticEngine D;
    scanModule(Text, M, D);
  }
};

bool isAscii(const std::string &S) {
  for (char C : S)
    if (static_cast<unsigned char>(C) >= 0x80)
      return false;
  return true;
}

} // namespace

TEST_CASE("FastLexer matches the ANTLR lexer on tricky inputs") {
  const char *Cases[] = {
      ".version 8.0", ".target sm_90a, debug", ".versionx .entry .func .funcs",
      "cp.async.bulk.shared::cluster.global [%r1+-16], [a], 0x10U, [m], 0b101U;",
      "mov.f32 %f1, 0f3F800000; mov.f64 %fd1, 0d3FF0000000000000; 0f3F80 1.5e3 1e5 2.",
      "a::b .a:: .a::b:: .L2::64B .2d ... . %% %r%%x << >> < > <<< >>>",
      "\"str\\\"ing\" \"unterminated", "/* c */ x // y\n z /* unterminated",
      "@!%p1 bra.uni $L__BB0_1; _ $x 9abc 0x 0b 0xfffffffffffffffffU",
      "call.uni (retval0), f, (p0, p1); {%r1, %r2} = ! # ` ~ ? \\ \x01",
  };
  for (const char *C : Cases) {
    CAPTURE(C);
    CHECK(fastTokens(C) == antlrTokens(C));
  }
}

TEST_CASE("FastLexer ends a word at every byte that is no WORD byte, 16 at a time or not") {
  // Names and modifiers are read 16 bytes per test where 16 are left: each
  // byte value, at each place of the first and second 16, after a word and
  // a dotted word, as in ANTLR.
  for (int C = 1; C < 128; ++C) // ANTLR counts code points, FastLexer bytes
    for (size_t At = 1; At < 34; ++At)
      for (const char *Start : {"_", ".", "a::"}) {
        std::string S = Start + std::string(40, 'b');
        S[std::strlen(Start) + At] = char(C);
        CAPTURE(S);
        CHECK(fastTokens(S) == antlrTokens(S));
      }
}

TEST_CASE("FastLexer matches the ANTLR lexer on every parsed corpus statement") {
  // ../shared/corpus, or the committed slice in a fresh clone (CMake picks).
  std::filesystem::path Root = PTXLINT_CORPUS_DIR;
  REQUIRE_MESSAGE(std::filesystem::exists(Root), Root.string() << " not found");
  size_t Compared = 0, Files = 0;
  for (auto &E : std::filesystem::recursive_directory_iterator(Root)) {
    if (E.path().extension() != ".ptx" || ++Files > 12)
      continue;
    Scanned File(E.path());
    const std::string &Text = File.Text;
    const Module &M = File.M;
    for (const Statement &S : M.Statements) {
      if (!needsFullParse(S, M.Text))
        continue;
      std::string St = Text.substr(S.Range.Begin, S.Range.End - S.Range.Begin);
      if (!isAscii(St))
        continue; // ANTLR counts code points, FastLexer bytes
      if (fastTokens(St) != antlrTokens(St)) {
        FAIL_CHECK("token streams differ for: " << St);
        return;
      }
      ++Compared;
    }
  }
  MESSAGE("compared " << Compared << " statements of " << Files << " files");
  // The shared corpus has thousands; the committed slice (6 files) dozens.
  CHECK(Compared > (Files > 12 ? 1000u : 40u));
}

namespace {
std::vector<std::tuple<size_t, size_t, size_t>> listed(const std::vector<FastLexer::Token> &Ts) {
  std::vector<std::tuple<size_t, size_t, size_t>> Out;
  for (const FastLexer::Token &T : Ts)
    Out.emplace_back(T.Type, T.Start, T.Stop);
  return Out;
}

/// Lexes St with Memo (its head HeadSize bytes) and without a memo: the
/// same tokens.
void requireSameTokens(FastLexer &Memo, const std::string &St, size_t HeadSize) {
  std::vector<FastLexer::Token> A, B;
  Memo.reset(St);
  Memo.lexAll(A, HeadSize);
  FastLexer Plain;
  Plain.reset(St);
  Plain.lexAll(B);
  CAPTURE(St);
  REQUIRE(listed(A) == listed(B));
}
} // namespace

TEST_CASE("FastLexer: a statement's head from the memo gives the tokens of the whole statement") {
  // The head as the scanner finds it at the start of every statement of the
  // tests and the corpus (each lexed twice: the second from the memo), and
  // heads that end inside a token or hold other tokens.
  std::vector<std::pair<std::string, size_t>> Cases = {
      {"cp.async.bulk.tensor.1d.shared::cta.global.tile [%r1], [%rd2, {%r3}];", 48},
      {"abcdefghijkl.def:5.e+3 x;", 19},     // COLON, then a FLOAT past the head
      {"abcdefghijkl::m.n::: x;", 20},       // '::' with no WORD after it
      {"%%abcdefghijkl.mm x;", 17},          // PERCENT_OP
      {"abcdefghijkl.entry.func x;", 23},    // keywords
      {"mbarrier.try_wait.parity.shared::cta.b64 p, [%r1], %r2;", 40},
  };
  for (const char *Dir : {PTXLINT_CORPUS_DIR, PTXLINT_SOURCE_DIR "/test"})
    for (auto &E : std::filesystem::recursive_directory_iterator(Dir)) {
      if (E.path().extension() != ".ptx")
        continue;
      Scanned File(E.path());
      for (const Statement &S : File.M.Statements)
        if (S.HeadBegin == S.Range.Begin && S.HeadSize)
          Cases.emplace_back(File.Text.substr(S.Range.Begin, S.Range.End - S.Range.Begin),
                             S.HeadSize);
    }
  FastLexer Memo;
  size_t FromMemo = 0;
  for (int Round = 0; Round < 2; ++Round)
    for (const auto &[St, HeadSize] : Cases) {
      requireSameTokens(Memo, St, HeadSize);
      FromMemo += Round == 1 && HeadSize >= 12;
    }
  CHECK(Cases.size() > 1000);
  CHECK(FromMemo > 100);
}

TEST_CASE("FastLexer: a repeated statement's tokens from the memo are its own") {
  const std::vector<std::pair<std::string, size_t>> Cases = {
      {"cp.async.bulk.tensor.1d.shared::cta.global.tile.mbarrier::complete_tx::bytes "
       "[%r23], [%rd9, {%r24}], [%r26];", 76},
      {"mbarrier.arrive.shared.b64                                  %rd10,  [%r26];", 26},
      {"add.s32 %r1, %r2, 0f3F800000;", 7},
      {"st.shared.u8 [_ZZ10asyncDenseILi1ELi4EEv9TensorMapPcPfiE4Smem_c0f0+1024], %rs2;", 12},
  };
  FastLexer Memo;
  for (int Round = 0; Round < 3; ++Round)
    for (const auto &[St, HeadSize] : Cases) {
      requireSameTokens(Memo, St, HeadSize);
      // Another statement after a remembered one starts afresh.
      requireSameTokens(Memo, St + " ", HeadSize);
    }
}
