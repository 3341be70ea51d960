//===- StatementParser.cpp - ANTLR parse of one statement into AST -------===//

#include "Parse/StatementParser.h"

#include "Parse/Cst.h"
#include "Parse/FastLexer.h"
#include "Parse/Scanner.h"

#include "ptxlint/RuleRegistry.h"

#include "PtxStatementLexer.h"
#include "PtxStatementParser.h"
#include "antlr4-runtime.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <charconv>
#include <unordered_map>

using namespace ptxlint_grammar;

namespace ptxlint {

bool parseIntegerLiteral(std::string_view S, uint64_t &Value, bool &Overflow,
                         bool *Wrapped) {
  Overflow = false;
  Value = 0;
  bool Wide = false;
  if (!S.empty() && (S.back() == 'U' || S.back() == 'u'))
    S.remove_suffix(1);
  if (S.empty())
    return false;
  unsigned Base = 10;
  if (S.size() > 2 && S[0] == '0' && (S[1] == 'x' || S[1] == 'X')) {
    Base = 16;
    S.remove_prefix(2);
  } else if (S.size() > 2 && S[0] == '0' && (S[1] == 'b' || S[1] == 'B')) {
    Base = 2;
    S.remove_prefix(2);
  } else if (S.size() > 1 && S[0] == '0') {
    Base = 8;
    S.remove_prefix(1);
  }
  for (char C : S) {
    unsigned D;
    if (C >= '0' && C <= '9')
      D = unsigned(C - '0');
    else if (C >= 'a' && C <= 'f')
      D = unsigned(C - 'a' + 10);
    else if (C >= 'A' && C <= 'F')
      D = unsigned(C - 'A' + 10);
    else
      return false;
    if (D >= Base)
      return false;
    // ptxas 13.0 accumulates modulo 2^64 and says "Constant overflow" when
    // the value read so far has its top bit set before another digit: so
    // 2^64+16 is accepted (as 16) and 2^70 is not, and which literals
    // between pass depends on their digits (matched ptxas on 500 random ones).
    if (Value >> 63)
      Overflow = true;
    // Value * Base + D past 2^64 (a division per digit to tell first cost
    // more than the rest of a literal's reading).
    uint64_t Scaled;
    Wide |= __builtin_mul_overflow(Value, uint64_t(Base), &Scaled);
    Wide |= __builtin_add_overflow(Scaled, uint64_t(D), &Value);
  }
  if (Wrapped)
    *Wrapped = Wide;
  return true;
}

namespace {

std::string inQuotes(std::string_view S) { return "'" + std::string(S) + "'"; }

/// Turns ANTLR's expectation sets into a compiler-style message.
class ErrorCollector : public antlr4::BaseErrorListener {
public:
  bool HasError = false;
  std::string Message;
  size_t TokenStart = 0, TokenStop = 0; ///< char indices in the statement
  bool AtEnd = false;
  const std::string *Source = nullptr; ///< the statement text being parsed

  void syntaxError(antlr4::Recognizer *R, antlr4::Token *Off, size_t, size_t,
                   const std::string &, std::exception_ptr) override {
    if (HasError)
      return; // the first error of a statement is the useful one
    HasError = true;
    auto *P = dynamic_cast<antlr4::Parser *>(R);
    if (!Off || !P) {
      Message = "invalid token";
      return;
    }
    AtEnd = Off->getType() == antlr4::Token::EOF;
    TokenStart = Off->getStartIndex();
    TokenStop = Off->getStopIndex();
    antlr4::misc::IntervalSet Exp = P->getExpectedTokens();
    Message = describe(Exp, Off, tokenText(Off));
  }

private:
  static bool has(const antlr4::misc::IntervalSet &S, ssize_t Type) {
    return S.contains(size_t(Type));
  }
  std::string tokenText(antlr4::Token *Tok) const {
    if (!Source || Tok->getType() == antlr4::Token::EOF ||
        Tok->getStartIndex() >= Source->size())
      return "";
    return Source->substr(Tok->getStartIndex(),
                          Tok->getStopIndex() - Tok->getStartIndex() + 1);
  }

  static std::string describe(const antlr4::misc::IntervalSet &Exp,
                              antlr4::Token *Off, const std::string &Text) {
    std::string Got = Off->getType() == antlr4::Token::EOF
                          ? std::string("end of statement")
                          : "'" + Text + "'";
    if (Off->getType() == PtxStatementLexer::OTHER) {
      unsigned char C = Text.empty() ? 0 : static_cast<unsigned char>(Text[0]);
      if (C < 0x20 || C >= 0x7f)
        return "invalid character in statement";
      return "unexpected character " + Got;
    }
    if (has(Exp, PtxStatementLexer::RBRACK))
      return "expected ']' after address, found " + Got;
    if (has(Exp, PtxStatementLexer::RBRACE))
      return "expected '}' to close the vector, found " + Got;
    if (has(Exp, PtxStatementLexer::RPAREN))
      return "expected ')', found " + Got;
    if (has(Exp, PtxStatementLexer::GT))
      return "expected '>' after register count, found " + Got;
    if (has(Exp, PtxStatementLexer::SEMI) &&
        Off->getType() != antlr4::Token::EOF)
      return "expected ',' or ';' after operand, found " + Got;
    if (has(Exp, PtxStatementLexer::SEMI))
      return "expected ';', found " + Got;
    if (has(Exp, PtxStatementLexer::IDENT) &&
        has(Exp, PtxStatementLexer::INT))
      return "expected an operand, found " + Got;
    if (has(Exp, PtxStatementLexer::FLOAT))
      return "expected a version number such as 8.0, found " + Got;
    if (has(Exp, PtxStatementLexer::INT))
      return "expected an integer, found " + Got;
    if (has(Exp, PtxStatementLexer::IDENT))
      return "expected a name, found " + Got;
    if (has(Exp, PtxStatementLexer::MODIFIER))
      return "expected a qualifier such as '.b32', found " + Got;
    if (has(Exp, antlr4::Token::EOF))
      return "unexpected " + Got + " after the end of the statement";
    return "unexpected " + Got;
  }
};

} // namespace

/// Ends the parse at the first syntax error (after the listener has seen it)
/// and skips ANTLR's per-loop resynchronisation, which only matters for
/// recovery: a statement with an error is reported once and not built.
class FirstErrorStrategy : public antlr4::DefaultErrorStrategy {
public:
  void sync(antlr4::Parser *) override {}
  void recover(antlr4::Parser *, std::exception_ptr) override {
    throw antlr4::ParseCancellationException();
  }
  antlr4::Token *recoverInline(antlr4::Parser *Recognizer) override {
    antlr4::InputMismatchException E(Recognizer);
    reportError(Recognizer, E);
    throw antlr4::ParseCancellationException();
  }
};

namespace {
class FlatEvaluator; // the value of a flat constant expression (below)
} // namespace

/// One lexed token: type and inclusive byte range within the statement.
using Tok = FastLexer::Token;

enum class EntryRule : char { Instruction = 'I', Directive = 'D', Declaration = 'd', Header = 'H' };

struct StatementParser::Impl {
  Module &M;
  DiagnosticEngine &Diags;
  FastLexer Lexer;
  antlr4::CommonTokenStream Tokens;
  PtxStatementParser Parser;
  ErrorCollector Errors;
  uint32_t Base = 0;   ///< byte offset of the statement in the buffer
  std::string Scratch; ///< the statement text handed to ANTLR (a miss)
  FunctionCursor Functions{M}; ///< a declaration's function
  std::vector<Tok> Lexed; ///< the tokens, where not the lexer memo's
  FastLexer::TokenView Toks; ///< the statement's tokens
  /// The lexer's memo entry of the statement text (FastLexer::NoEntry: none).
  uint32_t Entry = FastLexer::NoEntry;
  /// Instruction::TextId of the statement: its text's memo entry + 1.
  uint32_t textId() const { return Entry == FastLexer::NoEntry ? 0 : Entry + 1; }
  std::string Key;     ///< entry rule + token types: the shape cache key
  /// The shape cache is a pure memo of a deterministic function (token types
  /// to tree), kept per thread so that repeated lint calls, e.g. a JIT
  /// validating one instruction at a time, skip ANTLR after the first time a
  /// shape is seen, without any locking between threads.
  static std::unordered_map<std::string, Cst> &shapes() {
    thread_local std::unordered_map<std::string, Cst> Cache;
    return Cache;
  }
  std::unordered_map<std::string, Cst> &Shapes = shapes();
  const Cst *Tree = nullptr;

  /// Whether the statement's brackets nest deeper than the scanner lets a
  /// parsed statement nest: never for a statement as scanned. Mapped text
  /// (see readInput) written while it is linted may no longer be what the
  /// scanner saw; this keeps ANTLR's recursion bounded then (the driver
  /// drops that lint's result).
  bool nestedTooDeep() const {
    using L = PtxStatementLexer;
    uint32_t Depth = 0;
    for (const Tok &T : Toks)
      if (T.Type == L::LPAREN || T.Type == L::LBRACK || T.Type == L::LBRACE) {
        if (++Depth > ScanLimits().MaxStatementNesting)
          return true;
      } else if ((T.Type == L::RPAREN || T.Type == L::RBRACK || T.Type == L::RBRACE) &&
                 Depth > 0) {
        --Depth;
      }
    return false;
  }
  size_t ShapeHits = 0, ShapeMisses = 0, DirectlyBuilt = 0;

  static constexpr size_t MaxShapes = 1 << 16;
  static constexpr size_t MaxCachedTokens = 4096;

