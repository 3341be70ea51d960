//===- FastLexer.cpp - Hand-written lexer feeding the ANTLR parser --------===//

#include "Parse/FastLexer.h"
#include "Support/CharClass.h"

#include "PtxStatementLexer.h"

using L = ptxlint_grammar::PtxStatementLexer;

namespace ptxlint {
namespace {

bool isHex(char C) {
  return isDigit(C) || (C >= 'a' && C <= 'f') || (C >= 'A' && C <= 'F');
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
  while (Q < N && isWordChar(T[Q]))
    ++Q;
  while (Q + 2 < N && T[Q] == ':' && T[Q + 1] == ':' && isWordChar(T[Q + 2])) {
    Q += 2;
    while (Q < N && isWordChar(T[Q]))
      ++Q;
  }
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

// lexOne's body, inlined into lexAll's loop.
[[gnu::always_inline]] inline size_t FastLexer::lexToken(size_t &Start) {
  size_t N = T.size();
  // Skip WS, LINE_COMMENT, BLOCK_COMMENT (an unterminated /* is two OTHERs).
  while (P < N) {
    char C = T[P];
    if (C == ' ' || C == '\t' || C == '\r' || C == '\n') {
      ++P;
    } else if (C == '/' && P + 1 < N && T[P + 1] == '/') {
      while (P < N && T[P] != '\r' && T[P] != '\n')
        ++P;
    } else if (C == '/' && P + 1 < N && T[P + 1] == '*') {
      size_t E = T.find("*/", P + 2);
      if (E == std::string_view::npos)
        break;
      P = E + 2;
    } else {
      break;
    }
  }
  Start = P;
  if (P >= N)
    return antlr4::Token::EOF;
  char C = T[P];
  if (isDigit(C))
    return lexNumber();
  if (C == '.')
    return lexDotted();
  if (C == '%' && P + 1 < N && T[P + 1] == '%') {
    P += 2;
    return L::PERCENT_OP;
  }
  if (isIdentStart(C)) {
    ++P;
    while (P < N && isWordChar(T[P]))
      ++P;
    return L::IDENT;
  }
  if (C == '"') {
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
  ++P;
  switch (C) {
  case '@': return L::AT;
  case '!': return L::BANG;
  case ';': return L::SEMI;
  case ',': return L::COMMA;
  case '[': return L::LBRACK;
  case ']': return L::RBRACK;
  case '{': return L::LBRACE;
  case '}': return L::RBRACE;
  case '(': return L::LPAREN;
  case ')': return L::RPAREN;
  case '+': return L::PLUS;
  case '-': return L::MINUS;
  case '*': return L::STAR;
  case '/': return L::SLASH;
  case '&': return L::AMP;
  case '|': return L::PIPE;
  case '^': return L::CARET;
  case '~': return L::TILDE;
  case '=': return L::EQ;
  case ':': return L::COLON;
  case '<':
    if (P < N && T[P] == '<') {
      ++P;
      return L::SHL;
    }
    return L::LT;
  case '>':
    if (P < N && T[P] == '>') {
      ++P;
      return L::SHR;
    }
    return L::GT;
  default:
    return L::OTHER;
  }
}

size_t FastLexer::lexOne(size_t &Start) { return lexToken(Start); }

void FastLexer::lexAll(std::vector<Token> &Out) {
  Out.clear();
  for (;;) {
    size_t Start;
    size_t Type = lexToken(Start);
    if (Type == antlr4::Token::EOF)
      return;
    Out.push_back({uint16_t(Type), uint32_t(Start), uint32_t(P - 1)});
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
