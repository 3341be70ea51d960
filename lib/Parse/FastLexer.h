//===- FastLexer.h - Hand-written lexer feeding the ANTLR parser -*- C++ -*-===//
//
// Produces exactly the tokens of PtxStatement.g4's lexer rules (same token
// types, same longest-match and first-rule tie breaks) without ANTLR's lexer
// ATN simulation, which measured at half of all parse time. A unit test runs
// both lexers over every statement of the corpus and requires identical
// token streams, so the grammar file stays the specification.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_PARSE_FASTLEXER_H
#define PTXLINT_PARSE_FASTLEXER_H

#include "Support/ArrayView.h"
#include "antlr4-runtime.h"

#include <string>
#include <string_view>
#include <vector>

namespace ptxlint {

class FastLexer : public antlr4::TokenSource {
public:
  /// Text must outlive the lexer's use (tokens refer to it by offset only).
  void reset(std::string_view Text) {
    T = Text;
    P = 0;
    Looked = false;
  }

  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return 1; }
  size_t getCharPositionInLine() override { return P; }
  antlr4::CharStream *getInputStream() override { return nullptr; }
  std::string getSourceName() override { return "statement"; }
  antlr4::TokenFactory<antlr4::CommonToken> *getTokenFactory() override {
    return antlr4::CommonTokenFactory::DEFAULT.get();
  }

  /// Lexes one token at P: returns its type and advances P. Exposed for tests.
  size_t lexOne(size_t &Start);

  /// A token as offsets into the text; Stop is inclusive.
  struct Token {
    uint16_t Type;
    uint32_t Start, Stop;
  };
  /// Lexes the whole text (after reset()): replaces Out with its tokens.
  /// One call per statement, where a call per token cost the parser a tenth
  /// of its time in calls alone. (The shape key, the token types, is made
  /// from Out only where the parser needs it.)
  void lexAll(std::vector<Token> &Out);
  /// Tokens lexed by lexStatement(): valid until its next call.
  using TokenView = ArrayView<Token>;
  static constexpr uint32_t NoEntry = ~0u;
  /// As lexAll, for the text of one statement that starts with its head
  /// word of HeadSize bytes (as the scanner found it: no byte after it
  /// continues it), with a memo of tokens by text: of whole statements up
  /// to MaxMemoText bytes (async-dense code repeats its wrappers'
  /// statements, registers and all), while half the text looked up is found; else of
  /// heads of identifier and qualifiers (a module repeats a few dozen heads
  /// thousands of times, and "cp.async.bulk.tensor.1d.shared::cta.global.
  /// tile.mbarrier::complete_tx::bytes" is ten tokens). Tokens from the
  /// whole-statement memo are not copied: the view points into it; else
  /// into Scratch. Entry: the whole-statement memo entry of this text (the
  /// same for every statement of the same text, below MaxMemo), or NoEntry:
  /// the caller may keep what it derives from the tokens by entry.
  TokenView lexStatement(std::vector<Token> &Scratch, size_t HeadSize, uint32_t &Entry);
  /// lexStatement()'s first step alone: the whole-statement memo entry of
  /// the text (after reset()), NoEntry if none, for a caller that needs no
  /// tokens of a text it knows (the parser copies the instruction it built
  /// from one). A lexStatement() that follows makes no second lookup.
  uint32_t findStatement();
  /// Hashes Text, a statement's whole text to be lexed next, and starts
  /// loading its memo slot: lexStatement() on it then takes the hash from
  /// here and finds the slot in cache (on async-dense code the slot's load
  /// was a cache miss for most lookups; the statement parsed between hides
  /// it).
  void prefetch(std::string_view Text);
  /// lexStatement()'s tokens copied into Out (for tests).
  void lexAll(std::vector<Token> &Out, size_t HeadSize);

private:
  size_t lexToken(size_t &Start);
  size_t lexNumber();
  size_t lexDotted();
  /// lexAll() from the head memo.
  void lexWithHead(std::vector<Token> &Out, size_t HeadSize);
  /// Appends the token of Type from Start to P.
  void append(std::vector<Token> &Out, size_t Type, size_t Start) const;
  /// Appends the tokens from P to the end of the text.
  void lexRest(std::vector<Token> &Out);
  /// Lexes the head [0, HeadSize) into Out by token; empties Out (and
  /// resets P) unless it is all IDENT and MODIFIER tokens.
  void lexHead(std::vector<Token> &Out, size_t HeadSize);
  std::string_view T;
  size_t P = 0;