  Impl(Module &M, DiagnosticEngine &Diags)
      : M(M), Diags(Diags), Tokens(&Lexer), Parser(&Tokens) {
    Parser.removeErrorListeners();
    Parser.addErrorListener(&Errors);
    Parser.setErrorHandler(std::make_shared<FirstErrorStrategy>());
    // Statements are small and the grammar is SLL: skip full-context retries.
    Parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::SLL);
  }

  // --- tokens and the shape cache ---------------------------------------------
  /// Lexes the statement the lexer was reset() to, at Offset, into Toks.
  /// HeadSize: the statement's head word, when the statement starts with it.
  void lex(uint32_t Offset, size_t HeadSize = 0) {
    Base = Offset;
    Toks = Lexer.lexStatement(Lexed, HeadSize, Entry);
  }

  /// Finds (or builds with ANTLR) the CST of the statement lex() read.
  bool parseShape(std::string_view StatementText, EntryRule R) {
    Key.resize(Toks.size() + 1);
    Key[0] = char(R);
    for (size_t K = 0; K < Toks.size(); ++K)
      Key[K + 1] = char(Toks[K].Type);
    auto It = Shapes.find(Key);
    if (It != Shapes.end()) {
      ++ShapeHits;
      Tree = &It->second;
      return true;
    }
    ++ShapeMisses;
    Parser.getTreeTracker().reset(); // free the previous statement's tree
    Scratch.assign(StatementText);
    Lexer.reset(Scratch);
    Tokens.setTokenSource(&Lexer);
    Parser.setTokenStream(&Tokens);
    Errors = ErrorCollector();
    Errors.Source = &Scratch;
    antlr4::ParserRuleContext *Ctx = nullptr;
    try {
      switch (R) {
      case EntryRule::Instruction: Ctx = Parser.instructionStatement(); break;
      case EntryRule::Directive: Ctx = Parser.directiveStatement(); break;
      case EntryRule::Declaration: Ctx = Parser.declarationStatement(); break;
      case EntryRule::Header: Ctx = Parser.functionHeader(); break;
      }
    } catch (const antlr4::ParseCancellationException &) {
      // the first error was reported to Errors
    }
    if (reportIfError() || !Ctx)
      return false;
    Cst Built = Cst::fromParseTree(Ctx);
    if (Shapes.size() < MaxShapes && Toks.size() <= MaxCachedTokens) {
      Tree = &Shapes.emplace(Key, std::move(Built)).first->second;
    } else {
      Uncached = std::move(Built);
      Tree = &Uncached;
    }
    return true;
  }
  Cst Uncached;

  bool reportIfError() {
    if (!Errors.HasError)
      return false;
    uint32_t B = Base + uint32_t(Errors.TokenStart);
    uint32_t E = Base + uint32_t(Errors.TokenStop + 1);
    if (Errors.AtEnd || E < B)
      E = B;
    if (B > M.Text.size())
      B = E = uint32_t(M.Text.size());
    DiagBuilder(Diags, rules::SyntaxError, {B, E},
                Errors.Message);
    return true;
  }

  // --- CST navigation ----------------------------------------------------------
  const CstNode &node(uint32_t I) const { return Tree->Nodes[I]; }
  template <typename Fn> void forChildren(uint32_t I, Fn F) const {
    const CstNode &N = node(I);
    for (uint32_t K = N.ChildBegin; K < N.ChildEnd; ++K)
      F(Tree->Children[K]);
  }
  /// The first child of kind K (or terminal of token type T); ~0u if none.
  uint32_t child(uint32_t I, CstKind K, size_t TokenType = 0) const {
    const CstNode &N = node(I);
    for (uint32_t C = N.ChildBegin; C < N.ChildEnd; ++C) {
      const CstNode &X = node(Tree->Children[C]);
      if (X.Kind == K && (K != CstKind::Terminal || X.TokenType == TokenType))
        return Tree->Children[C];
    }
    return ~0u;
  }
  /// How many children of I satisfy Pred: the exact size of what is built
  /// from them, so the AST's vectors are allocated once at the size they
  /// keep (the AST of an async-dense module is most of its memory).
  template <typename Pred> uint32_t countChildren(uint32_t I, Pred P) const {
    uint32_t N = 0;
    forChildren(I, [&](uint32_t C) { N += P(node(C).Kind); });
    return N;
  }
  /// Children that are not tokens: operands, vector elements.
  uint32_t countNodes(uint32_t I) const {
    return countChildren(I, [](CstKind K) { return K != CstKind::Terminal; });
  }
  std::vector<uint32_t> children(uint32_t I, CstKind K, size_t TokenType = 0) const {
    std::vector<uint32_t> Out;
    forChildren(I, [&](uint32_t C) {
      const CstNode &X = node(C);
      if (X.Kind == K && (K != CstKind::Terminal || X.TokenType == TokenType))
        Out.push_back(C);
    });
    return Out;
  }
  SourceRange range(uint32_t I) const {
    const CstNode &N = node(I);
    if (N.LastToken < N.FirstToken || N.FirstToken >= Toks.size())
      return {Base, Base};
    return {Base + Toks[N.FirstToken].Start, Base + Toks[N.LastToken].Stop + 1};
  }
  std::string_view text(SourceRange R) const {
    return M.Text.substr(R.Begin, R.End - R.Begin);
  }
  std::string_view text(uint32_t I) const { return text(range(I)); }
  uint64_t intValue(uint32_t I, bool &Overflow) const {
    uint64_t V = 0;
    Overflow = false;
    parseIntegerLiteral(text(I), V, Overflow);
    return V;
  }

  // --- AST building ----------------------------------------------------------
  // Two builders make the same AST: the CST walk (any statement ANTLR
  // parsed) and the direct builder (instructions in the common subset of
  // the grammar, read straight from the tokens). What an operand means is
  // decided once, in the helpers both call.
  SourceRange tokenRange(uint32_t First, uint32_t Last) const {
    return {Base + Toks[First].Start, Base + Toks[Last].Stop + 1};
  }
  std::string_view tokenText(uint32_t T) const { return text(tokenRange(T, T)); }
  void judgeInteger(Operand &O);
  static void nameOperand(Operand &O, std::string_view Name, std::string_view Component);
  static Operand prefixed(size_t Op, Operand Inner, Operand Whole);
  bool onlyIntegers(uint32_t FirstToken, uint32_t LastToken) const;
  void badAddress(SourceRange Expr, std::string Msg);
  /// Begin: where Out, the address, begins (its '[').
  void placeAddressBase(Operand &Out, Operand Base, const Operand &Off, SourceRange Expr,
                        uint32_t Begin);
  Operand flatOperand(FlatEvaluator &Eval, SourceRange Range);
  /// Set by badAddress: the instruction is dropped, as on a syntax error.
  bool AddressError = false;
  /// Makes the instruction of statement S; the builders fill its parts.
  Instruction &startInstruction(Statement &S);
  /// I's guard, new in the arena, for the builder to fill in.
  Operand &newGuard(Instruction &I) {
    auto *G = new (M.Nodes.allocate(sizeof(Operand))) Operand();
    I.Guard = G;
    return *G;
  }
  bool finishInstruction(Statement &S);

  // The CST walk.
  Operand buildExpr(uint32_t I);
  Operand buildFlat(const uint32_t *Kids, uint32_t N);
  Operand buildUnary(uint32_t I);
  Operand buildOperand(uint32_t I);
  void buildAddress(uint32_t Body, Operand &Out);
  bool parseInstruction(Statement &S);
  bool parseDirective(Statement &S);
  bool parseDeclaration(Statement &S);
  bool parseFunctionHeader(Statement &S);
  Symbol declareFrom(uint32_t Owner, uint32_t Declarator, int32_t Function);
  static void applySpecifier(Symbol &Sym, std::string_view W, std::string_view Int);
  void applyDeclarator(Symbol &Sym, SourceRange Range, std::string_view Name, bool HasCount,
                       bool IsArray, const std::string_view *Ints, uint32_t NumInts);
  bool declareDirect(Statement &S);
  /// The symbol of the declarator of tokens [Name, End), with the
  /// specifiers (MODIFIER INT?) of tokens [Specifiers, SpecifiersEnd), as
  /// declareFrom() makes it from the CST.
  Symbol declareTokens(size_t Specifiers, size_t SpecifiersEnd, size_t Name, size_t End,
                       int32_t Function);
  bool headerDirect(Statement &S);
  /// The function whose header is statement Header, null if none.
  Function *functionOf(const Statement &Header);

