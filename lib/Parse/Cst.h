//===- Cst.h - A compact concrete syntax tree of one statement --*- C++ -*-===//
//
// The ANTLR parse tree converted to flat arrays that refer to tokens by index,
// never by text. Because the grammar has no semantic predicates, the tree
// depends only on the sequence of token types: a CST built for one statement
// is reused for every later statement with the same token-type sequence
// ("ld.shared.u32 %r5, [%r4+16];" and "ld.shared.b32 %r9, [%r2+8];" share
// one). That shape cache is what lets the ANTLR grammar stay the parser of
// record while a 400,000-line module parses in a fraction of ptxas's time.
//
//===----------------------------------------------------------------------===//
#ifndef PTXLINT_PARSE_CST_H
#define PTXLINT_PARSE_CST_H

#include <cstdint>
#include <vector>

namespace antlr4 {
class ParserRuleContext;
}

namespace ptxlint {

enum class CstKind : uint8_t {
  Terminal,
  InstructionStatement, Guard, Modifier, OperandList,
  AddressOperand, VectorOperand, TupleOperand, NegatedOperand, ExprOperand,
  AddressBody, VectorElements, Expr, BinaryOp,
  PrefixExpr, ParenExpr, NameExpr, IntExpr, FloatExpr,
  VersionDirective, TargetDirective, AddressSizeDirective, TargetName,
  DeclarationStatement, DeclSpecifier, Declarator, Initializer,
  FunctionHeader, ParamList, Param, FunctionAttribute,
  Other,
};

struct CstNode {
  CstKind Kind;
  uint16_t TokenType = 0;  ///< Terminal: the token type
  uint32_t FirstToken = 0; ///< inclusive token index
  uint32_t LastToken = 0;  ///< inclusive; LastToken < FirstToken if empty
  uint32_t ChildBegin = 0, ChildEnd = 0; ///< into Cst::Children
};

struct Cst {
  std::vector<CstNode> Nodes; ///< Nodes[Root] is the entry rule
  std::vector<uint32_t> Children;
  uint32_t Root = 0;

  /// Builds from an ANTLR tree whose tokens are indexed from 0.
  static Cst fromParseTree(antlr4::ParserRuleContext *Tree);
};

} // namespace ptxlint
#endif