  /// Texts lexed before (heads and whole statements): open addressing over
  /// Memo, their tokens a run of Pool, their text a run of Texts. At most
  /// MaxMemo are kept. A slot holds what a lookup compares (a byte of the
  /// hash, the text's place and size): a lookup reads its slots and the
  /// text, not an entry in between (each a cache miss of its own on
  /// async-dense code, whose memo is megabytes with the parser's copies).
  struct MemoEntry {
    uint32_t First, Count;
  };
  struct Slot {
    uint32_t TextAt = 0; ///< in Texts
    uint16_t Entry = 0;  ///< index + 1 in Memo; 0: empty
    uint8_t Size = 0;    ///< of the text (a longer one is not remembered)
    uint8_t Tag = 0;     ///< the hash's top byte
  };
  static constexpr size_t MaxMemo = 4096, MaxMemoText = 160;
  static_assert(MaxMemo < 65536 && MaxMemoText <= 255, "a Slot's fields");
  std::vector<MemoEntry> Memo;
  std::vector<Slot> Slots = std::vector<Slot>(2 * MaxMemo);
  std::string Texts;
  std::vector<Token> Pool;
  /// Whole lookups are on while the text found is at least a quarter of
  /// the text looked up, counted from the first 1024 lookups on (in the
  /// order a lint parses: CUTLASS 77 finds 32 % of its first 1024, FA3 18 %
  /// of its, async-dense 50 %, and more later; a miss costs a copy into the
  /// memo, a hit saves the lexing and lets the parser, the checker and the
  /// flow pass reuse what they made of the text). While off, one short
  /// statement in 16 is still looked up, and lookups come back on where half
  /// the text of 64 or more of those is found. So a stretch of new texts
  /// does not turn the memo off for good: a lint that runs each batch of
  /// functions behind the scan meets a module's first kernels, each new,
  /// first.
  bool On = true;
  uint32_t Skipped = 0;
  size_t WholeLookups = 0, LookedBytes = 0, HitBytes = 0;
  /// Whether whole statements are looked up (see lexStatement()).
  bool wholeMemoPays() const { return On; }
  /// For a short statement about to be lexed: whether to look it up.
  bool lookUpWhole() { return On || (++Skipped & 15) == 0; }
  /// Counts a whole lookup of Bytes, found or not, and turns lookups on or
  /// off.
  void countLookup(size_t Bytes, bool Hit) {
    LookedBytes += Bytes;
    HitBytes += Hit ? Bytes : 0;
    if (++WholeLookups % 64)
      return; // judged every 64 lookups
    bool Flip = On ? WholeLookups >= 1024 && 4 * HitBytes < LookedBytes
                   : 2 * HitBytes >= LookedBytes;
    if (Flip || (!On && WholeLookups >= 256)) { // a new count, of the text ahead
      On = On != Flip;
      WholeLookups = LookedBytes = HitBytes = 0;
    }
  }
  /// The last two texts prefetch() hashed, by their place in the text: the
  /// statement being lexed and the one after it, hashed a call earlier.
  struct Ahead {
    const char *Data = nullptr;
    size_t Size = 0, Hash = 0;
  };
  Ahead Hashed[2];
  unsigned NextHashed = 0;
  /// What findStatement() found of T, since reset(): whether whole
  /// statements are looked up, T's hash if so, and its entry.
  bool Looked = false, Whole = false;
  size_t WholeHash = 0;
  uint32_t Found = NoEntry;
  /// The hash of the whole text T, from prefetch() if it hashed it.
  size_t wholeHash() const;
  /// Key's entry in Memo, or NoEntry.
  uint32_t find(std::string_view Key, size_t Hash) const;
  /// Appends Key's remembered tokens to Out and returns true, if there are.
  bool recall(std::string_view Key, size_t Hash, std::vector<Token> &Out) const;
  /// Remembers Out[From, end) as Key's tokens (Key not remembered yet), as
  /// Memo's last entry: false if the memo is full (or nothing to keep).
  bool remember(std::string_view Key, size_t Hash, const std::vector<Token> &Out,
                size_t From);
};

} // namespace ptxlint
#endif