  // The direct builder (see "the direct builder" below).
  bool Direct = true; ///< instructions, declarations and headers from their tokens where they can
  bool recogniseDirect();
  bool buildDirect(Statement &S);
  // Each fills Out, a new operand, in place (most are list elements).
  void directOperand(uint32_t &P, Operand &Out);
  void directFlat(uint32_t &P, Operand &Out);
  void directUnary(uint32_t &P, Operand &Out);
  void directAddress(uint32_t &P, Operand &Out);
  /// The item counts of the lists of the statement recogniseDirect()
  /// accepted, in the order they open; the next one to use.
  std::vector<uint32_t> ListSizes;
  const uint32_t *NextList = nullptr;
  uint32_t nextListSize() { return *NextList++; }
  /// What is known of the statements of one lexer memo entry (one text,
  /// so the same tokens, the same verdict of recogniseDirect() and the same
  /// instruction but for where it is).
  struct EntryState {
    /// recogniseDirect()'s verdict: the first of the entry's list sizes in
    /// KnownSizes, Declined, or Unknown.
    uint32_t Sizes = Unknown;
    uint32_t Built = 0;    ///< instructions built directly from its tokens
    /// A declaration's symbols, declared from its first statement: Symbols
    /// of M.Symbols from FirstSymbol (0: not yet), that statement at
    /// DeclaredAt.
    uint32_t FirstSymbol = 0, Symbols = 0, DeclaredAt = 0;
  };
  static constexpr uint32_t Unknown = ~0u, Declined = ~0u - 1;
  std::vector<EntryState> Entries;
  /// The state of the statement's memo entry, null if none.
  EntryState *entryState() {
    if (Entry == FastLexer::NoEntry)
      return nullptr;
    if (Entry >= Entries.size())
      Entries.resize(Entry + 1);
    return &Entries[Entry];
  }
  /// declareDirect(), or for a text declared before, a copy of the symbols
  /// it declared (moved to this statement, in its function).
  bool declareOrCopy(Statement &S);
  std::vector<uint32_t> KnownSizes;
  /// An instruction built from the tokens of an entry's second statement,
  /// for its later ones (async-dense code repeats its wrappers' statements,
  /// registers and all), which share its lists (Instruction::Shift). Its
  /// lists are one block of their own in M.SharedNodes, which outlives the
  /// batch's M.Nodes.
  std::vector<Instruction> Templates;
  /// By lexer memo entry: its template in Templates, -1 if none. Apart
  /// from Entries: a copy reads this and its template, nothing else of
  /// what the parser knows (4 bytes an entry, in cache).
  std::vector<int32_t> TemplateOf;
  /// Diagnostics reported by the direct builder so far (an instruction
  /// that reported any is not copied: its copies would report nothing).
  size_t DirectReports = 0;
  /// Builds statement S straight from its tokens, and keeps the
  /// instruction as its entry's template at the entry's second statement.
  bool buildAndKeep(Statement &S);
  void keepTemplate(const Instruction &I);
  /// For an instruction whose text has a template: a copy of it, found by
  /// the text alone (no tokens, no recogniser); false, having done nothing,
  /// for any other.
  bool copyKnown(Statement &S);
  bool copyTemplate(Statement &S, const Instruction &T);
};

// --- what an operand means (both builders) -------------------------------------

/// An integer literal: its value as ptxas 13.0 reads it. Every literal of an
/// instruction passes here once: ptxas's verdict on it is reported here,
/// whatever operand it is part of.
void StatementParser::Impl::judgeInteger(Operand &O) {
  O.Kind = OperandKind::Immediate;
  uint64_t V;
  bool Overflow, Wrapped;
  if (!parseIntegerLiteral(O.Text, V, Overflow, &Wrapped))
    return;
  O.HasValue = !Overflow;
  O.Overflow = Overflow;
  O.Value = int64_t(V);
  DirectReports += Overflow || Wrapped;
  if (Overflow)
    DiagBuilder(Diags, rules::OperandValue, O.ViewRange,
                inQuotes(O.Text) + " overflows: ptxas 13.0 rejects it "
                                   "(\"Constant overflow\")");
  else if (Wrapped)
    DiagBuilder(Diags, rules::ImmediateTooWide, O.ViewRange,
                inQuotes(O.Text) + " is 2^64 or more; ptxas 13.0 takes it modulo "
                                   "2^64, as " + std::to_string(V));
}

/// A name, with the component a special register may carry ("%tid" ".x").
void StatementParser::Impl::nameOperand(Operand &O, std::string_view Name,
                                        std::string_view Component) {
  O.Name = Name;
  // The component is the last token of the operand (parsed statements are
  // under 64 KB: ScanLimits::MaxParsedStatementBytes).
  assert(Component.empty() || Component.data() + Component.size() == O.Text.data() + O.Text.size());
  O.ComponentSize = uint16_t(Component.size());
  if (Name == "_")
    O.Kind = OperandKind::Sink;
  else if (Name[0] == '%')
    O.Kind = OperandKind::Register;
  else
    O.Kind = OperandKind::Symbol; // the symbol table may say it is a .reg
}

/// -x, +x, ~x, !x over Inner: a constant stays one (with Whole's range and
/// text), as does a signed float; anything else is Whole, an expression.
Operand StatementParser::Impl::prefixed(size_t Op, Operand Inner, Operand Whole) {
  uint64_t V = uint64_t(Inner.Value);
  if (Inner.Kind == OperandKind::Immediate)
    Inner.Value = int64_t(Op == PtxStatementLexer::MINUS   ? 0 - V
                          : Op == PtxStatementLexer::TILDE ? ~V
                          : Op == PtxStatementLexer::BANG  ? uint64_t(V == 0)
                                                           : V);
  else if (Inner.Kind != OperandKind::FloatImm ||
           (Op != PtxStatementLexer::MINUS && Op != PtxStatementLexer::PLUS)) {
    Whole.Kind = OperandKind::Expr;
    return Whole;
  }
  Inner.ViewRange = Whole.ViewRange;
  Inner.Text = Whole.Text;
  return Inner;
}

namespace {
/// C's binary operator precedence, which ptxas 13.0 applies to constant
/// expressions (8+8*2 is 24, 1+2<<3 is 24, 3|4&6 is 7: measured).
int precedence(size_t Op) {
  using L = PtxStatementLexer;
  switch (Op) {
  case L::STAR: case L::SLASH: case L::PERCENT_OP: return 5;
  case L::PLUS: case L::MINUS: return 4;
  case L::SHL: case L::SHR: return 3;
  case L::AMP: return 2;
  case L::CARET: return 1;
  default: return 0; // PIPE
  }
}

bool isBinaryOp(size_t Type) {
  using L = PtxStatementLexer;
  switch (Type) {
  case L::PLUS: case L::MINUS: case L::STAR: case L::SLASH: case L::PERCENT_OP:
  case L::SHL: case L::SHR: case L::AMP: case L::PIPE: case L::CARET:
    return true;
  default:
    return false;
  }
}

/// One binary operation in 64 bits; false where the result is not certain
/// (a division by zero, signed division or shift of a negative value, a
/// shift by 64 or more): the expression then stays unevaluated.
bool apply(size_t Op, uint64_t L, uint64_t R, uint64_t &Out) {
  using T = PtxStatementLexer;
  bool Negative = int64_t(L) < 0 || int64_t(R) < 0;
  switch (Op) {
  case T::PLUS: Out = L + R; return true;
  case T::MINUS: Out = L - R; return true;
  case T::STAR: Out = L * R; return true;
  case T::SLASH:
  case T::PERCENT_OP:
    if (R == 0 || Negative)
      return false;
    Out = Op == T::SLASH ? L / R : L % R;
    return true;
  case T::SHL:
  case T::SHR:
    if (R >= 64 || Negative)
      return false;
    Out = Op == T::SHL ? L << R : L >> R;
    return true;
  case T::AMP: Out = L & R; return true;
  case T::CARET: Out = L ^ R; return true;
  case T::PIPE: Out = L | R; return true;
  default: return false;
  }
}

/// The value of a flat expression "unary (op unary)*", fed left to right,
/// with C's precedence over a value stack and an operator stack. The
/// operators on the stack have strictly rising precedence (an equal or lower
/// one reduces them first), so six levels bound both stacks.
class FlatEvaluator {
public:
  void value(const Operand &U) {
    Known &= U.Kind == OperandKind::Immediate && U.HasValue;
    Values[NV++] = uint64_t(U.Value);
  }
  void op(size_t Op) {
    while (NO && precedence(Ops[NO - 1]) >= precedence(Op))
      reduce();
    Ops[NO++] = Op;
  }
  /// Whether every operand was a known constant and every step certain.
  bool result(uint64_t &V) {
    while (NO)
      reduce();
    V = Values[0];
    return Known;
  }

private:
  void reduce() {
    uint64_t R = Values[--NV];
    Known &= apply(Ops[--NO], Values[NV - 1], R, Values[NV - 1]);
  }
  uint64_t Values[8] = {};
  size_t Ops[8] = {};
  unsigned NV = 0, NO = 0;
  bool Known = true;
};

std::string noneOfThese(std::string_view Expr) {
  return "ptxas 13.0 takes an address as [name], [name+offset] or [offset], "
         "the offset an integer constant expression; " +
         inQuotes(Expr) + " is none of these";
}
} // namespace

/// Whether tokens First..Last name no register, variable or floating-point
/// value: the offset (or immediate address) ptxas takes is an integer
/// constant.
bool StatementParser::Impl::onlyIntegers(uint32_t First, uint32_t Last) const {
  for (uint32_t T = First; T <= Last; ++T)
    if (Toks[T].Type == PtxStatementLexer::IDENT ||
        Toks[T].Type == PtxStatementLexer::FLOAT)
      return false;
  return true;
}

/// Reports an address ptxas does not parse, once per statement as for any
/// syntax error.
void StatementParser::Impl::badAddress(SourceRange Expr, std::string Msg) {
  ++DirectReports;
  if (!AddressError)
    DiagBuilder(Diags, rules::SyntaxError, Expr, std::move(Msg));
  AddressError = true;
}

/// [name+offset]: the base goes to Out.Elements and the offset's value to
/// Out.Offset; an offset not evaluated leaves the whole (Expr) an expression.
void StatementParser::Impl::placeAddressBase(Operand &Out, Operand Base,
                                             const Operand &Off, SourceRange Expr,
                                             uint32_t Begin) {
  if (Off.Kind == OperandKind::Immediate && Off.HasValue) {
    Out.HasOffset = true;
    Out.Offset = Off.Value;
    Out.OffsetAt = uint16_t(Off.ViewRange.Begin - Begin);
    Out.OffsetSize = uint16_t(Off.ViewRange.End - Off.ViewRange.Begin);
    Out.Elements.push_back(M.Nodes, std::move(Base));
  } else {
    Operand Whole;
    Whole.ViewRange = Expr;
    Whole.Text = text(Expr);
    Out.Elements.push_back(M.Nodes, std::move(Whole));
  }
}

