//===- StatementParser.h - ANTLR parse of one statement into AST -*- C++ -*-===//
//
// Wraps the ANTLR-generated PtxStatement parser. One StatementParser is reused
// for every statement of a module (lexer, token stream and parser are reset,
// not rebuilt), and parse trees are freed after each statement: memory stays
// bounded by the largest statement, not the module.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_PARSE_STATEMENTPARSER_H
#define PTXLINT_PARSE_STATEMENTPARSER_H

#include "ptxlint/AST.h"
#include "ptxlint/Diagnostic.h"

#include <memory>

namespace ptxlint {

class StatementParser {
public:
  /// With Direct false every instruction and declaration is built from its
  /// CST, none straight from its tokens: the tests compare the two ways.
  StatementParser(Module &M, DiagnosticEngine &Diags, bool Direct = true);
  ~StatementParser();

  /// Parses statement Index of M.Statements according to its kind and records
  /// the result in M. Returns false (after reporting S001) on a syntax error.
  bool parse(uint32_t Index);

  /// Starts loading what parse(Index) of an instruction looks up first,
  /// for a caller that knows the statement after the one it parses (see
  /// FastLexer::prefetch).
  void prefetch(uint32_t Index);
  /// Starts loading the text of statement Index, for a caller that knows a
  /// statement parse() will see two calls later (prefetch() then hashes it
  /// without waiting for it).
  void prefetchText(uint32_t Index);

  /// How many instructions were built straight from their tokens so far.
  size_t directlyBuilt() const;

private:
  struct Impl;
  std::unique_ptr<Impl> I;
};

/// Parses a PTX integer literal (decimal, 0x hex, 0b binary, leading-0 octal,
/// optional U suffix) as ptxas 13.0 reads it: Value is the literal modulo
/// 2^64, Wrapped (if given) says the literal is 2^64 or more, and Overflow is
/// ptxas's "Constant overflow" (see the definition). Returns false if it is
/// malformed.
bool parseIntegerLiteral(std::string_view Text, uint64_t &Value, bool &Overflow,
                         bool *Wrapped = nullptr);

} // namespace ptxlint
#endif
