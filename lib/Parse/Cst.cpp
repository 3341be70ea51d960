//===- Cst.cpp - ANTLR parse tree to compact CST --------------------------===//

#include "Parse/Cst.h"

#include "PtxStatementParser.h"

using P = ptxlint_grammar::PtxStatementParser;

namespace ptxlint {
namespace {

/// The CST kind of an ANTLR context: labelled alternatives first, since they
/// share their rule's index.
CstKind kindOf(antlr4::ParserRuleContext *C) {
#define KIND(Ctx, K)                                                           \
  if (dynamic_cast<P::Ctx *>(C))                                               \
    return CstKind::K;
  KIND(AddressOperandContext, AddressOperand)
  KIND(VectorOperandContext, VectorOperand)
  KIND(TupleOperandContext, TupleOperand)
  KIND(NegatedOperandContext, NegatedOperand)
  KIND(ExprOperandContext, ExprOperand)
  KIND(PrefixExprContext, PrefixExpr)
  KIND(ParenExprContext, ParenExpr)
  KIND(NameExprContext, NameExpr)
  KIND(IntExprContext, IntExpr)
  KIND(FloatExprContext, FloatExpr)
  KIND(VersionDirectiveContext, VersionDirective)
  KIND(TargetDirectiveContext, TargetDirective)
  KIND(AddressSizeDirectiveContext, AddressSizeDirective)
#undef KIND
  switch (C->getRuleIndex()) {
  case P::RuleInstructionStatement: return CstKind::InstructionStatement;
  case P::RuleGuard: return CstKind::Guard;
  case P::RuleModifier: return CstKind::Modifier;
  case P::RuleOperandList: return CstKind::OperandList;
  case P::RuleAddressBody: return CstKind::AddressBody;
  case P::RuleVectorElements: return CstKind::VectorElements;
  case P::RuleExpr: return CstKind::Expr;
  case P::RuleBinaryOp: return CstKind::BinaryOp;
  case P::RuleTargetName: return CstKind::TargetName;
  case P::RuleDeclarationStatement: return CstKind::DeclarationStatement;
  case P::RuleDeclSpecifier: return CstKind::DeclSpecifier;
  case P::RuleDeclarator: return CstKind::Declarator;
  case P::RuleInitializer: return CstKind::Initializer;
  case P::RuleFunctionHeader: return CstKind::FunctionHeader;
  case P::RuleParamList: return CstKind::ParamList;
  case P::RuleParam: return CstKind::Param;
  case P::RuleFunctionAttribute: return CstKind::FunctionAttribute;
  default: return CstKind::Other;
  }
}

uint32_t convert(Cst &Out, antlr4::tree::ParseTree *T) {
  uint32_t Index = uint32_t(Out.Nodes.size());
  Out.Nodes.push_back({});
  if (auto *Term = dynamic_cast<antlr4::tree::TerminalNode *>(T)) {
    antlr4::Token *Tok = Term->getSymbol();
    CstNode &N = Out.Nodes[Index];
    N.Kind = CstKind::Terminal;
    N.TokenType = uint16_t(Tok->getType());
    N.FirstToken = N.LastToken = uint32_t(Tok->getTokenIndex());
    return Index;
  }
  auto *Ctx = static_cast<antlr4::ParserRuleContext *>(T);
  std::vector<uint32_t> Kids;
  Kids.reserve(Ctx->children.size());
  for (antlr4::tree::ParseTree *Child : Ctx->children)
    Kids.push_back(convert(Out, Child));
  CstNode &N = Out.Nodes[Index];
  N.Kind = kindOf(Ctx);
  N.FirstToken = uint32_t(Ctx->getStart()->getTokenIndex());
  N.LastToken = Ctx->getStop() ? uint32_t(Ctx->getStop()->getTokenIndex())
                               : N.FirstToken - 1;
  N.ChildBegin = uint32_t(Out.Children.size());
  Out.Children.insert(Out.Children.end(), Kids.begin(), Kids.end());
  N.ChildEnd = uint32_t(Out.Children.size());
  return Index;
}

} // namespace

Cst Cst::fromParseTree(antlr4::ParserRuleContext *Tree) {
  Cst Out;
  Out.Root = convert(Out, Tree);
  return Out;
}

} // namespace ptxlint