/// A flat expression of more than one operand over Range, fed to Eval: an
/// integer constant expression becomes an Immediate with its value, anything
/// else an Expr over the whole text (the checks say nothing certain about
/// those).
Operand StatementParser::Impl::flatOperand(FlatEvaluator &Eval, SourceRange Range) {
  Operand O;
  O.ViewRange = Range;
  O.Text = text(Range);
  O.Kind = OperandKind::Expr;
  uint64_t V;
  if (Eval.result(V)) {
    O.Kind = OperandKind::Immediate;
    O.HasValue = true;
    O.Value = int64_t(V);
  }
  return O;
}

Instruction &StatementParser::Impl::startInstruction(Statement &S) {
  // Built in place (parseModule and lint() reserve the array for every selected
  // statement, so nothing moves).
  S.ParsedIndex = int32_t(M.Instructions.size());
  Instruction &I = M.Instructions.emplace_back();
  I.Range = S.Range;
  I.TextId = textId();
  I.StatementIndex = M.Statements.indexOf(S);
  AddressError = false;
  return I;
}

bool StatementParser::Impl::finishInstruction(Statement &S) {
  if (AddressError) { // not an instruction ptxas reads: like a syntax error
    M.Instructions.pop_back();
    S.ParsedIndex = -1;
    return false;
  }
  return true;
}

// --- the CST walk ----------------------------------------------------------------

Operand StatementParser::Impl::buildUnary(uint32_t I) {
  Operand O;
  O.ViewRange = range(I);
  O.Text = text(O.ViewRange);
  switch (node(I).Kind) {
  case CstKind::IntExpr:
    judgeInteger(O);
    return O;
  case CstKind::NameExpr: {
    uint32_t Mod = child(I, CstKind::Terminal, PtxStatementLexer::MODIFIER);
    nameOperand(O, text(child(I, CstKind::Terminal, PtxStatementLexer::IDENT)),
                Mod != ~0u ? text(Mod) : std::string_view());
    return O;
  }
  case CstKind::PrefixExpr: { // -x, +x, ~x, !x
    const CstNode &N = node(I);
    size_t Op = Toks[N.FirstToken].Type;
    return prefixed(Op, buildUnary(Tree->Children[N.ChildEnd - 1]), O);
  }
  case CstKind::FloatExpr:
    O.Kind = OperandKind::FloatImm;
    return O;
  case CstKind::ParenExpr: {
    Operand Inner = buildExpr(child(I, CstKind::Expr));
    if (Inner.Kind == OperandKind::Immediate) {
      Inner.ViewRange = O.ViewRange;
      Inner.Text = O.Text;
      return Inner;
    }
    break;
  }
  default:
    break;
  }
  O.Kind = OperandKind::Expr;
  return O;
}

Operand StatementParser::Impl::buildExpr(uint32_t I) {
  const CstNode &N = node(I);
  return buildFlat(&Tree->Children[N.ChildBegin], N.ChildEnd - N.ChildBegin);
}

/// Kids[0..N) of a flat expression: unary (binaryOp unary)*. An integer
/// constant expression becomes an Immediate with its value; anything else
/// an Expr over the whole text (the checks say nothing certain about those).
Operand StatementParser::Impl::buildFlat(const uint32_t *Kids, uint32_t N) {
  if (N == 1) // one operand, no operator
    return buildUnary(Kids[0]);
  FlatEvaluator Eval;
  for (uint32_t K = 0; K < N; K += 2) {
    Eval.value(buildUnary(Kids[K])); // each literal built (and judged) once
    if (K + 1 < N)
      Eval.op(Toks[node(Kids[K + 1]).FirstToken].Type);
  }
  return flatOperand(Eval, {range(Kids[0]).Begin, range(Kids[N - 1]).End});
}

/// ptxas 13.0 takes an address as [name], [name+constant] or [constant],
/// the constant an integer expression, then ", {coordinates}" in tensor
/// forms. It rejects [%r1-16], [16+%r1], [(%r1)], [%r1*2], [%r1+%r2] and
/// [%r1+1.0] (measured), which badAddress reports. The base, then the
/// coordinate vector, go to Out.Elements; the offset's value to Out.Offset.
void StatementParser::Impl::buildAddress(uint32_t Body, Operand &Out) {
  uint32_t E = child(Body, CstKind::Expr);
  Out.Elements.reserve(M.Nodes, 1 + countChildren(Body, [](CstKind K) {
                          return K != CstKind::Terminal && K != CstKind::Expr;
                        }));
  const CstNode &EN = node(E);
  const uint32_t *Kids = &Tree->Children[EN.ChildBegin];
  uint32_t N = EN.ChildEnd - EN.ChildBegin;
  if (node(Kids[0]).Kind != CstKind::NameExpr) { // an immediate address
    Out.Elements.push_back(M.Nodes, buildFlat(Kids, N));
    if (!onlyIntegers(EN.FirstToken, EN.LastToken))
      badAddress(range(E), noneOfThese(text(E)));
  } else if (N == 1) {
    Out.Elements.push_back(M.Nodes, buildUnary(Kids[0]));
  } else {
    Operand Base = buildUnary(Kids[0]);
    Operand Off = buildFlat(Kids + 2, N - 2);
    size_t Op = Toks[node(Kids[1]).FirstToken].Type;
    if (Op == PtxStatementLexer::MINUS)
      badAddress(range(E), "ptxas 13.0 takes only '+' after an address's base: write " +
                               inQuotes(std::string(Base.Text) + "+-" + std::string(Off.Text)));
    else if (Op != PtxStatementLexer::PLUS ||
             !onlyIntegers(node(Kids[2]).FirstToken, EN.LastToken))
      badAddress(range(E), noneOfThese(text(E)));
    placeAddressBase(Out, std::move(Base), Off, range(E), Out.ViewRange.Begin);
  }
  forChildren(Body, [&](uint32_t C) {
    CstKind K = node(C).Kind;
    if (K != CstKind::Terminal && K != CstKind::Expr)
      Out.Elements.push_back(M.Nodes, buildOperand(C));
  });
}

Operand StatementParser::Impl::buildOperand(uint32_t I) {
  CstKind K = node(I).Kind;
  if (K == CstKind::ExprOperand)
    return buildExpr(child(I, CstKind::Expr));
  Operand O;
  O.ViewRange = range(I);
  O.Text = text(O.ViewRange);
  auto AddOperands = [&](uint32_t Parent) {
    O.Elements.reserve(M.Nodes, countNodes(Parent));
    forChildren(Parent, [&](uint32_t C) {
      if (node(C).Kind != CstKind::Terminal)
        O.Elements.push_back(M.Nodes, buildOperand(C));
    });
  };
  switch (K) {
  case CstKind::AddressOperand:
    O.Kind = OperandKind::Address;
    buildAddress(child(I, CstKind::AddressBody), O);
    break;
  case CstKind::VectorOperand: {
    O.Kind = OperandKind::Vector;
    uint32_t Els = child(I, CstKind::VectorElements);
    if (Els != ~0u)
      AddOperands(Els);
    break;
  }
  case CstKind::TupleOperand: // "(param0, param1)" of call
    O.Kind = OperandKind::Vector;
    AddOperands(I);
    break;
  case CstKind::NegatedOperand:
    O.Name = text(child(I, CstKind::Terminal, PtxStatementLexer::IDENT));
    O.Kind = O.Name[0] == '%' ? OperandKind::Register : OperandKind::Symbol;
    O.Negated = true;
    break;
  default:
    O.Kind = OperandKind::Expr;
  }
  return O;
}

bool StatementParser::Impl::parseInstruction(Statement &S) {
  uint32_t Root = Tree->Root;
  Instruction &I = startInstruction(S);
  // One walk over the root's children finds the guard, the opcode, the
  // operand list (each the first of its kind) and counts the modifiers.
  uint32_t G = ~0u, Op = ~0u, Ops = ~0u, NumModifiers = 0;
  forChildren(Root, [&](uint32_t C) {
    const CstNode &X = node(C);
    if (X.Kind == CstKind::Modifier)
      ++NumModifiers;
    else if (X.Kind == CstKind::Guard && G == ~0u)
      G = C;
    else if (X.Kind == CstKind::OperandList && Ops == ~0u)
      Ops = C;
    else if (X.Kind == CstKind::Terminal && Op == ~0u &&
             X.TokenType == PtxStatementLexer::IDENT)
      Op = C;
  });
  if (G != ~0u) {
    Operand &Guard = newGuard(I);
    Guard.ViewRange = range(G);
    Guard.Text = text(Guard.ViewRange);
    Guard.Name = text(child(G, CstKind::Terminal, PtxStatementLexer::IDENT));
    Guard.Kind = OperandKind::Register;
    Guard.Negated = child(G, CstKind::Terminal, PtxStatementLexer::BANG) != ~0u;
  }
  I.OpcodeRange = range(Op);
  I.Opcode = text(I.OpcodeRange);
  I.WordsContiguous = true;
  if (NumModifiers) {
    I.Modifiers.reserve(M.Nodes, NumModifiers);
    uint32_t End = I.OpcodeRange.End;
    forChildren(Root, [&](uint32_t C) {
      if (node(C).Kind == CstKind::Modifier) {
        SourceRange R = range(C);
        I.Modifiers.push_back(M.Nodes, {text(R), R});
        I.WordsContiguous &= R.Begin == End;
        End = R.End;
      }
    });
  }
  if (Ops != ~0u) {
    I.Operands.reserve(M.Nodes, countNodes(Ops));
    forChildren(Ops, [&](uint32_t C) {
      if (node(C).Kind != CstKind::Terminal)
        I.Operands.push_back(M.Nodes, buildOperand(C));
    });
  }
  return finishInstruction(S);
}

