//===- FastLexer.cpp - Hand-written lexer feeding the ANTLR parser --------===//

#include "Parse/FastLexer.h"
#include "Support/CharClass.h"
#include "Support/TextHash.h"

#include "PtxStatementLexer.h"

#include <cstring>
#include <emmintrin.h>

using L = ptxlint_grammar::PtxStatementLexer;

namespace ptxlint {
namespace {

bool isHex(char C) {
  return isDigit(C) || (C >= 'a' && C <= 'f') || (C >= 'A' && C <= 'F');
}

/// The end of the run of WORD bytes (isWordChar) from P in T: 16 bytes per
/// test where 16 are left (the names of real modules are mangled, dozens of
/// bytes, and a byte per test was most of lexing a statement the memo had
/// not seen).
size_t wordEnd(std::string_view T, size_t P) {
  const size_t N = T.size();
  // V's bytes in [Lo, Hi]: one signed compare after a shift of the range to
  // the bottom of the signed bytes.
  auto InRange = [](__m128i V, char Lo, char Hi) {
    return _mm_cmplt_epi8(_mm_add_epi8(V, _mm_set1_epi8(char(-128 - Lo))),
                          _mm_set1_epi8(char(-128 + (Hi - Lo + 1))));
  };
  for (; P + 16 <= N; P += 16) {
    __m128i X = _mm_loadu_si128(reinterpret_cast<const __m128i *>(T.data() + P));
    __m128i Letter = InRange(_mm_or_si128(X, _mm_set1_epi8(0x20)), 'a', 'z');
    __m128i Word = _mm_or_si128(
        _mm_or_si128(Letter, InRange(X, '0', '9')),
        _mm_or_si128(_mm_cmpeq_epi8(X, _mm_set1_epi8('_')), _mm_cmpeq_epi8(X, _mm_set1_epi8('$'))));
    if (unsigned Other = ~unsigned(_mm_movemask_epi8(Word)) & 0xFFFFu)
      return P + unsigned(__builtin_ctz(Other));
  }
  while (P < N && isWordChar(T[P]))
    ++P;
  return P;
}

} // namespace

/// INT and FLOAT: the longest of all alternatives wins; on a tie FLOAT, which
/// the grammar declares first.
size_t FastLexer::lexNumber() {
  size_t S = P, N = T.size();
  size_t Digits = S;
  while (Digits < N && isDigit(T[Digits]))
    ++Digits;
  auto exponentEnd = [&](size_t Q) -> size_t { // 0 if no exponent at Q
    if (Q < N && (T[Q] == 'e' || T[Q] == 'E')) {
      size_t R = Q + 1;
      if (R < N && (T[R] == '+' || T[R] == '-'))
        ++R;
      size_t D = R;
      while (D < N && isDigit(T[D]))
        ++D;
      if (D > R)
        return D;
    }
    return 0;
  };
  size_t FloatEnd = 0, IntEnd = 0;
  // FLOAT: 0f + 8 hex, 0d + 16 hex
  if (T[S] == '0' && S + 1 < N) {
    char K = T[S + 1];
    size_t Want = (K == 'f' || K == 'F') ? 8 : (K == 'd' || K == 'D') ? 16 : 0;
    if (Want) {
      size_t H = S + 2;
      while (H < N && H - (S + 2) < Want && isHex(T[H]))
        ++H;
      if (H - (S + 2) == Want)
        FloatEnd = H;
    }
  }
  // FLOAT: DIGIT+ '.' DIGIT* EXPONENT?  |  DIGIT+ EXPONENT
  if (Digits < N && T[Digits] == '.') {
    size_t F = Digits + 1;
    while (F < N && isDigit(T[F]))
      ++F;
    if (size_t E = exponentEnd(F))
      F = E;
    FloatEnd = std::max(FloatEnd, F);
  } else if (size_t E = exponentEnd(Digits)) {
    FloatEnd = std::max(FloatEnd, E);
  }
  // INT: 0x HEX+ U? | 0b [01]+ U? | DIGIT+ U?
  IntEnd = Digits;
  if (T[S] == '0' && S + 1 < N && (T[S + 1] == 'x' || T[S + 1] == 'X')) {
    size_t H = S + 2;
    while (H < N && isHex(T[H]))
      ++H;
    if (H > S + 2)
      IntEnd = std::max(IntEnd, H < N && T[H] == 'U' ? H + 1 : H);
  }
  if (T[S] == '0' && S + 1 < N && (T[S + 1] == 'b' || T[S + 1] == 'B')) {
    size_t H = S + 2;
    while (H < N && (T[H] == '0' || T[H] == '1'))
      ++H;
    if (H > S + 2)
      IntEnd = std::max(IntEnd, H < N && T[H] == 'U' ? H + 1 : H);
  }
  if (Digits < N && T[Digits] == 'U')
    IntEnd = std::max(IntEnd, Digits + 1);
  if (FloatEnd >= IntEnd) {
    P = FloatEnd;
    return L::FLOAT;
  }
  P = IntEnd;
  return L::INT;
}

/// MODIFIER ('.' WORD ('::' WORD)*) or one of the keyword tokens, which win
/// a tie because the grammar declares them first.
size_t FastLexer::lexDotted() {
  size_t S = P, N = T.size();
  size_t Q = S + 1;
  if (Q >= N || !isWordChar(T[Q])) {
    P = S + 1;
    return L::OTHER;
  }
  Q = wordEnd(T, Q);
  while (Q + 2 < N && T[Q] == ':' && T[Q + 1] == ':' && isWordChar(T[Q + 2]))
    Q = wordEnd(T, Q + 2);
  P = Q;
  std::string_view W = T.substr(S, Q - S);
  switch (W.size()) { // most modifiers are none of the keywords' lengths
  case 5: return W == ".func" ? L::FUNC : L::MODIFIER;
  case 6: return W == ".entry" ? L::ENTRY : L::MODIFIER;
  case 7: return W == ".target" ? L::TARGET : L::MODIFIER;
  case 8: return W == ".version" ? L::VERSION : L::MODIFIER;
  case 13: return W == ".address_size" ? L::ADDRESS_SIZE : L::MODIFIER;
  default: return L::MODIFIER;
  }
}

namespace {

/// What a token's first byte starts: one table lookup and one switch per
/// token (a chain of tests before, which punctuation, half the tokens of an
/// operand list, went all the way down).
enum class Starts : uint8_t {
  Other,   ///< OTHER
  Blank,   ///< WS
  Slash,   ///< a comment, or SLASH
  Digit,   ///< INT or FLOAT
  Dot,     ///< MODIFIER or a keyword
  Percent, ///< PERCENT_OP ("%%") or an IDENT
  Ident,   ///< IDENT
  Quote,   ///< STRING, or OTHER when unterminated
  Angle,   ///< LT/SHL, GT/SHR
  Single,  ///< a one-byte token: TokenOf
};

struct StartTable {
  Starts Kind[256] = {};
  uint16_t TokenOf[256] = {};
  constexpr void single(char C, size_t Type) {
    Kind[uint8_t(C)] = Starts::Single;
    TokenOf[uint8_t(C)] = uint16_t(Type);
  }
  constexpr StartTable() {
    for (int C = 0; C < 256; ++C) {
      if (C == ' ' || C == '\t' || C == '\r' || C == '\n')
        Kind[C] = Starts::Blank;
      else if (C >= '0' && C <= '9')
        Kind[C] = Starts::Digit;
      else if ((C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_' || C == '$')
        Kind[C] = Starts::Ident;
    }
    Kind[uint8_t('/')] = Starts::Slash;
    Kind[uint8_t('.')] = Starts::Dot;
    Kind[uint8_t('%')] = Starts::Percent;
    Kind[uint8_t('"')] = Starts::Quote;
    Kind[uint8_t('<')] = Kind[uint8_t('>')] = Starts::Angle;
    single('@', L::AT);     single('!', L::BANG);   single(';', L::SEMI);
    single(',', L::COMMA);  single('[', L::LBRACK); single(']', L::RBRACK);
    single('{', L::LBRACE); single('}', L::RBRACE); single('(', L::LPAREN);
    single(')', L::RPAREN); single('+', L::PLUS);   single('-', L::MINUS);
    single('*', L::STAR);   single('&', L::AMP);    single('|', L::PIPE);
    single('^', L::CARET);  single('~', L::TILDE);  single('=', L::EQ);
    single(':', L::COLON);
  }
};
constexpr StartTable FirstByte;

} // namespace

// lexOne's body, inlined into lexAll's loop.
[[gnu::always_inline]] inline size_t FastLexer::lexToken(size_t &Begin) {
  size_t N = T.size();
  for (;;) {
    Begin = P;
    if (P >= N)
      return antlr4::Token::EOF;
    char C = T[P];
    switch (FirstByte.Kind[uint8_t(C)]) {
    case Starts::Blank: // WS
      ++P;
      continue;
    case Starts::Slash: // LINE_COMMENT, BLOCK_COMMENT (an unterminated /* is two OTHERs)
      if (P + 1 < N && T[P + 1] == '/') {
        while (P < N && T[P] != '\r' && T[P] != '\n')
          ++P;
        continue;
      }
      if (P + 1 < N && T[P + 1] == '*') {
        size_t E = T.find("*/", P + 2);
        if (E != std::string_view::npos) {
          P = E + 2;
          continue;
        }
      }
      ++P;
      return L::SLASH;
    case Starts::Digit:
      return lexNumber();
    case Starts::Dot:
      return lexDotted();
    case Starts::Percent:
      if (P + 1 < N && T[P + 1] == '%') {
        P += 2;
        return L::PERCENT_OP;
      }
      [[fallthrough]];
    case Starts::Ident:
      P = wordEnd(T, P + 1);
      return L::IDENT;
    case Starts::Quote: {
      size_t Q = P + 1;
      while (Q < N && T[Q] != '"' && T[Q] != '\r' && T[Q] != '\n') {
        if (T[Q] == '\\') {
          if (Q + 1 >= N)
            break;
          ++Q;
        }
        ++Q;
      }
      if (Q < N && T[Q] == '"') {
        P = Q + 1;
        return L::STRING;
      }
      ++P;
      return L::OTHER;
    }
    case Starts::Angle:
      ++P;
      if (P < N && T[P] == C) {
        ++P;
        return C == '<' ? L::SHL : L::SHR;
      }
      return C == '<' ? L::LT : L::GT;
    case Starts::Single:
      ++P;
      return FirstByte.TokenOf[uint8_t(C)];
    case Starts::Other:
      break;
    }
    ++P;
    return L::OTHER;
  }
}

size_t FastLexer::lexOne(size_t &Start) { return lexToken(Start); }

// Field by field into the vector: a Token built on the stack by a 2-byte
// and two 4-byte stores, then copied by an 8-byte load, stalled on the store
// forwarding (half of lexRest()'s time on async-dense code).
[[gnu::always_inline]] inline void FastLexer::append(std::vector<Token> &Out, size_t Type,
                                                     size_t Start) const {
  Token &T = Out.emplace_back();
  T.Type = uint16_t(Type);
  T.Start = uint32_t(Start);
  T.Stop = uint32_t(P - 1);
}

void FastLexer::lexAll(std::vector<Token> &Out) {
  Out.clear();
  lexRest(Out);
}

void FastLexer::lexRest(std::vector<Token> &Out) {
  for (;;) {
    size_t Start;
    size_t Type = lexToken(Start);
    if (Type == antlr4::Token::EOF)
      return;
    append(Out, Type, Start);
  }
}

uint32_t FastLexer::find(std::string_view Key, size_t Hash) const {
  size_t Mask = Slots.size() - 1;
  uint8_t Tag = uint8_t(uint64_t(Hash) >> 56);
  for (size_t S = Hash & Mask; Slots[S].Entry; S = (S + 1) & Mask) {
    const Slot &X = Slots[S];
    if (X.Tag == Tag && X.Size == Key.size() &&
        std::memcmp(Texts.data() + X.TextAt, Key.data(), Key.size()) == 0)
      return X.Entry - 1u;
  }
  return NoEntry;
}

bool FastLexer::recall(std::string_view Key, size_t Hash,
                       std::vector<Token> &Out) const {
  uint32_t X = find(Key, Hash);
  if (X == NoEntry)
    return false;
  const MemoEntry &E = Memo[X];
  Out.insert(Out.end(), Pool.begin() + E.First, Pool.begin() + E.First + E.Count);
  return true;
}

bool FastLexer::remember(std::string_view Key, size_t Hash,
                         const std::vector<Token> &Out, size_t From) {
  if (Memo.size() >= MaxMemo || From >= Out.size() || Key.size() > UINT8_MAX)
    return false;
  size_t Mask = Slots.size() - 1, S = Hash & Mask;
  while (Slots[S].Entry)
    S = (S + 1) & Mask;
  Memo.push_back({uint32_t(Pool.size()), uint32_t(Out.size() - From)});
  Pool.insert(Pool.end(), Out.begin() + From, Out.end());
  Slots[S] = {uint32_t(Texts.size()), uint16_t(Memo.size()), uint8_t(Key.size()),
              uint8_t(uint64_t(Hash) >> 56)};
  Texts.append(Key);
  return true;
}

uint32_t FastLexer::findStatement() {
  // Whole statements while they repeat: a lookup costs a hash and, when it
  // misses, a copy into the memo; a hit saves the lexing, and the parser
  // keeps its verdict and instruction by entry. It pays while enough of
  // the text is found (countLookup(); async-dense code: 89 % of its
  // statements are found), not where few texts repeat (FA3).
  Looked = true;
  Whole = T.size() <= MaxMemoText && lookUpWhole();
  WholeHash = Whole ? wholeHash() : 0;
  Found = NoEntry;
  if (Whole) {
    Found = find(T, WholeHash);
    countLookup(T.size(), Found != NoEntry);
  }
  return Found;
}

FastLexer::TokenView FastLexer::lexStatement(std::vector<Token> &Scratch, size_t HeadSize,
                                             uint32_t &Entry) {
  Entry = Looked ? Found : findStatement();
  Looked = false; // (a text remembered below is found by the next lookup)
  if (Entry != NoEntry) {
    P = T.size();
    return {Pool.data() + Memo[Entry].First, Memo[Entry].Count};
  }
  Scratch.clear();
  lexWithHead(Scratch, HeadSize);
  if (Whole && remember(T, WholeHash, Scratch, 0))
    Entry = uint32_t(Memo.size() - 1);
  return {Scratch.data(), Scratch.size()};
}

void FastLexer::prefetch(std::string_view Text) {
  if (Text.size() > MaxMemoText || !wholeMemoPays())
    return;
  size_t Hash = hashText(Text);
  __builtin_prefetch(&Slots[Hash & (Slots.size() - 1)]);
  Hashed[NextHashed] = {Text.data(), Text.size(), Hash};
  NextHashed ^= 1;
}

size_t FastLexer::wholeHash() const {
  for (const Ahead &A : Hashed)
    if (A.Data == T.data() && A.Size == T.size())
      return A.Hash;
  return hashText(T);
}

void FastLexer::lexAll(std::vector<Token> &Out, size_t HeadSize) {
  std::vector<Token> Scratch;
  uint32_t Entry;
  TokenView V = lexStatement(Scratch, HeadSize, Entry);
  Out.assign(V.begin(), V.end());
}

void FastLexer::lexWithHead(std::vector<Token> &Out, size_t HeadSize) {
  // Short heads ("add.s32", ".reg") lex faster than they hash.
  if (HeadSize >= 12 && HeadSize <= T.size()) {
    std::string_view Head = T.substr(0, HeadSize);
    size_t Hash = hashText(Head);
    if (recall(Head, Hash, Out)) {
      P = HeadSize;
    } else {
      lexHead(Out, HeadSize);
      remember(Head, Hash, Out, 0);
    }
  }
  lexRest(Out);
}

void FastLexer::lexHead(std::vector<Token> &Out, size_t HeadSize) {
  // The head's tokens are the whole text's: no IDENT or MODIFIER reads past
  // a byte that ends the head (neither a WORD byte nor ':'). A head with
  // another token (a number's exponent may read on) is not remembered.
  while (P < HeadSize) {
    size_t Start;
    size_t Type = lexToken(Start);
    if ((Type != L::IDENT && Type != L::MODIFIER) || P > HeadSize) {
      Out.clear(); // not remembered: the caller lexes from the start
      P = 0;
      return;
    }
    append(Out, Type, Start);
  }
}

std::unique_ptr<antlr4::Token> FastLexer::nextToken() {
  size_t Start;
  size_t Type = lexOne(Start);
  size_t Stop = Type == antlr4::Token::EOF ? Start - 1 : P - 1;
  auto Tok = std::make_unique<antlr4::CommonToken>(
      std::make_pair(static_cast<antlr4::TokenSource *>(this),
                     static_cast<antlr4::CharStream *>(nullptr)),
      Type, antlr4::Token::DEFAULT_CHANNEL, Start, Stop);
  Tok->setLine(1);
  Tok->setCharPositionInLine(Start);
  return Tok;
}

} // namespace ptxlint
