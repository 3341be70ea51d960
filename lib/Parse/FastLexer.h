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

private:
  size_t lexToken(size_t &Start);
  size_t lexNumber();
  size_t lexDotted();
  std::string_view T;
  size_t P = 0;
};

} // namespace ptxlint
#endif