// --- the direct builder ------------------------------------------------------------
//
// Most parsed instructions are "@%p op.mod.mod a, [b+8], {c, d};": names,
// numbers, flat constant expressions, addresses and vectors. For those the
// grammar decides every step from the next token, so the AST is built
// straight from the tokens, with no shape-cache lookup and no CST walk (the
// two were 40 % of the parse of an async-dense module), and so are a call's
// tuples of names ("(retval0)", "(param0, param1)" then ',' or ';': ANTLR
// takes those for tuples too). Anything else goes the CST way: any other
// '(' (a tuple and a parenthesised expression start alike: ANTLR's
// prediction tells them apart), a '!' starting an operand (a negated
// predicate or a '!' expression), and every syntax error, which ANTLR
// reports. test_parser.cpp builds every statement of the corpus and
// the tests both ways and requires the same AST and diagnostics.

namespace {
using L = PtxStatementLexer;

/// Recognises the subset over token types, building nothing: a statement is
/// declined before any of its literals is judged (and reported). On the way
/// it counts the items of each list (operands, vector elements, an address's
/// base and coordinates) into Counts, in the order the lists open, which is
/// the order the builder meets them: each list is then allocated once at its
/// size.
class SubsetRecogniser {
public:
  SubsetRecogniser(const FastLexer::TokenView &Toks, std::vector<uint32_t> &Counts)
      : Toks(Toks), Counts(Counts) {}

  bool instruction() {
    // Every statement of the subset ends with ';', so no step below reads
    // past the last token: each stops at the ';'.
    if (Toks.empty() || Toks.back().Type != L::SEMI)
      return false;
    if (take(L::AT)) {
      take(L::BANG);
      if (!take(L::IDENT))
        return false;
    }
    if (!take(L::IDENT))
      return false;
    while (take(L::MODIFIER))
      ;
    if (!at(L::SEMI) && !list(L::SEMI))
      return false;
    return P + 1 == Toks.size(); // at the final ';'
  }

private:
  bool at(size_t Type) const { return Toks[P].Type == Type; }
  bool take(size_t Type) {
    if (!at(Type))
      return false;
    ++P;
    return true;
  }
  /// Room in Counts for the list that opens here.
  size_t open() {
    Counts.push_back(0);
    return Counts.size() - 1;
  }
  /// operand (',' operand)*, then Closer (not taken).
  bool list(size_t Closer) {
    size_t Slot = open();
    do {
      if (!operand())
        return false;
      ++Counts[Slot];
    } while (take(L::COMMA));
    return at(Closer);
  }
  bool operand() {
    if (take(L::LBRACK)) { // addressBody: expr (',' operand)*
      size_t Slot = open();
      if (!expr())
        return false;
      for (Counts[Slot] = 1; take(L::COMMA); ++Counts[Slot])
        if (!operand())
          return false;
      return take(L::RBRACK);
    }
    if (take(L::LBRACE)) // vectorElements?
      return take(L::RBRACE) || (list(L::RBRACE) && take(L::RBRACE));
    if (take(L::LPAREN)) // a call's tuple of names: "(retval0)", "(param0, param1)"
      return tuple();
    if (at(L::BANG)) // negatedOperand or a '!' expression: ANTLR decides
      return false;
    return expr();
  }
  /// After '(': names, each alone ("a" not "a.x" or "a+1"), then ')' and
  /// the end of the operand. Anything else, a parenthesised expression
  /// among them, is declined (ANTLR's prediction tells those apart).
  bool tuple() {
    if (!take(L::RPAREN)) {
      size_t Slot = open();
      do {
        if (!take(L::IDENT) || !(at(L::COMMA) || at(L::RPAREN)))
          return false;
        ++Counts[Slot];
      } while (take(L::COMMA));
      if (!take(L::RPAREN))
        return false;
    }
    return at(L::COMMA) || at(L::SEMI);
  }
  bool expr() {
    if (!unary())
      return false;
    while (isBinaryOp(Toks[P].Type)) {
      ++P;
      if (!unary())
        return false;
    }
    return true;
  }
  bool unary() {
    while (at(L::MINUS) || at(L::PLUS) || at(L::TILDE) || at(L::BANG))
      ++P;
    if (take(L::IDENT)) {
      take(L::MODIFIER);
      return true;
    }
    return take(L::INT) || take(L::FLOAT); // '(' is declined
  }

  const FastLexer::TokenView &Toks;
  std::vector<uint32_t> &Counts;
  size_t P = 0;
};
} // namespace

bool StatementParser::Impl::recogniseDirect() {
  if (EntryState *E = entryState()) { // async-dense code: 89 % of statements
    uint32_t &Known = E->Sizes;
    if (Known == Unknown) {
      ListSizes.clear();
      Known = SubsetRecogniser(Toks, ListSizes).instruction() ? uint32_t(KnownSizes.size())
                                                              : Declined;
      if (Known != Declined)
        KnownSizes.insert(KnownSizes.end(), ListSizes.begin(), ListSizes.end());
    }
    if (Known == Declined)
      return false;
    NextList = KnownSizes.data() + Known;
    return true;
  }
  ListSizes.clear();
  bool Accepted = SubsetRecogniser(Toks, ListSizes).instruction();
  NextList = ListSizes.data();
  return Accepted;
}

void StatementParser::Impl::directUnary(uint32_t &P, Operand &O) {
  uint32_t First = P;
  switch (Toks[P].Type) {
  case L::MINUS: case L::PLUS: case L::TILDE: case L::BANG: {
    size_t Op = Toks[P].Type;
    Operand Inner;
    directUnary(++P, Inner);
    O.ViewRange = tokenRange(First, P - 1);
    O.Text = text(O.ViewRange);
    O = prefixed(Op, std::move(Inner), O);
    return;
  }
  case L::IDENT: {
    bool Component = Toks[P + 1].Type == L::MODIFIER;
    P += 1 + Component;
    O.ViewRange = tokenRange(First, P - 1);
    O.Text = text(O.ViewRange);
    nameOperand(O, tokenText(First),
                Component ? tokenText(First + 1) : std::string_view());
    return;
  }
  default: // INT or FLOAT: the recogniser let nothing else through
    O.ViewRange = tokenRange(First, First);
    O.Text = text(O.ViewRange);
    if (Toks[P++].Type == L::INT)
      judgeInteger(O);
    else
      O.Kind = OperandKind::FloatImm;
    return;
  }
}

/// buildFlat() from the tokens at P.
void StatementParser::Impl::directFlat(uint32_t &P, Operand &O) {
  uint32_t First = P;
  directUnary(P, O);
  if (!isBinaryOp(Toks[P].Type))
    return;
  FlatEvaluator Eval;
  Eval.value(O);
  while (isBinaryOp(Toks[P].Type)) {
    Eval.op(Toks[P++].Type);
    Operand U;
    directUnary(P, U);
    Eval.value(U);
  }
  O = flatOperand(Eval, tokenRange(First, P - 1));
}

/// buildAddress() from the tokens after '[' up to and past the ']'.
void StatementParser::Impl::directAddress(uint32_t &P, Operand &Out) {
  Out.Elements.reserve(M.Nodes, nextListSize());
  uint32_t First = P;
  if (Toks[P].Type != L::IDENT) { // an immediate address
    directFlat(P, Out.Elements.emplace_back(M.Nodes));
    if (!onlyIntegers(First, P - 1))
      badAddress(tokenRange(First, P - 1), noneOfThese(text(tokenRange(First, P - 1))));
  } else {
    Operand Base;
    directUnary(P, Base);
    if (!isBinaryOp(Toks[P].Type)) {
      Out.Elements.push_back(M.Nodes, std::move(Base));
    } else {
      size_t Op = Toks[P++].Type;
      uint32_t OffFirst = P;
      Operand Off;
      directFlat(P, Off);
      SourceRange E = tokenRange(First, P - 1);
      if (Op == L::MINUS)
        badAddress(E, "ptxas 13.0 takes only '+' after an address's base: write " +
                          inQuotes(std::string(Base.Text) + "+-" + std::string(Off.Text)));
      else if (Op != L::PLUS || !onlyIntegers(OffFirst, P - 1))
        badAddress(E, noneOfThese(text(E)));
      placeAddressBase(Out, std::move(Base), Off, E, this->Base + Toks[First - 1].Start);
    }
  }
  while (Toks[P].Type == L::COMMA)
    directOperand(++P, Out.Elements.emplace_back(M.Nodes));
  ++P; // ']'
}

void StatementParser::Impl::directOperand(uint32_t &P, Operand &O) {
  uint32_t First = P;
  size_t Type = Toks[P].Type;
  if (Type != L::LBRACK && Type != L::LBRACE && Type != L::LPAREN)
    return directFlat(P, O);
  ++P;
  if (Type == L::LBRACK) {
    O.Kind = OperandKind::Address;
    directAddress(P, O);
  } else { // a vector, or a call's tuple (a vector too)
    O.Kind = OperandKind::Vector;
    size_t Closer = Type == L::LBRACE ? L::RBRACE : L::RPAREN;
    if (Toks[P].Type != Closer) {
      O.Elements.reserve(M.Nodes, nextListSize());
      directOperand(P, O.Elements.emplace_back(M.Nodes));
      while (Toks[P].Type == L::COMMA)
        directOperand(++P, O.Elements.emplace_back(M.Nodes));
    }
    ++P; // '}' or ')'
  }
  O.ViewRange = tokenRange(First, P - 1);
  O.Text = text(O.ViewRange);
}

