//===- StatementParser.cpp - ANTLR parse of one statement into AST -------===//

#include "Parse/StatementParser.h"

#include "ptxlint/RuleRegistry.h"

#include "PtxStatementLexer.h"
#include "PtxStatementParser.h"
#include "antlr4-runtime.h"

#include <charconv>

using namespace ptxlint_grammar;

namespace ptxlint {

bool parseIntegerLiteral(std::string_view S, uint64_t &Value, bool &Overflow) {
  Overflow = false;
  Value = 0;
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
    if (Value > (UINT64_MAX - D) / Base)
      Overflow = true;
    Value = Value * Base + D;
  }
  return true;
}

namespace {

/// Turns ANTLR's expectation sets into a compiler-style message.
class ErrorCollector : public antlr4::BaseErrorListener {
public:
  bool HasError = false;
  std::string Message;
  size_t TokenStart = 0, TokenStop = 0; ///< char indices in the statement
  bool AtEnd = false;

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
    Message = describe(Exp, Off);
  }

private:
  static bool has(const antlr4::misc::IntervalSet &S, ssize_t Type) {
    return S.contains(size_t(Type));
  }
  static std::string describe(const antlr4::misc::IntervalSet &Exp,
                              antlr4::Token *Off) {
    std::string Got = Off->getType() == antlr4::Token::EOF
                          ? std::string("end of statement")
                          : "'" + Off->getText() + "'";
    if (Off->getType() == PtxStatementLexer::OTHER) {
      unsigned char C = Off->getText().empty()
                            ? 0
                            : static_cast<unsigned char>(Off->getText()[0]);
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

struct StatementParser::Impl {
  Module &M;
  DiagnosticEngine &Diags;
  antlr4::ANTLRInputStream Input;
  PtxStatementLexer Lexer;
  antlr4::CommonTokenStream Tokens;
  PtxStatementParser Parser;
  ErrorCollector Errors;
  uint32_t Base = 0;   ///< byte offset of the statement in the buffer
  std::string Scratch; ///< the statement text, ASCII-only

  Impl(Module &M, DiagnosticEngine &Diags)
      : M(M), Diags(Diags), Input(std::string()), Lexer(&Input),
        Tokens(&Lexer), Parser(&Tokens) {
    Lexer.removeErrorListeners();
    Parser.removeErrorListeners();
    Lexer.addErrorListener(&Errors);
    Parser.addErrorListener(&Errors);
    // Statements are small and the grammar is SLL: skip full-context retries.
    Parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::SLL);
  }

  // --- ranges ---------------------------------------------------------------
  SourceRange range(antlr4::Token *A, antlr4::Token *B) const {
    if (!A || !B)
      return {Base, Base};
    return {Base + uint32_t(A->getStartIndex()),
            Base + uint32_t(B->getStopIndex() + 1)};
  }
  SourceRange range(antlr4::ParserRuleContext *C) const {
    return range(C->getStart(), C->getStop());
  }
  SourceRange range(antlr4::tree::TerminalNode *T) const {
    return range(T->getSymbol(), T->getSymbol());
  }
  std::string_view text(SourceRange R) const {
    return M.Text.substr(R.Begin, R.End - R.Begin);
  }

  // --- running the parser ----------------------------------------------------
  void reset(std::string_view StatementText, uint32_t Offset) {
    Base = Offset;
    Scratch.assign(StatementText);
    // ANTLR indexes code points, not bytes: keep the text one byte per
    // character so token offsets are byte offsets. Non-ASCII bytes are only
    // legal inside comments and strings; elsewhere DEL lexes as OTHER and
    // becomes a syntax error at the right column.
    for (char &C : Scratch)
      if (static_cast<unsigned char>(C) >= 0x80)
        C = 0x7f;
    Parser.getTreeTracker().reset(); // free the previous statement's tree
    Input.load(Scratch);
    Lexer.setInputStream(&Input);
    Tokens.setTokenSource(&Lexer);
    Parser.setTokenStream(&Tokens);
    Errors = ErrorCollector();
  }

  bool reportIfError() {
    if (!Errors.HasError)
      return false;
    uint32_t B = Base + uint32_t(Errors.TokenStart);
    uint32_t E = Base + uint32_t(Errors.TokenStop + 1);
    if (Errors.AtEnd || E < B)
      E = B;
    if (B > M.Text.size())
      B = E = uint32_t(M.Text.size());
    DiagBuilder(Diags, Severity::Error,
                std::string(ruleInfo(rules::SyntaxError).Code), {B, E},
                Errors.Message);
    return true;
  }

  // --- AST building ----------------------------------------------------------
  Operand buildExpr(PtxStatementParser::ExprContext *C);
  Operand buildOperand(PtxStatementParser::OperandContext *C);
  void buildAddress(PtxStatementParser::AddressBodyContext *C, Operand &Out);
  bool parseInstruction(Statement &S);
  bool parseDirective(Statement &S);
  bool parseDeclaration(Statement &S);
  bool parseFunctionHeader(Statement &S);
  Symbol declareFrom(const std::vector<PtxStatementParser::DeclSpecifierContext *> &Specs,
                     PtxStatementParser::DeclaratorContext *D, int32_t Function);
};

Operand StatementParser::Impl::buildExpr(PtxStatementParser::ExprContext *C) {
  Operand O;
  O.Range = range(C);
  O.Text = text(O.Range);
  if (auto *I = dynamic_cast<PtxStatementParser::IntExprContext *>(C)) {
    uint64_t V;
    bool Overflow;
    O.Kind = OperandKind::Immediate;
    if (parseIntegerLiteral(I->INT()->getText(), V, Overflow)) {
      O.HasValue = !Overflow;
      O.Overflow = Overflow;
      O.Value = int64_t(V);
    }
    return O;
  }
  if (auto *N = dynamic_cast<PtxStatementParser::NegExprContext *>(C)) {
    Operand Inner = buildExpr(N->expr());
    if (Inner.Kind == OperandKind::Immediate) {
      Inner.Value = int64_t(0 - uint64_t(Inner.Value));
      Inner.Range = O.Range;
      Inner.Text = O.Text;
      return Inner;
    }
    if (Inner.Kind == OperandKind::FloatImm) {
      Inner.Range = O.Range;
      Inner.Text = O.Text;
      return Inner;
    }
    O.Kind = OperandKind::Expr;
    return O;
  }
  if (dynamic_cast<PtxStatementParser::FloatExprContext *>(C)) {
    O.Kind = OperandKind::FloatImm;
    return O;
  }
  if (auto *N = dynamic_cast<PtxStatementParser::NameExprContext *>(C)) {
    SourceRange NR = range(N->IDENT());
    O.Name = text(NR);
    if (N->MODIFIER())
      O.Component = text(range(N->MODIFIER()));
    if (O.Name == "_")
      O.Kind = OperandKind::Sink;
    else if (O.Name[0] == '%')
      O.Kind = OperandKind::Register;
    else
      O.Kind = OperandKind::Symbol; // the symbol table may say it is a .reg
    return O;
  }
  if (auto *P = dynamic_cast<PtxStatementParser::ParenExprContext *>(C)) {
    Operand Inner = buildExpr(P->expr());
    if (Inner.Kind == OperandKind::Immediate) {
      Inner.Range = O.Range;
      Inner.Text = O.Text;
      return Inner;
    }
  }
  O.Kind = OperandKind::Expr;
  return O;
}

/// [base], [base+imm], [base+-imm], [imm], [tensorMap, {c0, ...}]
void StatementParser::Impl::buildAddress(PtxStatementParser::AddressBodyContext *C,
                                         Operand &Out) {
  PtxStatementParser::ExprContext *E = C->expr();
  auto *Bin = dynamic_cast<PtxStatementParser::BinaryExprContext *>(E);
  bool Split = false;
  if (Bin && (Bin->op->getType() == PtxStatementLexer::PLUS ||
              Bin->op->getType() == PtxStatementLexer::MINUS)) {
    Operand L = buildExpr(Bin->expr(0));
    Operand R = buildExpr(Bin->expr(1));
    if ((L.Kind == OperandKind::Register || L.Kind == OperandKind::Symbol) &&
        R.Kind == OperandKind::Immediate && R.HasValue) {
      Out.HasOffset = true;
      Out.Offset = Bin->op->getType() == PtxStatementLexer::MINUS
                       ? int64_t(0 - uint64_t(R.Value))
                       : R.Value;
      Out.OffsetRange = R.Range;
      Out.Elements.push_back(L);
      Split = true;
    }
  }
  if (!Split)
    Out.Elements.push_back(buildExpr(E));
  for (PtxStatementParser::OperandContext *Rest : C->operand())
    Out.Elements.push_back(buildOperand(Rest));
}

Operand StatementParser::Impl::buildOperand(PtxStatementParser::OperandContext *C) {
  if (auto *E = dynamic_cast<PtxStatementParser::ExprOperandContext *>(C))
    return buildExpr(E->expr());
  Operand O;
  O.Range = range(C);
  O.Text = text(O.Range);
  if (auto *A = dynamic_cast<PtxStatementParser::AddressOperandContext *>(C)) {
    O.Kind = OperandKind::Address;
    buildAddress(A->addressBody(), O);
  } else if (auto *V = dynamic_cast<PtxStatementParser::VectorOperandContext *>(C)) {
    O.Kind = OperandKind::Vector;
    if (V->vectorElements())
      for (auto *El : V->vectorElements()->operand())
        O.Elements.push_back(buildOperand(El));
  } else if (auto *Tu = dynamic_cast<PtxStatementParser::TupleOperandContext *>(C)) {
    // "(param0, param1)" of call: a parenthesised operand list.
    O.Kind = OperandKind::Vector;
    for (auto *El : Tu->operand())
      O.Elements.push_back(buildOperand(El));
  } else if (auto *N = dynamic_cast<PtxStatementParser::NegatedOperandContext *>(C)) {
    O.Name = text(range(N->IDENT()));
    O.Kind = O.Name[0] == '%' ? OperandKind::Register : OperandKind::Symbol;
    O.Negated = true;
  }
  return O;
}

bool StatementParser::Impl::parseInstruction(Statement &S) {
  auto *Tree = Parser.instructionStatement();
  if (reportIfError())
    return false;
  Instruction I;
  I.Range = S.Range;
  if (auto *G = Tree->guard()) {
    Operand Guard;
    Guard.Range = range(G);
    Guard.Text = text(Guard.Range);
    Guard.Name = text(range(G->IDENT()));
    Guard.Kind = OperandKind::Register;
    Guard.Negated = G->BANG() != nullptr;
    I.Guard = Guard;
  }
  I.OpcodeRange = range(Tree->opcode, Tree->opcode);
  I.Opcode = text(I.OpcodeRange);
  for (auto *Mod : Tree->modifier()) {
    SourceRange R = range(Mod);
    I.Modifiers.push_back({text(R), R});
  }
  if (auto *Ops = Tree->operandList())
    for (auto *Op : Ops->operand())
      I.Operands.push_back(buildOperand(Op));
  S.ParsedIndex = int32_t(M.Instructions.size());
  M.Instructions.push_back(std::move(I));
  return true;
}

bool StatementParser::Impl::parseDirective(Statement &S) {
  auto *Tree = Parser.directiveStatement();
  if (reportIfError())
    return false;
  ModuleDirectives &D = M.Directives;
  if (auto *V = dynamic_cast<PtxStatementParser::VersionDirectiveContext *>(Tree)) {
    std::string_view VT = text(range(V->version, V->version));
    size_t Dot = VT.find('.');
    unsigned Major = 0, Minor = 0;
    auto R1 = std::from_chars(VT.data(), VT.data() + Dot, Major);
    auto R2 = std::from_chars(VT.data() + Dot + 1, VT.data() + VT.size(), Minor);
    if (Dot == std::string_view::npos || R1.ec != std::errc() ||
        R2.ec != std::errc() || R2.ptr != VT.data() + VT.size()) {
      DiagBuilder(Diags, Severity::Error,
                  std::string(ruleInfo(rules::SyntaxError).Code),
                  range(V->version, V->version),
                  "malformed .version; expected MAJOR.MINOR such as 8.0");
      return false;
    }
    D.HasVersion = true;
    D.VersionMajor = Major;
    D.VersionMinor = Minor;
    D.VersionRange = range(V->version, V->version);
  } else if (auto *T = dynamic_cast<PtxStatementParser::TargetDirectiveContext *>(Tree)) {
    for (auto *N : T->targetName())
      D.Targets.push_back(text(range(N)));
    D.TargetRange = {range(T->targetName().front()).Begin,
                     range(T->targetName().back()).End};
  } else if (auto *A = dynamic_cast<PtxStatementParser::AddressSizeDirectiveContext *>(Tree)) {
    uint64_t V;
    bool Overflow;
    if (parseIntegerLiteral(A->size->getText(), V, Overflow) && !Overflow)
      D.AddressSize = unsigned(V);
  }
  return true;
}

Symbol StatementParser::Impl::declareFrom(
    const std::vector<PtxStatementParser::DeclSpecifierContext *> &Specs,
    PtxStatementParser::DeclaratorContext *Dc, int32_t Function) {
  Symbol Sym;
  Sym.Function = Function;
  for (auto *Spec : Specs) {
    std::string_view W = text(range(Spec->MODIFIER()));
    uint64_t N = 0;
    bool Overflow = false;
    if (Spec->INT())
      parseIntegerLiteral(Spec->INT()->getText(), N, Overflow);
    if (W == ".reg")
      Sym.Space = StateSpace::Reg;
    else if (W == ".shared" || W.substr(0, 9) == ".shared::")
      Sym.Space = StateSpace::Shared;
    else if (W == ".global")
      Sym.Space = StateSpace::Global;
    else if (W == ".const")
      Sym.Space = StateSpace::Const;
    else if (W == ".local")
      Sym.Space = StateSpace::Local;
    else if (W == ".param")
      Sym.Space = StateSpace::Param;
    else if (W == ".tex")
      Sym.Space = StateSpace::Tex;
    else if (W == ".extern")
      Sym.Extern = true;
    else if (W == ".align")
      Sym.Align = unsigned(N);
    else if (W == ".v2" || W == ".v4" || W == ".v8")
      Sym.VectorWidth = unsigned(W[2] - '0');
    else if (W == ".visible" || W == ".weak" || W == ".common" || W == ".ptr")
      ; // linkage and pointer attributes do not change what the name is
    else
      Sym.Type = W;
  }
  Sym.Range = range(Dc);
  Sym.Name = std::string(text(range(Dc->IDENT())));
  if (Dc->LT() && Dc->INT().size() >= 1) {
    uint64_t N = 0;
    bool Overflow = false;
    parseIntegerLiteral(Dc->INT(0)->getText(), N, Overflow);
    Sym.RangeCount = Overflow ? UINT32_MAX : unsigned(std::min<uint64_t>(N, UINT32_MAX));
  }
  if (!Dc->LBRACK().empty()) {
    Sym.IsArray = true;
    size_t IntIndex = Dc->LT() ? 1 : 0;
    if (Dc->INT().size() > IntIndex) {
      uint64_t N = 0;
      bool Overflow = false;
      parseIntegerLiteral(Dc->INT(IntIndex)->getText(), N, Overflow);
      Sym.ArraySize = N;
    }
  }
  return Sym;
}

bool StatementParser::Impl::parseDeclaration(Statement &S) {
  auto *Tree = Parser.declarationStatement();
  if (reportIfError())
    return false;
  auto Specs = Tree->declSpecifier();
  for (auto *Dc : Tree->declarator())
    M.Symbols.push_back(declareFrom(Specs, Dc, S.Function));
  S.ParsedIndex = 0;
  return true;
}

bool StatementParser::Impl::parseFunctionHeader(Statement &S) {
  auto *Tree = Parser.functionHeader();
  if (reportIfError())
    return false;
  // Find the Function this header opened.
  uint32_t Index = uint32_t(&S - M.Statements.data());
  Function *F = nullptr;
  for (size_t K = M.Functions.size(); K-- > 0;)
    if (M.Functions[K].HeaderStatement == Index) {
      F = &M.Functions[K];
      break;
    }
  if (!F)
    return false;
  F->IsEntry = Tree->ENTRY() != nullptr;
  F->NameRange = range(Tree->name, Tree->name);
  F->Name = text(F->NameRange);
  int32_t FIndex = int32_t(F - M.Functions.data());
  for (auto *PL : Tree->paramList())
    for (auto *Prm : PL->param()) {
      Symbol Sym = declareFrom(Prm->declSpecifier(), Prm->declarator(), FIndex);
      if (Sym.Space == StateSpace::None)
        Sym.Space = StateSpace::Param;
      M.Symbols.push_back(std::move(Sym));
    }
  for (auto *Attr : Tree->functionAttribute()) {
    std::string_view W = text(range(Attr->MODIFIER()));
    if (W == ".explicitcluster")
      F->ExplicitCluster = true;
    if (W == ".reqnctapercluster") {
      auto Ints = Attr->INT();
      for (size_t K = 0; K < Ints.size() && K < 3; ++K) {
        uint64_t V = 0;
        bool Overflow = false;
        parseIntegerLiteral(Ints[K]->getText(), V, Overflow);
        F->ClusterDims[K] = unsigned(std::min<uint64_t>(V, 1u << 20));
      }
    }
  }
  return true;
}

StatementParser::StatementParser(Module &M, DiagnosticEngine &Diags)
    : I(std::make_unique<Impl>(M, Diags)) {}
StatementParser::~StatementParser() = default;

bool StatementParser::parse(uint32_t Index) {
  Statement &S = I->M.Statements[Index];
  std::string_view Text = I->M.Text.substr(S.Range.Begin, S.Range.End - S.Range.Begin);
  // Large initialisers (".global .b8 data[N] = {...}") are not parsed: the
  // declaration ends at '=' for the parser's purposes.
  std::string Owned;
  if (S.Kind == StatementKind::Declaration) {
    size_t Eq = Text.find('=');
    if (Eq != std::string_view::npos) {
      Owned.assign(Text.substr(0, Eq));
      Owned += ';';
      Text = Owned;
    }
  }
  I->reset(Text, S.Range.Begin);
  try {
    switch (S.Kind) {
    case StatementKind::Instruction:
      return I->parseInstruction(S);
    case StatementKind::Directive:
      return I->parseDirective(S);
    case StatementKind::Declaration:
      return I->parseDeclaration(S);
    case StatementKind::FunctionHeader:
      return I->parseFunctionHeader(S);
    default:
      return false;
    }
  } catch (const std::exception &E) {
    // The runtime should not throw with the default error strategy; if it
    // does, report it as a syntax error rather than crash.
    DiagBuilder(I->Diags, Severity::Error,
                std::string(ruleInfo(rules::SyntaxError).Code), S.Range,
                std::string("could not parse statement: ") + E.what());
    return false;
  }
}

} // namespace ptxlint