/// parseInstruction() from the tokens, for a statement recogniseDirect()
/// accepted.
bool StatementParser::Impl::buildDirect(Statement &S) {
  Instruction &I = startInstruction(S);
  uint32_t P = 0;
  if (Toks[0].Type == L::AT) {
    bool Negated = Toks[1].Type == L::BANG;
    uint32_t Name = 1 + Negated;
    Operand &Guard = newGuard(I);
    Guard.ViewRange = tokenRange(0, Name);
    Guard.Text = text(Guard.ViewRange);
    Guard.Name = tokenText(Name);
    Guard.Kind = OperandKind::Register;
    Guard.Negated = Negated;
    P = Name + 1;
  }
  I.OpcodeRange = tokenRange(P, P);
  I.Opcode = text(I.OpcodeRange);
  uint32_t FirstModifier = ++P;
  bool Contiguous = true;
  for (; Toks[P].Type == L::MODIFIER; ++P)
    Contiguous &= Toks[P].Start == Toks[P - 1].Stop + 1;
  I.WordsContiguous = Contiguous;
  if (P > FirstModifier) {
    I.Modifiers.reserve(M.Nodes, P - FirstModifier);
    for (uint32_t K = FirstModifier; K < P; ++K) {
      SourceRange R = tokenRange(K, K);
      I.Modifiers.push_back(M.Nodes, {text(R), R});
    }
  }
  if (Toks[P].Type != L::SEMI) {
    I.Operands.reserve(M.Nodes, nextListSize());
    directOperand(P, I.Operands.emplace_back(M.Nodes));
    while (Toks[P].Type == L::COMMA)
      directOperand(++P, I.Operands.emplace_back(M.Nodes));
  }
  return finishInstruction(S);
}

// --- copies of an instruction of the same text -------------------------------------

namespace {
std::string_view moved(std::string_view V, ptrdiff_t D) {
  return V.data() ? std::string_view(V.data() + D, V.size()) : V;
}
SourceRange moved(SourceRange R, ptrdiff_t D) {
  return {uint32_t(int64_t(R.Begin) + D), uint32_t(int64_t(R.End) + D)};
}

// Every view and range of these is moved below (an Instruction's in
// copyTemplate, a template's lists' views in keepTemplate, a Symbol's in
// declareOrCopy): a new one must be too.
static_assert(sizeof(Operand) == 80 && sizeof(Modifier) == 24 && sizeof(Instruction) == 88 &&
                  sizeof(Symbol) == 64,
              "a new field of Operand, Modifier, Instruction or Symbol: move it");

/// How many operands L holds, those nested in its operands too.
uint32_t countOperands(const NodeList<Operand> &L) {
  uint32_t N = uint32_t(L.size());
  for (const Operand &O : L)
    N += countOperands(O.Elements);
  return N;
}
} // namespace

bool StatementParser::Impl::buildAndKeep(Statement &S) {
  if (Entry == FastLexer::NoEntry)
    return buildDirect(S);
  EntryState &E = Entries[Entry];
  size_t Reports = DirectReports;
  if (!buildDirect(S))
    return false;
  // The second statement of a text: it repeats (a text seen once keeps no
  // copy), and what it reported is nothing.
  if (++E.Built == 2 && DirectReports == Reports)
    keepTemplate(M.Instructions.back());
  return true;
}

void StatementParser::Impl::keepTemplate(const Instruction &I) {
  if (I.Guard && !I.Guard->Elements.empty())
    return; // no builder makes one: a guard is a name
  if (Entry >= TemplateOf.size())
    TemplateOf.resize(std::max<size_t>(Entry + 1, 2 * TemplateOf.size()), -1);
  TemplateOf[Entry] = int32_t(Templates.size());
  Instruction &T = Templates.emplace_back(I);
  uint32_t Modifiers = uint32_t(I.Modifiers.size());
  uint32_t Guards = I.Guard ? 1 : 0;
  uint32_t Operands = Guards + countOperands(I.Operands);
  if (!Modifiers && !Operands)
    return; // no guard, no lists: nothing to keep
  // The lists outlive the batch (M.Nodes does not): one block, the
  // modifiers, then every operand, the guard first, then the instruction's
  // own operands and each nested list after them.
  char *Block = static_cast<char *>(
      M.SharedNodes.allocate(Modifiers * sizeof(Modifier) + Operands * sizeof(Operand)));
  auto *Mods = reinterpret_cast<Modifier *>(Block);
  std::uninitialized_copy(I.Modifiers.begin(), I.Modifiers.end(), Mods);
  T.Modifiers = NodeList<Modifier>::over(Mods, Modifiers);
  auto *Ops = reinterpret_cast<Operand *>(Block + Modifiers * sizeof(Modifier));
  if (I.Guard)
    T.Guard = new (Ops) Operand(*I.Guard);
  std::uninitialized_copy(I.Operands.begin(), I.Operands.end(), Ops + Guards);
  T.Operands = NodeList<Operand>::over(Ops + Guards, uint32_t(I.Operands.size()));
  // Each operand's elements after those placed so far, nested ones in turn.
  uint32_t Placed = Guards + uint32_t(I.Operands.size());
  for (uint32_t K = Guards; K < Placed; ++K) {
    NodeList<Operand> &Els = Ops[K].Elements;
    std::uninitialized_copy(Els.begin(), Els.end(), Ops + Placed);
    Els = NodeList<Operand>::over(Ops + Placed, uint32_t(Els.size()));
    Placed += uint32_t(Els.size());
  }
  // The views into a copy of the statement's text, kept with the lists: the
  // copies' readers (the flow build reads every register name) would map
  // back the module text the lint has dropped behind it (see
  // SourceBuffer::dropBefore).
  uint32_t Size = I.Range.End - I.Range.Begin;
  char *Text = static_cast<char *>(M.SharedNodes.allocate(Size));
  std::memcpy(Text, M.Text.data() + I.Range.Begin, Size);
  ptrdiff_t D = Text - (M.Text.data() + I.Range.Begin);
  for (uint32_t K = 0; K < Modifiers; ++K)
    Mods[K].Text = moved(Mods[K].Text, D);
  for (uint32_t K = 0; K < Operands; ++K) {
    Ops[K].Text = moved(Ops[K].Text, D);
    Ops[K].Name = moved(Ops[K].Name, D);
  }
}

bool StatementParser::Impl::copyKnown(Statement &S) {
  uint32_t E = Lexer.findStatement();
  if (E >= TemplateOf.size() || TemplateOf[E] < 0) // (NoEntry is past any)
    return false;
  Entry = E;
  return copyTemplate(S, Templates[size_t(TemplateOf[E])]);
}

bool StatementParser::Impl::copyTemplate(Statement &S, const Instruction &T) {
  // The copy shares the template's lists (Instruction::Shift): it writes
  // its Instruction, 88 bytes, and no list (copies of the lists, ~500 bytes
  // for a cp.async.bulk, were 5 % of async-dense's time, waiting on stores).
  ptrdiff_t D = ptrdiff_t(int64_t(S.Range.Begin) - int64_t(T.Range.Begin));
  S.ParsedIndex = int32_t(M.Instructions.size());
  Instruction &I = M.Instructions.emplace_back(T);
  I.StatementIndex = M.Statements.indexOf(S);
  I.Range = moved(I.Range, D);
  I.Opcode = moved(I.Opcode, D);
  I.OpcodeRange = moved(I.OpcodeRange, D);
  I.Shift = int32_t(D);
  return true;
}

bool StatementParser::Impl::parseDirective(Statement &S) {
  uint32_t Root = Tree->Root;
  ModuleDirectives &D = M.Directives;
  switch (node(Root).Kind) {
  case CstKind::VersionDirective: {
    uint32_t V = child(Root, CstKind::Terminal, PtxStatementLexer::FLOAT);
    std::string_view VT = text(V);
    size_t Dot = VT.find('.');
    unsigned Major = 0, Minor = 0;
    bool Ok = Dot != std::string_view::npos;
    if (Ok) {
      auto R1 = std::from_chars(VT.data(), VT.data() + Dot, Major);
      auto R2 = std::from_chars(VT.data() + Dot + 1, VT.data() + VT.size(), Minor);
      Ok = R1.ec == std::errc() && R1.ptr == VT.data() + Dot &&
           R2.ec == std::errc() && R2.ptr == VT.data() + VT.size();
    }
    if (!Ok) {
      DiagBuilder(Diags, rules::SyntaxError, range(V),
                  "malformed .version; expected MAJOR.MINOR such as 8.0");
      return false;
    }
    D.HasVersion = true;
    D.VersionMajor = Major;
    D.VersionMinor = Minor;
    D.VersionRange = range(V);
    break;
  }
  case CstKind::TargetDirective: {
    std::vector<uint32_t> Names = children(Root, CstKind::TargetName);
    for (uint32_t N : Names)
      D.Targets.push_back(text(N));
    D.TargetRange = {range(Names.front()).Begin, range(Names.back()).End};
    break;
  }
  case CstKind::AddressSizeDirective: {
    bool Overflow;
    uint64_t V = intValue(child(Root, CstKind::Terminal, PtxStatementLexer::INT), Overflow);
    if (!Overflow)
      D.AddressSize = unsigned(V);
    break;
  }
  default:
    return false;
  }
  S.ParsedIndex = 0;
  return true;
}

/// The symbol of declarator Dc, with the DeclSpecifier children of Owner
/// (a declaration or a parameter). The children are walked in place, not
/// collected: a real module has a declaration per ~15 statements, and a
/// vector per walk cost a malloc and a free each.
Symbol StatementParser::Impl::declareFrom(uint32_t Owner, uint32_t Dc, int32_t Function) {
  Symbol Sym;
  Sym.Function = Function;
  forChildren(Owner, [&](uint32_t Spec) {
    if (node(Spec).Kind != CstKind::DeclSpecifier)
      return;
    uint32_t IntNode = child(Spec, CstKind::Terminal, PtxStatementLexer::INT);
    applySpecifier(Sym, text(child(Spec, CstKind::Terminal, PtxStatementLexer::MODIFIER)),
                   IntNode == ~0u ? std::string_view() : text(IntNode));
  });
  std::string_view Ints[2];
  uint32_t NumInts = 0; // "%r<N>" and "a[N]": the first two count
  forChildren(Dc, [&](uint32_t C) {
    const CstNode &X = node(C);
    if (X.Kind == CstKind::Terminal && X.TokenType == PtxStatementLexer::INT && NumInts < 2)
      Ints[NumInts++] = text(C);
  });
  applyDeclarator(Sym, range(Dc), text(child(Dc, CstKind::Terminal, PtxStatementLexer::IDENT)),
                  child(Dc, CstKind::Terminal, PtxStatementLexer::LT) != ~0u,
                  child(Dc, CstKind::Terminal, PtxStatementLexer::LBRACK) != ~0u, Ints,
                  NumInts);
  return Sym;
}

namespace {
uint64_t literalValue(std::string_view Text, bool &Overflow) {
  uint64_t V = 0;
  Overflow = false;
  parseIntegerLiteral(Text, V, Overflow);
  return V;
}
} // namespace

/// What specifier word W (with its integer Int, as in ".align 16") says of
/// the symbol. Most words are types (".b32", ".u64", ".pred"), which are
/// none of the words below: those are compared by size first (a chain of
/// string comparisons cost ~150 instructions a word, and a declaration's
/// specifiers and every header parameter's pass here).
void StatementParser::Impl::applySpecifier(Symbol &Sym, std::string_view W,
                                           std::string_view Int) {
  auto Is = [&](std::string_view Word) {
    return W.size() == Word.size() && std::memcmp(W.data(), Word.data(), W.size()) == 0;
  };
  static constexpr std::pair<std::string_view, StateSpace> Spaces[] = {
      {".reg", StateSpace::Reg},       {".shared", StateSpace::Shared},
      {".global", StateSpace::Global}, {".const", StateSpace::Const},
      {".local", StateSpace::Local},   {".param", StateSpace::Param},
      {".tex", StateSpace::Tex}};
  for (const auto &[Word, Space] : Spaces)
    if (Is(Word)) {
      Sym.Space = Space;
      return;
    }
  if (W.substr(0, 9) == ".shared::")
    Sym.Space = StateSpace::Shared;
  else if (Is(".extern"))
    Sym.Extern = true;
  else if (Is(".align")) {
    bool Overflow;
    uint64_t N = Int.empty() ? 0 : literalValue(Int, Overflow);
    Sym.Align = unsigned(std::min<uint64_t>(N, UINT32_MAX));
  } else if (Is(".v2") || Is(".v4") || Is(".v8"))
    Sym.VectorWidth = uint8_t(W[2] - '0');
  else if (Is(".visible") || Is(".weak") || Is(".common") || Is(".ptr"))
    ; // linkage and pointer attributes do not change what the name is
  else
    Sym.Type = W;
}

/// The declarator's part of the symbol: "name", "name<N>" (N registers
/// %name0 .. %name(N-1)), "name[N]" (an array); Ints are its first two
/// integers.
void StatementParser::Impl::applyDeclarator(Symbol &Sym, SourceRange Range,
                                            std::string_view Name, bool HasCount,
                                            bool IsArray, const std::string_view *Ints,
                                            uint32_t NumInts) {
  Sym.Range = Range;
  Sym.Name = Name;
  bool Overflow = false;
  if (HasCount && NumInts > 0) {
    uint64_t N = literalValue(Ints[0], Overflow);
    Sym.RangeCount = Overflow ? UINT32_MAX : unsigned(std::min<uint64_t>(N, UINT32_MAX));
  }
  if (IsArray) {
    Sym.IsArray = true;
    uint32_t IntIndex = HasCount ? 1 : 0;
    if (NumInts > IntIndex)
      Sym.ArraySize = literalValue(Ints[IntIndex], Overflow);
  }
}

/// parseDeclaration() from the tokens, for the common declarations
/// (".reg .b32 %r<12>;", ".shared .align 8 .b8 buf[1024];", one or more
/// declarators): specifiers with an optional integer, then declarators
/// "name", "name<N>", "name[N]..." separated by ','. Returns false, having
/// declared nothing, for anything else (the CST way then parses it).
bool StatementParser::Impl::declareDirect(Statement &S) {
  using L = PtxStatementLexer;
  auto At = [&](size_t P, size_t Type) { return P < Toks.size() && Toks[P].Type == Type; };
  // Recognise first: a statement the CST way takes must declare nothing here.
  size_t P = 0;
  while (At(P, L::MODIFIER))
    P += At(P + 1, L::INT) ? 2 : 1;
  size_t FirstDeclarator = P;
  if (P == 0)
    return false;
  for (;;) {
    if (!At(P++, L::IDENT))
      return false;
    if (At(P, L::LT)) {
      if (!At(P + 1, L::INT) || !At(P + 2, L::GT))
        return false;
      P += 3;
    }
    while (At(P, L::LBRACK)) {
      P += At(P + 1, L::INT) ? 2 : 1;
      if (!At(P++, L::RBRACK))
        return false;
    }
    if (!At(P, L::COMMA))
      break;
    ++P;
  }
  if (!At(P, L::SEMI) || P + 1 != Toks.size())
    return false;
  // Then declare, as declareFrom() does from the CST.
  int32_t Function = Functions.at(M.Statements.indexOf(S));
  for (P = FirstDeclarator;;) { // P at a name
    size_t End = P + 1;
    while (Toks[End].Type != L::COMMA && Toks[End].Type != L::SEMI)
      ++End;
    M.Symbols.push_back(declareTokens(0, FirstDeclarator, P, End, Function));
    if (Toks[End].Type == L::SEMI)
      break;
    P = End + 1;
  }
  S.ParsedIndex = 0;
  return true;
}

Symbol StatementParser::Impl::declareTokens(size_t Specifiers, size_t SpecifiersEnd,
                                            size_t Name, size_t End, int32_t Function) {
  using L = PtxStatementLexer;
  Symbol Sym;
  Sym.Function = Function;
  for (size_t K = Specifiers; K < SpecifiersEnd; ++K)
    if (Toks[K].Type == L::MODIFIER)
      applySpecifier(Sym, tokenText(uint32_t(K)),
                     Toks[K + 1].Type == L::INT ? tokenText(uint32_t(K + 1)) : std::string_view());
  bool HasCount = false, IsArray = false;
  std::string_view Ints[2];
  uint32_t NumInts = 0;
  for (size_t P = Name + 1; P < End; ++P) {
    HasCount |= Toks[P].Type == L::LT;
    IsArray |= Toks[P].Type == L::LBRACK;
    if (Toks[P].Type == L::INT && NumInts < 2)
      Ints[NumInts++] = tokenText(uint32_t(P));
  }
  applyDeclarator(Sym, tokenRange(uint32_t(Name), uint32_t(End - 1)), tokenText(uint32_t(Name)),
                  HasCount, IsArray, Ints, NumInts);
  return Sym;
}

/// parseFunctionHeader() from the tokens, for a header the grammar's
/// functionHeader rule takes (every one: it is specifiers, .entry or .func,
/// parameter lists around the name, attributes and an optional ';', with
/// nothing for the CST to decide). A header costs the CST way ~5,000
/// instructions (async-dense's 840 headers: as much time as its 13,440
/// declarations), mostly each parameter's walk. Returns false, having
/// changed nothing, for anything else (the CST way then parses it).
bool StatementParser::Impl::headerDirect(Statement &S) {
  using L = PtxStatementLexer;
  auto At = [&](size_t P, size_t Type) { return P < Toks.size() && Toks[P].Type == Type; };
  auto Specifiers = [&](size_t P) { // past "MODIFIER INT?"s from P
    while (At(P, L::MODIFIER))
      P += At(P + 1, L::INT) ? 2 : 1;
    return P;
  };
  // A parameter list's end (past its ')') from its '(' at P, 0 if none:
  // "( )" or "( param, ... )", a param "specifier+ declarator".
  auto ParamList = [&](size_t P) -> size_t {
    if (!At(P++, L::LPAREN))
      return 0;
    if (At(P, L::RPAREN))
      return P + 1;
    for (;;) {
      size_t Name = Specifiers(P);
      if (Name == P || !At(Name, L::IDENT))
        return 0;
      P = Name + 1;
      if (At(P, L::LT)) {
        if (!At(P + 1, L::INT) || !At(P + 2, L::GT))
          return 0;
        P += 3;
      }
      while (At(P, L::LBRACK)) {
        P += At(P + 1, L::INT) ? 2 : 1;
        if (!At(P++, L::RBRACK))
          return 0;
      }
      if (At(P, L::RPAREN))
        return P + 1;
      if (!At(P++, L::COMMA))
        return 0;
    }
  };
  // Recognise first.
  size_t P = Specifiers(0);
  if (!At(P, L::ENTRY) && !At(P, L::FUNC))
    return false;
  const bool IsEntry = At(P++, L::ENTRY);
  size_t Lists[2], NumLists = 0; // each list's '('
  if (At(P, L::LPAREN)) {
    Lists[NumLists++] = P;
    if (!(P = ParamList(P)))
      return false;
  }
  if (!At(P, L::IDENT))
    return false;
  const size_t Name = P++;
  if (At(P, L::LPAREN)) {
    Lists[NumLists++] = P;
    if (!(P = ParamList(P)))
      return false;
  }
  const size_t FirstAttribute = P;
  while (At(P, L::MODIFIER)) // ".maxntid 128, 1, 1", ".noreturn"
    if (At(++P, L::INT))
      for (++P; At(P, L::COMMA) && At(P + 1, L::INT);)
        P += 2;
  if (At(P, L::SEMI))
    ++P;
  if (P != Toks.size())
    return false;
  // Then fill its function in, as parseFunctionHeader() does from the CST.
  Function *F = functionOf(S);
  if (!F)
    return false;
  F->IsEntry = IsEntry;
  F->NameRange = tokenRange(uint32_t(Name), uint32_t(Name));
  F->Name = M.FunctionNames.emplace_back(text(F->NameRange));
  int32_t FIndex = int32_t(F - M.Functions.data());
  for (size_t X = 0; X < NumLists; ++X)
    for (size_t Q = Lists[X] + 1; Toks[Q].Type != L::RPAREN;) { // Q at a param
      size_t ParamName = Specifiers(Q), End = ParamName + 1;
      while (Toks[End].Type != L::COMMA && Toks[End].Type != L::RPAREN)
        ++End;
      Symbol Sym = declareTokens(Q, ParamName, ParamName, End, FIndex);
      if (Sym.Space == StateSpace::None)
        Sym.Space = StateSpace::Param;
      M.Symbols.push_back(Sym);
      Q = Toks[End].Type == L::COMMA ? End + 1 : End;
    }
  for (size_t Q = FirstAttribute; At(Q, L::MODIFIER);) {
    std::string_view W = tokenText(uint32_t(Q++));
    if (W == ".explicitcluster")
      F->ExplicitCluster = true;
    for (size_t K = 0; At(Q, L::INT); Q += At(Q + 1, L::COMMA) ? 2 : 1, ++K)
      if (W == ".reqnctapercluster" && K < 3) {
        bool Overflow;
        F->ClusterDims[K] =
            unsigned(std::min<uint64_t>(literalValue(tokenText(uint32_t(Q)), Overflow), 1u << 20));
      }
  }
  S.ParsedIndex = 0;
  return true;
}

bool StatementParser::Impl::declareOrCopy(Statement &S) {
  EntryState *E = entryState();
  if (!E || !E->Symbols) {
    size_t Before = M.Symbols.size();
    if (!declareDirect(S))
      return false;
    if (E && M.Symbols.size() > Before) {
      E->FirstSymbol = uint32_t(Before);
      E->Symbols = uint32_t(M.Symbols.size() - Before);
      E->DeclaredAt = S.Range.Begin;
    }
    return true;
  }
  ptrdiff_t D = ptrdiff_t(int64_t(S.Range.Begin) - int64_t(E->DeclaredAt));
  int32_t Function = Functions.at(M.Statements.indexOf(S));
  for (uint32_t K = E->FirstSymbol; K < E->FirstSymbol + E->Symbols; ++K) {
    Symbol Sym = M.Symbols[K];
    Sym.Name = moved(Sym.Name, D);
    Sym.Type = moved(Sym.Type, D);
    Sym.Range = moved(Sym.Range, D);
    Sym.Function = Function;
    M.Symbols.push_back(Sym);
  }
  S.ParsedIndex = 0;
  return true;
}

bool StatementParser::Impl::parseDeclaration(Statement &S) {
  uint32_t Root = Tree->Root;
  int32_t Function = Functions.at(M.Statements.indexOf(S));
  forChildren(Root, [&](uint32_t Dc) {
    if (node(Dc).Kind == CstKind::Declarator)
      M.Symbols.push_back(declareFrom(Root, Dc, Function));
  });
  S.ParsedIndex = 0;
  return true;
}

Function *StatementParser::Impl::functionOf(const Statement &Header) {
  uint32_t Index = M.Statements.indexOf(Header);
  // Functions are in source order: a binary search, not a scan (a scan made
  // a module of N functions cost O(N^2)).
  auto It = std::lower_bound(
      M.Functions.begin(), M.Functions.end(), Index,
      [](const Function &Fn, uint32_t I) { return Fn.HeaderStatement < I; });
  return It == M.Functions.end() || It->HeaderStatement != Index ? nullptr : &*It;
}

bool StatementParser::Impl::parseFunctionHeader(Statement &S) {
  uint32_t Root = Tree->Root;
  Function *F = functionOf(S);
  if (!F)
    return false;
  F->IsEntry = child(Root, CstKind::Terminal, PtxStatementLexer::ENTRY) != ~0u;
  uint32_t Name = child(Root, CstKind::Terminal, PtxStatementLexer::IDENT);
  F->NameRange = range(Name);
  F->Name = M.FunctionNames.emplace_back(text(F->NameRange));
  int32_t FIndex = int32_t(F - M.Functions.data());
  for (uint32_t PL : children(Root, CstKind::ParamList))
    for (uint32_t Prm : children(PL, CstKind::Param)) {
      Symbol Sym = declareFrom(Prm, child(Prm, CstKind::Declarator), FIndex);
      if (Sym.Space == StateSpace::None)
        Sym.Space = StateSpace::Param;
      M.Symbols.push_back(std::move(Sym));
    }
  for (uint32_t Attr : children(Root, CstKind::FunctionAttribute)) {
    std::string_view W = text(child(Attr, CstKind::Terminal, PtxStatementLexer::MODIFIER));
    if (W == ".explicitcluster")
      F->ExplicitCluster = true;
    if (W == ".reqnctapercluster") {
      std::vector<uint32_t> Ints = children(Attr, CstKind::Terminal, PtxStatementLexer::INT);
      for (size_t K = 0; K < Ints.size() && K < 3; ++K) {
        bool Overflow;
        F->ClusterDims[K] = unsigned(std::min<uint64_t>(intValue(Ints[K], Overflow), 1u << 20));
      }
    }
  }
  S.ParsedIndex = 0;
  return true;
}

StatementParser::StatementParser(Module &M, DiagnosticEngine &Diags,
                                 bool Direct)
    : I(std::make_unique<Impl>(M, Diags)) {
  I->Direct = Direct;
}
StatementParser::~StatementParser() = default;

size_t StatementParser::directlyBuilt() const { return I->DirectlyBuilt; }

void StatementParser::prefetch(uint32_t Index) {
  const Statement &S = I->M.Statements[Index];
  if (S.Kind == StatementKind::Instruction) // parse() lexes its text as is
    I->Lexer.prefetch(S.text(I->M.Text));
}

void StatementParser::prefetchText(uint32_t Index) {
  // Its first two lines: the statements the memo keeps are at most 160
  // bytes (FastLexer's MaxMemoText), most are under 64.
  const Statement &S = I->M.Statements[Index];
  const char *P = I->M.Text.data() + S.Range.Begin;
  __builtin_prefetch(P);
  __builtin_prefetch(P + 64);
}

bool StatementParser::parse(uint32_t Index) {
  Statement &S = I->M.Statements[Index];
  std::string_view Text = S.text(I->M.Text);
  EntryRule R;
  switch (S.Kind) {
  case StatementKind::Instruction: R = EntryRule::Instruction; break;
  case StatementKind::Directive: R = EntryRule::Directive; break;
  case StatementKind::Declaration: R = EntryRule::Declaration; break;
  case StatementKind::FunctionHeader: R = EntryRule::Header; break;
  default: return false;
  }
  // Large initialisers (".global .b8 data[N] = {...}") are not parsed: the
  // declaration ends at '=' for the parser's purposes.
  std::string Owned;
  if (R == EntryRule::Declaration) {
    size_t Eq = Text.find('=');
    if (Eq != std::string_view::npos) {
      Owned.assign(Text.substr(0, Eq));
      Owned += ';';
      Text = Owned;
    }
  }
  try {
    I->Lexer.reset(Text); // tokens are offsets: no copy on a hit
    // Most instructions of async-dense code are copies (78,000 of 88,200).
    if (R == EntryRule::Instruction && I->Direct && I->copyKnown(S)) {
      ++I->DirectlyBuilt;
      return true;
    }
    I->lex(S.Range.Begin, S.HeadBegin == S.Range.Begin ? S.HeadSize : 0);
    if (R == EntryRule::Instruction && I->Direct && I->recogniseDirect()) {
      ++I->DirectlyBuilt;
      return I->buildAndKeep(S);
    }
    if (R == EntryRule::Declaration && I->Direct && I->declareOrCopy(S))
      return true;
    if (R == EntryRule::Header && I->Direct && I->headerDirect(S))
      return true;
    if (I->nestedTooDeep() || !I->parseShape(Text, R))
      return false;
    switch (R) {
    case EntryRule::Instruction: return I->parseInstruction(S);
    case EntryRule::Directive: return I->parseDirective(S);
    case EntryRule::Declaration: return I->parseDeclaration(S);
    case EntryRule::Header: return I->parseFunctionHeader(S);
    }
  } catch (const std::exception &E) {
    // The runtime should not throw past FirstErrorStrategy; if it does,
    // report a syntax error rather than crash.
    DiagBuilder(I->Diags, rules::SyntaxError, S.Range,
                std::string("could not parse statement: ") + E.what());
  }
  return false;
}

} // namespace ptxlint
